package authentik

import (
	"context"
	"net/http"

	api "goauthentik.io/api/v3"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-identity/internal/clients"
)

// SharedPageSize is the page size of the lists that answer reads: the whole scope is listed,
// so pages are as large as a reasonable answer allows. authentik clamps a page size above its
// maximum and names the next page, which ListAll follows.
const SharedPageSize int32 = 500

// A ListPage reads one page (from 1) of a whole kind, as ListAll wants it, with authentik's
// response for the error.
type ListPage[T any] func(ctx context.Context, c *api.APIClient, page int32, size int32) (items []T, next int32, resp *http.Response, err error)

// A Shared answers reads of one kind's objects by ID from shared lists of all of them, when
// many resources read objects of the kind (see clients.SharedReads): one paginated list every
// few seconds instead of one GET per resource per poll. Writes go through it too (Wrote,
// Forget), so that what authentik answered to a create or an update answers the reconcile
// that follows, and a deleted object is read afresh. A nil Shared shares nothing.
type Shared[T any] struct {
	// List names the list, e.g. core/applications/?superuser_full_list=true.
	List string
	// Page reads one page of the list.
	Page ListPage[T]
	// ID returns an object's ID as Get is asked for it.
	ID func(T) string

	reads *clients.SharedReads[T]
}

// NewShared returns a Shared whose reads are shared as o says.
func NewShared[T any](o clients.SharedReadOptions, list string, page ListPage[T], id func(T) string) *Shared[T] {
	return &Shared[T]{List: list, Page: page, ID: id, reads: clients.NewSharedReads[T](o)}
}

// Get reads object id through client c: from a fresh list or our own write's answer, else
// with get (the object alone), whose error is what a read of a missing object returns.
func (s *Shared[T]) Get(ctx context.Context, c *api.APIClient, id string, get func(context.Context) (T, error)) (T, error) {
	if s == nil || c == nil {
		return get(ctx)
	}
	return s.reads.Get(ctx, s.scope(c), id, clients.Source[T]{
		List:    func(ctx context.Context) ([]T, error) { return s.listAll(ctx, c) },
		Get:     get,
		ID:      s.ID,
		Refused: listRefused,
	})
}

// Wrote keeps authentik's answer to our write of v (a create or an update) for the reads
// that follow; a failed write (err) may have been carried out all the same, and is forgotten.
func (s *Shared[T]) Wrote(c *api.APIClient, id string, v *T, err error) {
	if s == nil || c == nil {
		return
	}
	if err != nil || v == nil || s.ID(*v) != id {
		s.reads.Forget(s.scope(c), id)
		return
	}
	s.reads.Wrote(s.scope(c), id, *v)
}

// Forget makes the next reads of object id (deleted) ask authentik.
func (s *Shared[T]) Forget(c *api.APIClient, id string) {
	if s == nil || c == nil {
		return
	}
	s.reads.Forget(s.scope(c), id)
}

func (s *Shared[T]) listAll(ctx context.Context, c *api.APIClient) ([]T, error) {
	return ListAll(ctx, func(page int32) ([]T, int32, error) {
		items, next, resp, err := s.Page(ctx, c, page, SharedPageSize)
		if err != nil {
			return nil, 0, Wrap(err, resp, errListShared, s.List)
		}
		return items, next, nil
	})
}

// scope names the list of the client: lists are shared per client, whose token decides what
// it sees.
func (s *Shared[T]) scope(c *api.APIClient) clients.Scope {
	return clients.Scope{Client: c, List: s.List}
}

const errListShared = "cannot list %s"

// listRefused tells the list failures that do not go away by themselves: a list the token
// may not read (403), a parameter this authentik does not know (400), a list that did not end
// (ListAll's bound). Reads are then made object by object for a while.
func listRefused(err error) bool {
	var e *Error
	if errors.As(err, &e) {
		return e.Status == http.StatusForbidden || e.Status == http.StatusBadRequest
	}
	return err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded)
}
