package adoption

import (
	"context"
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/event"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

const groupKind = "Domain.keystone.identity.crossplane.io"

var errNotFound = errors.New("404")

type obj struct {
	ID, Key    string
	Marker     *provenance.Marker
	Markerless bool
}

// fakeDriver records what the engine asked of it.
type fakeDriver struct {
	byID      map[string]obj
	byKey     []obj
	created   *provenance.Marker
	updated   *provenance.Marker
	deleted   bool
	deleteErr error
	finds     int
	// calls lists the calls made, each with "alone" when its context reads alone.
	calls []string
}

func (d *fakeDriver) note(ctx context.Context, call string) {
	if clients.ReadsAlone(ctx) {
		call += " alone"
	}
	d.calls = append(d.calls, call)
}

func (d *fakeDriver) Get(ctx context.Context, _ *v1alpha1.Domain, id string) (obj, error) {
	d.note(ctx, "Get")
	if o, ok := d.byID[id]; ok {
		return o, nil
	}
	return obj{}, errNotFound
}
func (d *fakeDriver) Find(ctx context.Context, _ *v1alpha1.Domain) ([]obj, error) {
	d.note(ctx, "Find")
	d.finds++
	return d.byKey, nil
}
func (d *fakeDriver) IsNotFound(err error) bool { return errors.Is(err, errNotFound) }
func (d *fakeDriver) Describe(o obj) Description {
	return Description{ID: o.ID, Type: "thing", Key: o.Key, Marker: o.Marker, Markerless: o.Markerless}
}
func (d *fakeDriver) Observe(mg *v1alpha1.Domain, o obj, p identityv1alpha1.Provenance) Observation {
	mg.Status.AtProvider.Provenance = p
	return Observation{UpToDate: true}
}
func (d *fakeDriver) Create(_ context.Context, _ *v1alpha1.Domain, m provenance.Marker) (string, managed.ConnectionDetails, error) {
	d.created = &m
	return "new-id", nil, nil
}
func (d *fakeDriver) Update(_ context.Context, _ *v1alpha1.Domain, _ obj, m provenance.Marker) (managed.ConnectionDetails, error) {
	d.updated = &m
	return nil, nil
}
func (d *fakeDriver) Delete(ctx context.Context, _ *v1alpha1.Domain, _ obj) error {
	d.note(ctx, "Delete")
	if d.deleteErr != nil {
		return d.deleteErr
	}
	d.deleted = true
	return nil
}

type fakeAnnotations struct{ calls int }

func (f *fakeAnnotations) UpdateCriticalAnnotations(context.Context, client.Object) error {
	f.calls++
	return nil
}

type recorder struct{ reasons []event.Reason }

func (r *recorder) Event(_ runtime.Object, e event.Event)    { r.reasons = append(r.reasons, e.Reason) }
func (r *recorder) WithAnnotations(...string) event.Recorder { return r }

func ours(o provenance.Origin) *provenance.Marker {
	return &provenance.Marker{Installation: "here", Resource: groupKind + "/a", Origin: o}
}

func newMR(mut ...func(*v1alpha1.Domain)) *v1alpha1.Domain {
	mg := &v1alpha1.Domain{ObjectMeta: metav1.ObjectMeta{Name: "a"}}
	for _, m := range mut {
		m(mg)
	}
	return mg
}

func adoptExisting(mg *v1alpha1.Domain) { mg.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting }

func deleting(mg *v1alpha1.Domain) { now := metav1.Now(); mg.SetDeletionTimestamp(&now) }

func TestExternalObserve(t *testing.T) {
	type want struct {
		obs          managed.ExternalObservation
		conflict     bool
		externalName string
		provenance   identityv1alpha1.Provenance
		persisted    int
		events       []event.Reason
	}
	cases := map[string]struct {
		mg     *v1alpha1.Domain
		driver *fakeDriver
		want   want
	}{
		"NothingAnywhere": {
			mg: newMR(), driver: &fakeDriver{},
			want: want{obs: managed.ExternalObservation{ResourceExists: false}},
		},
		"UnmarkedByKeyFailOnConflict": {
			mg: newMR(), driver: &fakeDriver{byKey: []obj{{ID: "1", Key: "a"}}},
			want: want{conflict: true},
		},
		"UnmarkedByKeyWhileDeletingLetsGo": {
			mg: newMR(deleting), driver: &fakeDriver{byKey: []obj{{ID: "1", Key: "a"}}},
			want: want{obs: managed.ExternalObservation{ResourceExists: false}},
		},
		"UnmarkedByKeyAdoptExisting": {
			mg: newMR(adoptExisting), driver: &fakeDriver{byKey: []obj{{ID: "1", Key: "a"}}},
			want: want{obs: managed.ExternalObservation{ResourceExists: true, ResourceUpToDate: false}, externalName: "1", provenance: identityv1alpha1.Adopted, persisted: 1},
		},
		"AdoptionPendingWhileDeletingLetsGo": {
			mg: newMR(adoptExisting, deleting), driver: &fakeDriver{byKey: []obj{{ID: "1", Key: "a"}}},
			want: want{obs: managed.ExternalObservation{ResourceExists: false}},
		},
		"OwnMarkerByKeyIsRecovered": {
			mg: newMR(), driver: &fakeDriver{byKey: []obj{{ID: "1", Key: "a", Marker: ours(provenance.OriginCreated)}}},
			want: want{obs: managed.ExternalObservation{ResourceExists: true, ResourceUpToDate: true}, externalName: "1", provenance: identityv1alpha1.Owned, persisted: 1, events: []event.Reason{reasonRecovered}},
		},
		"OwnMarkerByID": {
			mg: newMR(func(mg *v1alpha1.Domain) { meta.SetExternalName(mg, "1") }), driver: &fakeDriver{byID: map[string]obj{"1": {ID: "1", Key: "a", Marker: ours(provenance.OriginAdopted)}}},
			want: want{obs: managed.ExternalObservation{ResourceExists: true, ResourceUpToDate: true}, externalName: "1", provenance: identityv1alpha1.Adopted},
		},
		"GoneByIDFallsBackToKey": {
			mg: newMR(func(mg *v1alpha1.Domain) { meta.SetExternalName(mg, "old") }), driver: &fakeDriver{byKey: []obj{{ID: "2", Key: "a"}}},
			want: want{conflict: true, externalName: "old"},
		},
		"AmbiguousKey": {
			mg: newMR(), driver: &fakeDriver{byKey: []obj{{ID: "1", Key: "a"}, {ID: "2", Key: "a"}}},
			want: want{conflict: false, obs: managed.ExternalObservation{}},
		},
		"ObserveOnlyForeign": {
			mg: newMR(func(mg *v1alpha1.Domain) {
				mg.Spec.ManagementPolicies = xpv2.ManagementPolicies{xpv2.ManagementActionObserve}
			}),
			driver: &fakeDriver{byKey: []obj{{ID: "1", Key: "a", Marker: &provenance.Marker{Installation: "there", Resource: "x", Origin: provenance.OriginCreated}}}},
			want:   want{obs: managed.ExternalObservation{ResourceExists: true, ResourceUpToDate: true}, externalName: "1", provenance: identityv1alpha1.Observed, persisted: 1},
		},
		"MarkerlessWithAnnotation": {
			mg: newMR(func(mg *v1alpha1.Domain) {
				meta.SetExternalName(mg, "1")
				meta.AddAnnotations(mg, map[string]string{AnnotationMarker: ours(provenance.OriginCreated).Encode()})
			}),
			driver: &fakeDriver{byID: map[string]obj{"1": {ID: "1", Key: "a", Markerless: true}}},
			want:   want{obs: managed.ExternalObservation{ResourceExists: true, ResourceUpToDate: true}, externalName: "1", provenance: identityv1alpha1.Owned},
		},
		"MarkerlessInterruptedCreateIsOurs": {
			mg:     newMR(func(mg *v1alpha1.Domain) { meta.SetExternalCreatePending(mg, time.Now()) }),
			driver: &fakeDriver{byKey: []obj{{ID: "1", Key: "a", Markerless: true}}},
			want:   want{obs: managed.ExternalObservation{ResourceExists: true, ResourceUpToDate: true}, externalName: "1", provenance: identityv1alpha1.Owned, persisted: 1, events: []event.Reason{reasonRecovered}},
		},
		"MarkerlessReplacedObjectIsNotOurs": {
			// Our object (ID 1) is gone; a same-named one (ID 2) was made by someone else.
			mg: newMR(func(mg *v1alpha1.Domain) {
				meta.SetExternalName(mg, "1")
				meta.AddAnnotations(mg, map[string]string{AnnotationMarker: ours(provenance.OriginCreated).Encode()})
			}),
			driver: &fakeDriver{byKey: []obj{{ID: "2", Key: "a", Markerless: true}}},
			want:   want{conflict: true, externalName: "1"},
		},
		"MarkerlessWithoutEvidence": {
			mg: newMR(), driver: &fakeDriver{byKey: []obj{{ID: "1", Key: "a", Markerless: true}}},
			want: want{conflict: true},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			ann, rec := &fakeAnnotations{}, &recorder{}
			e := NewExternal(tc.driver, Config{
				GroupKind: groupKind, Installation: "here", Annotations: ann, Recorder: rec,
			})
			obs, err := e.Observe(context.Background(), tc.mg)
			var ce *ConflictError
			if got := errors.As(err, &ce); got != tc.want.conflict {
				t.Fatalf("Observe(): conflict %v, want %v (err %v)", got, tc.want.conflict, err)
			}
			if tc.want.conflict {
				if c := tc.mg.GetCondition(xpv2.TypeReady); c.Reason != ReasonAdoptionRequired {
					t.Errorf("Ready reason: got %q, want AdoptionRequired", c.Reason)
				}
			} else if name != "AmbiguousKey" && err != nil {
				t.Fatalf("Observe(): %v", err)
			}
			if name == "AmbiguousKey" && err == nil {
				t.Fatal("Observe(): want an error for an ambiguous natural key")
			}
			if diff := cmp.Diff(tc.want.obs, obs); diff != "" {
				t.Errorf("Observe(): -want, +got:\n%s", diff)
			}
			if got := meta.GetExternalName(tc.mg); got != tc.want.externalName {
				t.Errorf("external name: got %q, want %q", got, tc.want.externalName)
			}
			if got := tc.mg.Status.AtProvider.Provenance; got != tc.want.provenance {
				t.Errorf("provenance: got %q, want %q", got, tc.want.provenance)
			}
			if ann.calls != tc.want.persisted {
				t.Errorf("external name persisted %d times, want %d", ann.calls, tc.want.persisted)
			}
			if diff := cmp.Diff(tc.want.events, rec.reasons); diff != "" {
				t.Errorf("events: -want, +got:\n%s", diff)
			}
		})
	}
}

