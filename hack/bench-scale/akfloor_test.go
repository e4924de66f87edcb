package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crossplane-contrib/provider-identity/internal/authentikapiserver"
)

// TestAKFloor runs the floor against an in-process authentik API server (which fails the test
// on any request authentik would reject): it creates the workload, each Application using its
// own provider, and its delete leaves nothing behind.
func TestAKFloor(t *testing.T) {
	s, base := authentikapiserver.StartTest(t, authentikapiserver.Options{})
	a := newAuthentikAdmin(base+"/api/v3/", s.Token())
	w := akWorkload{N: 3, Namespace: "bench", Prefix: "floor"}
	var log strings.Builder
	f := &akFloor{a: a, w: w, c: 2, providerPKs: make([]float64, w.N), groupPKs: make([]string, w.groups())}
	sd, err := f.lookups(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if err := f.pool(w.N+w.groups(), func(i int) error { return f.create(t.Context(), sd, i) }); err != nil {
		t.Fatal(err)
	}
	left, err := a.leftovers(t.Context(), "floor")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"application floor-app-0000", "application floor-app-0001", "application floor-app-0002",
		"oauth2 provider floor-oauth2-0000", "oauth2 provider floor-oauth2-0001", "oauth2 provider floor-oauth2-0002", "group floor-group-0000"}
	if diff := cmp.Diff(want, left); diff != "" {
		t.Errorf("after the create -want +got:\n%s", diff)
	}
	app, err := a.do(t.Context(), http.MethodGet, "/core/applications/floor-app-0001/", nil, http.StatusOK)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := app["provider"], f.providerPKs[1]; got != want {
		t.Errorf("floor-app-0001 uses provider %v, want its own %v", got, want)
	}

	// The whole run, create and delete, on a fresh prefix.
	w.Prefix = "run"
	r, err := runAKFloor(t.Context(), a, w, 2, &errWriter{w: &log})
	if err != nil {
		t.Fatal(err)
	}
	if r.Create <= 0 || r.Delete <= 0 || !strings.HasPrefix(r.Line, "FLOOR system=authentik n=3 workload_c2_create_s=") {
		t.Errorf("floor result %+v", r)
	}
	if left, err := a.leftovers(t.Context(), "run"); err != nil || len(left) > 0 {
		t.Errorf("after the floor's delete: left %v, %v", left, err)
	}
	if !strings.Contains(log.String(), "floor op=workload_create c=2 n=3 writes=7 requests=11 ") {
		t.Errorf("floor log (4 lookups and 7 writes):\n%s", log.String())
	}
}

// TestAKFloorError: a request the server refuses ends the floor with an error naming it.
func TestAKFloorError(t *testing.T) {
	s, base := authentikapiserver.StartTest(t, authentikapiserver.Options{})
	a := newAuthentikAdmin(base, s.Token()+"wrong")
	_, err := runAKFloor(t.Context(), a, akWorkload{N: 2, Prefix: "floor"}, 2, &errWriter{w: io.Discard})
	if err == nil || !strings.Contains(err.Error(), "/flows/instances/") || !strings.Contains(err.Error(), "status 403") {
		t.Errorf("runAKFloor with a wrong token: %v, want the lookup's status 403", err)
	}
}

// TestAuthentikList follows the pages of a list.
func TestAuthentikList(t *testing.T) {
	pages := map[string]string{
		"1": `{"pagination":{"next":2},"results":[{"pk":"a"},{"pk":"b"}]}`,
		"2": `{"pagination":{"next":0},"results":[{"pk":"c"}]}`,
	}
	var queries []string
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		queries = append(queries, r.URL.RawQuery)
		_, _ = io.WriteString(w, pages[r.URL.Query().Get("page")])
	}))
	defer ts.Close()
	a := newAuthentikAdmin(ts.URL, "t")
	got, err := a.list(t.Context(), "/core/groups/", url.Values{"name": {"x"}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]map[string]any{{"pk": "a"}, {"pk": "b"}, {"pk": "c"}}, got); diff != "" {
		t.Errorf("list -want +got:\n%s", diff)
	}
	if diff := cmp.Diff([]string{"name=x&page=1&page_size=500", "name=x&page=2&page_size=500"}, queries); diff != "" {
		t.Errorf("queries -want +got:\n%s", diff)
	}
	if _, err := a.one(t.Context(), "/core/groups/", nil); err == nil {
		t.Error("one of a list of 3: no error")
	}
}
