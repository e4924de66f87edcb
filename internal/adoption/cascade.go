package adoption

import (
	"context"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
)

// A Dependent is an object that the external system deletes (or detaches) together with
// another: a project inside a domain, an assignment of a role. The engine refuses a delete that
// would take a dependent with it, whoever it belongs to; what it says about each one depends on
// who that is.
type Dependent struct {
	// Description names the object; its Marker is the one the object carries (nil if none).
	Description
	// Kind is the group-qualified managed kind that would manage the object, for example
	// RoleAssignment.keystone.identity.crossplane.io. With ExternalName it finds the resource
	// of a markerless kind that manages the object; empty when no kind of ours does.
	Kind string
	// ExternalName is the external name such a resource has: the object's ID, or its key for
	// role assignments.
	ExternalName string
}

// A Cascader is a Driver whose deletes take other objects with them. Dependents lists them,
// reading only what a delete is about to need; the engine calls it right before Delete and
// deletes only when the list is empty.
type Cascader[MR any, O any] interface {
	Dependents(ctx context.Context, mg MR, o O) ([]Dependent, error)
}

// OwnerState is what an Owners lookup knows about the managed resource behind a dependent.
type OwnerState struct {
	// Resource is the resource as Kind.group/name; empty when no resource of this installation
	// manages the object.
	Resource string
	// Deleting is true when that resource is being deleted and will delete its object.
	Deleting bool
	// Keeps is true when that resource exists but will not delete its object (deletionPolicy
	// Orphan, or management policies without Delete).
	Keeps bool
}

// Owners finds the managed resources of this installation behind dependents.
type Owners interface {
	// ByMarker reports on the resource a marker of this installation names (Kind.group/name).
	ByMarker(ctx context.Context, resource string) (OwnerState, error)
	// ByExternalName reports on the resource of the given kind whose external name is name.
	ByExternalName(ctx context.Context, kind, name string) (OwnerState, error)
}

// A Waiter learns which resources a blocked deletion waits for, so that it can reconcile the
// waiting resource as soon as they are gone (Owners implementations may also be Waiters).
type Waiter interface {
	// Changes returns a mark to take before checking what a deletion waits for.
	Changes() uint64
	// WaitFor records that the resource of kind in namespace ("" for a cluster-scoped one) with
	// name waits for each of resources (as provenance.ResourceName writes them) that was not
	// deleted after mark.
	WaitFor(kind, namespace, name string, resources []string, mark uint64)
}

// A BackoffResetter learns that a resource's external object was just deleted. The reconciler
// checks that the object is gone with its rate limiter's backoff, which the waits before the
// delete (for other finalizers, for dependents) may have grown to a minute; forgetting it makes
// the check come a second later.
type BackoffResetter interface {
	ResetBackoff(kind, namespace, name string)
}

// waitedFor lists the resources of this installation behind the dependents when every
// dependent has one: the deletion can go ahead only once they are gone (those being deleted
// soon, the others when someone deletes them), so it is woken then instead of reading its
// dependents again at each backoff step. nil when a dependent has none: only a person can
// remove that one, and the deletion is retried on its backoff.
func waitedFor(ds []judgedDependent) []string {
	out := make([]string, 0, len(ds))
	for _, d := range ds {
		if d.owner == "" {
			return nil
		}
		out = append(out, d.owner)
	}
	return out
}

// The DeletionBlocked condition. The reconciler owns Ready (Deleting) and Synced (ReconcileError,
// with this message) while a delete fails, so the reason lives on a condition of its own.
const (
	// TypeDeletionBlocked is true while a deletion waits because the external system would
	// delete other objects with the resource's object.
	TypeDeletionBlocked xpv2.ConditionType = "DeletionBlocked"
	// ReasonForeignDependents: at least one of those objects is not being deleted by us.
	ReasonForeignDependents xpv2.ConditionReason = "ObjectsInTheWay"
	// ReasonDependentsDeleting: every one of them is being deleted by its own resource.
	ReasonDependentsDeleting xpv2.ConditionReason = "WaitingForDependents"

	reasonNothingInTheWay xpv2.ConditionReason = "NothingInTheWay"
)

// shownDependents is how many dependents a message names; the rest are counted.
const shownDependents = 5

// A judgedDependent is a dependent with what the engine found out about its owner.
type judgedDependent struct {
	Dependent
	why     string
	waiting bool
	// owner is the resource of this installation that manages the dependent, if any.
	owner string
}

