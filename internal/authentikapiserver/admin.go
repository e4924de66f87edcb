package authentikapiserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
)

// adminPrefix holds the test hooks. It is outside /api/v3 so it can never be
// mistaken for authentik API surface, and needs no token (loopback test tool).
const adminPrefix = "/_test/"

// Kinds lists the kind names Seed and Raw accept: the API paths below
// /api/v3 without slashes around them, e.g. "core/applications".
func (s *Server) Kinds() []string {
	out := make([]string, 0, len(s.kinds))
	for _, k := range s.kinds {
		out = append(out, k.path)
	}
	sort.Strings(out)
	return out
}

func (s *Server) kindByPath(path string) (*kind, error) {
	path = strings.Trim(path, "/")
	for _, k := range s.kinds {
		if k.path == path {
			return k, nil
		}
	}
	return nil, fmt.Errorf("unknown kind %q (known: %s)", path, strings.Join(s.Kinds(), ", "))
}

// Seed stores an object directly, bypassing the API (no token, no schema
// check, no request counted), e.g. a hand-made application without any
// marker of the provider. obj holds the writable fields; "pk" may be given to
// choose the primary key. Defaults, references and uniqueness apply as for a
// create. It returns the object exactly as GET would answer it.
func (s *Server) Seed(kindPath string, obj map[string]any) ([]byte, error) {
	k, err := s.kindByPath(kindPath)
	if err != nil {
		return nil, err
	}
	body, err := jsonShaped(obj)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	d, errs := write(s.st, k, body, nil, s.seedBase(), true)
	if errs != nil {
		return nil, fmt.Errorf("seed %s: %s", k.path, summarizeFields(errs))
	}
	return json.Marshal((&renderCtx{st: s.st, q: url.Values{}, base: s.seedBase()}).render(k, d))
}

// Raw returns an object exactly as "GET /api/v3/<kind>/<id>/" would answer
// it (byte for byte, given the same Host), for assertions that an object was
// or was not touched. id is what the URL uses: slug, pk or UUID.
func (s *Server) Raw(kindPath, id string) ([]byte, error) {
	return s.RawWithBase(kindPath, id, s.seedBase())
}

// RawWithBase is Raw for objects whose computed URLs depend on the origin
// the client used (SAML providers); base is like "http://127.0.0.1:8080".
func (s *Server) RawWithBase(kindPath, id, base string) ([]byte, error) {
	k, err := s.kindByPath(kindPath)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.st.lookup(k, id)
	if r == nil {
		return nil, fmt.Errorf("%s %q: %w", k.path, id, errNotFound)
	}
	return json.Marshal((&renderCtx{st: s.st, q: url.Values{}, base: base}).render(k, r.data))
}

// Password returns the password last set through set_password for a user.
func (s *Server) Password(userPK int64) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.st.passwords[userPK]
	return p, ok
}

// SetBaseURL tells Seed and Raw which origin clients use (Start sets it).
func (s *Server) SetBaseURL(u string) {
	s.hooks.mu.Lock()
	s.hooks.base = strings.TrimRight(u, "/")
	s.hooks.mu.Unlock()
}

func (s *Server) seedBase() string {
	s.hooks.mu.Lock()
	defer s.hooks.mu.Unlock()
	if s.hooks.base == "" {
		return "http://localhost"
	}
	return s.hooks.base
}

// jsonShaped converts Go values (structs, ints) into the JSON-decoded form the
// store keeps.
func jsonShaped(obj map[string]any) (map[string]any, error) {
	b, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out map[string]any
	return out, dec.Decode(&out)
}

// serveAdmin exposes the hooks over HTTP for out-of-process tests:
//
//	GET    /_test/violations          list violations
//	DELETE /_test/violations          forget them
//	GET    /_test/counts              {"GET /core/applications/": 3, ...}
//	DELETE /_test/counts              zero them
//	POST   /_test/faults              add a Fault (JSON; latency_ms)
//	DELETE /_test/faults              remove all faults
//	POST   /_test/seed/<kind>         store an object, answer it raw
//	GET    /_test/raw/<kind>/<id>     an object as GET answers it
//	GET    /_test/password/<user pk>  {"password": ...} last set through set_password
//	POST   /_test/reset               defaults back, hooks cleared
func (s *Server) serveAdmin(w http.ResponseWriter, r *http.Request) {
	p := strings.TrimPrefix(r.URL.Path, adminPrefix)
	for _, h := range adminHooks {
		if rest, ok := h.match(r.Method, p); ok {
			h.serve(s, r, rest).write(w)
			return
		}
	}
	adminError(http.StatusNotFound, fmt.Errorf("unknown test hook %s %s", r.Method, r.URL.Path)).write(w)
}

