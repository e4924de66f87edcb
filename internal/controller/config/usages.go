package config

import (
	"context"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
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
