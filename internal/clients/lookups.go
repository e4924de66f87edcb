package clients

import (
	"context"
	"sync"
	"time"
)

// lookupTimeout bounds a shared lookup, which runs detached from the reconcile that started it.
const lookupTimeout = time.Minute

// SharedLookups shares the answers of lookups (one request, or one paginated listing, such as
// a flow read by its slug or the list of property mappings) among the reconciles that make the
// same lookup within Fresh of each other: a spec names the same flows and mappings in every
// resource, and resolving them once per reconcile costs several requests per resource per poll.
//
// A lookup is keyed by its client (whose credentials decide what it sees) and its request. At
// most one is in flight per key; the reads that come meanwhile wait for it. An answer is kept
// for Fresh from when its request started, so that what changed in the system (a flow deleted
// and made again under the same slug) is seen by the first lookup more than Fresh later. A
// failure is never kept: the next lookup asks again. Zero Fresh shares nothing.
type SharedLookups[T any] struct {
	// Fresh is how long an answer answers the same lookup.
	Fresh time.Duration
	// Now returns the current time; nil means time.Now (tests set it).
	Now func() time.Time

	mu    sync.Mutex
	m     map[Scope]*lookup[T]
	swept time.Time
}

// lookup is one lookup, in flight until done is closed.
type lookup[T any] struct {
	started time.Time
	done    chan struct{}
	v       T
	err     error
}

// Get returns the answer of the lookup key: a fresh one already made or in flight, else what
// fetch returns now. fetch runs detached from ctx's cancellation (a reconcile that gave up must
// not fail the others waiting for the same answer), within lookupTimeout. A ReadAlone context
// fetches.
func (l *SharedLookups[T]) Get(ctx context.Context, key Scope, fetch func(context.Context) (T, error)) (T, error) {
	if l == nil || l.Fresh <= 0 || ReadsAlone(ctx) {
		return fetch(ctx)
	}
	now := now(l.Now)
	l.mu.Lock()
	if l.m == nil {
		l.m = map[Scope]*lookup[T]{}
	}
	if now.Sub(l.swept) > l.Fresh {
		l.sweep(now)
	}
	e, ok := l.m[key]
	if !ok || e.started.Before(now.Add(-l.Fresh)) {
		e = &lookup[T]{started: now, done: make(chan struct{})}
		l.m[key] = e
		go l.run(ctx, key, e, fetch)
	}
	l.mu.Unlock()
	select {
	case <-e.done:
		return e.v, e.err
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}

// run makes the lookup and forgets it when it failed, so that only its waiters see the failure.
func (l *SharedLookups[T]) run(ctx context.Context, key Scope, e *lookup[T], fetch func(context.Context) (T, error)) {
	defer close(e.done)
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), lookupTimeout)
	defer cancel()
	e.v, e.err = fetch(ctx)
	if e.err == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.m[key] == e {
		delete(l.m, key)
	}
}

// sweep drops the answers older than Fresh (of flows no spec names any more, of clients
// replaced when credentials rotated); l.mu is held.
func (l *SharedLookups[T]) sweep(now time.Time) {
	l.swept = now
	for k, e := range l.m {
		select {
		case <-e.done:
			if e.started.Before(now.Add(-l.Fresh)) {
				delete(l.m, k)
			}
		default:
		}
	}
}
