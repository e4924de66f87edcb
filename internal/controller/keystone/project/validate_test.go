package project

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gophercloud/gophercloud/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// A spec that bypassed admission (stored under an older CRD) is refused before any request.
func TestWritesRefuseInvalidSpec(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("unexpected request %s %s: an invalid spec must not reach Keystone", r.Method, r.URL)
		w.WriteHeader(http.StatusTeapot)
	}))
	t.Cleanup(srv.Close)
	e := &external{sc: &gophercloud.ServiceClient{ProviderClient: &gophercloud.ProviderClient{HTTPClient: *srv.Client()}, Endpoint: srv.URL + "/v3/"}}
	ptr := func(s string) *string { return &s }
	cases := map[string]struct {
		fp   v1alpha1.ProjectParameters
		want string
	}{
		"NameNewline":   {v1alpha1.ProjectParameters{Name: "a\nb", DomainID: ptr("d1")}, `spec.forProvider.name "a\nb" contains control characters`},
		"DomainIDSlash": {v1alpha1.ProjectParameters{Name: "x", DomainID: ptr("a/b")}, `spec.forProvider.domainId "a/b" is not a Keystone ID`},
		"ParentIDDots":  {v1alpha1.ProjectParameters{Name: "x", DomainID: ptr("d1"), ParentID: ptr("..")}, "spec.forProvider.parentId"},
		"TagComma":      {v1alpha1.ProjectParameters{Name: "x", DomainID: ptr("d1"), Tags: &[]string{"ok", "a,b"}}, "spec.forProvider.tags[1]"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			mg := &v1alpha1.Project{ObjectMeta: metav1.ObjectMeta{Name: "team-a"}, Spec: v1alpha1.ProjectSpec{ForProvider: tc.fp}}
			_, _, cerr := e.Create(context.Background(), mg, provenance.Marker{})
			_, uerr := e.Update(context.Background(), mg, project{ID: "p1", Name: "x", DomainID: "d1"}, provenance.Marker{})
			for op, err := range map[string]error{"Create": cerr, "Update": uerr} {
				if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "refusing to write Keystone project for team-a") {
					t.Errorf("%s: got %v; want an error naming the resource and containing %q", op, err, tc.want)
				}
			}
		})
	}
}
