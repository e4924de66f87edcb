package clients

import (
	"context"
	"sync"
	"time"
)

// listRowsPerRead is how many rows of a list cost Keystone what one single read costs: under
// the same load, a list of up to 500 role assignments took 35.8 ms on average and a HEAD
// 33.4 ms (make bench-scale N=500), so the rows cost about 0.01 ms each and a read's fixed
// price is that of some 3,000 rows. A third of that leaves room for larger rows.
const listRowsPerRead = 1000

// checkScopeMemory is how long what is known of an idle scope (the size of its last list, a
// refusal) is kept.
const checkScopeMemory = 10 * time.Minute

// JoinedChecks answers whether objects of one scope exist, each with a read that started after
// the question was asked, exactly as a check made alone would be. It is for the check right
// before a write that cannot tell an object it makes from one that already existed (Keystone's
// PUT of a role assignment answers 204 either way): that check may not be answered from a list
// up to a freshness period old, but checks asked at about the same time may share one read.
//
//   - A check that finds no other check of its scope under way reads its object alone: a lone
//     create costs what it always did, one HEAD, however large the scope.
//   - Checks that come while one is under way wait for the next read, which starts when it
//     ends: one list of the scope when two or more wait, their object alone when one does.
//     Keystone answers a list of a few hundred role assignments in about the time of one HEAD
//     (its cost is the token and policy work of a request), so k checks waiting together cost
//     one request instead of k.
//   - A list must cost less than the reads it replaces. Its price grows with its rows, and a
//     cloud may hold many thousands of a role's assignments: once a list of the scope has
//     been read, the next is read only when at least one waiter per listRowsPerRead rows waits
//     beyond the first; otherwise each waiter reads alone.
//   - A list that fails is never an answer: its waiters read their objects alone. A list
//     refused for good (Source.Refused: a policy, a list cut short) makes the scope's checks
//     read alone for refusedListPause.
//
// The zero JoinedChecks is ready to use once NotFound is set.
type JoinedChecks[T any] struct {
	// NotFound tells the error of Source.Get that says the object does not exist.
	NotFound func(error) bool
	// Now returns the current time; nil means time.Now (tests set it).
	Now func() time.Time

	mu     sync.Mutex
	scopes map[Scope]*checkScope[T]
	swept  time.Time
}

// checkScope is what is under way for one scope.
type checkScope[T any] struct {
	// busy: a read of the scope is under way; checks that come now wait for next.
	busy bool
	// next is the read that starts when the one under way ends, with its waiters.
	next *checkBatch[T]
	// refusedUntil is when a refused list may be tried again.
	refusedUntil time.Time
	// rows is how many objects the last list held (0 before the first), listed when.
	rows   int
	listed time.Time
}

// idle reports whether nothing is under way or known for the scope that is younger than
// checkScopeMemory; j.mu is held.
func (sc *checkScope[T]) idle(now time.Time) bool {
	return !sc.busy && sc.next == nil && !now.Before(sc.refusedUntil) && now.Sub(sc.listed) > checkScopeMemory
}

// pays reports whether a list answers the waiters of b more cheaply than their reads alone;
// j.mu is held.
func (sc *checkScope[T]) pays(b *checkBatch[T], now time.Time) bool {
	return len(b.ids) >= 2 && !now.Before(sc.refusedUntil) && sc.rows <= (len(b.ids)-1)*listRowsPerRead
}

// checkBatch is the checks waiting for one read, answered when done is closed.
type checkBatch[T any] struct {
	ids map[string]struct{}
	// src and ctx are the first waiter's: the list runs in its context, without its end.
	src  Source[T]
	ctx  context.Context
	done chan struct{}
	// listed holds the IDs in the list; nil when the waiters read their objects alone.
	listed map[string]struct{}
}