func TestExternalWrites(t *testing.T) {
	newExternal := func(d *fakeDriver, rec *recorder) *External[*v1alpha1.Domain, obj] {
		return NewExternal(d, Config{
			GroupKind: groupKind, Installation: "here", Annotations: &fakeAnnotations{}, Recorder: rec,
		})
	}
	t.Run("CreateStampsOwnMarker", func(t *testing.T) {
		d := &fakeDriver{}
		mg := newMR()
		if _, err := newExternal(d, &recorder{}).Create(context.Background(), mg); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(ours(provenance.OriginCreated), d.created); diff != "" {
			t.Errorf("created marker: -want, +got:\n%s", diff)
		}
		if meta.GetExternalName(mg) != "new-id" || mg.GetAnnotations()[AnnotationMarker] == "" {
			t.Errorf("external name %q, annotation %q", meta.GetExternalName(mg), mg.GetAnnotations()[AnnotationMarker])
		}
	})
	t.Run("UpdateWithoutObserveNeverWrites", func(t *testing.T) {
		d := &fakeDriver{}
		if _, err := newExternal(d, &recorder{}).Update(context.Background(), newMR()); err == nil || d.updated != nil {
			t.Fatalf("Update without an observed object: err %v, wrote %v", err, d.updated)
		}
	})
	t.Run("AdoptionStampsAdoptedMarkerAndRecordsEvent", func(t *testing.T) {
		d := &fakeDriver{byKey: []obj{{ID: "1", Key: "a"}}}
		rec := &recorder{}
		e := newExternal(d, rec)
		mg := newMR(adoptExisting)
		if _, err := e.Observe(context.Background(), mg); err != nil {
			t.Fatal(err)
		}
		if _, err := e.Update(context.Background(), mg); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(ours(provenance.OriginAdopted), d.updated); diff != "" {
			t.Errorf("update marker: -want, +got:\n%s", diff)
		}
		if diff := cmp.Diff([]event.Reason{reasonAdopted}, rec.reasons); diff != "" {
			t.Errorf("events: -want, +got:\n%s", diff)
		}
	})
	t.Run("ObservedObjectIsNeverDeleted", func(t *testing.T) {
		d := &fakeDriver{byKey: []obj{{ID: "1", Key: "a"}}}
		e := newExternal(d, &recorder{})
		mg := newMR(func(mg *v1alpha1.Domain) {
			mg.Spec.ManagementPolicies = xpv2.ManagementPolicies{xpv2.ManagementActionObserve}
		})
		if _, err := e.Observe(context.Background(), mg); err != nil {
			t.Fatal(err)
		}
		if _, err := e.Delete(context.Background(), mg); err == nil || d.deleted {
			t.Fatalf("Delete of an observed object: err %v, deleted %v", err, d.deleted)
		}
	})
	t.Run("OwnObjectIsDeleted", func(t *testing.T) {
		d := &fakeDriver{byID: map[string]obj{"1": {ID: "1", Key: "a", Marker: ours(provenance.OriginCreated)}}}
		e := newExternal(d, &recorder{})
		mg := newMR(func(mg *v1alpha1.Domain) { meta.SetExternalName(mg, "1") })
		if _, err := e.Observe(context.Background(), mg); err != nil {
			t.Fatal(err)
		}
		if _, err := e.Delete(context.Background(), mg); err != nil || !d.deleted {
			t.Fatalf("Delete of an owned object: err %v, deleted %v", err, d.deleted)
		}
	})
}

