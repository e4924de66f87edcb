package authentikapiserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
)

// APIPrefix is where authentik serves its REST API (the document's server URL).
const APIPrefix = "/api/v3"

// Options configures a Server.
type Options struct {
	// Token is the API token clients must send as "Authorization: Bearer
	// <token>". Empty means DefaultToken.
	Token string
	// OpenAPIPath overrides the document location (default: the pinned
	// goauthentik.io/api/v3 module's api/openapi.yaml).
	OpenAPIPath string
	// Logf, when set, receives one line per violation as it happens.
	Logf func(format string, args ...any)
}

// DefaultToken is the token a Server accepts when Options.Token is empty.
const DefaultToken = "authentikapiserver-test-token"

type handler func(c *call) reply

// Server is the in-memory authentik API. It is an http.Handler; all methods
// are safe for concurrent use.
type Server struct {
	spec  *spec
	token string
	logf  func(format string, args ...any)
	ops   map[string]handler
	kinds []*kind

	mu sync.Mutex // guards st: every handler runs with it held
	st *state

	hooks hooks
}

// New loads the openapi document (once per process) and returns a Server
// holding authentik's default objects.
func New(opts Options) (*Server, error) {
	sp, err := loadSpec(opts.OpenAPIPath)
	if err != nil {
		return nil, err
	}
	s := &Server{spec: sp, token: opts.Token, logf: opts.Logf, ops: map[string]handler{}}
	if s.token == "" {
		s.token = DefaultToken
	}
	s.kinds = allKinds()
	for _, k := range s.kinds {
		genericOps(k, s.ops)
	}
	extraOps(s.ops, s.kinds)
	s.hooks.init()
	s.Reset()
	return s, nil
}

// Token returns the API token the server accepts.
func (s *Server) Token() string { return s.token }

// Reset drops every object and recreates authentik's defaults. Counts,
// violations and faults are left alone (see ResetHooks).
func (s *Server) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st = newState(s.kinds)
	seedDefaults(s.st)
}

// call is one API request on its way through a handler.
type call struct {
	s      *Server
	st     *state
	r      *http.Request
	route  *routers.Route
	params map[string]string
	query  url.Values
	body   map[string]any
	base   string
}

func (c *call) rc() *renderCtx { return &renderCtx{st: c.st, q: c.query, base: c.base} }

func (c *call) declaresParam(name string) bool {
	for _, p := range c.route.Operation.Parameters {
		if p.Value != nil && p.Value.In == "query" && p.Value.Name == name {
			return true
		}
	}
	return false
}

// unimplemented answers 501 and records the gap, so a test that leans on
// behaviour this fake lacks fails instead of passing on a wrong answer.
func (c *call) unimplemented(msg string) reply {
	c.s.violate(Violation{Kind: KindUnimplemented, Method: c.r.Method, Path: c.r.URL.RequestURI(), Operation: c.route.Operation.OperationID, Message: msg})
	return detail(http.StatusNotImplemented, "authentikapiserver: "+msg)
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, adminPrefix) {
		s.serveAdmin(w, r)
		return
	}
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(raw))

	route, params, err := s.spec.router.FindRoute(r)
	if err != nil {
		s.serveNoRoute(w, r, err)
		return
	}
	s.hooks.count(r.Method + " " + route.Path)
	if rep, ok := s.hooks.fault(r.Context(), r.Method, strings.TrimPrefix(r.URL.Path, APIPrefix)); ok {
		writeReply(w, rep, nil)
		return
	}

	in := &openapi3filter.RequestValidationInput{Request: r, PathParams: params, Route: route, Options: s.requestOptions()}
	// A token that is sent is checked even where anonymous access is allowed,
	// as DRF authenticates before it looks at permissions.
	if needsAuth(route.Operation) || r.Header.Get("Authorization") != "" {
		if rep := s.authenticate(r); rep != nil {
			s.finish(r.Context(), w, in, *rep)
			return
		}
	}
	if rep := s.validateRequest(r.Context(), in, raw); rep != nil {
		s.finish(r.Context(), w, in, *rep)
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(raw))

	c := &call{s: s, r: r, route: route, params: params, query: r.URL.Query(), base: baseURL(r)}
	if len(bytes.TrimSpace(raw)) > 0 {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber() // keep attribute numbers exactly as sent
		if err := dec.Decode(&c.body); err != nil {
			// The validator already accepted the body, so this is not JSON
			// object-shaped in a way it allows (e.g. an array body).
			c.body = nil
		}
	}
	h, ok := s.ops[route.Operation.OperationID]
	var rep reply
	if !ok {
		rep = c.unimplemented(fmt.Sprintf("operation %s (%s %s) is not implemented by authentikapiserver", route.Operation.OperationID, r.Method, route.Path))
	} else {
		s.mu.Lock()
		c.st = s.st
		rep = h(c)
		s.mu.Unlock()
	}
	s.finish(r.Context(), w, in, rep)
}

