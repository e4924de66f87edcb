package keystone

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gophercloud/gophercloud/v2"

	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients"
)

// Deletions that ask while another's read is under way share one list of all assignments, read
// without names; an object the list shows assignments for is read alone, for the names; one it
// shows none for costs nothing more. A list cut short answers nothing: each reads alone.
func TestAssignmentsDeletedWithJoinsWaiters(t *testing.T) {
	const all = "/v3/role_assignments"
	named := func(scope string) string {
		return `{"role_assignments": [{"role": {"id": "r", "name": "member"}, "group": {"id": "g", "name": "team"}, "scope": {"project": {"id": "` + scope + `", "name": "web"}}}]}`
	}
	cases := map[string]struct {
		list      string
		want      map[string][]string
		wantCalls []string
	}{
		"ListAnswersWaiters": {
			list: `{"role_assignments": [{"role": {"id": "r"}, "group": {"id": "g"}, "scope": {"project": {"id": "p2"}}},
				{"role": {"id": "r"}, "user": {"id": "u"}, "scope": {"project": {"id": "elsewhere"}}}]}`,
			want: map[string][]string{"project/p2": {"project/p2/group/g/role/r"}, "project/p3": nil, "group/g": {"project/p2/group/g/role/r"}},
			wantCalls: []string{all + "?include_names=true&scope.project.id=p1", all,
				all + "?group.id=g&include_names=true", all + "?include_names=true&scope.project.id=p2"},
		},
		"TruncatedListAnswersNothing": {
			list: `{"role_assignments": [], "truncated": true}`,
			want: map[string][]string{"project/p2": {"project/p2/group/g/role/r"}, "project/p3": {"project/p3/group/g/role/r"}, "group/g": {"project/p2/group/g/role/r"}},
			wantCalls: []string{all + "?include_names=true&scope.project.id=p1", all,
				all + "?group.id=g&include_names=true", all + "?include_names=true&scope.project.id=p2", all + "?include_names=true&scope.project.id=p3"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			release := make(chan struct{})
			var mu sync.Mutex
			var calls []string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				q := r.URL.Query()
				mu.Lock()
				calls = append(calls, r.URL.RequestURI())
				mu.Unlock()
				w.Header().Set("Content-Type", "application/json")
				switch {
				case q.Get("scope.project.id") == "p1":
					<-release
					_, _ = w.Write([]byte(`{"role_assignments": []}`))
				case len(q) == 0:
					_, _ = w.Write([]byte(tc.list))
				case q.Get("scope.project.id") != "":
					_, _ = w.Write([]byte(named(q.Get("scope.project.id"))))
				default:
					_, _ = w.Write([]byte(named("p2")))
				}
			}))
			t.Cleanup(srv.Close)
			sc := &gophercloud.ServiceClient{ProviderClient: &gophercloud.ProviderClient{HTTPClient: *srv.Client()}, Endpoint: srv.URL + "/v3/"}
			scope := clients.Scope{Client: API(sc), List: sc.ServiceURL("role_assignments")}

			first := make(chan error, 1)
			go func() { _, err := AssignmentsDeletedWith(context.Background(), sc, "project", "p1"); first <- err }()
			for deadline := time.Now().Add(5 * time.Second); len(snapshot(&mu, &calls)) == 0; time.Sleep(time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatal("the first read was not sent")
				}
			}
			got := map[string][]string{}
			var wg sync.WaitGroup
			for _, q := range []struct{ word, id string }{{"project", "p2"}, {"project", "p3"}, {"group", "g"}} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					ds, err := AssignmentsDeletedWith(context.Background(), sc, q.word, q.id)
					if err != nil {
						t.Errorf("%s %s: %v", q.word, q.id, err)
					}
					mu.Lock()
					got[q.word+"/"+q.id] = ids(ds)
					mu.Unlock()
				}()
			}
			for deadline := time.Now().Add(5 * time.Second); deletionAssignments.Waiting(scope) < 3; time.Sleep(time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("%d deletions wait for the next read, want 3", deletionAssignments.Waiting(scope))
				}
			}
			close(release)
			wg.Wait()
			if err := <-first; err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("answers (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantCalls, sorted(snapshot(&mu, &calls))); diff != "" {
				t.Errorf("calls (-want +got):\n%s", diff)
			}
		})
	}
}

func snapshot(mu *sync.Mutex, calls *[]string) []string {
	mu.Lock()
	defer mu.Unlock()
	return append([]string(nil), *calls...)
}

// sorted keeps the first two calls (the read held, then the list) in order and sorts the
// reads alone that came after them, which run at the same time.
func sorted(calls []string) []string {
	if len(calls) > 2 {
		slices.Sort(calls[2:])
	}
	return calls
}

func ids(ds []adoption.Dependent) []string {
	if len(ds) == 0 {
		return nil
	}
	out := make([]string, 0, len(ds))
	for _, d := range ds {
		out = append(out, d.ID)
	}
	return out
}

// A word without a filter is refused before any request: unfiltered, the read would be of every
// assignment in Keystone, each taken for one the delete would take.
func TestAssignmentsDeletedWithUnknownWord(t *testing.T) {
	sc := cannedKeystone(t, map[string]string{})
	if ds, err := AssignmentsDeletedWith(context.Background(), sc, "region", "r1"); err == nil || ds != nil {
		t.Errorf("got %v, %v; want no dependents and an error naming the word", ds, err)
	}
}
