package managedkind

import (
	"context"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"
)

// A Waker reconciles a resource as soon as what it waits for has happened, instead of when
// the reconciler's exponential backoff (up to a minute) next comes round:
//   - a deletion that waits for other resources of this provider (see adoption.Waiter) when
//     the last of them is gone: a domain deleted together with its projects goes right after;
//   - a resource whose references did not resolve when a resource it referenced changes: a
//     project applied together with its domain is created as soon as the domain has an ID.
type Waker struct {
	mu sync.Mutex
	// queues are the kinds' controllers' work queues, as their controllers started the
	// Waker's source with them.
	queues map[string]workqueue.TypedRateLimitingInterface[reconcile.Request]
	// pending maps a waiting resource to the resources (Kind.group/name) it still waits for.
	pending map[waiter]map[string]bool
	// waiters maps a resource to the resources waiting for it.
	waiters map[string]map[waiter]bool
	// referrers maps a resource (or a kind's namespace, for selectors) to the resources whose
	// references to it did not resolve; referenced is its inverse.
	referrers  map[string]map[waiter]bool
	referenced map[waiter][]string
	// changes counts the Changed calls; changedAt is the count at a resource's (or a kind's
	// namespace's) latest change, so that a wait registered after a change it missed wakes at once.
	changes   uint64
	changedAt map[string]uint64
	// goneAt is the count at a resource's deletion, so that a wait registered after the
	// deletion it waits for (the deletion came between the check and WaitFor) wakes at once.
	goneAt map[string]uint64
	// limiters are the kinds' controllers' rate limiters: a woken resource's backoff starts
	// afresh, so that a retry its wake-up needs (a conflict, say) comes in a second, not a minute.
	limiters map[string]workqueue.TypedRateLimiter[reconcile.Request]
	// refresh holds the resources whose next reconcile reads their external object afresh
	// (Refresh).
	refresh map[waiter]bool
}

type waiter struct{ kind, namespace, name string }

// NewWaker returns a Waker with no waiters.
func NewWaker() *Waker {
	return &Waker{
		queues: map[string]workqueue.TypedRateLimitingInterface[reconcile.Request]{}, pending: map[waiter]map[string]bool{}, waiters: map[string]map[waiter]bool{},
		referrers: map[string]map[waiter]bool{}, referenced: map[waiter][]string{}, changedAt: map[string]uint64{},
		limiters: map[string]workqueue.TypedRateLimiter[reconcile.Request]{}, goneAt: map[string]uint64{}, refresh: map[waiter]bool{},
	}
}

// goneMemory bounds goneAt: past it, what it remembers is dropped, and a wait that raced with
// one of those deletions is reconciled by its backoff instead.
const goneMemory = 4096

// source returns the source of a kind's controller that the Waker wakes its resources
// through: started, it only keeps the controller's work queue, and a wake-up is an Add to it.
// A channel source would cost each kind's controller two goroutines for the provider's life
// (144 with every kind active) and a buffer, and would drop wake-ups when it is full. A
// wake-up before the controller started is dropped: starting, a controller reconciles every
// resource of its kind.
func (w *Waker) source(kind string) source.Source {
	return source.Func(func(_ context.Context, q workqueue.TypedRateLimitingInterface[reconcile.Request]) error {
		w.mu.Lock()
		defer w.mu.Unlock()
		w.queues[kind] = q
		return nil
	})
}

// WaitFor records that the resource of kind in namespace ("" for a cluster-scoped one) with
// name waits for every one of resources to be gone, replacing what it waited for before.
// Those that were deleted after mark (see Changes; take it before checking what the deletion
// waits for) are not waited for: their deletion may have come before this call. A resource
// with nothing left to wait for is woken at once.
func (w *Waker) WaitFor(kind, namespace, name string, resources []string, mark uint64) {
	w.mu.Lock()
	wt := waiter{kind, namespace, name}
	w.forgetWaitLocked(wt)
	set := make(map[string]bool, len(resources))
	for _, r := range resources {
		if w.goneAt[r] > mark {
			continue
		}
		set[r] = true
		if w.waiters[r] == nil {
			w.waiters[r] = map[waiter]bool{}
		}
		w.waiters[r][wt] = true
	}
	if len(set) == 0 {
		w.mu.Unlock()
		w.wake([]waiter{wt})
		return
	}
	w.pending[wt] = set
	w.mu.Unlock()
}

