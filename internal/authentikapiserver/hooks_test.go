package authentikapiserver

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	api "goauthentik.io/api/v3"
)

// do sends a raw request, for exchanges the generated client cannot produce.
func (e *env) do(t *testing.T, method, path, token, body string) (int, []byte) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(t.Context(), method, e.url+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", token)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }() // read to the end below; nothing to lose
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, b
}

func TestAuthentication(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		name   string
		token  string
		detail string
	}{
		{"wrong token", "Bearer nope", "Token invalid/expired"},
		{"no header", "", "Authentication credentials were not provided."},
		{"other scheme", "Basic abc", "Unsupported authentication type"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := api.NewConfiguration()
			cfg.Scheme, cfg.Host = "http", strings.TrimPrefix(e.url, "http://")
			if tc.token != "" {
				cfg.AddDefaultHeader("Authorization", tc.token)
			}
			_, resp, err := api.NewAPIClient(cfg).CoreAPI.CoreApplicationsList(e.ctx).Execute()
			if status(resp) != http.StatusForbidden {
				t.Fatalf("status %d, want 403 (authentik sends no 401)", status(resp))
			}
			if got := genericError(t, err).Detail; got != tc.detail {
				t.Errorf("detail %q, want %q", got, tc.detail)
			}
		})
	}
	if len(e.s.Violations()) != 0 {
		t.Errorf("auth failures are not contract violations: %+v", e.s.Violations())
	}
}

func TestFaultInjectionAndCounts(t *testing.T) {
	e := newEnv(t)
	e.s.InjectFault(Fault{Method: http.MethodGet, PathPrefix: "/core/applications/", Status: http.StatusServiceUnavailable, Times: 2})
	for i := 0; i < 2; i++ {
		_, resp, err := e.c.CoreAPI.CoreApplicationsList(e.ctx).Execute()
		if status(resp) != http.StatusServiceUnavailable || err == nil {
			t.Fatalf("attempt %d: %d %v", i, status(resp), err)
		}
	}
	if _, _, err := e.c.CoreAPI.CoreApplicationsList(e.ctx).Execute(); err != nil {
		t.Fatalf("fault should be used up: %v", err)
	}
	// Other paths were never affected.
	if _, _, err := e.c.FlowsAPI.FlowsInstancesList(e.ctx).Execute(); err != nil {
		t.Fatal(err)
	}

	e.s.InjectFault(Fault{PathPrefix: "/flows/", Latency: 150 * time.Millisecond, Times: 1})
	start := time.Now()
	if _, _, err := e.c.FlowsAPI.FlowsInstancesRetrieve(e.ctx, "default-invalidation-flow").Execute(); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 150*time.Millisecond {
		t.Errorf("latency fault: request took %v", d)
	}

	want := map[string]int{
		"GET /core/applications/":      3,
		"GET /flows/instances/":        1,
		"GET /flows/instances/{slug}/": 1,
	}
	if diff := cmp.Diff(want, e.s.Counts()); diff != "" {
		t.Errorf("counts (-want +got):\n%s", diff)
	}
	e.s.ResetCounts()
	if len(e.s.Counts()) != 0 {
		t.Error("ResetCounts")
	}
}

// Requests authentik's document rejects are answered 400 (or 404/405) with a
// body naming the mistake, and recorded.
func TestMalformedRequestsAreViolations(t *testing.T) {
	e := newEnv(t)
	bearer := "Bearer " + e.s.Token()
	cases := []struct {
		name       string
		method     string
		path, body string
		wantStatus int
		wantInBody string
	}{
		{"slug breaks the pattern", "POST", "/api/v3/core/applications/", `{"name":"x","slug":"has space"}`, 400, `"slug"`},
		{"required field missing", "POST", "/api/v3/core/applications/", `{"slug":"x"}`, 400, `name`},
		{"wrong type", "POST", "/api/v3/core/groups/", `{"name":"g","is_superuser":"yes"}`, 400, `"is_superuser"`},
		{"not a UUID", "POST", "/api/v3/core/groups/", `{"name":"g","parents":["nope"]}`, 400, `"parents"`},
		{"enum value", "POST", "/api/v3/core/users/", `{"username":"u","name":"","type":"robot"}`, 400, `"type"`},
		{"field not in the schema", "POST", "/api/v3/core/applications/", `{"name":"x","slug":"x","pk":"abc"}`, 400, `not in the openapi schema`},
		{"missing trailing slash", "GET", "/api/v3/core/applications", "", 404, `Not found.`},
		{"method not in the document", "PATCH", "/api/v3/core/applications/", `{}`, 405, `not allowed`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e.s.ResetViolations()
			code, body := e.do(t, tc.method, tc.path, bearer, tc.body)
			if code != tc.wantStatus || !strings.Contains(string(body), tc.wantInBody) {
				t.Errorf("got %d %s, want %d containing %s", code, body, tc.wantStatus, tc.wantInBody)
			}
			v := e.s.Violations()
			if len(v) != 1 || v[0].Kind != KindRequest {
				t.Errorf("violations = %+v, want one request violation", v)
			}
		})
	}
	// The 400 body still decodes as authentik's ValidationError in the client.
	e.s.ResetViolations()
	req := api.NewApplicationRequest("x", "x")
	req.AdditionalProperties = map[string]interface{}{"meta_colour": "red"}
	_, _, err := e.c.CoreAPI.CoreApplicationsCreate(e.ctx).ApplicationRequest(*req).Execute()
	if fe := validationError(t, err); fe["meta_colour"] == nil || fe["code"] != "openapi_schema_violation" {
		t.Errorf("decoded = %+v", fe)
	}
	if len(e.s.Violations()) != 1 {
		t.Errorf("violations = %+v", e.s.Violations())
	}
	e.s.ResetViolations()
}