// resettingOwners knows no owners and records the backoffs it is asked to reset.
type resettingOwners struct{ resets *[]string }

func (resettingOwners) ByMarker(context.Context, string) (OwnerState, error) {
	return OwnerState{}, nil
}
func (resettingOwners) ByExternalName(context.Context, string, string) (OwnerState, error) {
	return OwnerState{}, nil
}
func (o resettingOwners) ResetBackoff(kind, namespace, name string) {
	*o.resets = append(*o.resets, kind+"/"+namespace+"/"+name)
}

// Only a delete that was carried out resets the resource's backoff, so that the check that
// the object is gone comes a second later rather than after the waits before it.
func TestExternalDeleteResetsBackoff(t *testing.T) {
	mine := &provenance.Marker{Installation: "here", Resource: groupKind + "/team-a/a", Origin: provenance.OriginCreated}
	cases := map[string]struct {
		object    obj
		deleteErr error
		want      []string
	}{
		"Deleted":      {object: obj{ID: "1", Key: "a", Marker: mine}, want: []string{groupKind + "/team-a/a"}},
		"DeleteFailed": {object: obj{ID: "1", Key: "a", Marker: mine}, deleteErr: errors.New("boom")},
		"NotOurs":      {object: obj{ID: "1", Key: "a"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var resets []string
			d := &fakeDriver{byID: map[string]obj{"1": tc.object}, deleteErr: tc.deleteErr}
			e := NewExternal(d, Config{GroupKind: groupKind, Installation: "here", Owners: resettingOwners{resets: &resets}})
			mg := newMR(deleting, func(mg *v1alpha1.Domain) { mg.SetNamespace("team-a"); meta.SetExternalName(mg, "1") })
			if _, err := e.Observe(context.Background(), mg); err != nil {
				t.Fatal(err)
			}
			_, _ = e.Delete(context.Background(), mg)
			if diff := cmp.Diff(tc.want, resets, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("backoffs reset: -want +got:\n%s", diff)
			}
		})
	}
}

