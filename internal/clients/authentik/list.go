package authentik

import (
	"context"
	"net/http"

	api "goauthentik.io/api/v3"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

const (
	// PageSize is the page size natural-key lookups ask for. Exact filters match one object
	// or a handful, so the first page is almost always the last.
	PageSize int32 = 100
	// MaxPages bounds ListAll: a listing that has not ended after this many pages is treated
	// as an error rather than followed forever.
	MaxPages = 100

	errListPage    = "cannot list page %d"
	errListStuck   = "listing did not advance: page %d named page %d as the next one"
	errListTooLong = "listing did not end after %d pages; narrow the filter"
)

// ListAll follows authentik's page-number pagination to the end. fetch reads one page
// (pages count from 1) and returns its items and the next page number, 0 on the last page
// (NextPage converts authentik's pagination block). A failed page ends the listing with its
// error and is never retried here (the reconciler retries with backoff), a next page that does
// not advance is an error, and at most MaxPages pages are read.
func ListAll[T any](ctx context.Context, fetch func(page int32) ([]T, int32, error)) ([]T, error) {
	var all []T
	page := int32(1)
	for range MaxPages {
		if err := ctx.Err(); err != nil {
			return nil, errors.Wrapf(err, errListPage, page)
		}
		items, next, err := fetch(page)
		if err != nil {
			return nil, errors.Wrapf(err, errListPage, page)
		}
		all = append(all, items...)
		if next == 0 {
			return all, nil
		}
		if next <= page {
			return nil, errors.Errorf(errListStuck, page, next)
		}
		page = next
	}
	return nil, errors.Errorf(errListTooLong, MaxPages)
}

// NextPage returns the next page number of a paginated answer, 0 on the last page.
func NextPage(p api.Pagination) int32 {
	return int32(p.Next)
}

// A PageRequest is a list request of the generated client (R), answered with pages (P) of T.
type PageRequest[R any, P Page[T], T any] interface {
	Page(page int32) R
	PageSize(pageSize int32) R
	Execute() (P, *http.Response, error)
}

// A Page is one page of a list of the generated client.
type Page[T any] interface {
	GetResults() []T
	GetPagination() api.Pagination
}

// ListRequest follows the list request r to its end (ListAll), PageSize objects a page: the
// request as filtered, e.g. c.StagesAPI.StagesUserWriteList(ctx).CreateUsersGroup(pk).
func ListRequest[R PageRequest[R, P, T], P Page[T], T any](ctx context.Context, r R) ([]T, error) {
	return ListAll(ctx, func(page int32) ([]T, int32, error) {
		l, resp, err := r.Page(page).PageSize(PageSize).Execute()
		if err != nil {
			return nil, 0, AsError(err, resp)
		}
		return l.GetResults(), NextPage(l.GetPagination()), nil
	})
}
