package project

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/test"

	"github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	nsv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone/keystonetest"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
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

var self = provenance.Marker{Installation: "i1", Resource: "Project.keystone.identity.crossplane.io/p", Origin: provenance.OriginCreated}

type op = keystonetest.Op[mr, project]

func newDriver(a keystone.API) adoption.Driver[mr, project] {
	return sharedDriver(clients.SharedReadOptions{})(a)
}

func find(mg mr) op              { return keystonetest.Find[mr, project](mg) }
func create(mg mr) op            { return keystonetest.Create[mr, project](mg, self) }
func update(mg mr, p project) op { return keystonetest.Update(mg, p, self) }
func del(p project) op           { return keystonetest.Delete[mr, project](&v1alpha1.Project{}, p) }

func TestCalls(t *testing.T) {
	teamA := func() mr {
		return &v1alpha1.Project{Spec: v1alpha1.ProjectSpec{ForProvider: v1alpha1.ProjectParameters{Name: "team-a", DomainID: ptr("d1"), Enabled: ptr(true)}}}
	}
	nsTeamA := func() mr {
		return &nsv1alpha1.Project{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "p"},
			Spec: nsv1alpha1.ProjectSpec{ForProvider: v1alpha1.ProjectParameters{Name: "team-a", DomainID: ptr("d1"), Enabled: ptr(true)}}}
	}
	p1 := project{ID: "p1", Name: "team-a", DomainID: "d1", ParentID: "d1", Enabled: true}
	written := `{"project":{"name":"team-a","domain_id":"d1","enabled":true,"crossplane_provenance":"` + self.Encode() + `"}}`
	boom := errors.New("connection reset by peer")
	nonLeaf := keystonetest.Answer{Status: http.StatusForbidden, Body: `{"error": {"message": "Cannot delete the project p1 since it is not a leaf in the hierarchy."}}`}
	children := func(list string) map[string]keystonetest.Answer {
		return map[string]keystonetest.Answer{"DELETE projects/p1": nonLeaf, "GET projects?parent_id=p1": {Body: `{"projects": ` + list + `}`}}
	}
	cases := map[string]struct {
		answers map[string]keystonetest.Answer
		call    op
		want    keystonetest.Result
	}{
		"FindKeepsExactMatchesInTheDomain": {
			answers: map[string]keystonetest.Answer{"GET projects?domain_id=d1&name=team-a": {Body: `{"projects": [
				{"id": "p1", "name": "team-a", "domain_id": "d1"}, {"id": "p2", "name": "Team-A", "domain_id": "d1"}]}`}},
			call: find(teamA()),
			want: keystonetest.Result{Value: []string{"p1"}, Calls: []string{"GET projects?domain_id=d1&name=team-a"}},
		},
		"FindFails": {
			answers: map[string]keystonetest.Answer{"GET projects?domain_id=d1&name=team-a": {Err: boom}},
			call:    find(teamA()),
			want:    keystonetest.Result{Value: []string(nil), Err: boom, Calls: []string{"GET projects?domain_id=d1&name=team-a"}},
		},
		"CreateSendsTheSpecAndTheMarker": {
			answers: map[string]keystonetest.Answer{"POST projects": {Status: http.StatusCreated, Body: `{"project": {"id": "p1"}}`}},
			call:    create(teamA()),
			want:    keystonetest.Result{Value: "p1", Calls: []string{"POST projects " + written}},
		},
		"NamespacedCreateSendsTheSameBody": {
			answers: map[string]keystonetest.Answer{"POST projects": {Status: http.StatusCreated, Body: `{"project": {"id": "p1"}}`}},
			call:    create(nsTeamA()),
			want:    keystonetest.Result{Value: "p1", Calls: []string{"POST projects " + written}},
		},
		"NamespacedFindKeepsExactMatchesInTheDomain": {
			answers: map[string]keystonetest.Answer{"GET projects?domain_id=d1&name=team-a": {Body: `{"projects": [
				{"id": "p1", "name": "team-a", "domain_id": "d1"}, {"id": "p2", "name": "team-a", "domain_id": "d2"}]}`}},
			call: find(nsTeamA()),
			want: keystonetest.Result{Value: []string{"p1"}, Calls: []string{"GET projects?domain_id=d1&name=team-a"}},
		},
		"CreateRefused": {
			answers: map[string]keystonetest.Answer{"POST projects": keystonetest.Conflict},
			call:    create(teamA()),
			want: keystonetest.Result{Value: "", Calls: []string{"POST projects " + written},
				Err: keystone.Wrap(keystonetest.Conflict.Failure("POST", "projects"), errCreate, "team-a")},
		},
		"UpdateNeverSendsTheDomain": {
			answers: map[string]keystonetest.Answer{"PATCH projects/p1": {}},
			call:    update(teamA(), p1),
			want:    keystonetest.Result{Calls: []string{`PATCH projects/p1 {"project":{"name":"team-a","enabled":true,"crossplane_provenance":"` + self.Encode() + `"}}`}},
		},
		"UpdateFails": {
			answers: map[string]keystonetest.Answer{"PATCH projects/p1": keystonetest.ServerError},
			call:    update(teamA(), p1),
			want: keystonetest.Result{Calls: []string{`PATCH projects/p1 {"project":{"name":"team-a","enabled":true,"crossplane_provenance":"` + self.Encode() + `"}}`},
				Err: keystone.Wrap(keystonetest.ServerError.Failure("PATCH", "projects/p1"), errUpdate, "team-a", "p1")},
		},
		"DeleteLeaf": {
			answers: map[string]keystonetest.Answer{"DELETE projects/p1": {Status: http.StatusNoContent}},
			call:    del(p1),
			want:    keystonetest.Result{Calls: []string{"DELETE projects/p1"}},
		},
		"DeleteGone": {
			answers: map[string]keystonetest.Answer{"DELETE projects/p1": keystonetest.NotFound},
			call:    del(p1),
			want:    keystonetest.Result{Calls: []string{"DELETE projects/p1"}},
		},
		"DeleteNonLeafNamesTheChildren": {
			answers: children(`[{"id": "c1", "name": "child-1"}, {"id": "c2", "name": "child-2"}]`),
			call:    del(p1),
			want: keystonetest.Result{Calls: []string{"DELETE projects/p1", "GET projects?parent_id=p1"},
				Err: fmt.Errorf(errNonLeaf, "team-a", "p1", `"child-1" (ID c1), "child-2" (ID c2)`)},
		},
		"DeleteNonLeafNamesFiveChildren": {
			answers: children(`[{"id": "1", "name": "a"}, {"id": "2", "name": "b"}, {"id": "3", "name": "c"}, {"id": "4", "name": "d"},
				{"id": "5", "name": "e"}, {"id": "6", "name": "f"}, {"id": "7", "name": "g"}]`),
			call: del(p1),
			want: keystonetest.Result{Calls: []string{"DELETE projects/p1", "GET projects?parent_id=p1"},
				Err: fmt.Errorf(errNonLeaf, "team-a", "p1", `"a" (ID 1), "b" (ID 2), "c" (ID 3), "d" (ID 4), "e" (ID 5), and 2 more`)},
		},
		"DeleteForbiddenForAnotherReason": {
			answers: children(`[]`),
			call:    del(p1),
			want: keystonetest.Result{Calls: []string{"DELETE projects/p1", "GET projects?parent_id=p1"},
				Err: keystone.Wrap(nonLeaf.Failure("DELETE", "projects/p1"), errDelete, "team-a", "p1")},
		},
		"DeleteForbiddenAndChildrenUnlisted": {
			answers: map[string]keystonetest.Answer{"DELETE projects/p1": nonLeaf, "GET projects?parent_id=p1": {Err: boom}},
			call:    del(p1),
			want: keystonetest.Result{Calls: []string{"DELETE projects/p1", "GET projects?parent_id=p1"},
				Err: fmt.Errorf(errListChild, "team-a", "p1", keystone.Describe(nonLeaf.Failure("DELETE", "projects/p1")), boom)},
		},
		"DeleteFails": {
			answers: map[string]keystonetest.Answer{"DELETE projects/p1": {Err: boom}},
			call:    del(p1),
			want:    keystonetest.Result{Calls: []string{"DELETE projects/p1"}, Err: keystone.Wrap(boom, errDelete, "team-a", "p1")},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := keystonetest.Run(tc.answers, newDriver, tc.call)
			if diff := cmp.Diff(tc.want, got, test.EquateErrors()); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
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

// A deletion reads its project alone and asks Keystone for its children, even when many
// projects of the domain are read (a list of the domain costs several reads, and deletions
// rarely share one); with no registered limit in Keystone there can be no limit, so the
// project's limits are not listed.
func TestDeletionReadsAlone(t *testing.T) {
	list := `{"projects": [{"id": "p1", "name": "team-a", "domain_id": "d1", "parent_id": "d1"},
		{"id": "p2", "name": "team-b", "domain_id": "d1", "parent_id": "d1"}]}`
	answers := map[string]keystonetest.Answer{
		"GET projects/p1": {Body: `{"project": {"id": "p1", "name": "team-a", "domain_id": "d1", "parent_id": "d1"}}`},
		"GET projects/p1?subtree_as_ids": {Body: `{"project": {"id": "p1", "name": "team-a", "domain_id": "d1", "parent_id": "d1",
			"subtree": {"c1": null}}}`},
		"GET projects?domain_id=d1":                                   {Body: list},
		"GET role_assignments?include_names=true&scope.project.id=p1": {Body: `{"role_assignments": []}`},
		"GET projects?parent_id=p1":                                   {Body: `{"projects": [{"id": "c1", "name": "child", "domain_id": "d1", "parent_id": "p1"}]}`},
		"GET registered_limits":                                       {Body: `{"registered_limits": []}`},
	}
	busy := func(a keystone.API) adoption.Driver[mr, project] {
		// Fresh as long as the window: two reads of the domain's projects call for a list.
		return sharedDriver(clients.SharedReadOptions{Fresh: time.Hour, Window: time.Hour})(a)
	}
	mg := &v1alpha1.Project{Spec: v1alpha1.ProjectSpec{ForProvider: v1alpha1.ProjectParameters{Name: "team-a", DomainID: ptr("d1")}}}
	got := keystonetest.Run(answers, busy, func(ctx context.Context, d adoption.Driver[mr, project]) (any, error) {
		for _, id := range []string{"p1", "p2"} { // polls: the second calls for the domain's list
			if _, err := d.Get(ctx, mg, id); err != nil {
				return nil, err
			}
		}
		ctx = clients.ReadAlone(ctx)
		p1, err := d.Get(ctx, mg, "p1")
		if err != nil {
			return nil, err
		}
		return keystonetest.Dependents[mr, project](mg, p1)(ctx, d)
	})
	want := keystonetest.Result{
		Value: []string{"Keystone project child"},
		Calls: []string{"GET projects/p1", "GET projects?domain_id=d1", "GET projects/p1?subtree_as_ids", "GET role_assignments?include_names=true&scope.project.id=p1",
			"GET projects?parent_id=p1", "GET registered_limits"},
	}
	if diff := cmp.Diff(want, got, test.EquateErrors()); diff != "" {
		t.Errorf("-want +got:\n%s", diff)
	}
}

// A deletion's read of a project asks Keystone for its subtree in the same request; a leaf
// (Keystone answers "subtree": null) costs no list of its children. A read that did not ask
// (no subtree in the answer) still lists them.
func TestDeletionOfALeafListsNoChildren(t *testing.T) {
	cases := map[string]struct {
		subtree string
		want    keystonetest.Result
	}{
		"Leaf": {subtree: `, "subtree": null`, want: keystonetest.Result{Value: []string(nil), Calls: []string{"GET projects/p1?subtree_as_ids",
			"GET role_assignments?include_names=true&scope.project.id=p1", "GET registered_limits"}}},
		"SubtreeNotAnswered": {want: keystonetest.Result{Value: []string(nil), Calls: []string{"GET projects/p1?subtree_as_ids",
			"GET role_assignments?include_names=true&scope.project.id=p1", "GET projects?parent_id=p1", "GET registered_limits"}}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			answers := map[string]keystonetest.Answer{
				"GET projects/p1?subtree_as_ids":                              {Body: `{"project": {"id": "p1", "name": "team-a", "domain_id": "d1", "parent_id": "d1"` + tc.subtree + `}}`},
				"GET role_assignments?include_names=true&scope.project.id=p1": {Body: `{"role_assignments": []}`},
				"GET projects?parent_id=p1":                                   {Body: `{"projects": []}`},
				"GET registered_limits":                                       {Body: `{"registered_limits": []}`},
			}
			mg := &v1alpha1.Project{Spec: v1alpha1.ProjectSpec{ForProvider: v1alpha1.ProjectParameters{Name: "team-a", DomainID: ptr("d1")}}}
			got := keystonetest.Run(answers, sharedDriver(clients.SharedReadOptions{}), func(ctx context.Context, d adoption.Driver[mr, project]) (any, error) {
				ctx = clients.ReadAlone(ctx)
				p1, err := d.Get(ctx, mg, "p1")
				if err != nil {
					return nil, err
				}
				return keystonetest.Dependents[mr, project](mg, p1)(ctx, d)
			})
			if diff := cmp.Diff(tc.want, got, test.EquateErrors()); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}

// TestCreateLateInitializes: a create fills the spec's unset enabled from Keystone's answer,
// so that the update recording the create carries it; a value the spec sets stays.
func TestCreateLateInitializes(t *testing.T) {
	answers := map[string]keystonetest.Answer{"POST projects": {Status: http.StatusCreated, Body: `{"project": {"id": "p1", "enabled": false}}`}}
	keystonetest.LateInitializedOnCreate(t, func(t *testing.T, enabled *bool) *bool {
		mg := &v1alpha1.Project{Spec: v1alpha1.ProjectSpec{ForProvider: v1alpha1.ProjectParameters{Name: "team-a", DomainID: ptr("d1"), Enabled: enabled}}}
		if got := keystonetest.Run(answers, newDriver, create(mg)); got.Err != nil {
			t.Fatalf("Create: %v", got.Err)
		}
		return mg.Spec.ForProvider.Enabled
	})
}
