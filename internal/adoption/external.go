// Package adoption is the provider's adoption and provenance engine. It is written once and
// used by every managed kind of every system: a kind supplies a Driver (how to read, find,
// create, update and delete its objects) and the engine supplies the Crossplane external
// client with ADR-0002's semantics (see decide.go).
package adoption

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/event"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

const (
	errGet          = "cannot read %s by its external name %q"
	errFind         = "cannot look up %s by its natural key"
	errAmbiguous    = "%d objects of type %s match the natural key %q; set the crossplane.io/external-name annotation to the ID of the one to manage"
	errPersistName  = "cannot record the external name"
	errNoObserved   = "refusing to write: the external object was not observed in this reconcile"
	errNotOurs      = "refusing to delete %s %q (ID %s): it is not owned or adopted by this resource"
	errDependents   = "cannot find out what deleting %s %q (ID %s) would delete with it"
	errOwner        = "cannot find out whether another resource manages %s %q (ID %s)"
	reasonAdopted   = event.Reason("AdoptedExternalResource")
	reasonConflict  = event.Reason("AdoptionRequired")
	reasonRecovered = event.Reason("RecoveredExternalResource")
)

// Observation is what a driver reports about an existing object.
type Observation struct {
	// UpToDate is true when every field the spec manages matches the object.
	UpToDate bool
	// Diff is a human-readable difference, for the debug log.
	Diff string
	// LateInitialized is true when the driver filled unset spec fields from the object.
	LateInitialized bool
	// ConnectionDetails to publish.
	ConnectionDetails managed.ConnectionDetails
}

// A Driver knows one kind of external object. O is the external system's representation.
type Driver[MR Managed, O any] interface {
	// Get reads the object with the given external ID. A missing object is an error for which
	// IsNotFound returns true.
	Get(ctx context.Context, mg MR, id string) (O, error)
	// Find returns the objects matching the resource's natural key (usually zero or one).
	Find(ctx context.Context, mg MR) ([]O, error)
	// IsNotFound reports whether err means the object does not exist.
	IsNotFound(err error) bool
	// Describe presents an object to the engine, including the marker it carries.
	Describe(o O) Description
	// Observe records the object in status.atProvider (with the provenance), late-initializes
	// unset spec fields, and compares the managed fields. It must not call the external system.
	Observe(mg MR, o O, p identityv1alpha1.Provenance) Observation
	// Create creates the object carrying the marker and returns its external ID.
	Create(ctx context.Context, mg MR, m provenance.Marker) (string, managed.ConnectionDetails, error)
	// Update writes the managed fields and the marker to the observed object, leaving fields
	// outside the spec alone.
	Update(ctx context.Context, mg MR, observed O, m provenance.Marker) (managed.ConnectionDetails, error)
	// Delete deletes the observed object.
	Delete(ctx context.Context, mg MR, observed O) error
}

// An AdoptionPolicyGetter tells whether a resource may take over an unmarked object with its
// natural key. Every managed kind of both scopes implements it over spec.adoptionPolicy.
type AdoptionPolicyGetter interface {
	GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy
}

// Managed is what the engine drives: a managed resource of either scope that has an adoption
// policy. The engine reads the policy from the resource itself, so no kind wires it in.
type Managed interface {
	resource.Managed
	AdoptionPolicyGetter
}

// An External is a Crossplane external client for one reconcile of one resource. It keeps the
// object Observe read, so that Update and Delete act on exactly what was compared and no
// reconcile reads an object twice.
type External[MR Managed, O any] struct {
	driver       Driver[MR, O]
	groupKind    string
	installation string
	annotations  managed.CriticalAnnotationUpdater
	recorder     event.Recorder
	owners       Owners
	unconfirmed  func(error) bool
	deletions    *Deletions

	observed *O
	verdict  verdict
	// firstCreate is true when Observe left the natural-key lookup to the create (see
	// createsFirst).
	firstCreate bool
	// held is the error Delete returns for a deletion that Observe found held by resources of
	// ours, without reading the object (see holdLocally).
	held error
}

