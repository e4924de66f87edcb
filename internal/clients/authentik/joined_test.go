package authentik

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	api "goauthentik.io/api/v3"

	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/authentikapiserver"
)

// holdFirst holds the first GET of path until release is closed, and counts them.
type holdFirst struct {
	path     string
	started  chan struct{}
	release  chan struct{}
	requests atomic.Int32
}

func (h *holdFirst) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method == http.MethodGet && r.URL.Path == h.path && h.requests.Add(1) == 1 {
		close(h.started)
		<-h.release
	}
	return http.DefaultTransport.RoundTrip(r)
}

// Deletions that ask what authentik would take along while such a read is under way share the
// next one: each is answered by a read that started after it asked, and the five that came
// while the first was in flight cost one request. Every brand and every binding without a
// policy are the same question for each deletion; the outposts of a provider and the user write
// stages of a group are answered from one list of all of them.
func TestDeletionListsJoined(t *testing.T) {
	s := startServer(t)
	app := s.seedPK("core/applications", map[string]any{"name": "A", "slug": "a"})
	s.seed("core/brands", map[string]any{"domain": "one.example.com", "default_application": app})
	groups := []string{s.seedPK("core/groups", map[string]any{"name": "g0"}), s.seedPK("core/groups", map[string]any{"name": "g1"})}
	s.seed("policies/bindings", map[string]any{"target": app, "order": 0, "group": groups[0]})
	s.seed("stages/user_write", map[string]any{"name": "w0", "create_users_group": groups[0], "user_type": "internal"})
	s.seed("stages/user_write", map[string]any{"name": "w1", "create_users_group": groups[0], "user_type": "internal"})
	s.seed("stages/user_write", map[string]any{"name": "w2", "user_type": "internal"})
	providers := make([]int32, 2)
	for i := range providers {
		pk, err := strconv.ParseInt(s.seedPK("providers/ldap", map[string]any{"name": fmt.Sprintf("dir-%d", i), "base_dn": "dc=example,dc=com"}), 10, 32)
		if err != nil {
			t.Fatal(err)
		}
		providers[i] = int32(pk)
	}
	s.seed("outposts/instances", map[string]any{"name": "edge-0", "type": "ldap", "providers": []any{providers[0]}, "config": map[string]any{}})
	s.seed("outposts/instances", map[string]any{"name": "edge-1", "type": "ldap", "providers": []any{providers[0], providers[1]}, "config": map[string]any{}})

	// Each case asks question i%2 of caller i; want is how many dependents each question has.
	cases := map[string]struct {
		path string
		ask  func(ctx context.Context, c *api.APIClient, i int) ([]adoption.Dependent, error)
		want [2]int
	}{
		"brands": {path: "/core/brands/", want: [2]int{1, 1}, ask: func(ctx context.Context, c *api.APIClient, _ int) ([]adoption.Dependent, error) {
			return BrandsOfApplication(ctx, c, app, `application "a"`)
		}},
		"bindings without a policy": {path: "/policies/bindings/", want: [2]int{1, 0}, ask: func(ctx context.Context, c *api.APIClient, i int) ([]adoption.Dependent, error) {
			return BindingsOfGroup(ctx, c, groups[i%2], "g")
		}},
		"outposts": {path: "/outposts/instances/", want: [2]int{2, 1}, ask: func(ctx context.Context, c *api.APIClient, i int) ([]adoption.Dependent, error) {
			return OutpostsOfProvider(ctx, c, providers[i%2], "dir")
		}},
		"user write stages": {path: "/stages/user_write/", want: [2]int{2, 0}, ask: func(ctx context.Context, c *api.APIClient, i int) ([]adoption.Dependent, error) {
			return UserWriteStagesOf(ctx, c, groups[i%2], "g")
		}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			h := &holdFirst{path: authentikapiserver.APIPrefix + tc.path, started: make(chan struct{}), release: make(chan struct{})}
			c := s.client(&http.Client{Transport: h})

			const callers = 6
			answers := make([][]adoption.Dependent, callers)
			errs := make([]error, callers)
			var wg sync.WaitGroup
			ask := func(i int) {
				wg.Add(1)
				go func() { defer wg.Done(); answers[i], errs[i] = tc.ask(t.Context(), c, i) }()
			}
			ask(0)
			<-h.started // the first read is in flight
			for i := 1; i < callers; i++ {
				ask(i)
			}
			// Give them time to queue behind the read in flight; none may be answered by it.
			time.Sleep(50 * time.Millisecond)
			close(h.release)
			wg.Wait()

			for i := range callers {
				if errs[i] != nil || len(answers[i]) != tc.want[i%2] {
					t.Errorf("caller %d: %v, %v; want %d dependents", i, answers[i], errs[i], tc.want[i%2])
				}
			}
			if n := h.requests.Load(); n != 2 {
				t.Errorf("%d callers sent %d requests; want 2 (the first, and one for those that came while it was in flight)", callers, n)
			}
		})
	}
}
