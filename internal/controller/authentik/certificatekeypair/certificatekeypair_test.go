package certificatekeypair

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/authentikapiserver"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/authentiktest"
)

var kind = authentiktest.Kind[mr, Object]{GroupKind: v1alpha1.CertificateKeyPairGroupKind.String(), NewDriver: newDriver}

func testCert(t *testing.T, cn string) (string, string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: cn},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kd, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})), string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kd}))
}

func fromSecret(e *authentiktest.Env, t *testing.T) (*v1alpha1.CertificateKeyPair, string, string) {
	t.Helper()
	cert, key := testCert(t, "e-kp")
	e.Secret(t, "ns", "tls", map[string]string{"tls.crt": cert, "tls.key": key})
	mg := &v1alpha1.CertificateKeyPair{ObjectMeta: metav1.ObjectMeta{Name: "kp"}, Spec: v1alpha1.CertificateKeyPairSpec{
		ForProvider: v1alpha1.CertificateKeyPairParameters{Name: "e-kp", SecretRef: &identityv1alpha1.SecretReference{Namespace: "ns", Name: "tls"}}}}
	mg.Spec.WriteConnectionSecretToReference = &xpv2.SecretReference{Namespace: "ns", Name: "out"}
	return mg, cert, key
}

// A pair from a Secret is uploaded once and never written in sync; a new certificate in the
// Secret is one PATCH with the Secret's key; the connection details hold the certificate
// alone; neither status nor a diff shows the key.
func TestKeypairFromSecret(t *testing.T) {
	e := authentiktest.New(t)
	mg, cert, key := fromSecret(e, t)
	if r, err := kind.Reconcile(e, mg); err != nil || !r.Created {
		t.Fatalf("first reconcile: want a create, got %+v, %v", r, err)
	}
	for range 2 {
		r, err := kind.Reconcile(e, mg)
		if err != nil || !r.Observation.ResourceUpToDate || r.Updated {
			t.Fatalf("reconcile in sync: want up to date, got %+v, %v", r, err)
		}
		if diff := cmp.Diff(map[string]string{ConnCertificate: cert}, stringsOf(r.Connection)); diff != "" {
			t.Errorf("connection details: -want, +got:\n%s", diff)
		}
	}
	if diff := cmp.Diff(map[string]int{"POST /crypto/certificatekeypairs/": 1}, e.Writes()); diff != "" {
		t.Errorf("writes: -want, +got:\n%s", diff)
	}
	cert2, key2 := testCert(t, "e-kp-2")
	e.UpdateSecret(t, "ns", "tls", map[string]string{"tls.crt": cert2, "tls.key": key2})
	e.Server.ResetCounts()
	ext := kind.External(e)
	obs, err := ext.Observe(e.Ctx, mg)
	if err != nil || obs.ResourceUpToDate || !strings.Contains(obs.Diff, "fingerprint") {
		t.Fatalf("a new certificate in the Secret: want a fingerprint diff, got %+v, %v", obs, err)
	}
	if _, err := ext.Update(e.Ctx, mg); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]int{"PATCH /crypto/certificatekeypairs/{kp_uuid}/": 1}, e.Writes()); diff != "" {
		t.Errorf("writes for the new certificate: -want, +got:\n%s", diff)
	}
	if r, err := kind.Reconcile(e, mg); err != nil || !r.Observation.ResourceUpToDate {
		t.Fatalf("after the update: want up to date, got %+v, %v", r, err)
	}
	status, err := json.Marshal(mg.Status)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{key, key2, "PRIVATE KEY"} {
		if strings.Contains(string(status), secret) || strings.Contains(obs.Diff, secret) {
			t.Errorf("the private key shows in status or the diff")
		}
	}
}

// A generated pair is made by authentik, renamed after the spec on the next reconcile, and
// publishes its key only when asked to; a pair in sync whose connection Secret is current
// costs no view request.
func TestKeypairGenerated(t *testing.T) {
	for name, withKey := range map[string]bool{"certificate only": false, "with the key": true} {
		t.Run(name, func(t *testing.T) {
			e := authentiktest.New(t)
			mg := &v1alpha1.CertificateKeyPair{ObjectMeta: metav1.ObjectMeta{Name: "kp"}, Spec: v1alpha1.CertificateKeyPairSpec{
				ForProvider: v1alpha1.CertificateKeyPairParameters{Name: "e-gen", Generate: &v1alpha1.CertificateGeneration{CommonName: "gen.example.com", ValidityDays: 10, Algorithm: new("ecdsa")}}}}
			if withKey {
				mg.Spec.ForProvider.PublishPrivateKey = new(true)
			}
			mg.Spec.WriteConnectionSecretToReference = &xpv2.SecretReference{Namespace: "ns", Name: "out"}
			if r, err := kind.Reconcile(e, mg); err != nil || !r.Created {
				t.Fatalf("first reconcile: want a create, got %+v, %v", r, err)
			}
			r, err := kind.Reconcile(e, mg)
			if err != nil || !r.Updated || !strings.Contains(r.Observation.Diff, `"gen.example.com" in authentik`) {
				t.Fatalf("second reconcile: want the rename, got %+v, %v", r, err)
			}
			r, err = kind.Reconcile(e, mg)
			if err != nil || !r.Observation.ResourceUpToDate {
				t.Fatalf("third reconcile: want up to date, got %+v, %v", r, err)
			}
			if _, ok := r.Connection[ConnPrivateKey]; ok != withKey || !strings.Contains(string(r.Connection[ConnCertificate]), "BEGIN CERTIFICATE") {
				t.Errorf("connection details: keys %v", keysOf(r.Connection))
			}
			// The connection Secret holds them now: later reconciles read nothing more.
			e.Secret(t, "ns", "out", stringsOf(r.Connection))
			e.Server.ResetCounts()
			if _, err := kind.Reconcile(e, mg); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(map[string]int{"GET /crypto/certificatekeypairs/{kp_uuid}/": 1}, e.Server.Counts()); diff != "" {
				t.Errorf("requests in sync: -want, +got:\n%s", diff)
			}
			if got := string(e.Raw(t, "crypto/certificatekeypairs", meta.GetExternalName(mg))); !strings.Contains(got, `"name":"e-gen"`) {
				t.Errorf("pair: %s", got)
			}
		})
	}
}

