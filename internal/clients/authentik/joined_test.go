package authentik

import (
	"context"
	"encoding/json"
	"net/http"
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

// Deletions that ask for every brand, or for every binding without a policy, while such a list
// is under way share the next one: each is answered by a list that started after it asked, and
// five of them cost one request.
func TestDeletionListsJoined(t *testing.T) {
	s, u := authentikapiserver.StartTest(t, authentikapiserver.Options{})
	seed := func(kind string, obj map[string]any) string {
		b, err := s.Seed(kind, obj)
		if err != nil {
			t.Fatal(err)
		}
		var m struct{ Pk string }
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		return m.Pk
	}
	app := seed("core/applications", map[string]any{"name": "A", "slug": "a"})
	seed("core/brands", map[string]any{"domain": "one.example.com", "default_application": app})
	group := seed("core/groups", map[string]any{"name": "g"})
	seed("policies/bindings", map[string]any{"target": app, "order": 0, "group": group})

	cases := map[string]struct {
		path string
		ask  func(ctx context.Context, c *api.APIClient) ([]adoption.Dependent, error)
	}{
		"brands": {path: authentikapiserver.APIPrefix + "/core/brands/", ask: func(ctx context.Context, c *api.APIClient) ([]adoption.Dependent, error) {
			return BrandsOfApplication(ctx, c, app, `application "a"`)
		}},
		"bindings without a policy": {path: authentikapiserver.APIPrefix + "/policies/bindings/", ask: func(ctx context.Context, c *api.APIClient) ([]adoption.Dependent, error) {
			return BindingsOfGroup(ctx, c, group, "g")
		}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			h := &holdFirst{path: tc.path, started: make(chan struct{}), release: make(chan struct{})}
			cfg := api.NewConfiguration()
			cfg.Servers = api.ServerConfigurations{{URL: u + authentikapiserver.APIPrefix}}
			cfg.AddDefaultHeader("Authorization", "Bearer "+s.Token())
			cfg.HTTPClient = &http.Client{Transport: h}
			c := api.NewAPIClient(cfg)

			const callers = 6
			answers := make([][]adoption.Dependent, callers)
			errs := make([]error, callers)
			var wg sync.WaitGroup
			ask := func(i int) {
				wg.Add(1)
				go func() { defer wg.Done(); answers[i], errs[i] = tc.ask(t.Context(), c) }()
			}
			ask(0)
			<-h.started // the first list is in flight
			for i := 1; i < callers; i++ {
				ask(i)
			}
			// Give them time to queue behind the list in flight; none may be answered by it.
			time.Sleep(50 * time.Millisecond)
			close(h.release)
			wg.Wait()

			for i := range callers {
				if errs[i] != nil || len(answers[i]) != 1 {
					t.Errorf("caller %d: %v, %v; want the one dependent", i, answers[i], errs[i])
				}
			}
			if n := h.requests.Load(); n != 2 {
				t.Errorf("%d callers sent %d lists; want 2 (the first, and one for those that came while it was in flight)", callers, n)
			}
		})
	}
}