// Exists reports whether object id of scope s exists, by a read that started after this call:
// src.Get alone, or src.List shared with the other checks of s waiting at the same time.
func (j *JoinedChecks[T]) Exists(ctx context.Context, s Scope, id string, src Source[T]) (bool, error) {
	j.mu.Lock()
	sc := j.scope(s)
	if !sc.busy {
		sc.busy = true
		j.mu.Unlock()
		ok, err := j.alone(ctx, src)
		j.finished(s, sc)
		return ok, err
	}
	b := sc.next
	if b == nil {
		b = &checkBatch[T]{ids: map[string]struct{}{}, src: src, ctx: context.WithoutCancel(ctx), done: make(chan struct{})}
		sc.next = b
	}
	b.ids[id] = struct{}{}
	j.mu.Unlock()

	select {
	case <-b.done:
	case <-ctx.Done():
		return false, ctx.Err()
	}
	if b.listed == nil {
		return j.alone(ctx, src)
	}
	_, ok := b.listed[id]
	return ok, nil
}

// Waiting is how many checks of scope s wait for the next read.
func (j *JoinedChecks[T]) Waiting(s Scope) int {
	j.mu.Lock()
	defer j.mu.Unlock()
	if sc, ok := j.scopes[s]; ok && sc.next != nil {
		return len(sc.next.ids)
	}
	return 0
}

// alone reads the object by itself.
func (j *JoinedChecks[T]) alone(ctx context.Context, src Source[T]) (bool, error) {
	_, err := src.Get(ctx)
	return Exists(err, j.NotFound)
}

// Exists reads the outcome of a single read as whether its object exists: yes without an
// error, no with one that notFound tells, and any other error as the read's failure.
func Exists(err error, notFound func(error) bool) (bool, error) {
	switch {
	case err == nil:
		return true, nil
	case notFound(err):
		return false, nil
	default:
		return false, err
	}
}

// finished is called when the read under way for s ends: it starts the read its waiters
// wait for, or marks the scope idle.
func (j *JoinedChecks[T]) finished(s Scope, sc *checkScope[T]) {
	j.mu.Lock()
	defer j.mu.Unlock()
	b := sc.next
	sc.next = nil
	if b == nil {
		sc.busy = false
		if sc.idle(j.now()) {
			delete(j.scopes, s)
		}
		return
	}
	if !sc.pays(b, j.now()) {
		// A list would answer one check, cost more than the reads, or cannot answer: each
		// waiter reads alone, and those reads are not waited for.
		close(b.done)
		sc.busy = false
		return
	}
	go j.list(s, sc, b)
}

// list answers the batch's waiters with one list of the scope, then hands on to the next.
func (j *JoinedChecks[T]) list(s Scope, sc *checkScope[T], b *checkBatch[T]) {
	ctx, cancel := context.WithTimeout(b.ctx, lookupTimeout)
	items, err := b.src.List(ctx)
	cancel()
	j.mu.Lock()
	switch {
	case err == nil:
		sc.rows, sc.listed = len(items), j.now()
	case b.src.Refused != nil && b.src.Refused(err):
		sc.refusedUntil = j.now().Add(refusedListPause)
	}
	j.mu.Unlock()
	if err == nil {
		b.listed = make(map[string]struct{}, len(items))
		for _, v := range items {
			b.listed[b.src.ID(v)] = struct{}{}
		}
	}
	close(b.done)
	j.finished(s, sc)
}

// scope returns the scope's state, made on first use; j.mu is held. Once per
// checkScopeMemory it also drops the idle scopes, such as those of clients replaced when
// credentials rotated.
func (j *JoinedChecks[T]) scope(s Scope) *checkScope[T] {
	if j.scopes == nil {
		j.scopes = map[Scope]*checkScope[T]{}
	}
	if now := j.now(); now.Sub(j.swept) > checkScopeMemory {
		j.swept = now
		for k, sc := range j.scopes {
			if sc.idle(now) {
				delete(j.scopes, k)
			}
		}
	}
	sc, ok := j.scopes[s]
	if !ok {
		sc = &checkScope[T]{}
		j.scopes[s] = sc
	}
	return sc
}

func (j *JoinedChecks[T]) now() time.Time {
	return now(j.Now)
}
