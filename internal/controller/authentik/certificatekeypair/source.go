package certificatekeypair

import (
	"context"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"net/http"
	"strings"

	api "goauthentik.io/api/v3"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/shared"
)

const (
	errSecret     = "cannot read the certificate of certificate-key pair %q from spec.forProvider.secretRef"
	errNoCert     = "Secret %s/%s has no %s: put the PEM certificate there (the kubernetes.io/tls layout)"
	errBadCert    = "Secret %s/%s key %s holds no PEM certificate authentik could load: put the PEM certificate there"
	errConnSecret = "cannot read the connection Secret of certificate-key pair %q"
	errView       = "cannot read the %s of authentik certificate-key pair %q (pk %s) for the connection Secret"
)

// A source is the certificate and key a Secret holds, and the certificate's fingerprint in
// authentik's notation.
type source struct {
	cert, key   string
	fingerprint string
}

// readSource reads tls.crt and tls.key from the Secret in mg's scope: a namespaced
// CertificateKeyPair reads its own namespace only (see clients.ResourceSecrets).
func readSource(ctx context.Context, c shared.Client, mg mr, ref identityv1alpha1.SecretReference) (*source, error) {
	key := clients.SecretKey(mg, ref)
	s := &corev1.Secret{}
	if err := clients.ResourceSecrets(c.Kube, mg).Get(ctx, key, s); err != nil {
		return nil, errors.Wrapf(err, errSecret, mg.Parameters().Name)
	}
	cert := string(s.Data[ConnCertificate])
	if strings.TrimSpace(cert) == "" {
		return nil, errors.Errorf(errNoCert, key.Namespace, key.Name, ConnCertificate)
	}
	fp, ok := fingerprint(cert)
	if !ok {
		return nil, errors.Errorf(errBadCert, key.Namespace, key.Name, ConnCertificate)
	}
	return &source{cert: cert, key: string(s.Data[ConnPrivateKey]), fingerprint: fp}, nil
}

// fingerprint is the SHA-256 of the certificate's DER as authentik shows it: lowercase hex
// bytes joined by colons.
func fingerprint(certPEM string) (string, bool) {
	b, _ := pem.Decode([]byte(strings.TrimSpace(certPEM)))
	if b == nil {
		return "", false
	}
	c, err := x509.ParseCertificate(b.Bytes)
	if err != nil {
		return "", false
	}
	sum := sha256.Sum256(c.Raw)
	h := hex.EncodeToString(sum[:])
	parts := make([]string, 0, len(sum))
	for i := 0; i < len(h); i += 2 {
		parts = append(parts, h[i:i+2])
	}
	return strings.Join(parts, ":"), true
}

// certChanged tells whether the Secret's certificate or the presence of its key differs from
// authentik's pair. The key itself cannot be compared: authentik never returns it in the
// pair, and it belongs to the certificate.
func certChanged(want *source, p api.CertificateKeyPair) bool {
	return !strings.EqualFold(want.fingerprint, p.GetFingerprintSha256()) || (want.key != "") != p.PrivateKeyAvailable
}

// compare lists what differs, naming fingerprints only.
func compare(name string, want *source, p api.CertificateKeyPair) []string {
	var diff []string
	if p.Name != name {
		diff = append(diff, fmt.Sprintf("name: %q in authentik, %q in the spec", p.Name, name))
	}
	if want == nil {
		return diff
	}
	if !strings.EqualFold(want.fingerprint, p.GetFingerprintSha256()) {
		diff = append(diff, fmt.Sprintf("certificate: SHA-256 fingerprint %s in authentik, %s in the Secret", p.GetFingerprintSha256(), want.fingerprint))
	}
	if (want.key != "") != p.PrivateKeyAvailable {
		diff = append(diff, fmt.Sprintf("private key: held by authentik %t, in the Secret %t", p.PrivateKeyAvailable, want.key != ""))
	}
	return diff
}

