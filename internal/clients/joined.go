package clients

import (
	"context"
	"sync"
	"time"
)

// gatherFor is how long a read with none other of its key under way waits before it starts, so
// that callers asking at the same moment share it rather than the next one. Deletions released
// together (by a joined list that answered them all) ask their next question within
// microseconds of each other; without the wait the first of them read alone and the others
// waited for a second read. A millisecond is nothing beside a Keystone request (10-20 ms).
const gatherFor = time.Millisecond

// JoinedReads lets callers that ask the same question at about the same time share one
// request, without any of them getting an answer older than its question: each caller gets the
// answer of a read that started after it asked, exactly as if it had read alone.
//
// The first caller for a key starts a read, Gather later: callers that come before it starts
// share it. Callers that come while it is in flight did not see it start, so they wait for the
// next read, which starts when this one ends and answers all of them. However many callers
// come, at most two reads per key are under way at a time (one in flight, one waiting), and
// none is kept after it answered.
//
// It is for the reads that decide a delete (clients.ReadAlone), which may not be answered from
// a list up to a freshness period old, when many deletions ask the same question at once.
type JoinedReads[K comparable, T any] struct {
	// Gather is how long a read with none other of its key under way waits before it starts;
	// 0 means gatherFor.
	Gather time.Duration

	mu   sync.Mutex
	keys map[K]*joinedKey[T]
}

// joinedKey is the read in flight for a key and the one waiting to start after it.
type joinedKey[T any] struct {
	running, next *joinedRead[T]
}

// joinedRead is one read, answered when done is closed.
type joinedRead[T any] struct {
	read func(context.Context) (T, error)
	done chan struct{}
	// started: the read is under way, and callers that come now wait for the next.
	started bool
	v       T
	err     error
}

// Read returns the answer of a read of key that started after this call. read is the read; the
// first caller's is used for each read. Reads run detached from the cancellation of the caller
// that started them (a reconcile that gave up must not fail the others), within lookupTimeout.
func (j *JoinedReads[K, T]) Read(ctx context.Context, key K, read func(context.Context) (T, error)) (T, error) {
	j.mu.Lock()
	if j.keys == nil {
		j.keys = map[K]*joinedKey[T]{}
	}
	k, ok := j.keys[key]
	if !ok {
		k = &joinedKey[T]{}
		j.keys[key] = k
	}
	var r *joinedRead[T]
	switch {
	case k.running == nil:
		r = newJoinedRead(read)
		k.running = r
		go j.run(context.WithoutCancel(ctx), key, k, r)
	case !k.running.started:
		r = k.running
	case k.next == nil:
		r = newJoinedRead(read)
		k.next = r
	default:
		r = k.next
	}
	j.mu.Unlock()

	select {
	case <-r.done:
		return r.v, r.err
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}

func newJoinedRead[T any](read func(context.Context) (T, error)) *joinedRead[T] {
	return &joinedRead[T]{read: read, done: make(chan struct{})}
}

// run carries out r, then the read that waited for it, until none waits, in ctx: the context
// of the caller that started the first, without its cancellation.
func (j *JoinedReads[K, T]) run(ctx context.Context, key K, k *joinedKey[T], r *joinedRead[T]) {
	gather := j.Gather
	if gather <= 0 {
		gather = gatherFor
	}
	time.Sleep(gather)
	for r != nil {
		j.mu.Lock()
		r.started = true
		j.mu.Unlock()
		rctx, cancel := context.WithTimeout(ctx, lookupTimeout)
		r.v, r.err = r.read(rctx)
		cancel()
		j.mu.Lock()
		done := r.done
		r, k.running, k.next = k.next, k.next, nil
		if r == nil {
			delete(j.keys, key)
		}
		close(done)
		j.mu.Unlock()
	}
}
