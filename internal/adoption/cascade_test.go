package adoption

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	corev1 "k8s.io/api/core/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// cascadingDriver is a fakeDriver whose deletes take dependents with them.
type cascadingDriver struct {
	fakeDriver
	dependents []Dependent
	err        error
}

func (d *cascadingDriver) Dependents(context.Context, *v1alpha1.Domain, obj) ([]Dependent, error) {
	return d.dependents, d.err
}

// cascadeOwners answers from maps keyed by marker resource and by kind/external name.
type cascadeOwners struct {
	byMarker map[string]OwnerState
	byName   map[string]OwnerState
	err      error
}

func (f cascadeOwners) ByMarker(_ context.Context, res string) (OwnerState, error) {
	return f.byMarker[res], f.err
}

func (f cascadeOwners) ByExternalName(_ context.Context, kind, name string) (OwnerState, error) {
	return f.byName[kind+"|"+name], f.err
}

// waitingOwners also records what a blocked deletion waits for.
type waitingOwners struct {
	cascadeOwners
	waits *[]string
}

func (w waitingOwners) Changes() uint64 { return 0 }

func (w waitingOwners) WaitFor(kind, _, name string, resources []string, _ uint64) {
	*w.waits = append(*w.waits, kind+"/"+name+" waits for "+strings.Join(resources, ","))
}

func marked(installation, res string) *provenance.Marker {
	return &provenance.Marker{Installation: installation, Resource: res, Origin: provenance.OriginCreated}
}

func dependent(id string, m *provenance.Marker) Dependent {
	return Dependent{Description: Description{ID: id, Type: "Keystone project", Key: "p-" + id, Marker: m}}
}