// A DeletionBlockedError explains why an object was not deleted: the external system would
// have deleted others with it.
type DeletionBlockedError struct {
	// Object is the object that was not deleted.
	Object Description
	// dependents are what deleting it would have taken along.
	dependents []judgedDependent
}

// Waiting is true when every dependent is being deleted by its own resource: the deletion goes
// ahead as soon as they are gone.
func (e *DeletionBlockedError) Waiting() bool {
	for _, d := range e.dependents {
		if !d.waiting {
			return false
		}
	}
	return true
}

func (e *DeletionBlockedError) Error() string {
	o := e.Object
	what := fmt.Sprintf("%s %q (ID %s)", o.Type, o.Key, o.ID)
	list := describeDependents(e.dependents)
	if e.Waiting() {
		return fmt.Sprintf("%s is not deleted yet: deleting it would also remove or detach %s, which their own resources are deleting; "+
			"the deletion goes ahead by itself once they are gone", what, list)
	}
	return fmt.Sprintf("%s was not deleted: the deletion would also remove or detach %s. Remove those objects, or let their resources "+
		"delete them, and this deletion goes ahead by itself; or delete this resource with spec.deletionPolicy: Orphan "+
		"to keep the %s", what, list, o.Type)
}

// Condition is the DeletionBlocked condition for the error.
func (e *DeletionBlockedError) Condition() xpv2.Condition {
	c := xpv2.Condition{Type: TypeDeletionBlocked, Status: corev1.ConditionTrue, Reason: ReasonForeignDependents, Message: e.Error(),
		LastTransitionTime: metav1.Now()}
	if e.Waiting() {
		c.Reason = ReasonDependentsDeleting
	}
	return c
}

// describeDependents names the first few dependents and counts the rest.
func describeDependents(ds []judgedDependent) string {
	n := len(ds)
	parts := make([]string, 0, shownDependents+1)
	for i, d := range ds {
		if i == shownDependents {
			parts = append(parts, fmt.Sprintf("and %d more", n-shownDependents))
			break
		}
		parts = append(parts, fmt.Sprintf("%s %q (ID %s, %s)", d.Type, d.Key, d.ID, d.why))
	}
	noun := "object"
	if n != 1 {
		noun = "objects"
	}
	return fmt.Sprintf("%d %s: %s", n, noun, strings.Join(parts, "; "))
}

// judge finds out who each dependent belongs to, for the message and for whether the deletion
// is only waiting.
func judge(ctx context.Context, owners Owners, installation string, ds []Dependent) ([]judgedDependent, error) {
	out := make([]judgedDependent, 0, len(ds))
	for _, d := range ds {
		j := judgedDependent{Dependent: d}
		st, err := ownerOf(ctx, owners, installation, d)
		if err != nil {
			return nil, err
		}
		j.owner = st.Resource
		m := d.Marker
		// Owners are named for users: a namespaced one with its namespace, since resources of
		// different namespaces may share names.
		owner := ResourceLabel(st.Resource)
		switch {
		case m != nil && m.Installation != installation:
			j.why = fmt.Sprintf("managed by another installation %q", m.Installation)
		case st.Resource == "" && m != nil:
			j.why = fmt.Sprintf("left behind by %s of this installation, which no longer exists", ResourceLabel(m.Resource))
		case st.Resource == "":
			j.why = "not created or adopted by this installation"
		case st.Deleting:
			j.why, j.waiting = "being deleted by "+owner, true
		case st.Keeps:
			j.why = owner + " keeps it (deletionPolicy Orphan or no Delete management policy)"
		default:
			j.why = "still managed by " + owner
		}
		out = append(out, j)
	}
	return out, nil
}

// ownerOf looks up the resource of this installation behind a dependent, by its marker or, for
// markerless kinds, by its external name.
func ownerOf(ctx context.Context, owners Owners, installation string, d Dependent) (OwnerState, error) {
	if owners == nil {
		return OwnerState{}, nil
	}
	var st OwnerState
	var err error
	switch {
	case d.Marker != nil && d.Marker.Installation == installation:
		st, err = owners.ByMarker(ctx, d.Marker.Resource)
	case d.Marker == nil && d.Kind != "" && d.ExternalName != "":
		st, err = owners.ByExternalName(ctx, d.Kind, d.ExternalName)
	default:
		return OwnerState{}, nil
	}
	return st, errors.Wrapf(err, "cannot look up the resource that manages %s %q (ID %s)", d.Type, d.Key, d.ID)
}