// Config holds what an External needs besides its driver.
type Config struct {
	// GroupKind of the managed kind, for example Domain.keystone.identity.crossplane.io.
	GroupKind string
	// Installation is the ProviderConfig's installation ID.
	Installation string
	// Annotations persists the external name as soon as a natural-key lookup binds one.
	Annotations managed.CriticalAnnotationUpdater
	// Recorder receives adoption events.
	Recorder event.Recorder
	// Owners finds the resources behind the objects a delete would take with it (kinds whose
	// driver is a Cascader); without it those objects are described by their markers alone.
	Owners Owners
	// MayHaveCommitted tells the system's failed writes that may have been carried out all
	// the same (a 5xx, a timeout); nil means none.
	MayHaveCommitted func(error) bool
	// Deletions remembers this process's deletes, so that the reconcile confirming one need
	// not read the object again; nil always reads.
	Deletions *Deletions
}

// NewExternal returns an External for one reconcile.
func NewExternal[MR Managed, O any](d Driver[MR, O], c Config) *External[MR, O] {
	r := c.Recorder
	if r == nil {
		r = event.NewNopRecorder()
	}
	return &External[MR, O]{driver: d, groupKind: c.GroupKind, installation: c.Installation, annotations: c.Annotations, recorder: r, owners: c.Owners,
		unconfirmed: c.MayHaveCommitted, deletions: c.Deletions}
}

func (e *External[MR, O]) self(mg MR, origin provenance.Origin) provenance.Marker {
	return provenance.Marker{
		Installation: e.installation,
		Resource:     provenance.ResourceName(e.groupKind, mg.GetNamespace(), mg.GetName()),
		Origin:       origin,
	}
}

// Observe finds the external object by external name, or by natural key when there is none
// (or the named object is gone), and decides whether this resource may manage it.
func (e *External[MR, O]) Observe(ctx context.Context, mg MR) (managed.ExternalObservation, error) {
	if meta.WasDeleted(mg) {
		// What this reconcile reads decides a delete, and what the delete takes with it (an
		// authentik provider's assigned application is a field of the provider): it must be
		// the system's answer now, not a shared list's or our last write's, up to Fresh old.
		ctx = clients.ReadAlone(ctx)
		if e.deletions.take(mg.GetUID(), meta.GetExternalName(mg)) {
			// This resource's own delete, a moment ago, answered for the object.
			return managed.ExternalObservation{ResourceExists: false}, nil
		}
		if e.holdLocally(ctx, mg) {
			// Held by resources of ours (see LocalCascader): Delete reports it, nothing is read.
			return managed.ExternalObservation{ResourceExists: true, ResourceUpToDate: true}, nil
		}
	}
	if e.createsFirst(mg) {
		// Nothing to look up: the create finds a twin out (see TwinRefuser).
		e.firstCreate = true
		return managed.ExternalObservation{ResourceExists: false}, nil
	}
	o, byKey, err := e.lookup(ctx, mg)
	if err != nil || o == nil {
		return managed.ExternalObservation{ResourceExists: false}, err
	}
	d := e.driver.Describe(*o)
	if d.Markerless {
		if d.Marker, err = e.markerlessMarker(ctx, mg, d); err != nil {
			return managed.ExternalObservation{}, err
		}
	}
	v, err := decide(request{Self: e.self(mg, ""), Policy: mg.GetAdoptionPolicy(), ObserveOnly: observeOnly(mg)}, d)
	if err != nil {
		return e.conflict(mg, err)
	}
	if v.Stamp && meta.WasDeleted(mg) {
		// An object that was never stamped was never ours: let the resource go, leave the object.
		return managed.ExternalObservation{ResourceExists: false}, nil
	}
	if byKey {
		if err := e.bind(ctx, mg, d, v); err != nil {
			return managed.ExternalObservation{}, err
		}
	}
	e.observed, e.verdict = o, v

	obs := e.driver.Observe(mg, *o, v.Provenance)
	mg.SetConditions(xpv2.Available())
	return managed.ExternalObservation{
		ResourceExists:          true,
		ResourceUpToDate:        obs.UpToDate && !v.Stamp,
		ResourceLateInitialized: obs.LateInitialized,
		ConnectionDetails:       obs.ConnectionDetails,
		Diff:                    obs.Diff,
	}, nil
}

