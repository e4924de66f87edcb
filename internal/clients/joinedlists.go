package clients

import (
	"context"
	"sync"
	"time"
)

// listRowsPerRead is how many rows of a list cost Keystone what one single read costs when
// JoinedLists.RowsPerRead is not set: under the same load, a list of up to 500 role assignments
// took 35.8 ms on average and a HEAD 33.4 ms (make bench-scale N=500), so the rows cost about
// 0.01 ms each and a read's fixed price is that of some 3,000 rows. A third of that leaves
// room for larger rows.
const listRowsPerRead = 1000

// checkScopeMemory is how long what is known of an idle scope (the size of its last list, a
// refusal) is kept.
const checkScopeMemory = 10 * time.Minute

// Rows tells JoinedLists how to answer one question about a scope: by a read of its own, or
// from a list of the whole scope.
type Rows[T any] struct {
	// Alone reads the rows that answer this question only.
	Alone func(ctx context.Context) ([]T, error)
	// List reads the whole scope.
	List func(ctx context.Context) ([]T, error)
	// Keys names the questions a row of List answers.
	Keys func(T) []string
	// Refused tells the list failures that do not go away by themselves (a policy, a list cut
	// short): the scope's questions are then read alone for refusedListPause. Other failures
	// (an outage) fail that list only; nil means none is.
	Refused func(error) bool
}

// JoinedLists answers questions about the rows of one scope, each with a read that started
// after the question was asked, exactly as a read made alone would be. It is for the reads
// right before a write that may not be answered from a list up to a freshness period old (the
// check before a create that cannot tell an object it makes from one that existed, what a
// delete would take with it), when many such reads come at about the same time.
//
//   - A question that finds no other of its scope under way is read alone: a lone create or
//     delete costs what it always did, however large the scope.
//   - Questions that come while one is under way wait for the next read, which starts when it
//     ends: one list of the scope when two or more wait, their own reads when one does. A
//     request's fixed cost in Keystone (its token and policy work) is that of hundreds of
//     rows, so k questions waiting together cost one request instead of k.
//   - A list must cost less than the reads it replaces. Its price grows with its rows, and a
//     cloud may hold many thousands: once a list of the scope has been read, the next is read
//     only when at least one question per RowsPerRead rows waits beyond the first; otherwise
//     each reads alone.
//   - A list that fails is never an answer: its waiters read alone. A list refused for good
//     makes the scope's questions read alone for refusedListPause.
//
// The zero JoinedLists is ready to use.
type JoinedLists[T any] struct {
	// RowsPerRead is how many rows of a list cost what one read alone costs; 0 means
	// listRowsPerRead.
	RowsPerRead int
	// Now returns the current time; nil means time.Now (tests set it).
	Now func() time.Time

	mu     sync.Mutex
	scopes map[Scope]*listScope[T]
	swept  time.Time
}

// listScope is what is under way for one scope.
type listScope[T any] struct {
	// busy: a read of the scope is under way; questions that come now wait for next.
	busy bool
	// next is the read that starts when the one under way ends, with its waiters.
	next *listBatch[T]
	// refusedUntil is when a refused list may be tried again.
	refusedUntil time.Time
	// rows is how many rows the last list held (0 before the first), listed when.
	rows   int
	listed time.Time
}

// idle reports whether nothing is under way or known for the scope that is younger than
// checkScopeMemory; j.mu is held.
func (sc *listScope[T]) idle(now time.Time) bool {
	return !sc.busy && sc.next == nil && !now.Before(sc.refusedUntil) && now.Sub(sc.listed) > checkScopeMemory
}

// listBatch is the questions waiting for one read, answered when done is closed.
type listBatch[T any] struct {
	keys map[string]struct{}
	// src and ctx are the first waiter's: the list runs in its context, without its end.
	src  Rows[T]
	ctx  context.Context
	done chan struct{}
	// listed holds the list's rows by the questions they answer; nil when the waiters read
	// alone.
	listed map[string][]T
}

// Rows returns the rows that answer question key of scope s, by a read that started after this
// call: src.Alone, or src.List shared with the other questions of s waiting at the same time.
func (j *JoinedLists[T]) Rows(ctx context.Context, s Scope, key string, src Rows[T]) ([]T, error) {
	j.mu.Lock()
	sc := j.scope(s)
	if !sc.busy {
		sc.busy = true
		j.mu.Unlock()
		rows, err := src.Alone(ctx)
		j.finished(s, sc)
		return rows, err
	}
	b := sc.next
	if b == nil {
		b = &listBatch[T]{keys: map[string]struct{}{}, src: src, ctx: context.WithoutCancel(ctx), done: make(chan struct{})}
		sc.next = b
	}
	b.keys[key] = struct{}{}
	j.mu.Unlock()

	select {
	case <-b.done:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if b.listed == nil {
		return src.Alone(ctx)
	}
	return b.listed[key], nil
}

// Waiting is how many questions of scope s wait for the next read.
func (j *JoinedLists[T]) Waiting(s Scope) int {
	j.mu.Lock()
	defer j.mu.Unlock()
	if sc, ok := j.scopes[s]; ok && sc.next != nil {
		return len(sc.next.keys)
	}
	return 0
}

// pays reports whether a list answers the waiters of b more cheaply than their reads alone;
// j.mu is held.
func (j *JoinedLists[T]) pays(sc *listScope[T], b *listBatch[T], now time.Time) bool {
	per := j.RowsPerRead
	if per <= 0 {
		per = listRowsPerRead
	}
	return len(b.keys) >= 2 && !now.Before(sc.refusedUntil) && sc.rows <= (len(b.keys)-1)*per
}

// finished is called when the read under way for s ends: it starts the read its waiters
// wait for, or marks the scope idle.
func (j *JoinedLists[T]) finished(s Scope, sc *listScope[T]) {
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
	if !j.pays(sc, b, j.now()) {
		// A list would answer one question, cost more than the reads, or cannot answer:
		// each waiter reads alone, and those reads are not waited for.
		close(b.done)
		sc.busy = false
		return
	}
	go j.list(s, sc, b)
}

// list answers the batch's waiters with one list of the scope, then hands on to the next.
func (j *JoinedLists[T]) list(s Scope, sc *listScope[T], b *listBatch[T]) {
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
		// Only the rows some waiter asked about are kept.
		b.listed = make(map[string][]T, len(b.keys))
		for _, v := range items {
			for _, k := range b.src.Keys(v) {
				if _, asked := b.keys[k]; asked {
					b.listed[k] = append(b.listed[k], v)
				}
			}
		}
	}
	close(b.done)
	j.finished(s, sc)
}

// scope returns the scope's state, made on first use; j.mu is held. Once per
// checkScopeMemory it also drops the idle scopes, such as those of clients replaced when
// credentials rotated.
func (j *JoinedLists[T]) scope(s Scope) *listScope[T] {
	if j.scopes == nil {
		j.scopes = map[Scope]*listScope[T]{}
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
		sc = &listScope[T]{}
		j.scopes[s] = sc
	}
	return sc
}

func (j *JoinedLists[T]) now() time.Time {
	return now(j.Now)
}