// apiServerAnnotations persists like the API server does: an update of the resource answers
// with the stored status, which replaces the caller's in-memory status, and a new
// resourceVersion.
type apiServerAnnotations struct{ calls int }

func (a *apiServerAnnotations) UpdateCriticalAnnotations(_ context.Context, o client.Object) error {
	a.calls++
	mg := o.(*v1alpha1.Domain)
	mg.Status = v1alpha1.DomainStatus{}
	mg.SetResourceVersion("rv-" + strconv.Itoa(a.calls))
	return nil
}

// Adopting a markerless object persists its marker annotation in the middle of the reconcile;
// the status observed in that reconcile must survive it, since the reconciler persists the
// in-memory status right after Update.
func TestMarkerlessAdoptionKeepsObservedStatus(t *testing.T) {
	ann := &apiServerAnnotations{}
	d := &fakeDriver{byKey: []obj{{ID: "1", Key: "a", Markerless: true}}}
	e := NewExternal(d, Config{
		GroupKind: groupKind, Installation: "here", Annotations: ann,
	})
	mg := newMR(adoptExisting)
	if _, err := e.Observe(context.Background(), mg); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Update(context.Background(), mg); err != nil {
		t.Fatal(err)
	}
	type state struct {
		Provenance  identityv1alpha1.Provenance
		Ready       string
		Marker      string
		Version     string
		Persistence int
	}
	want := state{Provenance: identityv1alpha1.Adopted, Ready: string(xpv2.Available().Reason), Marker: ours(provenance.OriginAdopted).Encode(), Version: "rv-2", Persistence: 2}
	got := state{mg.Status.AtProvider.Provenance, string(mg.GetCondition(xpv2.TypeReady).Reason), mg.GetAnnotations()[AnnotationMarker], mg.GetResourceVersion(), ann.calls}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("after adopting a markerless object: -want, +got:\n%s", diff)
	}
}

