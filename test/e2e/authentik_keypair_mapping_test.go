//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	akv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	nsakv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1"
	nsidentityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

const (
	akKeypairs     = "crypto/certificatekeypairs"
	akScopeMapping = "propertymappings/provider/scope"
	akSAMLMapping  = "propertymappings/provider/saml"
)

// testCert makes a self-signed certificate and its key, PEM-encoded, and the certificate's
// SHA-256 fingerprint as authentik writes it.
func testCert(t *testing.T, cn string) (certPEM, keyPEM, fingerprint string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: cn},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kd, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(der)
	h := hex.EncodeToString(sum[:])
	parts := make([]string, 0, len(sum))
	for i := 0; i < len(h); i += 2 {
		parts = append(parts, h[i:i+2])
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})),
		string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kd})), strings.Join(parts, ":")
}

func newAKKeypair(name string, p akv1alpha1.CertificateKeyPairParameters) *akv1alpha1.CertificateKeyPair {
	return &akv1alpha1.CertificateKeyPair{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: akv1alpha1.CertificateKeyPairSpec{ClusterManagedResourceSpec: onAuthentik, ForProvider: p}}
}

func newAKMapping(name string, p akv1alpha1.PropertyMappingParameters) *akv1alpha1.PropertyMapping {
	return &akv1alpha1.PropertyMapping{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: akv1alpha1.PropertyMappingSpec{ClusterManagedResourceSpec: onAuthentik, ForProvider: p}}
}

// noPrivateKey fails the test when the resource's status or events show a private key.
func noPrivateKey(t *testing.T, mg *akv1alpha1.CertificateKeyPair) {
	t.Helper()
	b, err := json.Marshal(get(t, mg).Status)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte("PRIVATE KEY")) {
		t.Errorf("status of %s holds a private key", mg.GetName())
	}
	for _, e := range events(t, mg) {
		if strings.Contains(e.Message, "PRIVATE KEY") {
			t.Errorf("event of %s holds a private key: %s", mg.GetName(), e.Message)
		}
	}
}