// A hand-made pair with the name is left alone; a pair a provider uses is not deleted; every
// call's failure is reported naming the pair.
func TestKeypairConflictDependentsFailures(t *testing.T) {
	e := authentiktest.New(t)
	cert, key := testCert(t, "e-hand")
	e.Seed(t, "crypto/certificatekeypairs", map[string]any{"name": "e-kp", "certificate_data": cert, "key_data": key})
	mg, _, _ := fromSecret(e, t)
	if _, err := kind.Reconcile(e, mg); err == nil || !strings.Contains(err.Error(), "e-kp") {
		t.Fatalf("want a conflict naming the pair, got %v", err)
	}
	if w := e.Writes(); len(w) != 0 {
		t.Errorf("writes: want none, got %v", w)
	}

	e2 := authentiktest.New(t)
	mg2, _, _ := fromSecret(e2, t)
	if _, err := kind.Reconcile(e2, mg2); err != nil {
		t.Fatal(err)
	}
	pk := meta.GetExternalName(mg2)
	e2.Seed(t, "providers/oauth2", map[string]any{"name": "e-rp", "signing_key": pk, "redirect_uris": []any{}})
	if err := kind.Delete(e2, mg2); err == nil || !strings.Contains(err.Error(), "e-rp") {
		t.Fatalf("delete while a provider uses the pair: want it refused naming the provider, got %v", err)
	}
	cases := map[string]authentikapiserver.Fault{
		"retrieve":  {Method: "GET", PathPrefix: "/crypto/certificatekeypairs/" + pk, Status: 503},
		"providers": {Method: "GET", PathPrefix: "/providers/oauth2/", Status: 503},
	}
	for name, f := range cases {
		t.Run(name, func(t *testing.T) {
			e2.Server.InjectFault(f)
			defer e2.Server.ClearFaults()
			err := kind.Delete(e2, mg2)
			if err == nil || (!strings.Contains(err.Error(), "e-kp") && !strings.Contains(err.Error(), pk)) {
				t.Errorf("want an error naming the pair, got %v", err)
			}
		})
	}
	t.Run("missing Secret", func(t *testing.T) {
		e3 := authentiktest.New(t)
		mg3 := &v1alpha1.CertificateKeyPair{ObjectMeta: metav1.ObjectMeta{Name: "kp"}, Spec: v1alpha1.CertificateKeyPairSpec{
			ForProvider: v1alpha1.CertificateKeyPairParameters{Name: "e-kp", SecretRef: &identityv1alpha1.SecretReference{Namespace: "ns", Name: "none"}}}}
		if _, err := kind.Reconcile(e3, mg3); err == nil || !strings.Contains(err.Error(), "e-kp") {
			t.Errorf("want an error naming the pair, got %v", err)
		}
	})
	t.Run("generate refused", func(t *testing.T) {
		e4 := authentiktest.New(t)
		c, k := testCert(t, "taken")
		e4.Seed(t, "crypto/certificatekeypairs", map[string]any{"name": "taken.example.com", "certificate_data": c, "key_data": k})
		mg4 := &v1alpha1.CertificateKeyPair{ObjectMeta: metav1.ObjectMeta{Name: "kp"}, Spec: v1alpha1.CertificateKeyPairSpec{
			ForProvider: v1alpha1.CertificateKeyPairParameters{Name: "e-gen", Generate: &v1alpha1.CertificateGeneration{CommonName: "taken.example.com", ValidityDays: 1}}}}
		if _, err := kind.Reconcile(e4, mg4); err == nil || !strings.Contains(err.Error(), "common name") {
			t.Errorf("want the taken common name explained, got %v", err)
		}
	})
}

func stringsOf(m map[string][]byte) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		out[k] = string(v)
	}
	return out
}

func keysOf(m map[string][]byte) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
