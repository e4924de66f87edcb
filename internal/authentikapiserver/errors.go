package authentikapiserver

import (
	"fmt"
	"net/http"
	"sort"
)

// fieldErrors is DRF's 400 body: field name -> messages. Non-field messages go
// under "non_field_errors", as DRF does.
type fieldErrors map[string][]string

func (e fieldErrors) add(field, format string, args ...any) {
	e[field] = append(e[field], fmt.Sprintf(format, args...))
}

func (e fieldErrors) body() map[string]any {
	out := make(map[string]any, len(e))
	for k, v := range e {
		out[k] = v
	}
	return out
}

// reply is what a handler answers; the pipeline marshals, validates and writes it.
type reply struct {
	status      int
	body        any    // marshalled as JSON unless raw is set
	raw         []byte // sent as is with contentType
	contentType string
	header      http.Header
}

func jsonReply(status int, body any) reply { return reply{status: status, body: body} }

func noContent() reply { return reply{status: http.StatusNoContent} }

// detail is DRF's shape for every non-validation error: {"detail": "..."}.
func detail(status int, msg string) reply {
	return jsonReply(status, map[string]any{"detail": msg})
}

// notFound mirrors Django's get_object_or_404 message, which names the model
// class (e.g. "No OAuth2Provider matches the given query.").
func notFound(model string) reply {
	return detail(http.StatusNotFound, fmt.Sprintf("No %s matches the given query.", model))
}

func badRequest(e fieldErrors) reply { return jsonReply(http.StatusBadRequest, e.body()) }

// DRF wording for relations and uniqueness.
const (
	msgUnique       = "This field must be unique."
	msgInvalidPK    = "Invalid pk \"%v\" - object does not exist."
	msgRequired     = "This field is required."
	msgMustBeDict   = "Must be a dictionary."
	msgInvalidPage  = "Invalid page."
	msgNoCredential = "Authentication credentials were not provided."
	msgTokenInvalid = "Token invalid/expired"
)

// modelUniqueMsg is Django's default for a model field declared unique=True,
// which DRF copies into its UniqueValidator (e.g. "Application with this slug
// already exists.").
func modelUniqueMsg(verbose, field string) string {
	return fmt.Sprintf("%s with this %s already exists.", verbose, field)
}

func sortedKeys[M ~map[string]V, V any](m M) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
