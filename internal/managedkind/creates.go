package managedkind

import (
	"context"
	"sync"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
)

// CreatesAhead are the resources, in the reconciles under way, whose Observe found no external
// object and whose management policies let them create one: crossplane-runtime's next write
// to such a resource is the update that records the create as pending, and nothing is created
// before it succeeds.
//
// It lets the finalizer of a resource about to be created ride on that update instead of an
// update of its own (one API server write fewer per create, of about nine: at N=500 the API
// server, not Keystone, was the busiest process of the apply). The finalizer is still on the
// resource before anything exists to be finalized: if the pending update fails, the create
// does not happen either.
//
// Entries are keyed by the reconcile's own object (crossplane-runtime reads a fresh one for each
// reconcile) and live from Observe to the finalizer or the end of the reconcile (Disconnect),
// so a reconcile that returns before adding its finalizer leaves nothing behind.
type CreatesAhead struct {
	mu  sync.Mutex
	set map[client.Object]struct{}
}

// NewCreatesAhead returns an empty set.
func NewCreatesAhead() *CreatesAhead {
	return &CreatesAhead{set: map[client.Object]struct{}{}}
}

// observed records what Observe found for mg.
func (c *CreatesAhead) observed(mg resource.Managed, o managed.ExternalObservation, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err == nil && !o.ResourceExists && !meta.WasDeleted(mg) && mayCreate(mg.GetManagementPolicies()) {
		c.set[mg] = struct{}{}
		return
	}
	delete(c.set, mg)
}

// take reports whether mg is about to be created in this reconcile, and forgets it.
func (c *CreatesAhead) take(mg client.Object) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.set[mg]
	delete(c.set, mg)
	return ok
}

// Len is how many reconciles under way hold an entry.
func (c *CreatesAhead) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.set)
}

// mayCreate is crossplane-runtime's ShouldCreate with management policies enabled: Create or
// "*". With the feature disabled the runtime creates whatever the policies say; then a
// resource whose policies leave out Create only writes its finalizer alone, as before.
func mayCreate(p xpv2.ManagementPolicies) bool {
	for _, a := range p {
		if a == xpv2.ManagementActionAll || a == xpv2.ManagementActionCreate {
			return true
		}
	}
	return false
}

// aheadExternal records each Observe of its resource in CreatesAhead.
type aheadExternal[MR resource.Managed] struct {
	managed.TypedExternalClient[MR]
	mg      MR
	creates *CreatesAhead
}

func (e aheadExternal[MR]) Observe(ctx context.Context, mg MR) (managed.ExternalObservation, error) {
	o, err := e.TypedExternalClient.Observe(ctx, mg)
	e.creates.observed(mg, o, err)
	return o, err
}

// Disconnect ends the reconcile: whatever it did not take is forgotten.
func (e aheadExternal[MR]) Disconnect(ctx context.Context) error {
	e.creates.take(e.mg)
	return e.TypedExternalClient.Disconnect(ctx)
}

// aheadFinalizer adds the finalizer of a resource about to be created to the object only;
// crossplane-runtime's pending-create update writes it. Any other resource gets it written by
// the wrapped Finalizer, as does every removal.
type aheadFinalizer struct {
	resource.Finalizer
	creates *CreatesAhead
}

func (f aheadFinalizer) AddFinalizer(ctx context.Context, obj resource.Object) error {
	if f.creates != nil && f.creates.take(obj) && !meta.FinalizerExists(obj, managed.FinalizerName) {
		meta.AddFinalizer(obj, managed.FinalizerName)
		return nil
	}
	return f.Finalizer.AddFinalizer(ctx, obj)
}
