package project

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gophercloud/gophercloud/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

func ptr[T any](v T) *T { return &v }

func TestObserve(t *testing.T) {
	base := project{ID: "p1", Name: "team-a", DomainID: "d1", ParentID: "d1", Description: "hand", Enabled: true, Tags: []string{"b", "a"}}
	cases := map[string]struct {
		fp         v1alpha1.ProjectParameters
		p          project
		wantUp     bool
		wantLI     bool
		wantFP     v1alpha1.ProjectParameters
		wantAtProv v1alpha1.ProjectObservation
	}{
		"OnlyNameAndDomainSetIsUpToDateAndLateInitializesEnabled": {
			fp:         v1alpha1.ProjectParameters{Name: "team-a", DomainID: ptr("d1")},
			p:          base,
			wantUp:     true,
			wantLI:     true,
			wantFP:     v1alpha1.ProjectParameters{Name: "team-a", DomainID: ptr("d1"), Enabled: ptr(true)},
			wantAtProv: v1alpha1.ProjectObservation{ID: "p1", Name: "team-a", DomainID: "d1", ParentID: "d1", Description: "hand", Enabled: true, Tags: []string{"a", "b"}, Provenance: identityv1alpha1.Owned},
		},
		"DescriptionDiffers": {
			fp:     v1alpha1.ProjectParameters{Name: "team-a", DomainID: ptr("d1"), Description: ptr("spec"), Enabled: ptr(true)},
			p:      base,
			wantUp: false,
			wantFP: v1alpha1.ProjectParameters{Name: "team-a", DomainID: ptr("d1"), Description: ptr("spec"), Enabled: ptr(true)},
		},
		"EnabledSetAndDiffers": {
			fp:     v1alpha1.ProjectParameters{Name: "team-a", DomainID: ptr("d1"), Enabled: ptr(false)},
			p:      base,
			wantUp: false,
			wantFP: v1alpha1.ProjectParameters{Name: "team-a", DomainID: ptr("d1"), Enabled: ptr(false)},
		},
		"TagsCompareAsSets": {
			fp:     v1alpha1.ProjectParameters{Name: "team-a", DomainID: ptr("d1"), Enabled: ptr(true), Tags: &[]string{"a", "b"}},
			p:      base,
			wantUp: true,
			wantFP: v1alpha1.ProjectParameters{Name: "team-a", DomainID: ptr("d1"), Enabled: ptr(true), Tags: &[]string{"a", "b"}},
		},
		"EmptyTagsManageTagsAway": {
			fp:     v1alpha1.ProjectParameters{Name: "team-a", DomainID: ptr("d1"), Enabled: ptr(true), Tags: &[]string{}},
			p:      base,
			wantUp: false,
			wantFP: v1alpha1.ProjectParameters{Name: "team-a", DomainID: ptr("d1"), Enabled: ptr(true), Tags: &[]string{}},
		},
		"EmptyTagsMatchNoTags": {
			fp:     v1alpha1.ProjectParameters{Name: "team-a", DomainID: ptr("d1"), Enabled: ptr(true), Tags: &[]string{}},
			p:      project{ID: "p1", Name: "team-a", DomainID: "d1", ParentID: "d1", Enabled: true},
			wantUp: true,
			wantFP: v1alpha1.ProjectParameters{Name: "team-a", DomainID: ptr("d1"), Enabled: ptr(true), Tags: &[]string{}},
		},
		"UnsetTagsAreNotManaged": {
			fp:     v1alpha1.ProjectParameters{Name: "team-a", DomainID: ptr("d1"), Enabled: ptr(true)},
			p:      base,
			wantUp: true,
			wantFP: v1alpha1.ProjectParameters{Name: "team-a", DomainID: ptr("d1"), Enabled: ptr(true)},
		},
		"RenamedInKeystone": {
			fp:     v1alpha1.ProjectParameters{Name: "team-b", DomainID: ptr("d1"), Enabled: ptr(true)},
			p:      base,
			wantUp: false,
			wantFP: v1alpha1.ProjectParameters{Name: "team-b", DomainID: ptr("d1"), Enabled: ptr(true)},
		},
		"OtherDomainIsNotUpToDate": {
			fp:     v1alpha1.ProjectParameters{Name: "team-a", DomainID: ptr("d2"), Enabled: ptr(true)},
			p:      base,
			wantUp: false,
			wantFP: v1alpha1.ProjectParameters{Name: "team-a", DomainID: ptr("d2"), Enabled: ptr(true)},
		},
		"UnsetParentIsNotCompared": {
			fp:     v1alpha1.ProjectParameters{Name: "team-a", DomainID: ptr("d1"), Enabled: ptr(true)},
			p:      project{ID: "p1", Name: "team-a", DomainID: "d1", ParentID: "p0", Enabled: true},
			wantUp: true,
			wantFP: v1alpha1.ProjectParameters{Name: "team-a", DomainID: ptr("d1"), Enabled: ptr(true)},
		},
		"OtherParentIsNotUpToDate": {
			fp:     v1alpha1.ProjectParameters{Name: "team-a", DomainID: ptr("d1"), ParentID: ptr("p9"), Enabled: ptr(true)},
			p:      project{ID: "p1", Name: "team-a", DomainID: "d1", ParentID: "p0", Enabled: true},
			wantUp: false,
			wantFP: v1alpha1.ProjectParameters{Name: "team-a", DomainID: ptr("d1"), ParentID: ptr("p9"), Enabled: ptr(true)},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			mg := &v1alpha1.Project{Spec: v1alpha1.ProjectSpec{ForProvider: tc.fp}}
			got := (&external{}).Observe(mg, tc.p, identityv1alpha1.Owned)
			if got.UpToDate != tc.wantUp {
				t.Errorf("UpToDate: got %v, want %v (diff %s)", got.UpToDate, tc.wantUp, got.Diff)
			}
			if got.UpToDate != (got.Diff == "") {
				t.Errorf("UpToDate %v disagrees with diff %q", got.UpToDate, got.Diff)
			}
			if got.LateInitialized != tc.wantLI {
				t.Errorf("LateInitialized: got %v, want %v", got.LateInitialized, tc.wantLI)
			}
			if diff := cmp.Diff(tc.wantFP, mg.Spec.ForProvider); diff != "" {
				t.Errorf("spec.forProvider after Observe (-want +got):\n%s", diff)
			}
			if tc.wantAtProv.ID != "" {
				if diff := cmp.Diff(tc.wantAtProv, mg.Status.AtProvider); diff != "" {
					t.Errorf("status.atProvider (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestDesiredBodies(t *testing.T) {
	fp := v1alpha1.ProjectParameters{Name: "team-a", DomainID: ptr("d1"), ParentID: ptr("p0"), Tags: &[]string{"z", "a"}}
	want := managedFields{Name: "team-a", DomainID: "d1", ParentID: "p0", Tags: &[]string{"a", "z"}}
	if diff := cmp.Diff(want, desired(&fp)); diff != "" {
		t.Errorf("desired (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"z", "a"}, *fp.Tags); diff != "" {
		t.Errorf("desired reordered the spec's tags (-want +got):\n%s", diff)
	}
}

func TestImmovable(t *testing.T) {
	p := project{ID: "p1", Name: "team-a", DomainID: "d1", ParentID: "p0"}
	cases := map[string]struct {
		fp   v1alpha1.ProjectParameters
		want string
	}{
		"Same":          {fp: v1alpha1.ProjectParameters{DomainID: ptr("d1"), ParentID: ptr("p0")}},
		"ParentUnset":   {fp: v1alpha1.ProjectParameters{DomainID: ptr("d1")}},
		"OtherDomain":   {fp: v1alpha1.ProjectParameters{DomainID: ptr("d2")}, want: `Keystone project "team-a" (ID p1) has domain d1 but spec.forProvider.domainId is d2`},
		"OtherParent":   {fp: v1alpha1.ProjectParameters{DomainID: ptr("d1"), ParentID: ptr("p9")}, want: `has parent p0 but spec.forProvider.parentId is p9`},
		"DomainChecked": {fp: v1alpha1.ProjectParameters{DomainID: ptr("d2"), ParentID: ptr("p9")}, want: "Set spec.forProvider.domainId back to d1"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			err := immovable(tc.fp, p)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// fakeKeystone answers DELETE /v3/projects/{id} with status and lists children.
func fakeKeystone(t *testing.T, status int, children string) *gophercloud.ServiceClient {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == http.MethodDelete && r.URL.Path == "/v3/projects/p1":
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			if status >= 400 {
				_, _ = w.Write([]byte(`{"error":{"code":403,"message":"Cannot delete the project p1 since it is not a leaf in the hierarchy.","title":"Forbidden"}}`))
			}
		case r.Method == http.MethodGet && r.URL.Path == "/v3/projects" && r.URL.Query().Get("parent_id") == "p1":
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"projects":` + children + `,"links":{}}`))
		default:
			t.Errorf("unexpected request %s %s", r.Method, r.URL)
			w.WriteHeader(http.StatusTeapot)
		}
	}))
	t.Cleanup(srv.Close)
	return &gophercloud.ServiceClient{ProviderClient: &gophercloud.ProviderClient{HTTPClient: *srv.Client()}, Endpoint: srv.URL + "/v3/"}
}

func TestDelete(t *testing.T) {
	cases := map[string]struct {
		status   int
		children string
		want     []string
	}{
		"Leaf":     {status: http.StatusNoContent, children: `[]`},
		"NotFound": {status: http.StatusNotFound, children: `[]`},
		"NonLeaf": {status: http.StatusForbidden, children: `[{"id":"c1","name":"child-1"},{"id":"c2","name":"child-2"}]`,
			want: []string{`cannot delete Keystone project "team-a" (ID p1)`, `child projects "child-1" (ID c1), "child-2" (ID c2)`, "Delete the children first"}},
		"ManyChildren": {status: http.StatusForbidden,
			children: `[{"id":"1","name":"a"},{"id":"2","name":"b"},{"id":"3","name":"c"},{"id":"4","name":"d"},{"id":"5","name":"e"},{"id":"6","name":"f"},{"id":"7","name":"g"}]`,
			want:     []string{`"e" (ID 5), and 2 more`}},
		"ForbiddenForAnotherReason": {status: http.StatusForbidden, children: `[]`,
			want: []string{`cannot delete Keystone project "team-a" (ID p1)`, "Forbidden (403)"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e := &external{sc: fakeKeystone(t, tc.status, tc.children)}
			err := e.Delete(context.Background(), &v1alpha1.Project{}, project{ID: "p1", Name: "team-a"})
			if len(tc.want) == 0 {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("expected an error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

// A resource being deleted resolves no references: without a domain there is nothing to find,
// and its deletion must not hang on the lookup.
func TestFindWithoutDomain(t *testing.T) {
	mg := &v1alpha1.Project{Spec: v1alpha1.ProjectSpec{ForProvider: v1alpha1.ProjectParameters{Name: "x"}}}
	if _, err := (&external{}).Find(context.Background(), mg); err == nil || !strings.Contains(err.Error(), "not known yet") {
		t.Errorf("Find: got %v, want the unresolved-domain error", err)
	}
	mg.SetDeletionTimestamp(&metav1.Time{Time: time.Now()})
	found, err := (&external{}).Find(context.Background(), mg)
	if err != nil || len(found) != 0 {
		t.Errorf("Find while deleting: got %v, %v; want nothing", found, err)
	}
}
