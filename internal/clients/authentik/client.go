// Package authentik builds authentik API clients (goauthentik.io/api/v3) from ProviderConfigs.
package authentik

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"

	api "goauthentik.io/api/v3"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients"
)

const (
	errNotAuthentik = "ProviderConfig %q has no spec.authentik"
	errCheck        = "cannot authenticate to authentik at %s"
)

// A Factory builds authentik clients and caches them per set of credentials. An API token
// needs no session, so a cached client costs nothing at steady state.
type Factory struct {
	// Transport, when set, carries every request (tests use it to count requests).
	Transport http.RoundTripper
	// Endpoints, when set, limits the requests in flight to each endpoint (shared with the
	// other system's factory: limits are per endpoint, not per factory).
	Endpoints *clients.Endpoints

	cache clients.Cache[*api.APIClient]
}

// Client returns an API client for the ProviderConfig.
func (f *Factory) Client(ctx context.Context, kube client.Reader, pc *identityv1alpha1.ProviderConfig) (*api.APIClient, error) {
	cfg := pc.Spec.Authentik
	if cfg == nil {
		return nil, errors.Errorf(errNotAuthentik, pc.GetName())
	}
	token, err := clients.SecretValue(ctx, kube, cfg.TokenSecretRef)
	if err != nil {
		return nil, err
	}
	hc, ca, err := clients.HTTPClient(ctx, kube, clients.HTTPOptions{TLS: cfg.TLS, Base: f.Transport, Endpoints: f.Endpoints})
	if err != nil {
		return nil, err
	}
	return f.cache.Get(cacheKey(cfg, token, ca), func() (*api.APIClient, error) {
		return newClient(cfg.URL, strings.TrimSpace(string(token)), hc), nil
	})
}

// Check tells whether the token is accepted now, by reading the token's own user.
func (f *Factory) Check(ctx context.Context, kube client.Reader, pc *identityv1alpha1.ProviderConfig) error {
	c, err := f.Client(ctx, kube, pc)
	if err != nil {
		return err
	}
	_, resp, err := c.CoreAPI.CoreUsersMeRetrieve(ctx).Execute()
	if err != nil {
		return Wrap(err, resp, errCheck, pc.Spec.Authentik.URL)
	}
	return nil
}

func newClient(baseURL, token string, hc http.Client) *api.APIClient {
	cfg := api.NewConfiguration()
	cfg.Servers = api.ServerConfigurations{{URL: strings.TrimSuffix(baseURL, "/") + "/api/v3"}}
	cfg.HTTPClient = &hc
	cfg.UserAgent = "provider-identity"
	cfg.AddDefaultHeader("Authorization", "Bearer "+token)
	return api.NewAPIClient(cfg)
}

func cacheKey(cfg *identityv1alpha1.AuthentikConfig, token, ca []byte) string {
	h := sha256.New()
	for _, b := range [][]byte{[]byte(cfg.URL), token, ca} {
		h.Write(b)
		h.Write([]byte{0})
	}
	if cfg.TLS != nil && cfg.TLS.InsecureSkipVerify {
		h.Write([]byte("insecure"))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Describe turns a client error into one sentence with authentik's answer (never the request,
// which can hold a password or a client secret).
func Describe(err error, resp *http.Response) string {
	var oe *api.GenericOpenAPIError
	if errors.As(err, &oe) {
		if resp != nil {
			return answered(resp, oe.Body())
		}
		return oe.Error() + ": " + shortBody(oe.Body())
	}
	return err.Error()
}

// answered says what authentik answered to a request: its method and path, the status and the
// start of the body (authentik's, never the request's).
func answered(resp *http.Response, body []byte) string {
	return resp.Request.Method + " " + resp.Request.URL.Path + ": authentik answered " + resp.Status + ": " + shortBody(body)
}

func shortBody(body []byte) string {
	msg := strings.TrimSpace(string(body))
	if len(msg) > 300 {
		msg = msg[:300] + "..."
	}
	return msg
}
