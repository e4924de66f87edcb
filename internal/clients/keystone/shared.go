package keystone

import (
	"context"
	"net/http"
	"net/url"
	"reflect"

	"github.com/gophercloud/gophercloud/v2"

	"github.com/crossplane-contrib/provider-identity/internal/clients"
)

// A Shared is a Collection whose objects are read from shared lists of their scope (the
// projects of a domain, say) when many resources read objects of that scope: one list per scope
// every few seconds instead of one GET per resource per poll (see clients.SharedReads). Writes
// go through it too, so that what Keystone answered to a create or an update answers the
// reconcile that follows, and a deleted object is read afresh.
//
// A scope is named by the list's filter; an object outside it (a project that moved domain by
// hand, say) is simply not in the list, and is read alone.
type Shared[T any] struct {
	Collection[T]
	// ID returns an object's ID.
	ID func(T) string

	reads *clients.SharedReads[T]
}

// NewShared returns a Shared over c, whose reads are shared as o says.
func NewShared[T any](c Collection[T], id func(T) string, o clients.SharedReadOptions) Shared[T] {
	return Shared[T]{Collection: c, ID: id, reads: clients.NewSharedReads[T](o)}
}

// Get reads object id, which is in the list filtered by scope (nil: the whole collection).
func (s Shared[T]) Get(ctx context.Context, sc API, scope url.Values, id string) (T, error) {
	key, ok := s.scope(sc, scope)
	if !ok {
		return s.Collection.Get(ctx, sc, id)
	}
	return s.reads.Get(ctx, key, id, s.source(sc, scope, id))
}

// source reads the scope's list, or object id alone.
func (s Shared[T]) source(sc API, scope url.Values, id string) clients.Source[T] {
	return clients.Source[T]{
		List:    func(ctx context.Context) ([]T, error) { return s.List(ctx, sc, scope) },
		Get:     func(ctx context.Context) (T, error) { return s.Collection.Get(ctx, sc, id) },
		ID:      s.ID,
		Refused: listRefused,
	}
}

// FindInDomain looks up the objects named key in scope (FindInDomain's lookup) from a shared
// list of the scope when one answers, else asks Keystone. Keystone refuses a second project,
// group, user, role or domain with the same name in its domain, so a lookup that missed an
// object made by hand within the list's freshness makes the create fail with a conflict, not
// make a twin; the next lookup finds it.
func (s Shared[T]) FindInDomain(ctx context.Context, sc API, scope url.Values, key NameInDomain, keyOf func(T) NameInDomain) ([]T, error) {
	if k, ok := s.scope(sc, scope); ok {
		found, ok := s.reads.Match(ctx, k, "name:"+key.Name, func(v T) bool { return keyOf(v) == key }, s.source(sc, scope, ""))
		if ok {
			return found, nil
		}
	}
	return FindInDomain(ctx, sc, s.Collection, key, keyOf)
}

// Create posts a new object in scope and keeps Keystone's answer for the reads that follow.
func (s Shared[T]) Create(ctx context.Context, sc API, scope url.Values, body any) (T, error) {
	v, err := s.Collection.Create(ctx, sc, body)
	s.created(sc, scope, v, err)
	return v, err
}

// created keeps a create's answer, or drops the scope's lists when the create failed but may
// have been carried out.
func (s Shared[T]) created(sc API, scope url.Values, v T, err error) {
	if key, ok := s.scope(sc, scope); ok && err != nil && MayHaveCommitted(err) {
		// The object may exist under an ID we do not know: no list from before may say it
		// does not.
		s.reads.Drop(key)
	}
	s.record(sc, scope, err, v)
}

// Update patches an object in scope and keeps Keystone's answer (the whole object) for the
// reads that follow.
func (s Shared[T]) Update(ctx context.Context, sc API, scope url.Values, id string, patch any) error {
	var out map[string]T
	_, err := sc.Patch(ctx, sc.ServiceURL(s.Path, id), map[string]any{s.Singular: patch}, &out, &gophercloud.RequestOpts{OkCodes: []int{http.StatusOK}})
	v, ok := out[s.Singular]
	if err != nil || !ok || s.ID(v) != id {
		// A failed write may have been carried out all the same, and an answer without the
		// object leaves nothing to keep: either way, lists from before may be stale.
		s.forget(sc, scope, id)
		return err
	}
	s.record(sc, scope, nil, v)
	return nil
}

// Delete deletes an object in scope; its next read asks Keystone.
func (s Shared[T]) Delete(ctx context.Context, sc API, scope url.Values, id string) error {
	err := s.Collection.Delete(ctx, sc, id)
	s.forget(sc, scope, id)
	return err
}

// record keeps a successful write's answer.
func (s Shared[T]) record(sc API, scope url.Values, err error, v T) {
	if err != nil {
		return
	}
	if key, ok := s.scope(sc, scope); ok {
		s.reads.Wrote(key, s.ID(v), v)
	}
}

func (s Shared[T]) forget(sc API, scope url.Values, id string) {
	if key, ok := s.scope(sc, scope); ok {
		s.reads.Forget(key, id)
	}
}

// scope names the list of the client's scope. Lists are shared per client (its credentials
// decide what it sees): a client that cannot be a map key (a test double passed by value) is
// read object by object.
func (s Shared[T]) scope(sc API, scope url.Values) (clients.Scope, bool) {
	if s.reads == nil || !Joinable(sc) {
		return clients.Scope{}, false
	}
	u := sc.ServiceURL(s.Path)
	if len(scope) > 0 {
		u += "?" + scope.Encode()
	}
	return clients.Scope{Client: sc, List: u}, true
}

// Joinable reports whether reads through sc may be shared with other callers: lists and joined
// reads are kept per client (its credentials decide what it sees), so the client must be a map
// key. A test double passed by value is not, and reads alone.
func Joinable(sc API) bool {
	return sc != nil && reflect.TypeOf(sc).Comparable()
}

// listRefused tells the list failures that do not go away by themselves: a list cut short at
// Keystone's list_limit, a filter or a list that the policy forbids (400, 403) or the backend
// cannot do (501). Reads are then made object by object for a while.
func listRefused(err error) bool {
	return IsTruncated(err) || gophercloud.ResponseCodeIs(err, http.StatusBadRequest) ||
		gophercloud.ResponseCodeIs(err, http.StatusForbidden) || gophercloud.ResponseCodeIs(err, http.StatusNotImplemented)
}
