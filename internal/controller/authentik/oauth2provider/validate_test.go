package oauth2provider

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/authentiktest"
)

// A spec that bypassed admission (stored under an older CRD) is refused before authentik is
// written to, on create and on update.
func TestWritesRefuseInvalidRedirectURIs(t *testing.T) {
	cases := map[string]struct {
		uri  v1alpha1.RedirectURI
		want string
	}{
		"Javascript":     {v1alpha1.RedirectURI{URL: "javascript:alert(1)"}, `spec.forProvider.redirectUris[0].url "javascript:alert(1)" uses a scheme a browser would run`},
		"Data":           {v1alpha1.RedirectURI{URL: "data:text/html,x", MatchingMode: "strict"}, "spec.forProvider.redirectUris[0].url"},
		"RegexAnyScheme": {v1alpha1.RedirectURI{URL: ".*", MatchingMode: "regex"}, "does not start with its scheme"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e := authentiktest.New(t)
			bad := newMR("bad-"+strings.ToLower(name), func(mg *v1alpha1.OAuth2Provider) { mg.Spec.ForProvider.RedirectURIs = []v1alpha1.RedirectURI{tc.uri} })
			if _, err := kind.Reconcile(e, bad); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("create: got %v; want an error containing %q", err, tc.want)
			}
			if diff := cmp.Diff(map[string]int{}, e.Writes()); diff != "" {
				t.Errorf("an invalid spec was written to authentik on create: -want +got:\n%s", diff)
			}

			mg := newMR("ok-" + strings.ToLower(name))
			reconcile(t, e, mg)
			before := e.Writes()
			mg.Spec.ForProvider.RedirectURIs = []v1alpha1.RedirectURI{tc.uri}
			if _, err := kind.Reconcile(e, mg); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("update: got %v; want an error containing %q", err, tc.want)
			}
			if diff := cmp.Diff(before, e.Writes()); diff != "" {
				t.Errorf("an invalid spec was written to authentik on update: -want +got:\n%s", diff)
			}
		})
	}
}
