package authentik

import (
	"encoding/json"
	"net/http"
	"strings"

	api "goauthentik.io/api/v3"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// An Error is a failed authentik API call: the HTTP status (0 when no answer came) and one
// sentence with authentik's answer, as Describe writes it (never the request).
type Error struct {
	Status  int
	Message string
	// Fields are the messages of a 400 by request field, as authentik's serializers answer
	// them ({"slug": ["Application with this slug already exists."]}); nil otherwise.
	Fields map[string][]string
}

func (e *Error) Error() string { return e.Message }

// AsError turns a client error and its response into an *Error; nil stays nil.
func AsError(err error, resp *http.Response) error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	e = &Error{Message: Describe(err, resp)}
	if resp != nil {
		e.Status = resp.StatusCode
	}
	var oe *api.GenericOpenAPIError
	if e.Status == http.StatusBadRequest && errors.As(err, &oe) {
		e.Fields = fieldErrors(oe.Body())
	}
	return e
}

// answerError is the *Error of an answer other than 2xx whose body was read (a request sent
// without the generated client, see get), as AsError makes them of the generated client's.
func answerError(resp *http.Response, body []byte) error {
	e := &Error{Status: resp.StatusCode, Message: answered(resp, body)}
	if e.Status == http.StatusBadRequest {
		e.Fields = fieldErrors(body)
	}
	return e
}

// fieldErrors reads the field messages of a serializer's 400 body; nil when the body is not
// an object of message lists (non_field_errors is a field like any other).
func fieldErrors(body []byte) map[string][]string {
	var raw map[string]json.RawMessage
	if json.Unmarshal(body, &raw) != nil {
		return nil
	}
	out := map[string][]string{}
	for f, v := range raw {
		var msgs []string
		if json.Unmarshal(v, &msgs) == nil {
			out[f] = msgs
		}
	}
	return out
}

// IsTaken reports whether err is authentik's refusal of a create or an update because another
// object holds the value of field, which must be unique: Django's "<Model> with this <field>
// already exists." for a unique column, or the serializer's "This field must be unique.".
func IsTaken(err error, field string) bool {
	var e *Error
	if !errors.As(err, &e) || e.Status != http.StatusBadRequest {
		return false
	}
	for _, m := range e.Fields[field] {
		if m == "This field must be unique." || strings.HasSuffix(m, " already exists.") {
			return true
		}
	}
	return false
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
