package authentik

import (
	"net/http"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// An Error is a failed authentik API call: the HTTP status (0 when no answer came) and one
// sentence with authentik's answer, as Describe writes it (never the request).
type Error struct {
	Status  int
	Message string
}

func (e *Error) Error() string { return e.Message }

// AsError turns a client error and its response into an *Error; nil stays nil.
func AsError(err error, resp *http.Response) error {
	if err == nil {
		return nil
	}
	e := &Error{Message: Describe(err, resp)}
	if resp != nil {
		e.Status = resp.StatusCode
	}
	return e
}

// MayHaveCommitted reports whether a failed write may have been carried out all the same:
// authentik answered 5xx, or no answer came. A 4xx, or an error raised before anything was
// sent, means it was not.
func MayHaveCommitted(err error) bool {
	var e *Error
	if !errors.As(err, &e) {
		return false
	}
	return e.Status == 0 || e.Status >= http.StatusInternalServerError
}

// Wrap describes a failed API call as an *Error (authentik's answer, never the request, which
// can hold a password or a client secret) with context; IsNotFound and MayHaveCommitted see
// through it. A nil err is nil.
func Wrap(err error, resp *http.Response, format string, args ...any) error {
	if err == nil {
		return nil
	}
	return errors.Wrapf(AsError(err, resp), format, args...)
}

// IsNotFound reports whether err is authentik's 404.
func IsNotFound(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Status == http.StatusNotFound
}

// IgnoreNotFound returns nil for authentik's 404 and err otherwise: what a delete finds gone
// is deleted.
func IgnoreNotFound(err error) error {
	if IsNotFound(err) {
		return nil
	}
	return err
}

// NotFound returns an error IsNotFound recognises, for IDs that cannot name any object
// (a malformed external name): asking authentik would only earn a 400.
func NotFound(what string) error {
	return &Error{Status: http.StatusNotFound, Message: what + " does not exist"}
}
