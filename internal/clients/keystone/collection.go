package keystone

import (
	"context"
	"net/http"
	"net/url"
	"strings"

	"github.com/gophercloud/gophercloud/v2"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// MarkerAttribute is the extra attribute that carries provenance markers on domains, projects,
// roles, groups and users. Keystone stores any extra key on those objects and returns it at the
// top level of the object, so kinds declare it as a plain JSON field.
const MarkerAttribute = "crossplane_provenance"

// A Collection is a typed client for one Keystone v3 collection such as "domains", over
// gophercloud's ServiceClient (authentication, re-authentication and error types are
// gophercloud's). T is the object's JSON shape.
type Collection[T any] struct {
	// Path below the identity endpoint, e.g. "domains" or "OS-FEDERATION/mappings".
	Path string
	// Singular is the JSON envelope key of one object, e.g. "domain".
	Singular string
	// Plural is the JSON envelope key of a list, e.g. "domains".
	Plural string
}

// Get reads one object.
func (c Collection[T]) Get(ctx context.Context, sc API, id string) (T, error) {
	var out map[string]T
	_, err := sc.Get(ctx, sc.ServiceURL(c.Path, id), &out, nil)
	return out[c.Singular], err
}

// List reads every page of a filtered list. Keystone pages (marker and limit) only in newer
// releases; the loop follows links.next until there is none, and stops at the first failed
// page. A list that Keystone cut short under its list_limit (`"truncated": true` with no next
// page) returns what it holds and a *TruncatedError: a lookup or a deletion check must never
// decide from a list it cannot see whole.
func (c Collection[T]) List(ctx context.Context, sc API, q url.Values) ([]T, error) {
	next := sc.ServiceURL(c.Path)
	if len(q) > 0 {
		next += "?" + q.Encode()
	}
	var all []T
	for seen := map[string]bool{}; next != "" && !seen[next]; {
		seen[next] = true
		var page map[string]jsonRaw
		if _, err := sc.Get(ctx, next, &page, nil); err != nil {
			return nil, err
		}
		var items []T
		if err := page[c.Plural].decode(&items); err != nil {
			return nil, errors.Wrapf(err, "cannot decode Keystone %s list", c.Plural)
		}
		all = append(all, items...)
		var links struct {
			Next string `json:"next"`
		}
		_ = page["links"].decode(&links)
		var truncated bool
		_ = page["truncated"].decode(&truncated)
		if truncated && links.Next == "" {
			return all, &TruncatedError{Plural: c.Plural, Got: len(all)}
		}
		next = links.Next
	}
	return all, nil
}

// A TruncatedError is a list that Keystone cut short at its list_limit.
type TruncatedError struct {
	// Plural names the collection, e.g. "projects".
	Plural string
	// Got is how many entries Keystone returned.
	Got int
}

func (e *TruncatedError) Error() string {
	return "Keystone truncated the list of " + e.Plural + " after " + itoa(e.Got) + " entries (its list_limit), so the list is " +
		"incomplete and nothing was decided from it: raise list_limit in keystone.conf ([DEFAULT] or its section)"
}

// IsTruncated reports whether err is a list that Keystone cut short.
func IsTruncated(err error) bool {
	var t *TruncatedError
	return errors.As(err, &t)
}

// Create posts a new object and returns it as Keystone stored it.
func (c Collection[T]) Create(ctx context.Context, sc API, body any) (T, error) {
	var out map[string]T
	_, err := sc.Post(ctx, sc.ServiceURL(c.Path), map[string]any{c.Singular: body}, &out, &gophercloud.RequestOpts{OkCodes: []int{http.StatusCreated}})
	return out[c.Singular], err
}

// Put creates an object under an ID the caller chooses (federation objects).
func (c Collection[T]) Put(ctx context.Context, sc API, id string, body any) (T, error) {
	var out map[string]T
	_, err := sc.Put(ctx, sc.ServiceURL(c.Path, id), map[string]any{c.Singular: body}, &out, &gophercloud.RequestOpts{OkCodes: []int{http.StatusCreated}})
	return out[c.Singular], err
}

// Update patches the given fields of an object.
func (c Collection[T]) Update(ctx context.Context, sc API, id string, patch any) error {
	_, err := sc.Patch(ctx, sc.ServiceURL(c.Path, id), map[string]any{c.Singular: patch}, nil, &gophercloud.RequestOpts{OkCodes: []int{http.StatusOK}})
	return err
}

// Delete deletes an object.
func (c Collection[T]) Delete(ctx context.Context, sc API, id string) error {
	_, err := sc.Delete(ctx, sc.ServiceURL(c.Path, id), nil)
	return err
}

// IsNotFound reports whether err is Keystone's 404.
func IsNotFound(err error) bool {
	return gophercloud.ResponseCodeIs(err, http.StatusNotFound)
}

// IgnoreNotFound returns nil for Keystone's 404 and err otherwise: what a delete finds gone
// is deleted.
func IgnoreNotFound(err error) error {
	if IsNotFound(err) {
		return nil
	}
	return err
}

// IsConflict reports whether err is Keystone's 409.
func IsConflict(err error) bool {
	return gophercloud.ResponseCodeIs(err, http.StatusConflict)
}

// IsTwin reports whether a create was refused because an object with the same unique key
// (a project's name in its domain, say) exists: Keystone's 409, also once Wrap described it.
func IsTwin(err error) bool {
	return status(err) == http.StatusConflict
}

// Wrap describes a failed call with context: the error as Describe tells it, without the
// request body. A nil err is nil. The result answers MayHaveCommitted like err, and is not a
// gophercloud error any more: a wrapped 404 is a failure of the call it describes.
func Wrap(err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	return errors.Wrapf(&answer{status: status(err), noAnswer: noAnswer(err), message: Describe(err)}, format, args...)
}

// answer is a described call error: its message never holds the request, and it remembers
// Keystone's status (0 when none came) and whether no answer came at all.
type answer struct {
	status   int
	noAnswer bool
	message  string
}

func (a *answer) Error() string { return a.message }

// status is the HTTP status of a failed call, 0 when Keystone did not answer.
func status(err error) int {
	var ue gophercloud.ErrUnexpectedResponseCode
	if errors.As(err, &ue) {
		return ue.Actual
	}
	var a *answer
	if errors.As(err, &a) {
		return a.status
	}
	return 0
}

// noAnswer is true for a call that got no answer: a timeout or a dropped connection.
func noAnswer(err error) bool {
	var a *answer
	if errors.As(err, &a) {
		return a.noAnswer
	}
	var ue *url.Error
	return errors.As(err, &ue) || errors.Is(err, context.DeadlineExceeded)
}

// MayHaveCommitted reports whether a failed write may have been carried out all the same:
// Keystone answered 5xx, or no answer came (a timeout, a dropped connection). A 4xx, or an error
// raised before anything was sent, means it was not.
func MayHaveCommitted(err error) bool {
	if err == nil {
		return false
	}
	if s := status(err); s != 0 {
		return s >= http.StatusInternalServerError
	}
	return noAnswer(err)
}

// Describe turns a gophercloud error into one sentence without the request body: Keystone's
// answer can echo what was sent, and what was sent can hold a password.
func Describe(err error) string {
	var ue gophercloud.ErrUnexpectedResponseCode
	if errors.As(err, &ue) {
		return strings.TrimSpace(ue.Method + " " + ue.URL + ": Keystone answered " + http.StatusText(ue.Actual) + " (" + itoa(ue.Actual) + "): " + keystoneMessage(ue.Body))
	}
	return err.Error()
}