// Keys and mappings as resources: a pair from a Secret and a generated one, a scope and a
// SAML mapping, used by reference by an OAuth2 and a SAML provider. A new certificate in the
// Secret and a changed expression reach authentik; the key is published only when asked for
// and never shown in status or events; a pair a hand-made provider uses is not deleted.
func TestAuthentikKeypairsAndMappings(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	cert, key, fp := testCert(t, "e2e-kp-secret")
	sec := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "crossplane-system", Name: "ak-kp-input"}, Type: corev1.SecretTypeTLS,
		Data: map[string][]byte{"tls.crt": []byte(cert), "tls.key": []byte(key)}}
	create(t, sec)
	fromSecret := newAKKeypair("ak-kp-secret", akv1alpha1.CertificateKeyPairParameters{Name: "e2e-kp-secret",
		SecretRef: &identityv1alpha1.SecretReference{Namespace: "crossplane-system", Name: "ak-kp-input"}})
	fromSecret.Spec.WriteConnectionSecretToReference = &xpv2.SecretReference{Namespace: "crossplane-system", Name: "ak-kp-secret-out"}
	generated := newAKKeypair("ak-kp-gen", akv1alpha1.CertificateKeyPairParameters{Name: "e2e-kp-gen",
		Generate:          &akv1alpha1.CertificateGeneration{CommonName: "e2e-kp-gen.example.com", SubjectAltNames: []string{"e2e-kp-gen.example.com"}, ValidityDays: 30, Algorithm: ptr("ecdsa")},
		PublishPrivateKey: ptr(true)})
	generated.Spec.WriteConnectionSecretToReference = &xpv2.SecretReference{Namespace: "crossplane-system", Name: "ak-kp-gen-out"}
	scope := newAKMapping("ak-map-scope", akv1alpha1.PropertyMappingParameters{Name: "e2e-map-scope", Expression: `return {"groups": []}`,
		Scope: &akv1alpha1.ScopeMapping{ScopeName: "e2e-groups", Description: ptr("Your groups")}})
	saml := newAKMapping("ak-map-saml", akv1alpha1.PropertyMappingParameters{Name: "e2e-map-saml", Expression: "return request.user.username",
		SAML: &akv1alpha1.SAMLPropertyMapping{SAMLName: "uid", FriendlyName: ptr("User ID")}})
	oauth := newAKOAuth2("ak-kpmap-oauth", "e2e-kpmap-oauth", func(p *akv1alpha1.OAuth2Provider) {
		p.Spec.ForProvider.SigningKeyRef = &xpv2.Reference{Name: "ak-kp-gen"}
		p.Spec.ForProvider.PropertyMappings = []akv1alpha1.PropertyMappingSelector{{Managed: ptr("goauthentik.io/providers/oauth2/scope-openid")}}
		p.Spec.ForProvider.PropertyMappingRefs = []xpv2.Reference{{Name: "ak-map-scope"}}
	})
	sp := newAKSAML("ak-kpmap-saml", "e2e-kpmap-saml", func(p *akv1alpha1.SAMLProvider) {
		p.Spec.ForProvider.SigningKeyRef = &xpv2.Reference{Name: "ak-kp-gen"}
		p.Spec.ForProvider.VerificationKeyRef = &xpv2.Reference{Name: "ak-kp-secret"}
		p.Spec.ForProvider.PropertyMappingRefs = []xpv2.Reference{{Name: "ak-map-saml"}}
	})
	create(t, fromSecret)
	create(t, generated)
	create(t, scope)
	create(t, saml)
	create(t, oauth)
	create(t, sp)
	waitReady(t, fromSecret)
	waitReady(t, generated)
	waitReady(t, scope)
	waitReady(t, saml)
	waitReady(t, oauth)
	waitReady(t, sp)

	kp := authentikAPI.object(t, akKeypairs, meta.GetExternalName(fromSecret))
	if kp["name"] != "e2e-kp-secret" || kp["fingerprint_sha256"] != fp || kp["private_key_available"] != true {
		t.Errorf("pair from the Secret: %v", kp)
	}
	eventually(t, 30*time.Second, "the generated pair renamed after its spec", func() bool {
		return authentikAPI.object(t, akKeypairs, meta.GetExternalName(generated))["name"] == "e2e-kp-gen"
	})
	if s := connectionSecret(t, "ak-kp-secret-out"); s["tls.crt"] != cert || s["tls.key"] != "" {
		t.Errorf("connection Secret of the pair from a Secret: want tls.crt alone, got keys %v", keysOf(s))
	}
	eventually(t, 30*time.Second, "the generated certificate and key in the connection Secret", func() bool {
		s := connectionSecret(t, "ak-kp-gen-out")
		return strings.Contains(s["tls.crt"], "BEGIN CERTIFICATE") && strings.Contains(s["tls.key"], "PRIVATE KEY")
	})
	if m := authentikAPI.object(t, akScopeMapping, meta.GetExternalName(scope)); m["scope_name"] != "e2e-groups" || m["description"] != "Your groups" {
		t.Errorf("scope mapping: %v", m)
	}
	if m := authentikAPI.object(t, akSAMLMapping, meta.GetExternalName(saml)); m["saml_name"] != "uid" || m["friendly_name"] != "User ID" {
		t.Errorf("SAML mapping: %v", m)
	}
	o := authentikAPI.object(t, akOAuth2, meta.GetExternalName(oauth))
	if o["signing_key"] != meta.GetExternalName(generated) || len(stringsOf(o["property_mappings"])) != 2 || !strings.Contains(strings.Join(stringsOf(o["property_mappings"]), ","), meta.GetExternalName(scope)) {
		t.Errorf("OAuth2 provider: signing_key %v, property_mappings %v", o["signing_key"], o["property_mappings"])
	}
	s := authentikAPI.object(t, akSAML, meta.GetExternalName(sp))
	if s["signing_kp"] != meta.GetExternalName(generated) || s["verification_kp"] != meta.GetExternalName(fromSecret) || strings.Join(stringsOf(s["property_mappings"]), ",") != meta.GetExternalName(saml) {
		t.Errorf("SAML provider: signing_kp %v, verification_kp %v, property_mappings %v", s["signing_kp"], s["verification_kp"], s["property_mappings"])
	}

	// Updates: a new certificate in the Secret and a changed expression.
	cert2, key2, fp2 := testCert(t, "e2e-kp-secret-2")
	update(t, sec, func(s *corev1.Secret) { s.Data = map[string][]byte{"tls.crt": []byte(cert2), "tls.key": []byte(key2)} })
	update(t, scope, func(m *akv1alpha1.PropertyMapping) { m.Spec.ForProvider.Expression = `return {"groups": ["a"]}` })
	eventually(t, 60*time.Second, "the new certificate and expression in authentik", func() bool {
		return authentikAPI.object(t, akKeypairs, meta.GetExternalName(fromSecret))["fingerprint_sha256"] == fp2 &&
			authentikAPI.object(t, akScopeMapping, meta.GetExternalName(scope))["expression"] == `return {"groups": ["a"]}`
	})
	eventually(t, 30*time.Second, "the new certificate in the connection Secret", func() bool {
		return connectionSecret(t, "ak-kp-secret-out")["tls.crt"] == cert2
	})
	noPrivateKey(t, fromSecret)
	noPrivateKey(t, generated)

	// A hand-made provider uses the pair from the Secret: its deletion is refused.
	hand := authentikAPI.seed(t, akSAML, map[string]any{"name": "e2e-kpmap-hand", "acs_url": "https://hand.example.com/acs", "signing_kp": meta.GetExternalName(fromSecret)})
	if err := kube.Delete(context.Background(), fromSecret); err != nil {
		t.Fatal(err)
	}
	eventually(t, 60*time.Second, "the pair's deletion to be blocked by the hand-made provider", func() bool {
		c := condition(get(t, fromSecret), "DeletionBlocked")
		return c.Status == corev1.ConditionTrue && strings.Contains(c.Message, "e2e-kpmap-hand") && strings.Contains(c.Message, "not created or adopted by this installation")
	})
	if !authentikAPI.exists(t, akKeypairs, meta.GetExternalName(fromSecret)) ||
		authentikAPI.object(t, akSAML, jsonNumber(hand["pk"]))["signing_kp"] != meta.GetExternalName(fromSecret) {
		t.Fatal("the pair was deleted or the hand-made provider changed")
	}
	authentikAPI.del(t, akSAML, jsonNumber(hand["pk"]))
	// Our providers use the pairs and mappings too: delete everything; the pairs and mappings
	// wait for the providers.
	for _, del := range []func() error{
		func() error { return kube.Delete(context.Background(), generated) },
		func() error { return kube.Delete(context.Background(), scope) },
		func() error { return kube.Delete(context.Background(), saml) },
		func() error { return kube.Delete(context.Background(), oauth) },
		func() error { return kube.Delete(context.Background(), sp) },
	} {
		if err := del(); err != nil {
			t.Fatal(err)
		}
	}
	waitGone(t, fromSecret)
	waitGone(t, generated)
	waitGone(t, scope)
	waitGone(t, saml)
	if authentikAPI.exists(t, akKeypairs, meta.GetExternalName(generated)) || authentikAPI.exists(t, akSAMLMapping, meta.GetExternalName(saml)) {
		t.Error("pair or mapping still in authentik")
	}
}