// storedAnnotations persists like the API server: it keeps the annotations of the last update,
// which is all a later reconcile reads back.
type storedAnnotations struct{ stored map[string]string }

func (s *storedAnnotations) UpdateCriticalAnnotations(_ context.Context, o client.Object) error {
	s.stored = map[string]string{}
	for k, v := range o.GetAnnotations() {
		s.stored[k] = v
	}
	return nil
}

// A create whose result was lost is recovered by natural key under the "create incomplete"
// proof. That proof lasts only until the external name is recorded, so the marker must be
// recorded with it: the next reconcile, which reads the object by its external name, must still
// find it ours, and deleting the resource must delete it.
func TestMarkerlessLostCreateStaysOurs(t *testing.T) {
	d := &fakeDriver{byKey: []obj{{ID: "1", Key: "a", Markerless: true}}, byID: map[string]obj{"1": {ID: "1", Key: "a", Markerless: true}}}
	store := &storedAnnotations{}
	newExternal := func() *External[*v1alpha1.Domain, obj] {
		return NewExternal(d, Config{
			GroupKind: groupKind, Installation: "here", Annotations: store,
		})
	}
	first := newMR(func(mg *v1alpha1.Domain) { meta.SetExternalCreatePending(mg, time.Now()) })
	if _, err := newExternal().Observe(context.Background(), first); err != nil {
		t.Fatalf("first reconcile: Observe(): %v", err)
	}

	// The next reconcile reads the resource as it was persisted; the create is still
	// incomplete as far as the reconciler knows (Observe found the object, so it never created).
	second := newMR(func(mg *v1alpha1.Domain) { mg.SetAnnotations(store.stored) })
	e := newExternal()
	obs, err := e.Observe(context.Background(), second)
	if err != nil {
		t.Fatalf("second reconcile: Observe(): %v", err)
	}
	type state struct {
		Exists     bool
		Name       string
		Provenance identityv1alpha1.Provenance
		Marker     string
	}
	want := state{Exists: true, Name: "1", Provenance: identityv1alpha1.Owned, Marker: ours(provenance.OriginCreated).Encode()}
	got := state{obs.ResourceExists, meta.GetExternalName(second), second.Status.AtProvider.Provenance, store.stored[AnnotationMarker]}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("second reconcile after a recovered create: -want, +got:\n%s", diff)
	}
	if _, err := e.Delete(context.Background(), second); err != nil || !d.deleted {
		t.Errorf("Delete of the recovered object: err %v, deleted %v", err, d.deleted)
	}
}

// fakeOwners answers ByExternalName from a map of external name to resource.
type fakeOwners struct {
	byName map[string]string
	err    error
	calls  int
}

func (f *fakeOwners) ByMarker(context.Context, string) (OwnerState, error) { return OwnerState{}, nil }
func (f *fakeOwners) ByExternalName(_ context.Context, kind, name string) (OwnerState, error) {
	f.calls++
	if kind != groupKind {
		return OwnerState{}, errors.New("asked about kind " + kind)
	}
	return OwnerState{Resource: f.byName[name]}, f.err
}