func TestDeleteWithDependents(t *testing.T) {
	const projectKind = "Project.keystone.identity.crossplane.io"
	const nsProjectKind = "Project.keystone.identity.m.crossplane.io"
	errBoom := errors.New("boom")
	type want struct {
		deleted  bool
		blocked  bool
		reason   xpv2.ConditionReason
		contains []string
		errIs    error
		waits    []string
	}
	cases := map[string]struct {
		dependents []Dependent
		listErr    error
		owners     Owners
		prior      bool
		want       want
	}{
		"NothingInTheWay": {
			want: want{deleted: true},
		},
		"NothingInTheWayAnyMoreClearsTheCondition": {
			prior: true,
			want:  want{deleted: true, reason: reasonNothingInTheWay},
		},
		"HandMade": {
			dependents: []Dependent{dependent("1", nil)},
			owners:     cascadeOwners{},
			want: want{blocked: true, reason: ReasonForeignDependents, contains: []string{
				`Keystone project "p-1" (ID 1, not created or adopted by this installation)`, "1 object:", "spec.deletionPolicy: Orphan"}},
		},
		"OtherInstallation": {
			dependents: []Dependent{dependent("1", marked("there", projectKind+"/x"))},
			owners:     cascadeOwners{},
			want:       want{blocked: true, reason: ReasonForeignDependents, contains: []string{`managed by another installation "there"`}},
		},
		"OursLeftBehind": {
			dependents: []Dependent{dependent("1", marked("here", projectKind+"/gone"))},
			owners:     cascadeOwners{},
			want: want{blocked: true, reason: ReasonForeignDependents, contains: []string{
				"left behind by " + projectKind + "/gone of this installation, which no longer exists"}},
		},
		"OursKept": {
			dependents: []Dependent{dependent("1", marked("here", projectKind+"/kept"))},
			owners:     cascadeOwners{byMarker: map[string]OwnerState{projectKind + "/kept": {Resource: projectKind + "/kept", Keeps: true}}},
			want: want{blocked: true, reason: ReasonForeignDependents, contains: []string{projectKind + "/kept keeps it"},
				waits: []string{groupKind + "/a waits for " + projectKind + "/kept"}},
		},
		"OursStillManaged": {
			dependents: []Dependent{dependent("1", marked("here", projectKind+"/live"))},
			owners:     cascadeOwners{byMarker: map[string]OwnerState{projectKind + "/live": {Resource: projectKind + "/live"}}},
			// Blocked until that resource is deleted: woken when it is gone, not retried on backoff.
			want: want{blocked: true, reason: ReasonForeignDependents, contains: []string{"still managed by " + projectKind + "/live"},
				waits: []string{groupKind + "/a waits for " + projectKind + "/live"}},
		},
		"OursBeingDeletedIsWaitedFor": {
			dependents: []Dependent{
				dependent("1", marked("here", projectKind+"/a")),
				{Description: Description{ID: "k", Type: "Keystone role assignment", Key: "r", Markerless: true}, Kind: "RoleAssignment.x", ExternalName: "k"},
			},
			owners: cascadeOwners{
				byMarker: map[string]OwnerState{projectKind + "/a": {Resource: projectKind + "/a", Deleting: true}},
				byName:   map[string]OwnerState{"RoleAssignment.x|k": {Resource: "RoleAssignment.x/ra", Deleting: true}},
			},
			want: want{blocked: true, reason: ReasonDependentsDeleting, contains: []string{
				"being deleted by " + projectKind + "/a", "being deleted by RoleAssignment.x/ra", "goes ahead by itself"},
				waits: []string{groupKind + "/a waits for " + projectKind + "/a,RoleAssignment.x/ra"}},
		},
		"NamespacedOwnersAreNamedWithTheirNamespace": {
			dependents: []Dependent{
				dependent("1", marked("here", nsProjectKind+"/team-a/kept")),
				dependent("2", marked("here", nsProjectKind+"/team-a/live")),
				dependent("3", marked("here", nsProjectKind+"/team-b/gone")),
				{Description: Description{ID: "k", Type: "Keystone role assignment", Key: "r", Markerless: true}, Kind: "RoleAssignment.x", ExternalName: "k"},
			},
			owners: cascadeOwners{
				byMarker: map[string]OwnerState{
					nsProjectKind + "/team-a/kept": {Resource: nsProjectKind + "/team-a/kept", Keeps: true},
					nsProjectKind + "/team-a/live": {Resource: nsProjectKind + "/team-a/live"},
				},
				byName: map[string]OwnerState{"RoleAssignment.x|k": {Resource: "RoleAssignment.m.x/team-a/ra", Deleting: true}},
			},
			want: want{blocked: true, reason: ReasonForeignDependents, contains: []string{
				nsProjectKind + ` "kept" in namespace team-a keeps it`,
				"still managed by " + nsProjectKind + ` "live" in namespace team-a`,
				"left behind by " + nsProjectKind + ` "gone" in namespace team-b of this installation`,
				`being deleted by RoleAssignment.m.x "ra" in namespace team-a`}},
		},
		"OneForeignAmongWaitedFor": {
			dependents: []Dependent{dependent("1", marked("here", projectKind+"/a")), dependent("2", nil)},
			owners:     cascadeOwners{byMarker: map[string]OwnerState{projectKind + "/a": {Resource: projectKind + "/a", Deleting: true}}},
			want:       want{blocked: true, reason: ReasonForeignDependents},
		},
		"ManyAreCounted": {
			dependents: []Dependent{dependent("1", nil), dependent("2", nil), dependent("3", nil), dependent("4", nil),
				dependent("5", nil), dependent("6", nil), dependent("7", nil)},
			owners: cascadeOwners{},
			want:   want{blocked: true, reason: ReasonForeignDependents, contains: []string{"7 objects:", "and 2 more"}},
		},
		"ListFails": {
			listErr: errBoom,
			want:    want{errIs: errBoom},
		},
		"OwnerLookupFails": {
			dependents: []Dependent{dependent("1", marked("here", projectKind+"/a"))},
			owners:     cascadeOwners{err: errBoom},
			want:       want{errIs: errBoom},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var waits []string
			if o, ok := tc.owners.(cascadeOwners); ok {
				tc.owners = waitingOwners{cascadeOwners: o, waits: &waits}
			}
			d := &cascadingDriver{
				fakeDriver: fakeDriver{byID: map[string]obj{"1": {ID: "d1", Key: "dom", Marker: ours(provenance.OriginCreated)}}},
				dependents: tc.dependents, err: tc.listErr,
			}
			mg := newMR(func(mg *v1alpha1.Domain) { meta.SetExternalName(mg, "1") }, deleting)
			if tc.prior {
				mg.SetConditions(xpv2.Condition{Type: TypeDeletionBlocked, Status: corev1.ConditionTrue, Reason: ReasonForeignDependents})
			}
			e := NewExternal[*v1alpha1.Domain, obj](d, Config{
				GroupKind: groupKind, Installation: "here", Owners: tc.owners,
			})
			if _, err := e.Observe(context.Background(), mg); err != nil {
				t.Fatalf("Observe(): %v", err)
			}
			_, err := e.Delete(context.Background(), mg)

			if diff := cmp.Diff(tc.want.deleted, d.deleted); diff != "" {
				t.Errorf("driver Delete called: -want +got:\n%s", diff)
			}
			var be *DeletionBlockedError
			if got := errors.As(err, &be); got != tc.want.blocked {
				t.Fatalf("Delete(): blocked %v, want %v (err %v)", got, tc.want.blocked, err)
			}
			if tc.want.errIs != nil && !errors.Is(err, tc.want.errIs) {
				t.Errorf("Delete(): got %v, want an error wrapping %v", err, tc.want.errIs)
			}
			if tc.want.errIs == nil && !tc.want.blocked && err != nil {
				t.Errorf("Delete(): unexpected error %v", err)
			}
			if diff := cmp.Diff(tc.want.waits, waits, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("WaitFor calls: -want +got:\n%s", diff)
			}
			c := mg.GetCondition(TypeDeletionBlocked)
			if c.Reason != tc.want.reason {
				t.Errorf("DeletionBlocked reason: got %q, want %q", c.Reason, tc.want.reason)
			}
			if tc.want.blocked {
				if c.Status != corev1.ConditionTrue || c.Message != err.Error() || c.LastTransitionTime.IsZero() {
					t.Errorf("DeletionBlocked condition: got %+v, want True with the error's message and a transition time", c)
				}
				for _, w := range append(tc.want.contains, `thing "dom" (ID d1)`) {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("message %q does not mention %q", err.Error(), w)
					}
				}
			}
		})
	}
}

