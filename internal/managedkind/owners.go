package managedkind

import (
	"context"
	"slices"
	"strings"

	kerrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// IndexExternalName indexes every managed kind by its external name, so that the resource
// managing a markerless object (a role assignment, whose key is its external name) is found
// without listing the kind.
const IndexExternalName = "identity.crossplane.io/external-name"

func externalNameIndex(o client.Object) []string {
	if n := meta.GetExternalName(o); n != "" {
		return []string{n}
	}
	return nil
}

// IndexExternalNameParts indexes every managed kind by the "<word>/<ID>" pairs of its external
// name, where that is a path of two pairs or more: a role assignment's
// project/<ID>/group/<ID>/role/<ID> is found under project/<ID>, group/<ID> and role/<ID>, so
// that the resources whose objects hang on a project are found without listing the kind. A
// resource that has made or adopted its object (it has an external name) and is Homed is found
// under its HomeParts too: a project under domain/<ID>.
const IndexExternalNameParts = "identity.crossplane.io/external-name-parts"

// Homed is a managed resource whose object lives inside another object of its system, the way
// a Keystone project lives in its domain and goes with it. HomeParts names those objects as
// "<word>/<ID>" pairs, from the spec: Keystone cannot move a project to another domain, so the
// domain it was made or adopted in is the one its spec names.
type Homed interface {
	HomeParts() []string
}

func externalNamePartsIndex(o client.Object) []string {
	name := meta.GetExternalName(o)
	if name == "" {
		return nil
	}
	var out []string
	if segs := strings.Split(name, "/"); len(segs) >= 4 {
		// Not an ID, nor one pair such as an identity provider's protocol (<idp>/<protocol>):
		// a path of words and IDs.
		out = make([]string, 0, len(segs)/2)
		for i := 0; i+1 < len(segs); i += 2 {
			out = append(out, segs[i]+"/"+segs[i+1])
		}
	}
	if h, ok := o.(Homed); ok {
		out = append(out, h.HomeParts()...)
	}
	return out
}

// Owners implements adoption.Owners over the manager's cache: the resources it asks about are
// of this provider's kinds, which the manager watches anyway.
type Owners struct {
	Kube   client.Reader
	Scheme *runtime.Scheme
	// Waker, when set, wakes a deletion once the resources it waits for are gone.
	Waker *Waker
	// FirstResources, when set, tells the kinds that have had no resource yet: they are not
	// set up (no informer, no index) and own nothing.
	FirstResources *FirstResources
}

// Changes implements adoption.Waiter.
func (o Owners) Changes() uint64 {
	if o.Waker == nil {
		return 0
	}
	return o.Waker.Changes()
}

// ResetBackoff implements adoption.BackoffResetter.
func (o Owners) ResetBackoff(kind, namespace, name string) {
	if o.Waker != nil {
		o.Waker.ResetBackoff(kind, namespace, name)
	}
}

// WaitFor implements adoption.Waiter.
func (o Owners) WaitFor(kind, namespace, name string, resources []string, mark uint64) {
	if o.Waker != nil {
		o.Waker.WaitFor(kind, namespace, name, resources, mark)
	}
}

// ByMarker reports on the resource a marker names, as Kind.group/name or
// Kind.group/namespace/name.
func (o Owners) ByMarker(ctx context.Context, res string) (adoption.OwnerState, error) {
	kind, ns, name, ok := provenance.SplitResourceName(res)
	if !ok {
		return adoption.OwnerState{}, nil
	}
	mg, ok := o.newObject(kind, "").(resource.Managed)
	if !ok {
		return adoption.OwnerState{}, nil
	}
	if err := o.Kube.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, mg); err != nil {
		// Gone, or a kind the API server does not serve (not activated): no such resource.
		if kerrors.IsNotFound(err) || apimeta.IsNoMatchError(err) {
			return adoption.OwnerState{}, nil
		}
		return adoption.OwnerState{}, err
	}
	return stateOf(res, mg), nil
}

// ByExternalName reports on the resource of a kind whose external name is name. A kind exists
// in both scopes (docs/adr/0005-crossplane-v2-scopes.md) and its resources of either scope
// manage the same external objects, so the kind's twin in the other scope is asked too: a
// markerless object (a role assignment, a protocol) may be a namespaced resource's.
func (o Owners) ByExternalName(ctx context.Context, kind, name string) (adoption.OwnerState, error) {
	var st adoption.OwnerState
	err := o.inBothScopes(ctx, kind, IndexExternalName, name, func(res string, mg resource.Managed) bool {
		if meta.GetExternalName(mg) != name {
			return true
		}
		st = stateOf(res, mg)
		return false
	})
	return st, err
}