// A markerless object keeps its marker on the resource that manages it, so a second resource of
// this installation finding it by natural key sees no marker: it must ask which resource has
// recorded the object as its external name, and refuse (naming it) even under AdoptExisting.
func TestMarkerlessObjectOfAnotherResource(t *testing.T) {
	other := groupKind + "/b"
	errBoom := errors.New("boom")
	type want struct {
		ConflictWith string
		Err          error
		Provenance   identityv1alpha1.Provenance
		Lookups      int
	}
	cases := map[string]struct {
		mg     *v1alpha1.Domain
		owners *fakeOwners
		want   want
	}{
		"OtherResourceUnderAdoptExisting": {
			mg:     newMR(adoptExisting),
			owners: &fakeOwners{byName: map[string]string{"1": other}},
			want:   want{ConflictWith: other, Lookups: 1},
		},
		"OtherResourceUnderFailOnConflict": {
			mg:     newMR(),
			owners: &fakeOwners{byName: map[string]string{"1": other}},
			want:   want{ConflictWith: other, Lookups: 1},
		},
		"OtherResourceBeatsAnIncompleteCreate": {
			mg:     newMR(func(mg *v1alpha1.Domain) { meta.SetExternalCreatePending(mg, time.Now()) }),
			owners: &fakeOwners{byName: map[string]string{"1": other}},
			want:   want{ConflictWith: other, Lookups: 1},
		},
		"NoOtherResourceAdopts": {
			mg:     newMR(adoptExisting),
			owners: &fakeOwners{},
			want:   want{Provenance: identityv1alpha1.Adopted, Lookups: 1},
		},
		"ItselfIsNoConflict": {
			mg:     newMR(adoptExisting),
			owners: &fakeOwners{byName: map[string]string{"1": groupKind + "/a"}},
			want:   want{Provenance: identityv1alpha1.Adopted, Lookups: 1},
		},
		"LookupFails": {
			mg:     newMR(adoptExisting),
			owners: &fakeOwners{err: errBoom},
			want:   want{Err: errBoom, Lookups: 1},
		},
		"ObserveOnlyNeverAsks": {
			mg: newMR(func(mg *v1alpha1.Domain) {
				mg.Spec.ManagementPolicies = xpv2.ManagementPolicies{xpv2.ManagementActionObserve}
			}),
			owners: &fakeOwners{byName: map[string]string{"1": other}},
			want:   want{Provenance: identityv1alpha1.Observed},
		},
		"OwnAnnotatedObjectNeverAsks": {
			mg: newMR(func(mg *v1alpha1.Domain) {
				meta.SetExternalName(mg, "1")
				meta.AddAnnotations(mg, map[string]string{AnnotationMarker: ours(provenance.OriginCreated).Encode()})
			}),
			owners: &fakeOwners{byName: map[string]string{"1": other}},
			want:   want{Provenance: identityv1alpha1.Owned},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			d := &fakeDriver{byKey: []obj{{ID: "1", Key: "a", Markerless: true}}, byID: map[string]obj{"1": {ID: "1", Key: "a", Markerless: true}}}
			e := NewExternal(d, Config{
				GroupKind: groupKind, Installation: "here", Annotations: &fakeAnnotations{}, Owners: tc.owners,
			})
			_, err := e.Observe(context.Background(), tc.mg)
			var ce *ConflictError
			got := want{Provenance: tc.mg.Status.AtProvider.Provenance, Lookups: tc.owners.calls}
			switch {
			case errors.As(err, &ce):
				got.ConflictWith = ce.OtherResource
				if r := tc.mg.GetCondition(xpv2.TypeReady).Reason; r != ReasonAdoptionRequired {
					t.Errorf("Ready reason %q, want AdoptionRequired", r)
				}
			case errors.Is(err, errBoom):
				got.Err = errBoom
			case err != nil:
				t.Fatalf("Observe(): %v", err)
			}
			if diff := cmp.Diff(tc.want, got, cmpopts.EquateErrors()); diff != "" {
				t.Errorf("Observe(): -want, +got:\n%s", diff)
			}
		})
	}
}

// A resource being deleted whose object is gone (its own delete went through) is gone: no
// natural-key lookup follows, whatever a same-named object would say.
// A deletion decides on what the system holds now: its reads bypass shared lists and our own
// writes' answers (clients.ReadAlone), which may be up to Fresh old; other reads may share.
func TestExternalDeletionReadsAlone(t *testing.T) {
	o := obj{ID: "1", Key: "a", Marker: ours(provenance.OriginCreated)}
	cases := map[string]struct {
		mg   *v1alpha1.Domain
		want []string
	}{
		"Polled": {
			mg:   newMR(func(mg *v1alpha1.Domain) { meta.SetExternalName(mg, "1") }),
			want: []string{"Get"},
		},
		"Created": {
			mg:   newMR(),
			want: []string{"Find"},
		},
		"Deleted": {
			mg:   newMR(deleting, func(mg *v1alpha1.Domain) { meta.SetExternalName(mg, "1") }),
			want: []string{"Get alone", "Delete alone"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			d := &fakeDriver{byID: map[string]obj{"1": o}}
			e := NewExternal(d, Config{GroupKind: groupKind, Installation: "here"})
			if _, err := e.Observe(context.Background(), tc.mg); err != nil {
				t.Fatalf("Observe(): %v", err)
			}
			if meta.WasDeleted(tc.mg) {
				if _, err := e.Delete(context.Background(), tc.mg); err != nil {
					t.Fatalf("Delete(): %v", err)
				}
			}
			if diff := cmp.Diff(tc.want, d.calls); diff != "" {
				t.Errorf("driver calls: -want +got:\n%s", diff)
			}
		})
	}
}

