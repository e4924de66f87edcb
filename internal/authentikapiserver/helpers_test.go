package authentikapiserver

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"testing"

	api "goauthentik.io/api/v3"
)

// env is one test's server and a real generated client pointed at it.
type env struct {
	s   *Server
	url string
	c   *api.APIClient
	ctx context.Context
}

func newEnv(t *testing.T) *env {
	t.Helper()
	s, u := StartTest(t, Options{})
	return &env{s: s, url: u, c: clientFor(t, u, s.Token()), ctx: context.Background()}
}

func clientFor(t *testing.T, base, token string) *api.APIClient {
	t.Helper()
	pu, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	cfg := api.NewConfiguration()
	cfg.Scheme = pu.Scheme
	cfg.Host = pu.Host
	cfg.AddDefaultHeader("Authorization", "Bearer "+token)
	return api.NewAPIClient(cfg)
}

// flowPK resolves a seeded flow's UUID by slug through the API, as the
// provider will.
func (e *env) flowPK(t *testing.T, slug string) string {
	t.Helper()
	f, _, err := e.c.FlowsAPI.FlowsInstancesRetrieve(e.ctx, slug).Execute()
	if err != nil {
		t.Fatalf("flow %s: %v", slug, err)
	}
	return f.Pk
}

func (e *env) flows(t *testing.T) (authz, inval string) {
	return e.flowPK(t, "default-provider-authorization-implicit-consent"), e.flowPK(t, "default-provider-invalidation-flow")
}

// validationError unwraps the Go client's error for a 400 into the decoded
// ValidationError and its field errors.
func validationError(t *testing.T, err error) map[string]any {
	t.Helper()
	var oerr *api.GenericOpenAPIError
	if !errors.As(err, &oerr) {
		t.Fatalf("want *GenericOpenAPIError, got %T: %v", err, err)
	}
	ve, ok := oerr.Model().(api.ValidationError)
	if !ok {
		t.Fatalf("want ValidationError model, got %T (body %s)", oerr.Model(), oerr.Body())
	}
	out := map[string]any{}
	for k, v := range ve.AdditionalProperties {
		out[k] = v
	}
	if ve.Code != nil {
		out["code"] = *ve.Code
	}
	if len(ve.NonFieldErrors) > 0 {
		l := make([]any, 0, len(ve.NonFieldErrors))
		for _, s := range ve.NonFieldErrors {
			l = append(l, s)
		}
		out["non_field_errors"] = l
	}
	return out
}

func genericError(t *testing.T, err error) api.GenericError {
	t.Helper()
	var oerr *api.GenericOpenAPIError
	if !errors.As(err, &oerr) {
		t.Fatalf("want *GenericOpenAPIError, got %T: %v", err, err)
	}
	ge, ok := oerr.Model().(api.GenericError)
	if !ok {
		t.Fatalf("want GenericError model, got %T (body %s)", oerr.Model(), oerr.Body())
	}
	return ge
}

func status(resp *http.Response) int {
	if resp == nil {
		return 0
	}
	return resp.StatusCode
}

func ptr[T any](v T) *T { return &v }
