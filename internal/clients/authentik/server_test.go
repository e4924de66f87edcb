package authentik

import (
	"encoding/json"
	"net/http"
	"strconv"
	"testing"

	api "goauthentik.io/api/v3"

	"github.com/crossplane-contrib/provider-identity/internal/authentikapiserver"
)

// testServer is an in-repo authentik API server started for one test.
type testServer struct {
	*authentikapiserver.Server
	url string
	tb  testing.TB
}

func startServer(tb testing.TB) *testServer {
	tb.Helper()
	s, u := authentikapiserver.StartTest(tb, authentikapiserver.Options{})
	return &testServer{Server: s, url: u, tb: tb}
}

// client returns a client of the server with its token, over hc (nil: Go's default client).
func (s *testServer) client(hc *http.Client) *api.APIClient {
	cfg := api.NewConfiguration()
	cfg.Servers = api.ServerConfigurations{{URL: s.url + authentikapiserver.APIPrefix}}
	cfg.AddDefaultHeader("Authorization", "Bearer "+s.Token())
	cfg.HTTPClient = hc
	return api.NewAPIClient(cfg)
}

// seed stores an object of kind (e.g. core/groups) and returns it as the server renders it.
func (s *testServer) seed(kind string, obj map[string]any) map[string]any {
	s.tb.Helper()
	b, err := s.Seed(kind, obj)
	if err != nil {
		s.tb.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		s.tb.Fatal(err)
	}
	return m
}

// seedPK stores an object and returns its pk as a string: a UUID, or a number written out.
func (s *testServer) seedPK(kind string, obj map[string]any) string {
	s.tb.Helper()
	switch pk := s.seed(kind, obj)["pk"].(type) {
	case string:
		return pk
	case float64:
		return strconv.Itoa(int(pk))
	default:
		s.tb.Fatalf("%s has no pk: %v", kind, pk)
		return ""
	}
}
