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

// HTTPClient returns an HTTP client honouring a ProviderConfig's TLS settings. base, when not
// nil, is the transport to wrap (tests count requests with it).
func HTTPClient(ctx context.Context, kube client.Reader, t *identityv1alpha1.TLSConfig, base http.RoundTripper) (http.Client, []byte, error) {
	if base != nil && (t == nil || (t.CABundleSecretRef == nil && !t.InsecureSkipVerify)) {
		return http.Client{Transport: base, Timeout: 60 * time.Second}, nil, nil
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
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
	return http.Client{Transport: tr, Timeout: 60 * time.Second}, ca, nil
}