// An answer of ours outside the document is recorded as a server bug.
func TestResponseViolationIsRecorded(t *testing.T) {
	e := newEnv(t)
	// The document says meta_launch_url is a URI; a seed can store anything.
	if _, err := e.s.Seed("core/applications", map[string]any{"name": "bad", "slug": "bad", "meta_launch_url": "not a url"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.c.CoreAPI.CoreApplicationsRetrieve(e.ctx, "bad").Execute(); err != nil {
		t.Fatal(err)
	}
	v := e.s.Violations()
	if len(v) != 1 || v[0].Kind != KindResponse || !strings.Contains(v[0].Message, "meta_launch_url") {
		t.Fatalf("violations = %+v", v)
	}
	e.s.ResetViolations()
}

// Seed stores hand-made objects; Raw reads them back exactly as GET does, so
// tests can assert an object the provider must not own was left untouched.
func TestSeedAndRaw(t *testing.T) {
	e := newEnv(t)
	seeded, err := e.s.Seed("core/applications", map[string]any{"name": "Hand made", "slug": "hand-made", "meta_publisher": "ops"})
	if err != nil {
		t.Fatal(err)
	}
	code, body := e.do(t, "GET", "/api/v3/core/applications/hand-made/", "Bearer "+e.s.Token(), "")
	if code != http.StatusOK || !bytes.Equal(seeded, body) {
		t.Fatalf("GET %d\n got %s\nwant %s", code, body, seeded)
	}
	// Unrelated writes leave it byte-identical.
	if _, _, err := e.c.CoreAPI.CoreApplicationsCreate(e.ctx).ApplicationRequest(*api.NewApplicationRequest("Other", "other")).Execute(); err != nil {
		t.Fatal(err)
	}
	raw, err := e.s.Raw("core/applications", "hand-made")
	if err != nil || !bytes.Equal(seeded, raw) {
		t.Errorf("raw changed: %v\n%s\n%s", err, raw, seeded)
	}

	cases := []struct {
		name string
		kind string
		obj  map[string]any
		err  string
	}{
		{"duplicate", "core/applications", map[string]any{"name": "x", "slug": "hand-made"}, "already exists"},
		{"unknown kind", "sources/ldap", map[string]any{}, "unknown kind"},
		{"dangling reference", "core/users", map[string]any{"username": "x", "groups": []any{"00000000-0000-4000-8000-000000000000"}}, "does not exist"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := e.s.Seed(tc.kind, tc.obj); err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("err = %v, want %q", err, tc.err)
			}
		})
	}
	if _, err := e.s.Seed("core/users", map[string]any{"pk": 42, "username": "fixed"}); err != nil {
		t.Fatal(err)
	}
	if u, _, err := e.c.CoreAPI.CoreUsersRetrieve(e.ctx, 42).Execute(); err != nil || u.Username != "fixed" {
		t.Errorf("seeded pk: %v", err)
	}
}

// The same hooks over HTTP, for out-of-process e2e tests.
func TestAdminHTTP(t *testing.T) {
	e := newEnv(t)
	code, body := e.do(t, "POST", "/_test/seed/core/groups", "", `{"name":"seeded","attributes":{"a":1}}`)
	if code != http.StatusCreated {
		t.Fatalf("seed: %d %s", code, body)
	}
	var g map[string]any
	if err := json.Unmarshal(body, &g); err != nil {
		t.Fatal(err)
	}
	code, raw := e.do(t, "GET", "/_test/raw/core/groups/"+g["pk"].(string), "", "")
	if code != http.StatusOK || !bytes.Equal(raw, body) {
		t.Errorf("raw: %d %s", code, raw)
	}
	if code, body := e.do(t, "POST", "/_test/faults", "", `{"path_prefix":"/core/groups/","status":502,"times":1}`); code != http.StatusNoContent {
		t.Fatalf("fault: %d %s", code, body)
	}
	if code, _ := e.do(t, "GET", "/api/v3/core/groups/", "Bearer "+e.s.Token(), ""); code != http.StatusBadGateway {
		t.Errorf("faulted request: %d", code)
	}
	code, body = e.do(t, "GET", "/_test/counts", "", "")
	if code != http.StatusOK || !strings.Contains(string(body), `"GET /core/groups/":1`) {
		t.Errorf("counts: %d %s", code, body)
	}
	e.do(t, "GET", "/api/v3/nope/", "Bearer "+e.s.Token(), "")
	code, body = e.do(t, "GET", "/_test/violations", "", "")
	if code != http.StatusOK || !strings.Contains(string(body), `"kind":"request"`) {
		t.Errorf("violations: %d %s", code, body)
	}
	if code, _ := e.do(t, "POST", "/_test/reset", "", ""); code != http.StatusNoContent {
		t.Errorf("reset: %d", code)
	}
	if code, _ := e.do(t, "GET", "/_test/raw/core/groups/"+g["pk"].(string), "", ""); code != http.StatusNotFound {
		t.Errorf("reset kept the seeded group: %d", code)
	}
	if len(e.s.Violations()) != 0 {
		t.Errorf("reset kept violations")
	}
}
