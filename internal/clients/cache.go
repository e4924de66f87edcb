package clients

import "sync"

// A Cache keeps one API client per key, a hash of the ProviderConfig settings and credentials
// it was built from, so that a reconcile at steady state builds no client (and, for Keystone,
// requests no token). The zero Cache is empty and ready to use.
type Cache[T any] struct {
	mu sync.Mutex
	m  map[string]T
}

// Get returns the client kept for key, or builds one and keeps it. build runs under the
// cache's lock, so concurrent reconciles build one client per key; a failed build keeps
// nothing.
func (c *Cache[T]) Get(key string, build func() (T, error)) (T, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.m[key]; ok {
		return v, nil
	}
	v, err := build()
	if err != nil {
		var zero T
		return zero, err
	}
	if c.m == nil {
		c.m = map[string]T{}
	}
	c.m[key] = v
	return v, nil
}
