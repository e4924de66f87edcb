//go:build e2e

package e2e

import (
	"context"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	ksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// rejected asserts that the API server refuses obj with a message containing want.
func rejected(t *testing.T, obj client.Object, want string) {
	t.Helper()
	err := kube.Create(context.Background(), obj)
	if err == nil {
		_ = kube.Delete(context.Background(), obj)
		t.Fatalf("%s was accepted; want it rejected with %q", obj.GetName(), want)
	}
	if !strings.Contains(err.Error(), want) {
		t.Fatalf("%s rejected with %q; want a message containing %q", obj.GetName(), err, want)
	}
}

func TestCELProviderConfig(t *testing.T) {
	t.Parallel()
	secret := xpv2.SecretKeySelector{SecretReference: xpv2.SecretReference{Namespace: "crossplane-system", Name: "s"}, Key: "k"}
	ks := keystoneProviderConfig("x", "", "s").Spec.Keystone
	ak := &identityv1alpha1.AuthentikConfig{URL: "https://authentik.example.com", TokenSecretRef: secret}
	pc := func(name string, spec identityv1alpha1.ProviderConfigSpec) *identityv1alpha1.ProviderConfig {
		return &identityv1alpha1.ProviderConfig{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: spec}
	}
	both := "exactly one of spec.authentik or spec.keystone must be set"
	t.Run("BothSystems", func(t *testing.T) {
		rejected(t, pc("cel-both", identityv1alpha1.ProviderConfigSpec{Keystone: ks, Authentik: ak}), both)
	})
	t.Run("NoSystem", func(t *testing.T) {
		rejected(t, pc("cel-none", identityv1alpha1.ProviderConfigSpec{}), both)
	})
	t.Run("PasswordAndApplicationCredential", func(t *testing.T) {
		k := *ks
		k.ApplicationCredential = &identityv1alpha1.KeystoneApplicationCredentialAuth{ID: "ac", SecretRef: secret}
		rejected(t, pc("cel-two-creds", identityv1alpha1.ProviderConfigSpec{Keystone: &k}), "exactly one of password or applicationCredential must be set")
	})
	t.Run("TwoScopes", func(t *testing.T) {
		k := *ks
		p := *k.Password
		d := "Default"
		p.Scope.DomainName = &d
		k.Password = &p
		rejected(t, pc("cel-two-scopes", identityv1alpha1.ProviderConfigSpec{Keystone: &k}), "exactly one of projectName, domainName or system must be set")
	})
	t.Run("InstallationIDPattern", func(t *testing.T) {
		rejected(t, pc("cel-installation", identityv1alpha1.ProviderConfigSpec{Keystone: ks, InstallationID: "has spaces"}), "spec.installationID")
	})
}

func TestCELDomain(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"default", "Default", "DEFAULT"} {
		t.Run(name, func(t *testing.T) {
			rejected(t, newDomain("cel-"+strings.ToLower(name)+"-"+map[bool]string{true: "u", false: "l"}[name != "default"], name),
				"the Default domain belongs to Keystone itself and cannot be managed")
		})
	}
	t.Run("BlankName", func(t *testing.T) {
		rejected(t, newDomain("cel-blank", "   "), "spec.forProvider.name")
	})
	t.Run("AdoptionPolicyEnum", func(t *testing.T) {
		rejected(t, newDomain("cel-policy", "x", func(d *ksv1alpha1.Domain) { d.Spec.AdoptionPolicy = "Sometimes" }), "spec.adoptionPolicy")
	})
}