// details are the connection details: the certificate (the Secret's, or authentik's for a
// generated pair) and, only when publishPrivateKey is true, the generated key. authentik is
// asked for them only when the connection Secret does not hold them for the pair's current
// fingerprint already, so a pair in sync costs no request.
func (e *external) details(ctx context.Context, mg mr, p api.CertificateKeyPair) (managed.ConnectionDetails, error) {
	if !shared.WritesConnectionSecret(mg) {
		return nil, nil
	}
	if e.want != nil {
		return managed.ConnectionDetails{ConnCertificate: []byte(e.want.cert)}, nil
	}
	withKey := mg.Parameters().PublishPrivateKey != nil && *mg.Parameters().PublishPrivateKey && p.PrivateKeyAvailable
	have, err := e.published(ctx, mg)
	if err != nil {
		return nil, err
	}
	if fp, ok := fingerprint(string(have[ConnCertificate])); ok && strings.EqualFold(fp, p.GetFingerprintSha256()) && (!withKey || len(have[ConnPrivateKey]) > 0) {
		out := managed.ConnectionDetails{ConnCertificate: have[ConnCertificate]}
		if withKey {
			out[ConnPrivateKey] = have[ConnPrivateKey]
		}
		return out, nil
	}
	cert, resp, err := e.c.API.CryptoAPI.CryptoCertificatekeypairsViewCertificateRetrieve(ctx, p.Pk).Execute()
	if err != nil {
		return nil, authentik.Wrap(err, resp, errView, "certificate", p.Name, p.Pk)
	}
	out := managed.ConnectionDetails{ConnCertificate: []byte(cert.Data)}
	if withKey {
		key, resp, err := e.c.API.CryptoAPI.CryptoCertificatekeypairsViewPrivateKeyRetrieve(ctx, p.Pk).Execute()
		if err != nil {
			return nil, authentik.Wrap(err, resp, errView, "private key", p.Name, p.Pk)
		}
		out[ConnPrivateKey] = []byte(key.Data)
	}
	return out, nil
}

// published reads the connection Secret as it is (nil while there is none).
func (e *external) published(ctx context.Context, mg mr) (map[string][]byte, error) {
	var key types.NamespacedName
	switch r := any(mg).(type) {
	case resource.LegacyManaged: //nolint:staticcheck // SA1019: the legacy cluster-scoped kinds are kept on purpose (ADR 0005)
		ref := r.GetWriteConnectionSecretToReference()
		key = types.NamespacedName{Namespace: ref.Namespace, Name: ref.Name}
	case resource.ModernManaged:
		key = types.NamespacedName{Namespace: mg.GetNamespace(), Name: r.GetWriteConnectionSecretToReference().Name}
	}
	s := &corev1.Secret{}
	if err := clients.ResourceSecrets(e.c.Kube, mg).Get(ctx, key, s); err != nil {
		if resource.IgnoreNotFound(err) == nil {
			return nil, nil
		}
		return nil, errors.Wrapf(err, errConnSecret, mg.Parameters().Name)
	}
	return s.Data, nil
}

func isBadRequest(err error) bool {
	var e *authentik.Error
	return errors.As(err, &e) && e.Status == http.StatusBadRequest
}

// validate checks, right before a write, what the CRD checks at admission: a resource stored
// before a rule existed never went through it.
func validate(mg mr) error {
	fp := mg.Parameters()
	fields := []clients.Field{clients.F("spec.forProvider.name", fp.Name, authentik.Name)}
	if fp.Generate != nil {
		fields = append(fields, clients.F("spec.forProvider.generate.commonName", fp.Generate.CommonName, authentik.Name))
	}
	if (fp.SecretRef == nil) == (fp.Generate == nil) {
		return errors.Errorf(errNoSource, fp.Name)
	}
	return clients.CheckFields(typeName, mg.GetName(), fields...)
}