func keysOf(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// jsonNumber prints a pk decoded from JSON (a float64 for integer pks) as authentik's path has it.
func jsonNumber(v any) string {
	if f, ok := v.(float64); ok {
		return strconv.FormatInt(int64(f), 10)
	}
	return fmt.Sprint(v)
}

// A hand-made pair and mappings with the resources' names are left byte-identical
// (FailOnConflict); an observe-only resource never writes; AdoptExisting takes each over and
// then follows the spec.
func TestAuthentikKeypairMappingConflictAdoptObserve(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	cert, key, _ := testCert(t, "e2e-kp-hand")
	hk := authentikAPI.seed(t, akKeypairs, map[string]any{"name": "e2e-kp-hand", "certificate_data": cert, "key_data": key})
	hm := authentikAPI.seed(t, akScopeMapping, map[string]any{"name": "e2e-map-hand", "expression": "return {}", "scope_name": "e2e-hand"})
	t.Cleanup(func() {
		authentikAPI.del(t, akKeypairs, hk["pk"].(string))
		authentikAPI.del(t, akScopeMapping, hm["pk"].(string))
	})
	before := map[string][]byte{"pair": authentikAPI.raw(t, akKeypairs, hk["pk"].(string)), "mapping": authentikAPI.raw(t, akScopeMapping, hm["pk"].(string))}

	sec := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "crossplane-system", Name: "ak-kp-hand-input"}, Type: corev1.SecretTypeTLS,
		Data: map[string][]byte{"tls.crt": []byte(cert), "tls.key": []byte(key)}}
	create(t, sec)
	kp := newAKKeypair("ak-kp-hand", akv1alpha1.CertificateKeyPairParameters{Name: "e2e-kp-hand",
		SecretRef: &identityv1alpha1.SecretReference{Namespace: "crossplane-system", Name: "ak-kp-hand-input"}})
	m := newAKMapping("ak-map-hand", akv1alpha1.PropertyMappingParameters{Name: "e2e-map-hand", Expression: "return {}",
		Scope: &akv1alpha1.ScopeMapping{ScopeName: "e2e-hand", Description: ptr("ours")}})
	kp.SetDeletionPolicy(xpv2.DeletionOrphan)
	m.SetDeletionPolicy(xpv2.DeletionOrphan)
	create(t, kp)
	create(t, m)
	waitAdoptionRequired(t, kp, "authentik certificate-key pair", "e2e-kp-hand")
	waitAdoptionRequired(t, m, "authentik property mapping", "e2e-map-hand")

	obs := newAKMapping("ak-map-hand-observe", akv1alpha1.PropertyMappingParameters{Name: "e2e-map-hand", Expression: "return 1",
		Scope: &akv1alpha1.ScopeMapping{ScopeName: "other"}})
	obs.Spec.ManagementPolicies = xpv2.ManagementPolicies{xpv2.ManagementActionObserve}
	create(t, obs)
	waitReady(t, obs)
	if got := get(t, obs).Status.AtProvider.Provenance; got != identityv1alpha1.Observed {
		t.Errorf("observe-only provenance: got %q", got)
	}
	time.Sleep(2 * time.Second)
	after := map[string][]byte{"pair": authentikAPI.raw(t, akKeypairs, hk["pk"].(string)), "mapping": authentikAPI.raw(t, akScopeMapping, hm["pk"].(string))}
	for k := range before {
		if !bytes.Equal(before[k], after[k]) {
			t.Errorf("hand-made %s changed:\n%s\n%s", k, before[k], after[k])
		}
	}
	if err := kube.Delete(context.Background(), obs); err != nil {
		t.Fatal(err)
	}
	waitGone(t, obs)
	if !authentikAPI.exists(t, akScopeMapping, hm["pk"].(string)) {
		t.Fatal("deleting the observe-only resource deleted the mapping")
	}

	updateWith(t, kp, func() { kp.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting })
	updateWith(t, m, func() { m.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting })
	waitReady(t, kp)
	waitReady(t, m)
	if meta.GetExternalName(kp) != hk["pk"] || meta.GetExternalName(m) != hm["pk"] {
		t.Errorf("adopted other objects: pair %s, mapping %s", meta.GetExternalName(kp), meta.GetExternalName(m))
	}
	// The pair already holds the Secret's certificate: adopting it writes nothing.
	if !bytes.Equal(before["pair"], authentikAPI.raw(t, akKeypairs, hk["pk"].(string))) {
		t.Error("adopting a pair in sync wrote it")
	}
	eventually(t, 30*time.Second, "the adopted mapping to follow its spec", func() bool {
		return authentikAPI.object(t, akScopeMapping, hm["pk"].(string))["description"] == "ours"
	})
	if got := get(t, m).Status.AtProvider.Provenance; got != identityv1alpha1.Adopted {
		t.Errorf("adopted mapping provenance: got %q", got)
	}
}

