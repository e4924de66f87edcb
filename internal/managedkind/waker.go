package managedkind

import (
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
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
	mu       sync.Mutex
	channels map[string]chan event.GenericEvent
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
}

type waiter struct{ kind, namespace, name string }

// wakeBuffer is how many wake-ups a kind's controller may have pending, in the Waker's
// channel and again in the controller's source; beyond that one is dropped, and the waiting
// resource is reconciled by its backoff as before. The source moves them into the work queue
// as they come, so a burst (a domain's projects all woken at once) rarely fills either. Both
// are allocated up front for each of the provider's ~140 controllers: at controller-runtime's
// default of 1024 they held 5 MB of the provider's 35 MB of live heap.
const wakeBuffer = 64

// NewWaker returns a Waker with no waiters.
func NewWaker() *Waker {
	return &Waker{
		channels: map[string]chan event.GenericEvent{}, pending: map[waiter]map[string]bool{}, waiters: map[string]map[waiter]bool{},
		referrers: map[string]map[waiter]bool{}, referenced: map[waiter][]string{}, changedAt: map[string]uint64{},
		limiters: map[string]workqueue.TypedRateLimiter[reconcile.Request]{}, goneAt: map[string]uint64{},
	}
}

// goneMemory bounds goneAt: past it, what it remembers is dropped, and a wait that raced with
// one of those deletions is reconciled by its backoff instead.
const goneMemory = 4096

// source returns the event source of a kind's controller: the wake-ups of its resources.
func (w *Waker) source(kind string) source.Source {
	return source.Channel(w.channel(kind), &handler.EnqueueRequestForObject{},
		source.WithBufferSize[client.Object, reconcile.Request](wakeBuffer))
}

func (w *Waker) channel(kind string) chan event.GenericEvent {
	w.mu.Lock()
	defer w.mu.Unlock()
	ch, ok := w.channels[kind]
	if !ok {
		ch = make(chan event.GenericEvent, wakeBuffer)
		w.channels[kind] = ch
	}
	return ch
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

// wake enqueues each waiter with its kind's controller, its backoff forgotten; a full buffer
// drops the wake-up.
func (w *Waker) wake(wake []waiter) {
	w.mu.Lock()
	limiters := make([]workqueue.TypedRateLimiter[reconcile.Request], len(wake))
	for i, wt := range wake {
		limiters[i] = w.limiters[wt.kind]
	}
	w.mu.Unlock()
	for i, wt := range wake {
		if l := limiters[i]; l != nil {
			l.Forget(reconcile.Request{NamespacedName: types.NamespacedName{Namespace: wt.namespace, Name: wt.name}})
		}
		ev := event.GenericEvent{Object: &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Namespace: wt.namespace, Name: wt.name}}}
		select {
		case w.channel(wt.kind) <- ev:
		default:
		}
	}
}
