package clients

import (
	"fmt"
	"sync"
	"time"
)

// Backoff of failed builds: the first failure is remembered for FirstRetryDelay, each further
// one for twice as long as the one before, up to MaxRetryDelay.
const (
	FirstRetryDelay = 5 * time.Second
	MaxRetryDelay   = 5 * time.Minute
)

const errBackoff = "%s (failed %d time(s) in a row; the provider tries again after %s, or at once when the ProviderConfig's credentials or settings change)"

// A Cache keeps one API client per key, a hash of the ProviderConfig settings and credentials
// it was built from, so that a reconcile at steady state builds no client (and, for Keystone,
// requests no token). The zero Cache is empty and ready to use.
//
// Each key has its own lock: a slow endpoint delays only the reconciles of the ProviderConfigs
// that use it. A failed build (for Keystone, a refused authentication) is remembered for a
// while, doubling with every failure, and returned without building again: a wrong password
// costs Keystone one token request per backoff period, not one per reconcile, so a Keystone
// with lockout_failure_attempts does not lock the service user out because of the provider.
// Fixing the credentials changes the key, which starts afresh.
type Cache[T any] struct {
	// Now returns the current time; nil means time.Now (tests set it).
	Now func() time.Time

	mu sync.Mutex
	m  map[string]*entry[T]
}

// entry is one key's client, or its last failure.
type entry[T any] struct {
	mu sync.Mutex
	v  T
	ok bool
	backoff
}

// Get returns the client kept for key, or builds one and keeps it. build runs under the key's
// lock, so concurrent reconciles build one client per key; a failed build keeps no client, and
// until its backoff expires Get returns its error, saying when it retries, without building.
func (c *Cache[T]) Get(key string, build func() (T, error)) (T, error) {
	e := c.entry(key)
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.ok {
		return e.v, nil
	}
	return c.build(e, build)
}

// Refresh builds a client for key even when one is kept (a check that the credentials work
// now), and keeps it. A build that failed recently is not retried before its backoff expires:
// Refresh then returns that failure, as Get does.
func (c *Cache[T]) Refresh(key string, build func() (T, error)) (T, error) {
	e := c.entry(key)
	e.mu.Lock()
	defer e.mu.Unlock()
	return c.build(e, build)
}

// entry returns the key's entry, made on first use.
func (c *Cache[T]) entry(key string) *entry[T] {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]*entry[T]{}
	}
	e, ok := c.m[key]
	if !ok {
		e = &entry[T]{}
		c.m[key] = e
	}
	return e
}

// build runs build unless the key's last failure is still backing off; e.mu is held.
func (c *Cache[T]) build(e *entry[T], build func() (T, error)) (T, error) {
	var zero T
	now := now(c.Now)
	if err := e.blocked(now); err != nil {
		return zero, err
	}
	v, err := build()
	if err := e.record(now, err); err != nil {
		return zero, err
	}
	e.v, e.ok = v, true
	return v, nil
}

// A Retrier runs an operation (for Keystone, the re-authentication of a cached client whose
// token expired) with the Cache's backoff: after a failure, Do returns it without running the
// operation again until the backoff expires. The zero Retrier is ready to use.
type Retrier struct {
	// Now returns the current time; nil means time.Now (tests set it).
	Now func() time.Time

	mu sync.Mutex
	backoff
}

// Do runs f unless its last failure is still backing off.
func (r *Retrier) Do(f func() error) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := now(r.Now)
	if err := r.blocked(now); err != nil {
		return err
	}
	return r.record(now, f())
}

// backoff remembers the last failure of an operation and when to try it again.
type backoff struct {
	err      error
	failures int
	retryAt  time.Time
}

// blocked returns the remembered failure while its backoff lasts, else nil.
func (b *backoff) blocked(now time.Time) error {
	if b.err != nil && now.Before(b.retryAt) {
		return b.error()
	}
	return nil
}

// record remembers a failure, doubling the backoff, and returns it saying when it retries; a
// success (nil) resets the backoff.
func (b *backoff) record(now time.Time, err error) error {
	if err == nil {
		b.err, b.failures = nil, 0
		return nil
	}
	b.failures++
	b.err, b.retryAt = err, now.Add(retryDelay(b.failures))
	return b.error()
}

func (b *backoff) error() error {
	return &BackoffError{Err: b.err, Failures: b.failures, RetryAt: b.retryAt}
}

// A BackoffError is a remembered failure: it says how often the operation failed in a row and
// when the provider tries again, and unwraps to the last failure.
type BackoffError struct {
	Err      error
	Failures int
	RetryAt  time.Time
}

func (b *BackoffError) Error() string {
	return fmt.Sprintf(errBackoff, b.Err.Error(), b.Failures, b.RetryAt.UTC().Format(time.RFC3339))
}

func (b *BackoffError) Unwrap() error { return b.Err }

func now(f func() time.Time) time.Time {
	if f != nil {
		return f()
	}
	return time.Now()
}

// retryDelay is how long the n-th failure in a row is remembered.
func retryDelay(n int) time.Duration {
	d := FirstRetryDelay
	for i := 1; i < n && d < MaxRetryDelay; i++ {
		d *= 2
	}
	return min(d, MaxRetryDelay)
}