// heldByOursKey holds, in the context of a Cascader's Dependents, the test of whether every
// dependent found so far belongs to a resource of this installation (see waitedFor).
type heldByOursKey struct{}

// Gather runs a Cascader's lists one after the other and joins what they find. Once every
// object it has found belongs to a resource of this installation, it stops: the deletion is
// held until those resources are gone (it waits for the ones being deleted, and is blocked by
// the others) whatever the other lists hold, is woken then, and reads them all again. A
// deletion that goes ahead, or is blocked by an object no resource of ours manages, has read
// every list, so that its message names all that is in the way. So lists of what is usually
// deleted first (a project's role assignments before its child projects) come first, and a
// held deletion costs one list rather than all of them.
func Gather(ctx context.Context, lists ...func() ([]Dependent, error)) ([]Dependent, error) {
	heldByOurs, _ := ctx.Value(heldByOursKey{}).(func([]Dependent) bool)
	var all []Dependent
	for i, l := range lists {
		ds, err := l()
		if err != nil {
			return nil, err
		}
		all = append(all, ds...)
		if len(all) > 0 && i < len(lists)-1 && heldByOurs != nil && heldByOurs(all) {
			return all, nil
		}
	}
	return all, nil
}

// withHeldByOurs returns ctx with the test Gather stops on.
func withHeldByOurs(ctx context.Context, owners Owners, installation string) context.Context {
	return context.WithValue(ctx, heldByOursKey{}, func(ds []Dependent) bool {
		judged, err := judge(ctx, owners, installation, ds)
		if err != nil {
			// The caller's own judgement reports the error; read on until then.
			return false
		}
		return waitedFor(judged) != nil
	})
}

// A LocalCascader is a Cascader some of whose dependents are objects of a markerless kind of
// ours whose external names name what they hang on: a role assignment's key names its project,
// its group and its role. Before it reads the system, a deletion looks for resources of that
// kind of this installation whose external names name its object (see PartOwners): such a
// resource has made or adopted its object, which the deletion would take with it, so while any
// exists the deletion is held without a request (it waits for those being deleted, and is
// blocked by the others until they are deleted; either way it is woken when they are gone).
// Once none is, the system's lists decide as before.
//
// The check needs only the object's ID, the resource's external name, so it comes before the
// deletion reads the object: a held deletion costs no request at all. object describes the
// object for the condition, from the resource alone.
type LocalCascader[MR any] interface {
	LocalDependents(mg MR, id string) (object Description, deps []LocalDependents)
}

// LocalDependents names the resources of Kind whose external names contain Part (a
// "<word>/<ID>" pair, such as project/abc); Type names their objects in messages.
type LocalDependents struct {
	Kind, Part, Type string
}

// PartOwners finds the resources of a kind, in either scope, whose external names contain a
// "<word>/<ID>" pair. Owners implementations may be PartOwners.
type PartOwners interface {
	ByExternalNamePart(ctx context.Context, kind, part string) ([]PartOwner, error)
}

// A PartOwner is one resource PartOwners found, with its external name.
type PartOwner struct {
	OwnerState
	ExternalName string
}

// heldLocally returns the dependents that resources of ours record as theirs, as a
// LocalCascader names them, judged as their owners' states say; nil when there are none or they
// cannot be looked up (the system's lists then decide).
func heldLocally(ctx context.Context, owners Owners, deps []LocalDependents) []judgedDependent {
	po, ok := owners.(PartOwners)
	if !ok {
		return nil
	}
	var out []judgedDependent
	for _, q := range deps {
		found, err := po.ByExternalNamePart(ctx, q.Kind, q.Part)
		if err != nil {
			return nil
		}
		for _, f := range found {
			owner := ResourceLabel(f.Resource)
			j := judgedDependent{
				Dependent: Dependent{Description: Description{ID: f.ExternalName, Type: q.Type, Key: f.ExternalName, Markerless: true},
					Kind: q.Kind, ExternalName: f.ExternalName},
				why: "still managed by " + owner, owner: f.Resource,
			}
			switch {
			case f.Deleting:
				j.why, j.waiting = "being deleted by "+owner, true
			case f.Keeps:
				j.why = owner + " keeps it (deletionPolicy Orphan or no Delete management policy)"
			}
			out = append(out, j)
		}
	}
	return out
}