func TestExternalObserveDeletedObjectGoneWithoutALookup(t *testing.T) {
	for name, byKey := range map[string][]obj{
		"NothingByKey":       nil,
		"OursByKey":          {{ID: "2", Key: "a", Marker: ours(provenance.OriginCreated)}},
		"SomebodyElsesByKey": {{ID: "2", Key: "a"}},
	} {
		t.Run(name, func(t *testing.T) {
			d := &fakeDriver{byKey: byKey}
			mg := newMR(deleting, func(mg *v1alpha1.Domain) { meta.SetExternalName(mg, "old") })
			obs, err := NewExternal(d, Config{GroupKind: groupKind, Installation: "here"}).Observe(context.Background(), mg)
			if err != nil {
				t.Fatalf("Observe(): %v", err)
			}
			if diff := cmp.Diff(managed.ExternalObservation{ResourceExists: false}, obs); diff != "" {
				t.Errorf("Observe(): -want, +got:\n%s", diff)
			}
			if d.finds != 0 {
				t.Errorf("natural-key lookups: got %d, want none", d.finds)
			}
		})
	}
}

// The reconcile that confirms a delete takes the answer of this resource's own delete, once;
// a failed delete, a recreated resource (another UID) or a second confirmation read the system.
func TestExternalDeleteConfirmedFromMemory(t *testing.T) {
	o := obj{ID: "1", Key: "a", Marker: ours(provenance.OriginCreated)}
	named := func(uid string) *v1alpha1.Domain {
		return newMR(deleting, func(mg *v1alpha1.Domain) { mg.SetUID(types.UID(uid)); meta.SetExternalName(mg, "1") })
	}
	cases := map[string]struct {
		deleteErr error
		confirmer *v1alpha1.Domain
		observes  int
		want      []string
		exists    bool
	}{
		"Deleted": {
			confirmer: named("uid-1"), observes: 1,
			want: []string{"Get alone", "Delete alone"},
		},
		"ConfirmedOnce": {
			confirmer: named("uid-1"), observes: 2, exists: true,
			want: []string{"Get alone", "Delete alone", "Get alone"},
		},
		"DeleteFailed": {
			deleteErr: errors.New("boom"), confirmer: named("uid-1"), observes: 1, exists: true,
			want: []string{"Get alone", "Delete alone", "Get alone"},
		},
		"RecreatedResource": {
			confirmer: named("uid-2"), observes: 1, exists: true,
			want: []string{"Get alone", "Delete alone", "Get alone"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			d := &fakeDriver{byID: map[string]obj{"1": o}, deleteErr: tc.deleteErr}
			cfg := Config{GroupKind: groupKind, Installation: "here", Deletions: NewDeletions()}
			mg, e := named("uid-1"), NewExternal(d, cfg)
			if _, err := e.Observe(context.Background(), mg); err != nil {
				t.Fatalf("Observe(): %v", err)
			}
			_, _ = e.Delete(context.Background(), mg)
			var obs managed.ExternalObservation
			for range tc.observes {
				// The fake still holds the object: only a read reports it.
				var err error
				if obs, err = NewExternal(d, cfg).Observe(context.Background(), tc.confirmer); err != nil {
					t.Fatalf("Observe(): %v", err)
				}
			}
			if diff := cmp.Diff(tc.want, d.calls); diff != "" {
				t.Errorf("driver calls: -want +got:\n%s", diff)
			}
			if obs.ResourceExists != tc.exists {
				t.Errorf("last Observe(): ResourceExists = %v, want %v", obs.ResourceExists, tc.exists)
			}
		})
	}
}
