package adoption

import (
	"context"
	"slices"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// A TwinRefuser is a driver whose Create never makes a second object under the resource's
// natural key, nor takes one over: the system refuses the twin (Keystone's unique names in a
// domain), or the driver checks right before it writes and returns a ConflictError (a fact).
// For such a kind the natural-key lookup before a resource's first create finds nothing the
// create would not find out itself, so the engine leaves it out: one read fewer per object
// created, the lookup a create costs at scale (ADR 0006). A twin fails the create, which is
// then judged like any object found by its key.
type TwinRefuser interface {
	// IsTwin reports whether a create failed because an object with the resource's natural
	// key exists (Keystone's 409).
	IsTwin(err error) bool
}

// createsFirst reports whether Observe may report a resource's object missing without looking
// its natural key up: the kind refuses twins, and the resource has never tried a create (any
// earlier attempt, finished or not, may have made the object, which only the lookup finds),
// may create, is not being deleted, and does not ask to adopt (where an object is expected,
// the lookup finds it without a failed create first).
func (e *External[MR, O]) createsFirst(mg MR) bool {
	if _, ok := e.driver.(TwinRefuser); !ok {
		return false
	}
	a := mg.GetAnnotations()
	for _, k := range []string{meta.AnnotationKeyExternalCreatePending, meta.AnnotationKeyExternalCreateSucceeded,
		meta.AnnotationKeyExternalCreateFailed, AnnotationCreateUnconfirmed} {
		if a[k] != "" {
			return false
		}
	}
	return meta.GetExternalName(mg) == "" && !meta.WasDeleted(mg) && mayCreate(mg) &&
		mg.GetAdoptionPolicy() != identityv1alpha1.AdoptExisting
}

// mayCreate is true when the management policies allow a create (none set means all).
func mayCreate(mg resource.Managed) bool {
	p := mg.GetManagementPolicies()
	return len(p) == 0 || slices.Contains(p, xpv2.ManagementActionAll) || slices.Contains(p, xpv2.ManagementActionCreate)
}

// twin judges the object that made a first create fail as a twin (see TwinRefuser), as Observe
// would have judged it: a conflict is returned, so that the user reads what is in the way and
// the field to set at once; an object of this resource's own (its marker: a resource recreated
// under the same name) is bound and managed again, as a create; anything else returns err.
func (e *External[MR, O]) twin(ctx context.Context, mg MR, err error) (managed.ExternalCreation, error) {
	o, _, lerr := e.lookup(ctx, mg)
	if lerr != nil || o == nil {
		return managed.ExternalCreation{}, err
	}
	d := e.driver.Describe(*o)
	if d.Markerless {
		// A markerless kind's driver judges its twins itself (a ConflictError).
		return managed.ExternalCreation{}, err
	}
	v, derr := decide(request{Self: e.self(mg, ""), Policy: mg.GetAdoptionPolicy()}, d)
	if derr != nil {
		var ce *ConflictError
		if errors.As(derr, &ce) {
			mg.SetConditions(ce.Condition())
		}
		return managed.ExternalCreation{}, derr
	}
	if v.Stamp || v.Provenance == identityv1alpha1.Observed {
		return managed.ExternalCreation{}, err
	}
	if berr := e.bind(ctx, mg, d, v); berr != nil {
		return managed.ExternalCreation{}, berr
	}
	return managed.ExternalCreation{}, nil
}