// gatheringDriver lists its dependents with Gather, recording which lists it read.
type gatheringDriver struct {
	fakeDriver
	lists [][]Dependent
	read  []int
}

func (d *gatheringDriver) Dependents(ctx context.Context, _ *v1alpha1.Domain, _ obj) ([]Dependent, error) {
	fns := make([]func() ([]Dependent, error), len(d.lists))
	for i, l := range d.lists {
		fns[i] = func() ([]Dependent, error) { d.read = append(d.read, i); return l, nil }
	}
	return Gather(ctx, fns...)
}

// A deletion that will wait for resources of ours reads no further lists; one that goes ahead,
// or is blocked by something not ours, reads them all.
func TestGatherStopsWhenTheDeletionIsHeldByOurs(t *testing.T) {
	const res, live = "Project.keystone.identity.crossplane.io/a", "Project.keystone.identity.crossplane.io/live"
	mine, managed, foreign := dependent("a", marked("here", res)), dependent("l", marked("here", live)), dependent("f", nil)
	owners := cascadeOwners{byMarker: map[string]OwnerState{res: {Resource: res, Deleting: true}, live: {Resource: live}}}
	cases := map[string]struct {
		lists   [][]Dependent
		read    []int
		deleted bool
		reason  xpv2.ConditionReason
	}{
		"NothingInTheWay":       {lists: [][]Dependent{nil, nil, nil}, read: []int{0, 1, 2}, deleted: true},
		"FirstListWaits":        {lists: [][]Dependent{{mine}, {foreign}, nil}, read: []int{0}, reason: ReasonDependentsDeleting},
		"SecondListWaits":       {lists: [][]Dependent{nil, {mine}, {foreign}}, read: []int{0, 1}, reason: ReasonDependentsDeleting},
		"ForeignReadsAll":       {lists: [][]Dependent{{foreign}, {mine}, nil}, read: []int{0, 1, 2}, reason: ReasonForeignDependents},
		"WaitingThenForeignToo": {lists: [][]Dependent{nil, nil, {mine, foreign}}, read: []int{0, 1, 2}, reason: ReasonForeignDependents},
		// Blocked by a resource of ours until it is deleted: the rest is read when it is gone.
		"StillManagedByOurs": {lists: [][]Dependent{{managed}, {foreign}, nil}, read: []int{0}, reason: ReasonForeignDependents},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			d := &gatheringDriver{
				fakeDriver: fakeDriver{byID: map[string]obj{"1": {ID: "d1", Key: "dom", Marker: ours(provenance.OriginCreated)}}},
				lists:      tc.lists,
			}
			mg := newMR(func(mg *v1alpha1.Domain) { meta.SetExternalName(mg, "1") }, deleting)
			e := NewExternal[*v1alpha1.Domain, obj](d, Config{GroupKind: groupKind, Installation: "here", Owners: owners})
			if _, err := e.Observe(context.Background(), mg); err != nil {
				t.Fatalf("Observe(): %v", err)
			}
			_, _ = e.Delete(context.Background(), mg)
			if diff := cmp.Diff(tc.read, d.read); diff != "" {
				t.Errorf("lists read: -want +got:\n%s", diff)
			}
			if d.deleted != tc.deleted {
				t.Errorf("deleted: got %v, want %v", d.deleted, tc.deleted)
			}
			if got := mg.GetCondition(TypeDeletionBlocked).Reason; got != tc.reason {
				t.Errorf("DeletionBlocked reason: got %q, want %q", got, tc.reason)
			}
		})
	}
}

