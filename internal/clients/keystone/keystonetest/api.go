// Package keystonetest answers a driver's Keystone calls from a table, so that unit tests can
// give any answer, fail any call and see every call made, without a server. Only tests
// import it.
package keystonetest

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/gophercloud/gophercloud/v2"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// Endpoint is the identity endpoint the fake's URLs start with.
const Endpoint = "http://keystone.test/v3/"

// An Answer is what Keystone answers one call.
type Answer struct {
	// Body is the JSON answer, decoded into the caller's response.
	Body string
	// Status, when 400 or more, fails the call with gophercloud's error for that status, as
	// the real client does.
	Status int
	// Err fails the call with this error: no answer came (a timeout, a reset connection).
	Err error
}

// API is a keystone.API that answers from Answers, keyed by "METHOD path?query" with the path
// below the endpoint (for example "GET domains?name=a" or "PATCH domains/d1"). A call without an
// answer fails, and is recorded like every other.
type API struct {
	Answers map[string]Answer

	mu    sync.Mutex
	calls []string
}

// Calls returns every call made, in order, as "METHOD path?query", followed by the JSON body
// sent, if any.
func (a *API) Calls() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.calls)
}

// NotFound, Conflict, Forbidden and ServerError are the answers of failed calls.
var (
	NotFound    = Answer{Status: http.StatusNotFound, Body: `{"error": {"message": "Could not find it."}}`}
	Conflict    = Answer{Status: http.StatusConflict, Body: `{"error": {"message": "Conflict occurred."}}`}
	Forbidden   = Answer{Status: http.StatusForbidden, Body: `{"error": {"message": "Forbidden."}}`}
	ServerError = Answer{Status: http.StatusInternalServerError, Body: `{"error": {"message": "Oops."}}`}
)

// Failure is the error a call of method on path (below the endpoint) fails with under this
// answer, for a test's expected error: gophercloud's for a failed status, else Err.
func (a Answer) Failure(method, path string) error {
	if a.Err != nil {
		return a.Err
	}
	return gophercloud.ErrUnexpectedResponseCode{Method: method, URL: Endpoint + path, Actual: a.Status, Body: []byte(a.Body)}
}

// ServiceURL implements keystone.API.
func (a *API) ServiceURL(parts ...string) string { return Endpoint + strings.Join(parts, "/") }

// Get implements keystone.API.
func (a *API) Get(_ context.Context, url string, out any, _ *gophercloud.RequestOpts) (*http.Response, error) {
	return a.call(http.MethodGet, url, nil, out)
}

// Head implements keystone.API.
func (a *API) Head(_ context.Context, url string, _ *gophercloud.RequestOpts) (*http.Response, error) {
	return a.call(http.MethodHead, url, nil, nil)
}

// Post implements keystone.API.
func (a *API) Post(_ context.Context, url string, body, out any, _ *gophercloud.RequestOpts) (*http.Response, error) {
	return a.call(http.MethodPost, url, body, out)
}

// Put implements keystone.API.
func (a *API) Put(_ context.Context, url string, body, out any, _ *gophercloud.RequestOpts) (*http.Response, error) {
	return a.call(http.MethodPut, url, body, out)
}

// Patch implements keystone.API.
func (a *API) Patch(_ context.Context, url string, body, out any, _ *gophercloud.RequestOpts) (*http.Response, error) {
	return a.call(http.MethodPatch, url, body, out)
}

// Delete implements keystone.API.
func (a *API) Delete(_ context.Context, url string, _ *gophercloud.RequestOpts) (*http.Response, error) {
	return a.call(http.MethodDelete, url, nil, nil)
}

func (a *API) call(method, url string, body, out any) (*http.Response, error) {
	key := method + " " + strings.TrimPrefix(url, Endpoint)
	rec := key
	if body != nil {
		// Unescaped, so that a marker's & reads as in Keystone.
		var b strings.Builder
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(body); err != nil {
			return nil, err
		}
		rec += " " + strings.TrimSpace(b.String())
	}
	a.mu.Lock()
	a.calls = append(a.calls, rec)
	ans, ok := a.Answers[key]
	a.mu.Unlock()
	switch {
	case !ok:
		return nil, errors.Errorf("keystonetest: no answer for %s", key)
	case ans.Err != nil:
		return nil, ans.Err
	case ans.Status >= http.StatusBadRequest:
		return &http.Response{StatusCode: ans.Status}, ans.Failure(method, strings.TrimPrefix(url, Endpoint))
	}
	status := ans.Status
	if status == 0 {
		status = http.StatusOK
	}
	if out != nil && ans.Body != "" {
		if err := json.Unmarshal([]byte(ans.Body), out); err != nil {
			return nil, errors.Wrapf(err, "keystonetest: cannot decode the answer to %s", key)
		}
	}
	return &http.Response{StatusCode: status}, nil
}

// A Result is what one driver call returned and the calls it made to Keystone.
type Result struct {
	Value any
	Err   error
	Calls []string
}

// An Op is one driver call, as a driver test's table names it.
type Op[MR adoption.Managed, O any] func(ctx context.Context, d adoption.Driver[MR, O]) (any, error)

// Run builds a driver over a fresh API answering from answers, calls op and returns what
// happened.
func Run[MR adoption.Managed, O any](answers map[string]Answer, newDriver func(keystone.API) adoption.Driver[MR, O], op Op[MR, O]) Result {
	a := &API{Answers: answers}
	v, err := op(context.Background(), newDriver(a))
	return Result{Value: v, Err: err, Calls: a.Calls()}
}

// Find returns the IDs of the objects Find found.
func Find[MR adoption.Managed, O any](mg MR) Op[MR, O] {
	return func(ctx context.Context, d adoption.Driver[MR, O]) (any, error) {
		found, err := d.Find(ctx, mg)
		var ids []string // nil when nothing was found, as the tables write it
		if len(found) > 0 {
			ids = make([]string, 0, len(found))
		}
		for _, o := range found {
			ids = append(ids, d.Describe(o).ID)
		}
		return ids, err
	}
}

// Create returns the ID Create returned.
func Create[MR adoption.Managed, O any](mg MR, m provenance.Marker) Op[MR, O] {
	return func(ctx context.Context, d adoption.Driver[MR, O]) (any, error) {
		id, _, err := d.Create(ctx, mg, m)
		return id, err
	}
}

// Update updates the observed object o.
func Update[MR adoption.Managed, O any](mg MR, o O, m provenance.Marker) Op[MR, O] {
	return func(ctx context.Context, d adoption.Driver[MR, O]) (any, error) {
		_, err := d.Update(ctx, mg, o, m)
		return nil, err
	}
}

// Delete deletes the observed object o.
func Delete[MR adoption.Managed, O any](mg MR, o O) Op[MR, O] {
	return func(ctx context.Context, d adoption.Driver[MR, O]) (any, error) { return nil, d.Delete(ctx, mg, o) }
}

// Dependents returns what the driver's Dependents found, as "type key" lines.
func Dependents[MR adoption.Managed, O any](mg MR, o O) Op[MR, O] {
	return func(ctx context.Context, d adoption.Driver[MR, O]) (any, error) {
		c, ok := d.(adoption.Cascader[MR, O])
		if !ok {
			return nil, errors.New("keystonetest: the driver has no Dependents")
		}
		ds, err := c.Dependents(ctx, mg, o)
		var out []string
		for _, d := range ds {
			out = append(out, d.Type+" "+d.Key)
		}
		return out, err
	}
}