// lookup returns the object and whether it was found by natural key rather than by ID.
func (e *External[MR, O]) lookup(ctx context.Context, mg MR) (*O, bool, error) {
	if id := meta.GetExternalName(mg); id != "" {
		o, err := e.driver.Get(ctx, mg, id)
		if err == nil {
			return &o, false, nil
		}
		if !e.driver.IsNotFound(err) {
			return nil, false, errors.Wrapf(err, errGet, e.groupKind, id)
		}
		if meta.WasDeleted(mg) {
			// The object this resource is deleting is gone (usually by its own delete, a
			// moment ago): the deletion is complete. A same-named object made meanwhile is
			// none of its business, so it is not looked up.
			return nil, false, nil
		}
		// The object we knew is gone. Fall through to the natural key, so that a same-named
		// object made meanwhile is judged like any other rather than collided with on create.
	}
	found, err := e.driver.Find(ctx, mg)
	if err != nil {
		return nil, false, errors.Wrapf(err, errFind, e.groupKind)
	}
	switch len(found) {
	case 0:
		return nil, false, nil
	case 1:
		return &found[0], true, nil
	default:
		d := e.driver.Describe(found[0])
		return nil, false, errors.Errorf(errAmbiguous, len(found), d.Type, d.Key)
	}
}

// bind records the ID of an object found by natural key as the external name and persists it
// at once: a later failure must not lose it, whatever the management policies.
func (e *External[MR, O]) bind(ctx context.Context, mg MR, d Description, v verdict) error {
	if meta.GetExternalName(mg) == d.ID {
		return nil
	}
	// Finding our own object without knowing its ID means the resource was recreated or a
	// create's result was lost: worth telling the user.
	recovered := meta.GetExternalName(mg) == "" && !v.Stamp && v.Provenance != identityv1alpha1.Observed
	meta.SetExternalName(mg, d.ID)
	if recovered && d.Markerless {
		// The proof that a markerless object is ours ("create incomplete", see annotatedMarker)
		// lasts only until its ID is recorded; from then on the annotation must prove it.
		meta.AddAnnotations(mg, map[string]string{AnnotationMarker: d.Marker.Encode()})
	}
	if e.annotations != nil {
		if err := e.annotations.UpdateCriticalAnnotations(ctx, mg); err != nil {
			return errors.Wrap(err, errPersistName)
		}
	}
	if recovered {
		e.recorder.Event(mg, event.Normal(reasonRecovered, "Found "+d.Type+" "+d.Key+" (ID "+d.ID+") carrying this resource's provenance marker; managing it again"))
	}
	return nil
}

// conflict reports a conflict on the resource and, while it is being deleted, lets it go
// without touching the object that was never ours.
func (e *External[MR, O]) conflict(mg MR, err error) (managed.ExternalObservation, error) {
	var ce *ConflictError
	if !errors.As(err, &ce) {
		return managed.ExternalObservation{}, err
	}
	if meta.WasDeleted(mg) {
		return managed.ExternalObservation{ResourceExists: false}, nil
	}
	mg.SetConditions(ce.Condition())
	// The reconciler records the returned error as a Warning event and sets Synced=False, then
	// retries with backoff: the conflict clears by itself once the object is gone.
	return managed.ExternalObservation{}, err
}

// Create creates the object with this resource's marker.
func (e *External[MR, O]) Create(ctx context.Context, mg MR) (managed.ExternalCreation, error) {
	mg.SetConditions(xpv2.Creating())
	m := e.self(mg, provenance.OriginCreated)
	id, conn, err := e.driver.Create(ctx, mg, m)
	if tr, ok := e.driver.(TwinRefuser); ok && e.firstCreate && err != nil && tr.IsTwin(err) {
		return e.twin(ctx, mg, err)
	}
	if err != nil {
		if e.unconfirmed != nil && e.unconfirmed(err) {
			// The reconciler persists every annotation with its record of the failed create.
			meta.AddAnnotations(mg, map[string]string{AnnotationCreateUnconfirmed: time.Now().UTC().Format(time.RFC3339)})
		}
		return managed.ExternalCreation{}, err
	}
	meta.SetExternalName(mg, id)
	// The reconciler persists all annotations with the external name right after Create.
	meta.AddAnnotations(mg, map[string]string{AnnotationMarker: m.Encode()})
	return managed.ExternalCreation{ConnectionDetails: conn}, nil
}

