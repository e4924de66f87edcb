package group

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	api "goauthentik.io/api/v3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"

	"github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/authentiktest"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/shared"
)

var kind = authentiktest.Kind[mr, api.Group]{
	GroupKind: v1alpha1.GroupGroupKind.String(),
	NewDriver: func(c shared.Client) adoption.Driver[mr, api.Group] { return &external{c: c.API} },
}

func newGroup(spec v1alpha1.GroupParameters) *v1alpha1.Group {
	return &v1alpha1.Group{ObjectMeta: metav1.ObjectMeta{Name: "g"}, Spec: v1alpha1.GroupSpec{ForProvider: spec}}
}

// The driver with the real client and engine against the API server: a created group is
// written once (its spec late-initialized from the create's answer), a group in sync never, and a change is one PATCH; roles are looked up by name
// only when they are written.
func TestDriverWritesOnlyWhatDiffers(t *testing.T) {
	e := authentiktest.New(t)
	e.Seed(t, "rbac/roles", map[string]any{"name": "viewer"})
	mg := newGroup(v1alpha1.GroupParameters{Name: "platform", Attributes: attrs("team", `"sre"`)})

	e.Server.ResetCounts()
	if r, err := kind.Reconcile(e, mg); err != nil || !r.Created {
		t.Fatalf("first reconcile: want a create, got %+v, %v", r, err)
	}
	// authentik refuses a second group of the name, so the first create looks nothing up.
	if diff := cmp.Diff(map[string]int{"POST /core/groups/": 1}, e.Server.Counts()); diff != "" {
		t.Errorf("requests of the first reconcile: -want, +got:\n%s", diff)
	}
	// The create's answer late-initializes the spec, so that the update recording the create
	// carries it and the next reconcile has nothing to late-initialize.
	if got := mg.Spec.ForProvider.IsSuperuser; got == nil || *got {
		t.Errorf("spec.forProvider.isSuperuser after the create: %v, want false from the create's answer", got)
	}
	if r, err := kind.Reconcile(e, mg); err != nil || !r.Observation.ResourceUpToDate || r.Updated || r.Observation.ResourceLateInitialized {
		t.Fatalf("second reconcile: want up to date with nothing to late-initialize, got %+v, %v", r, err)
	}
	if diff := cmp.Diff(map[string]int{"POST /core/groups/": 1}, e.Writes()); diff != "" {
		t.Errorf("writes after create: -want, +got:\n%s", diff)
	}

	mg.Spec.ForProvider.Roles = []string{"viewer"}
	e.Server.ResetCounts()
	if r, err := kind.Reconcile(e, mg); err != nil || !r.Updated {
		t.Fatalf("reconcile after adding a role: want an update, got %+v, %v", r, err)
	}
	if r, err := kind.Reconcile(e, mg); err != nil || !r.Observation.ResourceUpToDate {
		t.Fatalf("reconcile after the update: want up to date, got %+v, %v", r, err)
	}
	want := map[string]int{"GET /core/groups/{group_uuid}/": 2, "GET /rbac/roles/": 1, "PATCH /core/groups/{group_uuid}/": 1}
	if diff := cmp.Diff(want, e.Server.Counts()); diff != "" {
		t.Errorf("requests for one role change: -want, +got:\n%s", diff)
	}
	if got := mg.Status.AtProvider.Roles; !cmp.Equal(got, []string{"viewer"}) {
		t.Errorf("status.atProvider.roles after the update: %v", got)
	}
}

func TestDriverMissingRole(t *testing.T) {
	e := authentiktest.New(t)
	mg := newGroup(v1alpha1.GroupParameters{Name: "platform", Roles: []string{"no-such-role"}})
	_, err := kind.Reconcile(e, mg)
	if err == nil || !strings.Contains(err.Error(), `authentik role "no-such-role" does not exist`) {
		t.Fatalf("create with a missing role: want an error naming it, got %v", err)
	}
	if w := e.Writes(); len(w) != 0 {
		t.Errorf("writes despite the missing role: %v", w)
	}
}

// A hand-made group under FailOnConflict is left byte for byte as it was.
func TestDriverConflictLeavesTheGroupAlone(t *testing.T) {
	e := authentiktest.New(t)
	before := e.Seed(t, "core/groups", map[string]any{"name": "platform", "attributes": map[string]any{"owner": "alice"}})
	mg := newGroup(v1alpha1.GroupParameters{Name: "platform", IsSuperuser: new(true)})
	_, err := kind.Reconcile(e, mg)
	var ce *adoption.ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("want a conflict, got %v", err)
	}
	if meta.GetExternalName(mg) != "" {
		t.Errorf("external name bound to a hand-made group")
	}
	if after := e.Raw(t, "core/groups", ce.Object.ID); !bytes.Equal(after, before) {
		t.Errorf("hand-made group changed:\nbefore %s\nafter  %s", before, after)
	}
	// The first create is tried, with nothing looked up before it (adoption.TwinRefuser), and
	// refused by authentik: the only write request, and it changed nothing.
	if w := e.Writes(); !cmp.Equal(w, map[string]int{"POST /core/groups/": 1}) {
		t.Errorf("writes under FailOnConflict: want only the refused first create, got %v", w)
	}
}
