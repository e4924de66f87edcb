package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestCountingHandler sends requests through the proxy's handler in two phases and checks that
// each is counted once, under its template, in the phase it arrived in, with its status.
func TestCountingHandler(t *testing.T) {
	const id = "4c0f8d3b9e2a4f5c8a7b6d5e4f3a2b1c"
	backend := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == http.MethodPost:
			w.WriteHeader(http.StatusCreated)
		case r.URL.Path == "/v3/projects/missing":
			http.NotFound(w, r)
		default:
			_, _ = io.WriteString(w, "{}") // an implicit 200
		}
	})
	c := newCounter()
	srv := httptest.NewServer(countingHandler(backend, c))
	defer srv.Close()
	send := func(method, path string) {
		req, err := http.NewRequestWithContext(t.Context(), method, srv.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
	}

	c.setPhase("apply")
	send("POST", "/v3/projects")
	send("GET", "/v3/projects/"+id)
	send("GET", "/v3/projects/"+id)
	c.setPhase("steady")
	send("GET", "/v3/projects/"+id+"?x=1")
	send("GET", "/v3/projects/missing")

	type phase struct {
		Requests map[string]int
		Objects  map[string]int // only the requests that name one object: not the list, not the unknown path
		Statuses map[int]int
	}
	got := map[string]phase{}
	for _, p := range []string{"apply", "steady", "other"} {
		got[p] = phase{c.requests(p), c.objects(p), c.statuses(p)}
	}
	want := map[string]phase{
		"apply": {map[string]int{"POST /v3/projects": 1, "GET /v3/projects/{id}": 2}, map[string]int{"GET /v3/projects/" + id: 2}, map[int]int{201: 1, 200: 2}},
		"steady": {map[string]int{"GET /v3/projects/{id}?x=*": 1, "GET /v3/projects/missing": 1}, map[string]int{"GET /v3/projects/" + id: 1},
			map[int]int{200: 1, 404: 1}},
		"other": {map[string]int{}, map[string]int{}, map[int]int{}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("counts -want +got:\n%s", diff)
	}
}

func TestSumRequests(t *testing.T) {
	got := sumRequests(map[string]int{
		"GET /v3/projects/{id}":                        10,
		"POST /v3/auth/tokens":                         2,
		"PATCH /v3/projects/{id}":                      1,
		"PUT /v3/projects/{id}/groups/{id}/roles/{id}": 3,
	})
	if diff := cmp.Diff(tally{Total: 16, Writes: 4, Auth: 2}, got); diff != "" {
		t.Errorf("sumRequests -want +got:\n%s", diff)
	}
}

func TestByCount(t *testing.T) {
	got := byCount(map[string]int{"b": 2, "a": 2, "c": 5, "d": 1})
	if diff := cmp.Diff([]string{"c", "a", "b", "d"}, got); diff != "" {
		t.Errorf("byCount -want +got:\n%s", diff)
	}
}

// TestProxyCancelled: a request the provider cancels counts as 499, one Keystone fails as 502.
func TestProxyCancelled(t *testing.T) {
	release := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-release
	}))
	defer slow.Close()
	defer close(release)
	dead := httptest.NewServer(http.NotFoundHandler())
	dead.Close() // nothing listens there any more: the proxy cannot reach it

	for name, tc := range map[string]struct {
		target string
		cancel bool
		want   map[int]int
	}{
		"cancelled by the client": {target: slow.URL, cancel: true, want: map[int]int{statusClientClosed: 1}},
		"backend unreachable":     {target: dead.URL, want: map[int]int{http.StatusBadGateway: 1}},
	} {
		t.Run(name, func(t *testing.T) {
			u, err := url.Parse(tc.target)
			if err != nil {
				t.Fatal(err)
			}
			c := newCounter()
			c.setPhase("p")
			addr, stop, err := startProxy(t.Context(), u, c)
			if err != nil {
				t.Fatal(err)
			}
			defer stop()
			ctx, cancel := context.WithCancel(context.Background())
			if tc.cancel {
				time.AfterFunc(200*time.Millisecond, cancel)
			}
			defer cancel()
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, addr+"/v3/projects", nil)
			if resp, err := http.DefaultClient.Do(req); err == nil {
				_ = resp.Body.Close()
			}
			// The proxy records the status once its handler returns, a moment after the client gave up.
			deadline := time.Now().Add(5 * time.Second)
			for len(c.statuses("p")) == 0 && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			if diff := cmp.Diff(tc.want, c.statuses("p")); diff != "" {
				t.Errorf("statuses -want +got:\n%s", diff)
			}
		})
	}
}

// Busy time counts while at least one request is in flight, once however many overlap, and
// a stretch that spans a phase switch is split between the phases.
func TestCounterBusy(t *testing.T) {
	c := newCounterWith(func(method, path, _ string) string { return method + " " + path })
	at := time.Unix(0, 0)
	c.now = func() time.Time { return at }
	tick := func(d time.Duration) { at = at.Add(d) }

	c.setPhase("apply")
	a := c.count("GET", "/a", "") // busy from 0 s
	tick(time.Second)
	b := c.count("GET", "/b", "") // overlaps: still one stretch
	tick(time.Second)
	c.status(a, 200)
	tick(time.Second)
	c.status(b, 200) // idle at 3 s
	tick(5 * time.Second)
	x := c.count("GET", "/c", "") // busy again at 8 s
	tick(time.Second)
	c.setPhase("delete") // 1 s for apply, the rest for delete
	tick(2 * time.Second)
	c.status(x, 200)

	if got, want := c.busyFor("apply"), 4*time.Second; got != want {
		t.Errorf("apply busy: got %s, want %s", got, want)
	}
	if got, want := c.busyFor("delete"), 2*time.Second; got != want {
		t.Errorf("delete busy: got %s, want %s", got, want)
	}
}