func (s *Server) serveNoRoute(w http.ResponseWriter, r *http.Request, err error) {
	s.hooks.count(r.Method + " " + r.URL.Path)
	v := Violation{Kind: KindRequest, Method: r.Method, Path: r.URL.RequestURI()}
	var rep reply
	if errors.Is(err, routers.ErrMethodNotAllowed) {
		v.Message = fmt.Sprintf("method %s is not in the openapi document for %s", r.Method, r.URL.Path)
		rep = detail(http.StatusMethodNotAllowed, fmt.Sprintf("Method %q not allowed.", r.Method))
	} else {
		v.Message = fmt.Sprintf("path %s is not in the openapi document (authentik serves /api/v3/<path> with a trailing slash)", r.URL.Path)
		rep = detail(http.StatusNotFound, "Not found.")
	}
	s.violate(v)
	writeReply(w, rep, nil)
}

// needsAuth is false only for operations the document marks as allowing
// anonymous access (an empty security requirement, e.g. SAML metadata).
func needsAuth(op *openapi3.Operation) bool {
	if op.Security == nil {
		return true
	}
	for _, req := range *op.Security {
		if len(req) == 0 {
			return false
		}
	}
	return true
}

// authenticate mirrors authentik's TokenAuthentication. authentik sends no
// WWW-Authenticate challenge, so DRF turns every authentication failure into
// 403 (the document lists 403 GenericError, no 401).
func (s *Server) authenticate(r *http.Request) *reply {
	h := strings.TrimSpace(r.Header.Get("Authorization"))
	if h == "" || !strings.Contains(h, " ") {
		rep := detail(http.StatusForbidden, msgNoCredential)
		return &rep
	}
	scheme, token, _ := strings.Cut(h, " ")
	if !strings.EqualFold(scheme, "bearer") {
		rep := detail(http.StatusForbidden, "Unsupported authentication type")
		return &rep
	}
	if token == "" {
		rep := detail(http.StatusForbidden, "Malformed header")
		return &rep
	}
	if token != s.token {
		rep := detail(http.StatusForbidden, msgTokenInvalid)
		return &rep
	}
	return nil
}

// finish marshals a reply, validates it against the document (a failure is
// this server's bug and is recorded) and writes it.
func (s *Server) finish(ctx context.Context, w http.ResponseWriter, in *openapi3filter.RequestValidationInput, rep reply) {
	body, ctype := encode(rep)
	if rep.status != http.StatusNoContent {
		out := &openapi3filter.ResponseValidationInput{
			RequestValidationInput: in,
			Status:                 rep.status,
			Header:                 http.Header{"Content-Type": {ctype}},
			Body:                   io.NopCloser(bytes.NewReader(body)),
			Options:                s.responseOptions(),
		}
		if err := openapi3filter.ValidateResponse(ctx, out); err != nil {
			s.violate(Violation{
				Kind: KindResponse, Method: in.Request.Method, Path: in.Request.URL.RequestURI(),
				Operation: in.Route.Operation.OperationID, Status: rep.status,
				Message: "authentikapiserver answered outside the openapi document (server bug): " + summarize(err),
				Body:    truncate(string(body)),
			})
		}
	}
	writeReply(w, rep, body)
}

func encode(rep reply) ([]byte, string) {
	if rep.raw != nil {
		return rep.raw, rep.contentType
	}
	if rep.body == nil {
		return nil, "application/json"
	}
	b, err := json.Marshal(rep.body)
	if err != nil {
		b = []byte(fmt.Sprintf(`{"detail": %q}`, err.Error()))
	}
	return b, "application/json"
}

func writeReply(w http.ResponseWriter, rep reply, body []byte) {
	if body == nil {
		body, _ = encode(rep)
	}
	ctype := "application/json"
	if rep.raw != nil {
		ctype = rep.contentType
	}
	for k, v := range rep.header {
		w.Header()[k] = v
	}
	if rep.status != http.StatusNoContent {
		w.Header().Set("Content-Type", ctype)
	}
	w.WriteHeader(rep.status)
	if rep.status != http.StatusNoContent {
		_, _ = w.Write(body) //nolint:gosec // G705: a test server's API answer (JSON, or SAML metadata as application/xml), never HTML
	}
}

// baseURL is the absolute origin the client used, for computed URLs.
func baseURL(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

func truncate(s string) string {
	const max = 4000
	if len(s) > max {
		return s[:max] + "...(truncated)"
	}
	return s
}

// sleep waits for d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}
