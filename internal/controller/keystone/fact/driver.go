package fact

import (
	"context"
	"net/http"

	"github.com/google/go-cmp/cmp"
	"github.com/gophercloud/gophercloud/v2"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// Drivers returns the kind's driver over a client. With k.Shared, the checks of the facts of
// one list are shared by every resource of the kind as o says, and so are the checks right
// before a create that are asked at the same time.
func (k Kind[MR, F]) Drivers(o clients.SharedReadOptions) func(keystone.API) adoption.Driver[MR, F] {
	var r *Reads[F]
	if k.Shared != nil {
		r = &Reads[F]{
			Lists:  clients.NewSharedReads[F](o),
			Checks: &clients.JoinedChecks[F]{NotFound: keystone.IsNotFound, JoinedLists: clients.JoinedLists[F]{Now: o.Now}},
		}
	}
	return func(sc keystone.API) adoption.Driver[MR, F] { return New(k, sc, r) }
}

// Reads is what the drivers of one kind share, over every client.
type Reads[F Fact] struct {
	// Lists answers checks from one list of a scope's facts when many resources check facts
	// of that scope at about the same time.
	Lists *clients.SharedReads[F]
	// Checks answers the checks right before a create that are asked at the same time with
	// one list of their scope, started after all of them asked.
	Checks *clients.JoinedChecks[F]
}

// New returns the kind's driver over sc; r nil checks every fact alone.
func New[MR adoption.Managed, F Fact](k Kind[MR, F], sc keystone.API, r *Reads[F]) *Driver[MR, F] {
	d := &Driver[MR, F]{kind: k, sc: sc}
	if r != nil {
		d.reads, d.checks = r.Lists, r.Checks
	}
	return d
}

// A Driver drives the facts of one kind for the adoption engine.
type Driver[MR adoption.Managed, F Fact] struct {
	kind Kind[MR, F]
	sc   keystone.API
	// reads answers checks from one list of a scope's facts when many resources check facts
	// of that scope at about the same time; nil checks each alone.
	reads *clients.SharedReads[F]
	// checks joins the checks before a create asked at the same time; nil checks each alone.
	checks *clients.JoinedChecks[F]
}

// Get checks that the fact named by the external name exists: one HEAD, or its row in a list
// shared with the other resources that check a fact of that list.
func (d *Driver[MR, F]) Get(ctx context.Context, mg MR, id string) (F, error) {
	f, err := d.kind.Parse(id)
	if err != nil {
		return f, err
	}
	if ownDeletion(mg, id) {
		return f, nil
	}
	scope, ok := d.scope(f)
	if !ok {
		return f, d.check(ctx, f)
	}
	return d.reads.Get(ctx, scope, f.Key(), d.source(f))
}

// ownDeletion reports whether mg is being deleted and records the fact id as its own (its
// external name, with the marker annotation its create or adoption wrote). Such a fact is not
// checked before the delete: a fact has no marker, so the check could only say that it
// exists, and Delete finds that out as well (Keystone answers 404 for a fact already gone,
// which Delete takes as done). One request fewer per deletion.
func ownDeletion(mg adoption.Managed, id string) bool {
	return meta.WasDeleted(mg) && meta.GetExternalName(mg) == id && mg.GetAnnotations()[adoption.AnnotationMarker] != ""
}

// Find checks whether the fact the spec names exists. There is at most one. Where the kind
// allows it, a fresh shared list answers.
func (d *Driver[MR, F]) Find(ctx context.Context, mg MR) ([]F, error) {
	f, err := d.kind.Desired(mg)
	if err != nil {
		return keystone.Unresolved[F](mg, err)
	}
	if scope, ok := d.scope(f); ok && d.kind.Shared.Find {
		if found, ok := d.reads.Match(ctx, scope, f.Key(), func(g F) bool { return g == f }, d.source(f)); ok {
			return found, nil
		}
	}
	err = d.check(ctx, f)
	switch {
	case keystone.IsNotFound(err):
		return nil, nil
	case err != nil:
		return nil, err
	}
	return []F{f}, nil
}

// IsTwin is false: Create checks right before it writes and reports a fact that exists as a
// ConflictError itself, so the engine creates without looking the fact up first
// (adoption.TwinRefuser).
func (d *Driver[MR, F]) IsTwin(error) bool { return false }

// IsNotFound tells Keystone's 404: the fact does not exist.
func (d *Driver[MR, F]) IsNotFound(err error) bool { return keystone.IsNotFound(err) }

// Describe presents a fact; it carries no marker (the engine reads the resource's).
func (d *Driver[MR, F]) Describe(f F) adoption.Description {
	return adoption.Description{ID: f.Key(), Type: d.kind.Type, Key: f.Key(), Markerless: true}
}

// Observe records the fact. Existing is all there is to being up to date, unless the spec now
// names another fact than the one this resource manages.
func (d *Driver[MR, F]) Observe(mg MR, f F, p identityv1alpha1.Provenance) adoption.Observation {
	d.kind.Record(mg, f, p)
	want, err := d.kind.Desired(mg)
	if err != nil {
		// Unresolved references fail the reconcile before Observe; treat as no change.
		return adoption.Observation{UpToDate: true}
	}
	diff := cmp.Diff(want.Key(), f.Key())
	return adoption.Observation{UpToDate: diff == "", Diff: diff}
}

// Create makes the fact. Keystone's PUT answers alike whether or not the fact existed, so it
// cannot tell one made since Observe's read (by hand, by another installation) from a new one:
// a check right before the PUT refuses such a fact instead of claiming it, and leaves only the
// round trip between the two for a race. The check is a read that starts after Create asked
// (a HEAD, or one list shared with the creates of the same list that check at the same time),
// never a list from before.
func (d *Driver[MR, F]) Create(ctx context.Context, mg MR, _ provenance.Marker) (string, managed.ConnectionDetails, error) {
	if err := d.kind.Validate(mg); err != nil {
		return "", nil, err
	}
	f, err := d.kind.Desired(mg)
	if err != nil {
		return "", nil, err
	}
	switch exists, err := d.exists(ctx, f); {
	case err != nil:
		return "", nil, err
	case exists:
		return "", nil, &adoption.ConflictError{Object: d.Describe(f)}
	}
	scope, shared := d.scope(f)
	if err := keystone.PutFact(ctx, d.sc, d.kind.URL(d.sc, f)); err != nil {
		if shared {
			d.reads.Forget(scope, f.Key())
		}
		return "", nil, keystone.Wrap(err, d.kind.ErrMake, f.Key())
	}
	if shared {
		// Keystone's success is the answer: the fact exists now.
		d.reads.Wrote(scope, f.Key(), f)
	}
	return f.Key(), nil, nil
}

// Update has nothing to write: a fact has no fields, and its marker lives on the resource (the
// engine stamps it on adoption). A spec that now names another fact is refused rather than
// silently leaving the old one behind.
func (d *Driver[MR, F]) Update(_ context.Context, mg MR, f F, _ provenance.Marker) (managed.ConnectionDetails, error) {
	if err := d.kind.Validate(mg); err != nil {
		return nil, err
	}
	want, err := d.kind.Desired(mg)
	if err != nil {
		return nil, err
	}
	if want != f {
		return nil, errors.Errorf(d.kind.ErrChanged, want.Key(), f.Key())
	}
	return nil, nil
}

// Delete removes the observed fact, the one this resource owns.
func (d *Driver[MR, F]) Delete(ctx context.Context, _ MR, f F) error {
	err := keystone.DeleteFact(ctx, d.sc, d.kind.URL(d.sc, f))
	if scope, ok := d.scope(f); ok {
		d.reads.Forget(scope, f.Key())
	}
	return keystone.Wrap(keystone.IgnoreNotFound(err), d.kind.ErrRemove, f.Key())
}

// exists checks the fact right before a create, by a read that starts after it asks: with the
// other creates of its list that check at the same time, or alone.
func (d *Driver[MR, F]) exists(ctx context.Context, f F) (bool, error) {
	if scope, ok := d.scope(f); ok && d.checks != nil {
		ok, err := d.checks.Exists(ctx, scope, f.Key(), d.source(f))
		if err != nil && err == ctx.Err() { //nolint:errorlint // the very value: it gave up waiting, and says so alone
			return false, keystone.Wrap(err, d.kind.ErrCheck, f.Key())
		}
		// A read alone's error already names the fact (check).
		return ok, err
	}
	return clients.Exists(d.check(ctx, f), keystone.IsNotFound)
}

// check checks the fact alone: nil if it exists, a 404 (IsNotFound) if not.
func (d *Driver[MR, F]) check(ctx context.Context, f F) error {
	err := keystone.CheckFact(ctx, d.sc, d.kind.URL(d.sc, f))
	if err != nil && !keystone.IsNotFound(err) {
		return keystone.Wrap(err, d.kind.ErrCheck, f.Key())
	}
	return err
}

// scope is the list a fact is read in, per client (its credentials decide what it sees). A
// kind without shared lists, or a client that cannot be a map key (a test double passed by
// value), checks alone.
func (d *Driver[MR, F]) scope(f F) (clients.Scope, bool) {
	if d.reads == nil || d.kind.Shared == nil || !keystone.Joinable(d.sc) {
		return clients.Scope{}, false
	}
	return clients.Scope{Client: d.sc, List: d.kind.Shared.URL(d.sc, f)}, true
}

// source lists the facts of f's list, or checks f alone.
func (d *Driver[MR, F]) source(f F) clients.Source[F] {
	return clients.Source[F]{
		List: func(ctx context.Context) ([]F, error) { return d.kind.Shared.List(ctx, d.sc, f) },
		Get:  func(ctx context.Context) (F, error) { return f, d.check(ctx, f) },
		ID:   F.Key,
		Refused: func(err error) bool {
			return keystone.IsTruncated(err) || gophercloud.ResponseCodeIs(err, http.StatusForbidden)
		},
	}
}