// Update writes the spec to the object observed in this reconcile, stamping the marker when
// adopting. It never creates: a resource whose object does not exist is not updated.
func (e *External[MR, O]) Update(ctx context.Context, mg MR) (managed.ExternalUpdate, error) {
	if e.observed == nil || e.verdict.Provenance == identityv1alpha1.Observed {
		return managed.ExternalUpdate{}, errors.New(errNoObserved)
	}
	origin := provenance.OriginCreated
	if e.verdict.Provenance == identityv1alpha1.Adopted {
		origin = provenance.OriginAdopted
	}
	conn, err := e.driver.Update(ctx, mg, *e.observed, e.self(mg, origin))
	if err != nil {
		return managed.ExternalUpdate{}, err
	}
	if e.verdict.Stamp {
		d := e.driver.Describe(*e.observed)
		if d.Markerless {
			if err := e.annotate(ctx, mg, e.self(mg, origin)); err != nil {
				return managed.ExternalUpdate{}, err
			}
		}
		e.recorder.Event(mg, event.Normal(reasonAdopted, "Adopted existing "+d.Type+" "+d.Key+" (ID "+d.ID+") under spec.adoptionPolicy: AdoptExisting"))
	}
	return managed.ExternalUpdate{ConnectionDetails: conn}, nil
}

// Delete deletes the observed object, only when this resource owns or adopted it.
func (e *External[MR, O]) Delete(ctx context.Context, mg MR) (managed.ExternalDelete, error) {
	ctx = clients.ReadAlone(ctx) // see Observe
	mg.SetConditions(xpv2.Deleting())
	if e.held != nil {
		return managed.ExternalDelete{}, e.held
	}
	if e.observed == nil {
		return managed.ExternalDelete{}, nil
	}
	if e.verdict.Stamp || e.verdict.Provenance == identityv1alpha1.Observed {
		d := e.driver.Describe(*e.observed)
		return managed.ExternalDelete{}, errors.Errorf(errNotOurs, d.Type, d.Key, d.ID)
	}
	if err := e.checkDependents(ctx, mg); err != nil {
		return managed.ExternalDelete{}, err
	}
	if err := e.driver.Delete(ctx, mg, *e.observed); err != nil {
		return managed.ExternalDelete{}, err
	}
	e.deletions.record(mg.GetUID(), meta.GetExternalName(mg))
	if r, ok := e.owners.(BackoffResetter); ok {
		r.ResetBackoff(e.groupKind, mg.GetNamespace(), mg.GetName())
	}
	return managed.ExternalDelete{}, nil
}

// checkDependents refuses a delete that would take other objects with it (see cascade.go),
// recording why in the DeletionBlocked condition.
func (e *External[MR, O]) checkDependents(ctx context.Context, mg MR) error {
	c, ok := e.driver.(Cascader[MR, O])
	if !ok {
		return nil
	}
	d := e.driver.Describe(*e.observed)
	w, waits := e.owners.(Waiter)
	var mark uint64
	if waits {
		// Taken before the dependents are read: an owner gone after it is not waited for.
		mark = w.Changes()
	}
	deps, err := c.Dependents(withHeldByOurs(ctx, e.owners, e.installation), mg, *e.observed)
	if err != nil {
		return errors.Wrapf(err, errDependents, d.Type, d.Key, d.ID)
	}
	if len(deps) == 0 {
		if mg.GetCondition(TypeDeletionBlocked).Status == corev1.ConditionTrue {
			mg.SetConditions(xpv2.Condition{Type: TypeDeletionBlocked, Status: corev1.ConditionFalse, Reason: reasonNothingInTheWay,
				LastTransitionTime: metav1.Now()})
		}
		return nil
	}
	judged, err := judge(ctx, e.owners, e.installation, deps)
	if err != nil {
		return err
	}
	return e.blocked(mg, d, judged, waits, w, mark)
}

// holdLocally checks, before the deletion reads its object, whether resources of ours that
// record it as part of their external names hold it (see LocalCascader). If so it records why
// on the resource, and the error for Delete in e.held.
func (e *External[MR, O]) holdLocally(ctx context.Context, mg MR) bool {
	lc, ok := e.driver.(LocalCascader[MR])
	id := meta.GetExternalName(mg)
	if !ok || id == "" {
		return false
	}
	w, waits := e.owners.(Waiter)
	var mark uint64
	if waits {
		// Taken before the cache is read: an owner gone after it is not waited for.
		mark = w.Changes()
	}
	d, deps := lc.LocalDependents(mg, id)
	judged := heldLocally(ctx, e.owners, deps)
	if len(judged) == 0 {
		return false
	}
	e.held = e.blocked(mg, d, judged, waits, w, mark)
	return true
}

