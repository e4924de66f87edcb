package managedkind

import (
	"context"
	"strings"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// PolicyAwareResolver resolves references every reconcile but writes the resolved IDs into
// spec only when the resource's management policies include LateInitialize (the default "*").
// With LateInitialize left out, the IDs live only in memory for the reconcile, so a GitOps
// tool that owns the spec never sees fields it did not write.
//
// With a Waker, a resource whose references do not resolve yet waits for the resources it
// read to change, and is reconciled as soon as one does, instead of sitting in exponential
// backoff for up to a minute after its domain got its ID.
type PolicyAwareResolver struct {
	client client.Client
	kind   string // the Kind.group of the resources this resolver resolves
	waker  *Waker
	// creates, when set, takes the resolved IDs to write after Observe, with the update that
	// records a create as pending when there is one (see CreatesAhead); the connector's
	// external client must then be an aheadExternal with a client.
	creates *CreatesAhead
}

// NewPolicyAwareResolver returns a resolver of kind's references that writes what it resolved
// at once. waker may be nil.
func NewPolicyAwareResolver(c client.Client, kind string, waker *Waker) *PolicyAwareResolver {
	return &PolicyAwareResolver{client: c, kind: kind, waker: waker}
}

// WritingAhead makes r leave the resolved IDs to creates and its connector's external client.
func (r *PolicyAwareResolver) WritingAhead(creates *CreatesAhead) *PolicyAwareResolver {
	r.creates = creates
	return r
}

// ResolveReferences of the supplied managed resource.
func (r *PolicyAwareResolver) ResolveReferences(ctx context.Context, mg resource.Managed) error {
	reads := &readRecorder{Client: r.client}
	var mark uint64
	if r.waker != nil {
		mark = r.waker.Changes()
	}
	err := r.resolve(ctx, mg, reads)
	if r.waker == nil {
		return err
	}
	if err != nil {
		r.waker.WaitForReferences(r.kind, mg.GetNamespace(), mg.GetName(), reads.targets, mark)
	} else {
		r.waker.ReferencesResolved(r.kind, mg.GetNamespace(), mg.GetName())
	}
	return err
}

func (r *PolicyAwareResolver) resolve(ctx context.Context, mg resource.Managed, c client.Client) error {
	rr, ok := mg.(interface {
		ResolveReferences(ctx context.Context, r client.Reader) error
	})
	if !ok {
		return nil
	}
	if !lateInitializes(mg.GetManagementPolicies()) {
		return errors.Wrap(rr.ResolveReferences(ctx, c), errResolve)
	}
	existing, ok := mg.DeepCopyObject().(client.Object)
	if !ok {
		return errors.New(errResolve + ": the resource is not a client.Object")
	}
	if err := rr.ResolveReferences(ctx, c); err != nil {
		return errors.Wrap(err, errResolve)
	}
	// Semantic equality takes a nil and an empty slice or map as equal, as a JSON merge patch
	// does; unlike go-cmp, it allocates next to nothing (go-cmp's comparison of every resource
	// on every reconcile was about a tenth of the provider's allocation at N=500).
	if equality.Semantic.DeepEqual(existing, mg) {
		return nil
	}
	// A JSON merge patch of what resolution changed, not crossplane-runtime's server-side
	// apply of it: an apply drops every field its manager applied before and leaves out now.
	// When one reference was resolved again (its ID cleared after its Ref changed), that
	// apply named only that ID and dropped the IDs of the other references; they were
	// resolved again on the next reconcile, whose apply dropped the first ID, and so on, a
	// write loop of dozens of updates a second. A merge patch changes only what it names.
	patch := client.MergeFrom(existing)
	if r.creates == nil {
		return persistResolved(ctx, c, mg, patch)
	}
	// Computed now, so that what Observe does to the spec later is not part of it.
	data, err := patch.Data(mg)
	if err != nil {
		return errors.Wrap(err, errPersistResolved)
	}
	r.creates.resolvedAhead(mg, data)
	return nil
}

// persistResolved writes patch, the references resolution filled in, into obj.
func persistResolved(ctx context.Context, c client.Client, obj client.Object, patch client.Patch) error {
	return errors.Wrap(c.Patch(ctx, obj, patch, client.FieldOwner(resolverFieldOwner)), errPersistResolved)
}

const (
	errResolve         = "cannot resolve references"
	errPersistResolved = "cannot write the resolved references into spec"
	// resolverFieldOwner is the field manager of the resolved IDs, crossplane-runtime's name.
	resolverFieldOwner = "managed.crossplane.io/api-simple-reference-resolver"
)

func lateInitializes(p xpv2.ManagementPolicies) bool {
	if len(p) == 0 {
		return true
	}
	for _, a := range p {
		if a == xpv2.ManagementActionAll || a == xpv2.ManagementActionLateInitialize {
			return true
		}
	}
	return false
}

// A readRecorder notes the resources a reference resolution reads: each Get's resource, and
// for each List (a selector) every resource of that kind in that namespace. Writes pass through.
type readRecorder struct {
	client.Client
	targets []string
}

func (c *readRecorder) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	if gk, ok := c.groupKind(obj, ""); ok {
		c.targets = append(c.targets, provenance.ResourceName(gk, key.Namespace, key.Name))
	}
	return c.Client.Get(ctx, key, obj, opts...)
}

func (c *readRecorder) List(ctx context.Context, list client.ObjectList, opts ...client.ListOption) error {
	if gk, ok := c.groupKind(list, "List"); ok {
		lo := (&client.ListOptions{}).ApplyOptions(opts)
		c.targets = append(c.targets, provenance.ResourceName(gk, lo.Namespace, anyName))
	}
	return c.Client.List(ctx, list, opts...)
}

// groupKind is obj's Kind.group as the scheme knows it, without suffix (a list's "List").
func (c *readRecorder) groupKind(obj runtime.Object, suffix string) (string, bool) {
	gvk, err := apiutil.GVKForObject(obj, c.Scheme())
	if err != nil {
		return "", false
	}
	return strings.TrimSuffix(gvk.Kind, suffix) + "." + gvk.Group, true
}
