package config

import (
	"context"
	"time"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	"github.com/crossplane-contrib/provider-identity/internal/managedkind"
)

// usageBatch is how long a ProviderConfig waits, after a usage of it is created, changed or
// deleted, before its users are counted again. Every managed resource that starts or stops
// using a ProviderConfig creates or deletes a usage, and each count lists every usage of the
// ProviderConfig and writes the ProviderConfig twice: counted once per usage, applying 1,252
// resources listed (and deep-copied) about a gigabyte of usages and wrote the ProviderConfig
// thousands of times. Counted once per batch, the count in status.users lags by this at most,
// and a deleted ProviderConfig still waits until its last usage is gone.
const usageBatch = 2 * time.Second

// batchedUsages enqueues the ProviderConfig a usage names, as resource.EnqueueRequestForProviderConfig
// does, but usageBatch later: the queue keeps the earliest time an item is due, so the usages
// that come and go meanwhile join the one count.
type batchedUsages struct {
	enqueue resource.EnqueueRequestForProviderConfig
	after   time.Duration
}

func (h batchedUsages) Create(ctx context.Context, e event.CreateEvent, q resource.RateLimitingInterface) {
	h.enqueue.Create(ctx, e, later{q, h.after})
}

func (h batchedUsages) Update(ctx context.Context, e event.UpdateEvent, q resource.RateLimitingInterface) {
	h.enqueue.Update(ctx, e, later{q, h.after})
}

func (h batchedUsages) Delete(ctx context.Context, e event.DeleteEvent, q resource.RateLimitingInterface) {
	h.enqueue.Delete(ctx, e, later{q, h.after})
}

func (h batchedUsages) Generic(ctx context.Context, e event.GenericEvent, q resource.RateLimitingInterface) {
	h.enqueue.Generic(ctx, e, later{q, h.after})
}

// later is a queue whose Add adds after a delay.
type later struct {
	resource.RateLimitingInterface
	after time.Duration
}

func (q later) Add(r reconcile.Request) { q.AddAfter(r, q.after) }

// notOwnCount passes every event of a ProviderConfig to its usage count but an update that
// changed only its status. The count's own status update (status.users) is such an update:
// passed on, it started another count at once, which found the usages created meanwhile and
// wrote again, so that applying 1,252 resources counted 1.6 times a second instead of once per
// usageBatch (290 writes of the ProviderConfig in the apply, at N=500). What a count does
// depends only on the usages, which batchedUsages watches, and on the ProviderConfig's
// deletion and finalizers, which this passes (managedkind.StatusOnly).
var notOwnCount = predicate.Funcs{UpdateFunc: func(e event.UpdateEvent) bool {
	return !managedkind.StatusOnly(e.ObjectOld, e.ObjectNew)
}}

// skippingManager is the manager crossplane-runtime's usage count is built with: its client
// does not send the updates that would change nothing. On every count the reconciler updates
// the ProviderConfig to add its finalizer, there since the first count, and then its status,
// unchanged when no usage came or went.
type skippingManager struct {
	ctrl.Manager
}

func (m skippingManager) GetClient() client.Client {
	return managedkind.SkipUnchanged(m.Manager.GetClient())
}