// ByExternalNamePart implements adoption.PartOwners: the resources of a kind, and of its twin in
// the other scope, whose external names contain part.
func (o Owners) ByExternalNamePart(ctx context.Context, kind, part string) ([]adoption.PartOwner, error) {
	var out []adoption.PartOwner
	err := o.inBothScopes(ctx, kind, IndexExternalNameParts, part, func(res string, mg resource.Managed) bool {
		if slices.Contains(externalNamePartsIndex(mg), part) {
			out = append(out, adoption.PartOwner{OwnerState: stateOf(res, mg), ExternalName: meta.GetExternalName(mg)})
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// inBothScopes lists the resources of a kind and of its twin in the other scope whose index
// field holds value, and hands each to visit (as Kind.group/[namespace/]name) until visit
// returns false.
func (o Owners) inBothScopes(ctx context.Context, kind, field, value string, visit func(res string, mg resource.Managed) bool) error {
	for _, k := range []string{kind, otherScope(kind)} {
		list, ok := o.newObject(k, "List").(resource.ManagedList)
		if k == "" || !ok || o.FirstResources.Waiting(k) {
			// A kind still waiting for its first resource has none to own anything.
			continue
		}
		err := o.Kube.List(ctx, list, client.MatchingFields{field: value})
		switch {
		case apimeta.IsNoMatchError(err):
			// The API server does not serve the kind (with safe-start, it is not activated):
			// no resource of it can own anything.
			continue
		case err != nil:
			return err
		}
		for _, mg := range list.GetItems() {
			if !visit(provenance.ResourceName(k, mg.GetNamespace(), mg.GetName()), mg) {
				return nil
			}
		}
	}
	return nil
}

// Crossplane v2 puts a kind's namespaced twin into the group with .m. before crossplane.io.
const (
	clusterGroupSuffix    = ".crossplane.io"
	namespacedGroupSuffix = ".m.crossplane.io"
)

// otherScope is the group-qualified kind of a kind's twin in the other scope:
// RoleAssignment.keystone.identity.m.crossplane.io for
// RoleAssignment.keystone.identity.crossplane.io and the other way round; "" for a kind of
// neither form.
func otherScope(groupKind string) string {
	switch {
	case strings.HasSuffix(groupKind, namespacedGroupSuffix):
		return strings.TrimSuffix(groupKind, namespacedGroupSuffix) + clusterGroupSuffix
	case strings.HasSuffix(groupKind, clusterGroupSuffix):
		return strings.TrimSuffix(groupKind, clusterGroupSuffix) + namespacedGroupSuffix
	}
	return ""
}

// newObject returns a new object of a group-qualified kind (Kind.group) of the scheme, with
// suffix appended to the kind ("List" for its list), or nil for a kind the scheme lacks.
func (o Owners) newObject(groupKind, suffix string) runtime.Object {
	gk := schema.ParseGroupKind(groupKind)
	for gvk := range o.Scheme.AllKnownTypes() {
		if gvk.Group == gk.Group && gvk.Kind == gk.Kind+suffix {
			if obj, err := o.Scheme.New(gvk); err == nil {
				return obj
			}
		}
	}
	return nil
}

// stateOf tells whether a resource is deleting its object or keeping it.
func stateOf(res string, mg resource.Managed) adoption.OwnerState {
	st := adoption.OwnerState{Resource: res}
	if l, ok := mg.(resource.LegacyManaged); ok { //nolint:staticcheck // SA1019: the cluster-scoped kinds stay for the legacy model (ADR 0005)
		if !managed.NewLegacyManagementPoliciesResolver(true, mg.GetManagementPolicies(), l.GetDeletionPolicy()).ShouldDelete() { //nolint:staticcheck // SA1019: the cluster-scoped kinds stay for the legacy model (ADR 0005)
			st.Keeps = true
			return st
		}
	} else if !managed.NewManagementPoliciesResolver(true, mg.GetManagementPolicies()).ShouldDelete() {
		st.Keeps = true
		return st
	}
	st.Deleting = meta.WasDeleted(mg)
	return st
}