// forgetWaitLocked drops what wt waited for before.
func (w *Waker) forgetWaitLocked(wt waiter) {
	for r := range w.pending[wt] {
		delete(w.waiters[r], wt)
		if len(w.waiters[r]) == 0 {
			delete(w.waiters, r)
		}
	}
	delete(w.pending, wt)
}

// Gone records that resource (as provenance.ResourceName writes it) was deleted, and wakes the resources that were
// waiting for nothing else.
func (w *Waker) Gone(resource string) {
	w.mu.Lock()
	w.changes++
	if len(w.goneAt) >= goneMemory {
		clear(w.goneAt)
	}
	w.goneAt[resource] = w.changes
	var wake []waiter
	for wt := range w.waiters[resource] {
		set := w.pending[wt]
		delete(set, resource)
		if len(set) == 0 && set != nil {
			delete(w.pending, wt)
			wake = append(wake, wt)
		}
	}
	delete(w.waiters, resource)
	w.mu.Unlock()
	w.wake(wake)
}

// RateLimiter returns the rate limiter of the controller of kind: l, remembered so that a
// woken resource's backoff can start afresh, except that a deletion waiting for other
// resources of this provider to be gone retries no sooner than waitingRetry. Its wake-up comes
// when they are gone; a retry before that would read again, from the external system, the
// dependents that blocked it, only to find them still there. The longer delay is the fallback
// should a wake-up be dropped.
func (w *Waker) RateLimiter(kind string, l workqueue.TypedRateLimiter[reconcile.Request]) workqueue.TypedRateLimiter[reconcile.Request] {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.limiters[kind] = l
	return waitingLimiter{TypedRateLimiter: l, w: w, kind: kind}
}

// waitingRetry is how long a deletion that waits for other resources waits before it retries
// without a wake-up: crossplane-runtime's longest backoff.
const waitingRetry = time.Minute

// waitingLimiter delays the retries of deletions that wait for other resources (see
// RateLimiter).
type waitingLimiter struct {
	workqueue.TypedRateLimiter[reconcile.Request]
	w    *Waker
	kind string
}

func (l waitingLimiter) When(r reconcile.Request) time.Duration {
	d := l.TypedRateLimiter.When(r)
	if d < waitingRetry && l.w.waits(waiter{l.kind, r.Namespace, r.Name}) {
		return waitingRetry
	}
	return d
}

// waits reports whether the resource waits for others to be gone.
func (w *Waker) waits(wt waiter) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.pending[wt]) > 0
}

// ResetBackoff forgets the backoff of the resource of kind in namespace with name, so that its
// next rate-limited retry comes after the limiter's base delay (a second).
func (w *Waker) ResetBackoff(kind, namespace, name string) {
	w.mu.Lock()
	l := w.limiters[kind]
	w.mu.Unlock()
	if l != nil {
		l.Forget(reconcile.Request{NamespacedName: types.NamespacedName{Namespace: namespace, Name: name}})
	}
}

// wake enqueues each waiter with its kind's controller, its backoff forgotten.
func (w *Waker) wake(wake []waiter) {
	w.mu.Lock()
	limiters := make([]workqueue.TypedRateLimiter[reconcile.Request], len(wake))
	queues := make([]workqueue.TypedRateLimitingInterface[reconcile.Request], len(wake))
	for i, wt := range wake {
		limiters[i], queues[i] = w.limiters[wt.kind], w.queues[wt.kind]
	}
	w.mu.Unlock()
	for i, wt := range wake {
		r := reconcile.Request{NamespacedName: types.NamespacedName{Namespace: wt.namespace, Name: wt.name}}
		if l := limiters[i]; l != nil {
			l.Forget(r)
		}
		if q := queues[i]; q != nil {
			q.Add(r)
		}
	}
}
