package clients

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"net/http"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

const errBadCABundle = "Secret %s/%s key %q holds no PEM certificate"

// HTTPOptions shape the HTTP client of one ProviderConfig.
type HTTPOptions struct {
	// TLS are the ProviderConfig's TLS settings; nil for none.
	TLS *identityv1alpha1.TLSConfig
	// Base, when not nil, is the transport to wrap (tests count requests with it).
	Base http.RoundTripper
	// Endpoints, when not nil, limits the requests in flight to each endpoint and pauses them
	// when an endpoint is overloaded.
	Endpoints *Endpoints
}

// idleConnsPerHost keeps enough keep-alive connections for every request one endpoint may
// have in flight: with net/http's default of 2, concurrent requests would reconnect each time.
const idleConnsPerHost = 16

// HTTPClient returns an HTTP client for o, and the CA bundle it trusts besides the system's.
func HTTPClient(ctx context.Context, kube client.Reader, o HTTPOptions) (http.Client, []byte, error) {
	t := o.TLS
	if o.Base != nil && (t == nil || (t.CABundleSecretRef == nil && !t.InsecureSkipVerify)) {
		return http.Client{Transport: o.Endpoints.Limit(o.Base), Timeout: 60 * time.Second}, nil, nil
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = idleConnsPerHost
	var ca []byte
	if t != nil {
		cfg := &tls.Config{MinVersion: tls.VersionTLS12, InsecureSkipVerify: t.InsecureSkipVerify} //nolint:gosec // Explicitly asked for by the user, for tests.
		if s := t.CABundleSecretRef; s != nil {
			v, err := SecretValue(ctx, kube, *s)
			if err != nil {
				return http.Client{}, nil, err
			}
			pool, err := x509.SystemCertPool()
			if err != nil {
				pool = x509.NewCertPool()
			}
			if !pool.AppendCertsFromPEM(v) {
				return http.Client{}, nil, errors.Errorf(errBadCABundle, s.Namespace, s.Name, s.Key)
			}
			cfg.RootCAs = pool
			ca = v
		}
		tr.TLSClientConfig = cfg
	}
	return http.Client{Transport: o.Endpoints.Limit(tr), Timeout: 60 * time.Second}, ca, nil
}