// The namespaced kinds: a pair from a Secret of the namespace and a scope mapping, used by an
// OAuth2 provider by reference, Ready, and deleted together.
func TestNamespacedAuthentikKeypairMapping(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	const ns = "ak-keys"
	namespace(t, ns)
	cpc := &nsidentityv1alpha1.ClusterProviderConfig{ObjectMeta: metav1.ObjectMeta{Name: "e2e-ak-keys"}, Spec: authentikProviderConfig("unused", "authentik-token").Spec}
	create(t, cpc)
	releaseNamespacedProviderConfig(t, cpc)
	onPC := xpv2.ManagedResourceSpec{ProviderConfigReference: nsRef("ClusterProviderConfig", cpc.GetName())}
	cert, key, fp := testCert(t, "e2e-ns-kp")
	create(t, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "signing"}, Type: corev1.SecretTypeTLS,
		Data: map[string][]byte{"tls.crt": []byte(cert), "tls.key": []byte(key)}})
	kp := &nsakv1alpha1.CertificateKeyPair{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "signing"}, Spec: nsakv1alpha1.CertificateKeyPairSpec{ManagedResourceSpec: onPC,
		ForProvider: nsakv1alpha1.CertificateKeyPairParameters{Name: "e2e-ns-kp", SecretRef: &identityv1alpha1.SecretReference{Name: "signing"}}}}
	m := &nsakv1alpha1.PropertyMapping{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "groups"}, Spec: nsakv1alpha1.PropertyMappingSpec{ManagedResourceSpec: onPC,
		ForProvider: nsakv1alpha1.PropertyMappingParameters{Name: "e2e-ns-map", Expression: "return {}", Scope: &nsakv1alpha1.ScopeMapping{ScopeName: "e2e-ns-groups"}}}}
	p := &nsakv1alpha1.OAuth2Provider{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "app"}, Spec: nsakv1alpha1.OAuth2ProviderSpec{ManagedResourceSpec: onPC,
		ForProvider: nsakv1alpha1.OAuth2ProviderParameters{Name: "e2e-ns-kpmap-oauth", ProviderFlows: akFlows(),
			SigningKeyRef: &xpv2.Reference{Name: "signing"}, PropertyMappingRefs: []xpv2.Reference{{Name: "groups"}}}}}
	create(t, kp)
	create(t, m)
	create(t, p)
	waitReady(t, kp)
	waitReady(t, m)
	waitReady(t, p)
	if got := authentikAPI.object(t, akKeypairs, meta.GetExternalName(kp))["fingerprint_sha256"]; got != fp {
		t.Errorf("pair's fingerprint: got %v, want %s", got, fp)
	}
	o := authentikAPI.object(t, akOAuth2, meta.GetExternalName(p))
	if o["signing_key"] != meta.GetExternalName(kp) || strings.Join(stringsOf(o["property_mappings"]), ",") != meta.GetExternalName(m) {
		t.Errorf("OAuth2 provider: signing_key %v, property_mappings %v", o["signing_key"], o["property_mappings"])
	}
	for _, del := range []func() error{
		func() error { return kube.Delete(context.Background(), kp) },
		func() error { return kube.Delete(context.Background(), m) },
		func() error { return kube.Delete(context.Background(), p) },
	} {
		if err := del(); err != nil {
			t.Fatal(err)
		}
	}
	waitGone(t, kp)
	waitGone(t, m)
	if authentikAPI.exists(t, akKeypairs, meta.GetExternalName(kp)) || authentikAPI.exists(t, akScopeMapping, meta.GetExternalName(m)) {
		t.Error("pair or mapping still in authentik")
	}
}
