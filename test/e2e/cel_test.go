//go:build e2e

package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"

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
	secret := identityv1alpha1.SecretKeySelector{SecretReference: identityv1alpha1.SecretReference{Namespace: "crossplane-system", Name: "s"}, Key: "k"}
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
	t.Run("UsernameNewline", func(t *testing.T) {
		k := *ks
		p := *k.Password
		p.Username = "admin\nx"
		k.Password = &p
		refusedField(t, pc("cel-pc-username", identityv1alpha1.ProviderConfigSpec{Keystone: &k}), "spec.keystone.password.username", "should match")
	})
	t.Run("ProjectNameTooLong", func(t *testing.T) {
		k := *ks
		p := *k.Password
		long := strings.Repeat("p", 65)
		p.Scope.ProjectName = &long
		k.Password = &p
		refusedField(t, pc("cel-pc-project", identityv1alpha1.ProviderConfigSpec{Keystone: &k}), "spec.keystone.password.scope.projectName", "Too long")
	})
	t.Run("ApplicationCredentialIDSlash", func(t *testing.T) {
		k := *ks
		k.Password, k.ApplicationCredential = nil, &identityv1alpha1.KeystoneApplicationCredentialAuth{ID: "a/b", SecretRef: secret}
		refusedField(t, pc("cel-pc-appcred", identityv1alpha1.ProviderConfigSpec{Keystone: &k}), "spec.keystone.applicationCredential.id", "should match")
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

// changeRefused applies change to the stored obj (retrying on conflicts with the controller)
// and asserts that the API server refuses it with a message containing want.
func changeRefused[T client.Object](t *testing.T, obj T, change func(T), want string) {
	t.Helper()
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		change(get(t, obj))
		return kube.Update(context.Background(), obj)
	})
	if err == nil {
		t.Fatalf("the change to %s was accepted; want it refused with %q", obj.GetName(), want)
	}
	if !strings.Contains(err.Error(), want) {
		t.Fatalf("the change to %s was refused with %q; want a message containing %q", obj.GetName(), err, want)
	}
}

// An installation ID, once in use, cannot change: every object created carries it in its
// provenance marker.
func TestCELProviderConfigInstallationID(t *testing.T) {
	t.Parallel()
	// The Secret does not exist: the ProviderConfig never authenticates, and need not.
	immutable := "installationID cannot be changed or removed once set"
	t.Run("SetCannotChange", func(t *testing.T) {
		pc := keystoneProviderConfig("cel-inst-set", "cel-inst-a", "cel-no-such-secret")
		create(t, pc)
		changeRefused(t, pc, func(pc *identityv1alpha1.ProviderConfig) { pc.Spec.InstallationID = "cel-inst-b" }, immutable)
		changeRefused(t, pc, func(pc *identityv1alpha1.ProviderConfig) { pc.Spec.InstallationID = "" }, immutable)
	})
	t.Run("DerivedCanOnlyBeSetToItself", func(t *testing.T) {
		pc := keystoneProviderConfig("cel-inst-derived", "", "cel-no-such-secret")
		create(t, pc)
		var recorded string
		eventually(t, 30*time.Second, "status.installationID recorded", func() bool {
			recorded = get(t, pc).Status.InstallationID
			return recorded != ""
		})
		if c := condition(get(t, pc), identityv1alpha1.ConditionTypeInstallationID); c.Status != corev1.ConditionTrue || c.Reason != "Recorded" {
			t.Errorf("InstallationID condition: got %s/%s %q, want True/Recorded", c.Status, c.Reason, c.Message)
		}
		changeRefused(t, pc, func(pc *identityv1alpha1.ProviderConfig) { pc.Spec.InstallationID = "cel-inst-other" },
			"spec.installationID can only be set to the ID this ProviderConfig already writes into provenance markers")
		update(t, pc, func(pc *identityv1alpha1.ProviderConfig) { pc.Spec.InstallationID = recorded })
		changeRefused(t, pc, func(pc *identityv1alpha1.ProviderConfig) { pc.Spec.InstallationID = "cel-inst-other" }, immutable)
	})
}
