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
	writeJSON := func(status int, v any) {
		b, err := json.Marshal(v)
		if err != nil {
			http.Error(w, "cannot encode the answer: "+err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write(b)
	}
	fail := func(status int, err error) { writeJSON(status, map[string]any{"detail": err.Error()}) }
	switch {
	case p == "violations" && r.Method == http.MethodGet:
		v := s.Violations()
		if v == nil {
			v = []Violation{}
		}
		writeJSON(http.StatusOK, v)
	case p == "violations" && r.Method == http.MethodDelete:
		s.ResetViolations()
		w.WriteHeader(http.StatusNoContent)
	case p == "counts" && r.Method == http.MethodGet:
		writeJSON(http.StatusOK, s.Counts())
	case p == "counts" && r.Method == http.MethodDelete:
		s.ResetCounts()
		w.WriteHeader(http.StatusNoContent)
	case p == "faults" && r.Method == http.MethodPost:
		var f Fault
		if err := json.NewDecoder(r.Body).Decode(&f); err != nil {
			fail(http.StatusBadRequest, err)
			return
		}
		s.InjectFault(f)
		w.WriteHeader(http.StatusNoContent)
	case p == "faults" && r.Method == http.MethodDelete:
		s.ClearFaults()
		w.WriteHeader(http.StatusNoContent)
	case p == "reset" && r.Method == http.MethodPost:
		s.Reset()
		s.ResetHooks()
		w.WriteHeader(http.StatusNoContent)
	case strings.HasPrefix(p, "seed/") && r.Method == http.MethodPost:
		var obj map[string]any
		if err := json.NewDecoder(r.Body).Decode(&obj); err != nil {
			fail(http.StatusBadRequest, err)
			return
		}
		b, err := s.Seed(strings.TrimPrefix(p, "seed/"), obj)
		if err != nil {
			fail(http.StatusBadRequest, err)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write(b) //nolint:gosec // G705: JSON sent as application/json by a test server, never rendered as HTML
	case strings.HasPrefix(p, "raw/") && r.Method == http.MethodGet:
		rest := strings.Trim(strings.TrimPrefix(p, "raw/"), "/")
		i := strings.LastIndex(rest, "/")
		if i < 0 {
			fail(http.StatusBadRequest, fmt.Errorf("want /_test/raw/<kind>/<id>"))
			return
		}
		b, err := s.RawWithBase(rest[:i], rest[i+1:], baseURL(r))
		if err != nil {
			fail(http.StatusNotFound, err)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(b) //nolint:gosec // G705: JSON sent as application/json by a test server, never rendered as HTML
	case strings.HasPrefix(p, "password/") && r.Method == http.MethodGet:
		pk, err := strconv.ParseInt(strings.Trim(strings.TrimPrefix(p, "password/"), "/"), 10, 64)
		if err != nil {
			fail(http.StatusBadRequest, fmt.Errorf("want /_test/password/<user pk>"))
			return
		}
		pw, ok := s.Password(pk)
		if !ok {
			fail(http.StatusNotFound, fmt.Errorf("no password was set for user %d", pk))
			return
		}
		writeJSON(http.StatusOK, map[string]any{"password": pw})
	default:
		fail(http.StatusNotFound, fmt.Errorf("unknown test hook %s %s", r.Method, r.URL.Path))
	}
}