// blocked records on the resource why its object was not deleted and, when only resources of
// ours stand in the way, what to wake it for (see waitedFor).
func (e *External[MR, O]) blocked(mg MR, d Description, judged []judgedDependent, waits bool, w Waiter, mark uint64) error {
	be := &DeletionBlockedError{Object: d, dependents: judged}
	mg.SetConditions(be.Condition())
	if rs := waitedFor(judged); waits && len(rs) > 0 {
		w.WaitFor(e.groupKind, mg.GetNamespace(), mg.GetName(), rs, mark)
	}
	return be
}

// AnnotationMarker holds, on the managed resource, the marker of an external object whose kind
// cannot carry one.
const AnnotationMarker = "identity.crossplane.io/provenance"

// AnnotationCreateUnconfirmed records, on the managed resource, that its last create failed in
// a way that may have created the object all the same (a 5xx, a timeout). Until the resource
// records an external name, a markerless object found under its key is then its own, as after
// an interrupted create: only this resource issues creates under that key.
const AnnotationCreateUnconfirmed = "identity.crossplane.io/create-unconfirmed"

// annotatedMarker returns the marker recorded on the resource for a markerless kind. It proves
// ownership only of the object the resource recorded as its own (its external name): when that
// object is gone and another with the same natural key has appeared, the newcomer is unmarked.
// A create that was started but never recorded as finished (the provider stopped in between) is
// ours too: only this resource issues creates under its name.
func (e *External[MR, O]) annotatedMarker(mg MR, id string) *provenance.Marker {
	recorded := meta.GetExternalName(mg)
	if s := mg.GetAnnotations()[AnnotationMarker]; s != "" && recorded == id {
		if m, err := provenance.Parse(s); err == nil {
			return &m
		}
	}
	if recorded == "" && (meta.ExternalCreateIncomplete(mg) || mg.GetAnnotations()[AnnotationCreateUnconfirmed] != "") {
		m := e.self(mg, provenance.OriginCreated)
		return &m
	}
	return nil
}

// markerlessMarker returns the marker that stands for a markerless object: this resource's
// annotation when it proves the object ours, else a marker naming another resource of this
// installation that has recorded the object's ID as its external name (its annotation, not the
// object, carries its marker), so that decide refuses it as ADR 0001's "this installation's
// marker for another resource", even under AdoptExisting.
func (e *External[MR, O]) markerlessMarker(ctx context.Context, mg MR, d Description) (*provenance.Marker, error) {
	m := e.annotatedMarker(mg, d.ID)
	if e.owners == nil || observeOnly(mg) || (m != nil && meta.GetExternalName(mg) == d.ID) {
		// Observe-only resources never conflict; an object this resource recorded and marked
		// needs no lookup, which keeps the steady state free of it.
		return m, nil
	}
	st, err := e.owners.ByExternalName(ctx, e.groupKind, d.ID)
	if err != nil {
		return nil, errors.Wrapf(err, errOwner, d.Type, d.Key, d.ID)
	}
	if st.Resource == "" || st.Resource == provenance.ResourceName(e.groupKind, mg.GetNamespace(), mg.GetName()) {
		return m, nil
	}
	// Another resource's record beats an interrupted create of this one: both PUT the same
	// object, and only the other one has recorded it.
	return &provenance.Marker{Installation: e.installation, Resource: st.Resource, Origin: provenance.OriginCreated}, nil
}

// annotate records a markerless kind's marker on the resource and persists it at once.
func (e *External[MR, O]) annotate(ctx context.Context, mg MR, m provenance.Marker) error {
	meta.AddAnnotations(mg, map[string]string{AnnotationMarker: m.Encode()})
	if e.annotations == nil {
		return nil
	}
	// Persist through a copy: the API server answers the update with the stored status, which
	// would replace the status this reconcile observed and the reconciler persists next.
	cp, ok := mg.DeepCopyObject().(MR)
	if !ok {
		return errors.Wrap(e.annotations.UpdateCriticalAnnotations(ctx, mg), errPersistName)
	}
	if err := e.annotations.UpdateCriticalAnnotations(ctx, cp); err != nil {
		return errors.Wrap(err, errPersistName)
	}
	mg.SetResourceVersion(cp.GetResourceVersion())
	return nil
}

// Disconnect does nothing: clients are shared and cached per ProviderConfig.
func (e *External[MR, O]) Disconnect(context.Context) error { return nil }

// observeOnly is true when the resource may only be observed.
func observeOnly(mg resource.Managed) bool {
	p := mg.GetManagementPolicies()
	return len(p) == 1 && p[0] == xpv2.ManagementActionObserve
}