// localDriver is a gatheringDriver whose role assignments also hang on it locally.
type localDriver struct {
	gatheringDriver
}

func (d *localDriver) LocalDependents(_ *v1alpha1.Domain, id string) (Description, []LocalDependents) {
	return Description{ID: id, Type: "Keystone domain", Key: "dom"},
		[]LocalDependents{{Kind: "RoleAssignment.keystone.identity.crossplane.io", Part: "domain/" + id, Type: "Keystone role assignment"}}
}

// partOwners also answers ByExternalNamePart.
type partOwners struct {
	waitingOwners
	parts []PartOwner
	err   error
}

func (p partOwners) ByExternalNamePart(_ context.Context, kind, part string) ([]PartOwner, error) {
	if kind != "RoleAssignment.keystone.identity.crossplane.io" || part != "domain/d1" {
		return nil, nil
	}
	return p.parts, p.err
}

// A deletion whose role assignments resources of ours hold (deleting them, or still managing
// them) is held without reading the system, not even its own object; one that no resource of
// ours names, or whose local dependents cannot be looked up, reads as before.
func TestDeletionWaitsForLocalDependentsWithoutReading(t *testing.T) {
	const ra = "RoleAssignment.keystone.identity.crossplane.io/team-a/ra"
	key := "domain/d1/group/g1/role/r1"
	cases := map[string]struct {
		parts  []PartOwner
		err    error
		read   []int
		waits  []string
		reason xpv2.ConditionReason
	}{
		"Deleting": {
			parts: []PartOwner{{OwnerState: OwnerState{Resource: ra, Deleting: true}, ExternalName: key}},
			waits: []string{groupKind + "/a waits for " + ra}, reason: ReasonDependentsDeleting,
		},
		// Its assignment is in the way as long as it manages it: blocked, and woken once it is gone.
		"NotDeleting": {
			parts: []PartOwner{{OwnerState: OwnerState{Resource: ra}, ExternalName: key}},
			waits: []string{groupKind + "/a waits for " + ra}, reason: ReasonForeignDependents,
		},
		"Keeps": {
			parts: []PartOwner{{OwnerState: OwnerState{Resource: ra, Keeps: true}, ExternalName: key}},
			waits: []string{groupKind + "/a waits for " + ra}, reason: ReasonForeignDependents,
		},
		"NoneNamesIt": {
			read: []int{0},
		},
		"LookupFails": {
			err:  errors.New("cache not synced"),
			read: []int{0},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var waits []string
			owners := partOwners{waitingOwners: waitingOwners{cascadeOwners: cascadeOwners{}, waits: &waits}, parts: tc.parts, err: tc.err}
			d := &localDriver{gatheringDriver{
				fakeDriver: fakeDriver{byID: map[string]obj{"d1": {ID: "d1", Key: "dom", Marker: ours(provenance.OriginCreated)}}},
				lists:      [][]Dependent{nil},
			}}
			mg := newMR(func(mg *v1alpha1.Domain) { meta.SetExternalName(mg, "d1") }, deleting)
			e := NewExternal[*v1alpha1.Domain, obj](d, Config{GroupKind: groupKind, Installation: "here", Owners: owners})
			if _, err := e.Observe(context.Background(), mg); err != nil {
				t.Fatalf("Observe(): %v", err)
			}
			_, err := e.Delete(context.Background(), mg)
			if diff := cmp.Diff(tc.read, d.read); diff != "" {
				t.Errorf("lists read: -want +got:\n%s", diff)
			}
			if diff := cmp.Diff(tc.waits, waits, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("WaitFor calls: -want +got:\n%s", diff)
			}
			if got := mg.GetCondition(TypeDeletionBlocked).Reason; got != tc.reason {
				t.Errorf("DeletionBlocked reason: got %q, want %q", got, tc.reason)
			}
			if tc.reason != "" && (err == nil || !strings.Contains(err.Error(), key) || !strings.Contains(err.Error(), `"ra" in namespace team-a`) ||
				!strings.Contains(err.Error(), `Keystone domain "dom" (ID d1)`)) {
				t.Errorf("Delete(): got %v, want an error naming the domain, the assignment %s and its resource", err, key)
			}
			// A held deletion does not even read its object.
			wantCalls := []string{"Get alone", "Delete alone"}
			if tc.reason != "" {
				wantCalls = nil
			}
			if diff := cmp.Diff(wantCalls, d.calls, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("driver calls: -want +got:\n%s", diff)
			}
			if tc.reason == "" && (err != nil || !d.deleted) {
				t.Errorf("Delete(): got %v, deleted %v; want the object deleted", err, d.deleted)
			}
		})
	}
}