// adminHook is one route of serveAdmin: a method and a path, or a path prefix
// when it ends in "/" (serve gets the rest of the path).
type adminHook struct {
	method, path string
	serve        func(s *Server, r *http.Request, rest string) adminAnswer
}

var adminHooks = []adminHook{
	{http.MethodGet, "violations", func(s *Server, _ *http.Request, _ string) adminAnswer {
		v := s.Violations()
		if v == nil {
			v = []Violation{}
		}
		return adminJSON(http.StatusOK, v)
	}},
	{http.MethodDelete, "violations", adminDone((*Server).ResetViolations)},
	{http.MethodGet, "counts", func(s *Server, _ *http.Request, _ string) adminAnswer {
		return adminJSON(http.StatusOK, s.Counts())
	}},
	{http.MethodDelete, "counts", adminDone((*Server).ResetCounts)},
	{http.MethodPost, "faults", func(s *Server, r *http.Request, _ string) adminAnswer {
		var f Fault
		if err := json.NewDecoder(r.Body).Decode(&f); err != nil {
			return adminError(http.StatusBadRequest, err)
		}
		s.InjectFault(f)
		return adminAnswer{status: http.StatusNoContent}
	}},
	{http.MethodDelete, "faults", adminDone((*Server).ClearFaults)},
	{http.MethodPost, "reset", adminDone(func(s *Server) {
		s.Reset()
		s.ResetHooks()
	})},
	{http.MethodPost, "seed/", (*Server).adminSeed},
	{http.MethodGet, "raw/", (*Server).adminRaw},
	{http.MethodGet, "password/", (*Server).adminPassword},
}

func (h adminHook) match(method, p string) (string, bool) {
	if method != h.method {
		return "", false
	}
	if strings.HasSuffix(h.path, "/") {
		return strings.CutPrefix(p, h.path)
	}
	return "", p == h.path
}

func (s *Server) adminSeed(r *http.Request, kind string) adminAnswer {
	var obj map[string]any
	if err := json.NewDecoder(r.Body).Decode(&obj); err != nil {
		return adminError(http.StatusBadRequest, err)
	}
	b, err := s.Seed(kind, obj)
	if err != nil {
		return adminError(http.StatusBadRequest, err)
	}
	return adminAnswer{status: http.StatusCreated, raw: b}
}

func (s *Server) adminRaw(r *http.Request, rest string) adminAnswer {
	rest = strings.Trim(rest, "/")
	i := strings.LastIndex(rest, "/")
	if i < 0 {
		return adminError(http.StatusBadRequest, fmt.Errorf("want /_test/raw/<kind>/<id>"))
	}
	b, err := s.RawWithBase(rest[:i], rest[i+1:], baseURL(r))
	if err != nil {
		return adminError(http.StatusNotFound, err)
	}
	return adminAnswer{status: http.StatusOK, raw: b}
}

func (s *Server) adminPassword(_ *http.Request, rest string) adminAnswer {
	pk, err := strconv.ParseInt(strings.Trim(rest, "/"), 10, 64)
	if err != nil {
		return adminError(http.StatusBadRequest, fmt.Errorf("want /_test/password/<user pk>"))
	}
	pw, ok := s.Password(pk)
	if !ok {
		return adminError(http.StatusNotFound, fmt.Errorf("no password was set for user %d", pk))
	}
	return adminJSON(http.StatusOK, map[string]any{"password": pw})
}

// adminAnswer is what a test hook answers: no body (204), a value to encode as
// JSON, or JSON already encoded (raw).
type adminAnswer struct {
	status int
	v      any
	raw    []byte
}

func adminJSON(status int, v any) adminAnswer { return adminAnswer{status: status, v: v} }

func adminError(status int, err error) adminAnswer {
	return adminJSON(status, map[string]any{"detail": err.Error()})
}

// adminDone serves a hook that only acts and answers 204.
func adminDone(act func(*Server)) func(*Server, *http.Request, string) adminAnswer {
	return func(s *Server, _ *http.Request, _ string) adminAnswer {
		act(s)
		return adminAnswer{status: http.StatusNoContent}
	}
}

func (a adminAnswer) write(w http.ResponseWriter) {
	if a.status == http.StatusNoContent {
		w.WriteHeader(a.status)
		return
	}
	b := a.raw
	if b == nil {
		var err error
		if b, err = json.Marshal(a.v); err != nil {
			http.Error(w, "cannot encode the answer: "+err.Error(), http.StatusInternalServerError)
			return
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(a.status)
	_, _ = w.Write(b)
}
