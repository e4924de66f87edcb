//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"os"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	ksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	nsksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
	nsidentityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// namespacedKeystone makes namespace ns with a ProviderConfig for Keystone (its admin password
// in a Secret of ns) and returns the spec that selects it.
func namespacedKeystone(t *testing.T, ns string) xpv2.ManagedResourceSpec {
	t.Helper()
	namespace(t, ns)
	create(t, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "keystone-admin"},
		StringData: map[string]string{"password": os.Getenv("KEYSTONE_ADMIN_PASSWORD")}})
	pc := &nsidentityv1alpha1.ProviderConfig{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "keystone"}, Spec: keystoneSpec("", "keystone-admin")}
	create(t, pc)
	releaseNamespacedProviderConfig(t, pc)
	return xpv2.ManagedResourceSpec{ProviderConfigReference: nsRef("ProviderConfig", "keystone")}
}

// userOptions reads a user's options exactly as Keystone serves them, as JSON.
func userOptions(t *testing.T, id string) string {
	t.Helper()
	b, err := json.Marshal(field(t, keystone.raw(t, "users", id), "user", "options"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// waitUserOptions waits until Keystone holds exactly want as the user's options.
func waitUserOptions(t *testing.T, id, want string) {
	t.Helper()
	eventually(t, 60*time.Second, "Keystone user "+id+" options "+want, func() bool { return userOptions(t, id) == want })
}

// A User's options reach Keystone on create and on update; an option set by hand that the spec
// leaves out is kept and never reverted; status reports every option Keystone holds.
func TestUserOptions(t *testing.T) {
	t.Parallel()
	mg := newKeystoneUser("user-options", "e2e-user-options", func(u *ksv1alpha1.User) {
		u.Spec.ForProvider.Options = &ksv1alpha1.UserOptions{IgnorePasswordExpiry: ptr(true),
			MultiFactorAuthRules: []ksv1alpha1.MFARule{{"password", "totp"}}}
	})
	create(t, mg)
	waitReady(t, mg)
	id := meta.GetExternalName(mg)
	waitUserOptions(t, id, `{"ignore_password_expiry":true,"multi_factor_auth_rules":[["password","totp"]]}`)

	// An option the spec leaves out, set by hand: kept, and reported.
	keystone.patch(t, "users", "user", id, map[string]any{"options": map[string]any{"lock_password": true}})
	eventually(t, 60*time.Second, "status reports the hand-set lock_password", func() bool {
		o := get(t, mg).Status.AtProvider.Options
		return o != nil && o.LockPassword != nil && *o.LockPassword
	})
	want := `{"ignore_password_expiry":true,"lock_password":true,"multi_factor_auth_rules":[["password","totp"]]}`
	stays(t, "the hand-set option kept", func() bool { return userOptions(t, id) == want })
	if at := get(t, mg).Status.AtProvider; at.PasswordExpiresAt != "" {
		t.Errorf("passwordExpiresAt %q: this Keystone sets no password expiry", at.PasswordExpiresAt)
	}

	// A managed option changed by hand is reverted; a spec change is applied.
	keystone.patch(t, "users", "user", id, map[string]any{"options": map[string]any{"ignore_password_expiry": false}})
	waitUserOptions(t, id, want)
	update(t, mg, func(u *ksv1alpha1.User) {
		u.Spec.ForProvider.Options.MultiFactorAuthRules = []ksv1alpha1.MFARule{{"password"}, {"totp"}}
		u.Spec.ForProvider.Options.MultiFactorAuthEnabled = ptr(false)
	})
	waitUserOptions(t, id, `{"ignore_password_expiry":true,"lock_password":true,"multi_factor_auth_enabled":false,"multi_factor_auth_rules":[["password"],["totp"]]}`)
	waitReady(t, mg)
	if err := kube.Delete(context.Background(), mg); err != nil {
		t.Fatal(err)
	}
	waitGone(t, mg)
	if keystone.exists(t, "users", id) {
		t.Errorf("user %s survived its resource's deletion", id)
	}
}

// A hand-made user with options adopted by a namespaced User: only the options the spec sets
// and the marker are written; the others stay as they were.
func TestNamespacedUserOptionsAdopted(t *testing.T) {
	t.Parallel()
	const ns = "e2e-ns-user-options"
	mrs := namespacedKeystone(t, ns)
	id := keystone.post(t, "users", "user", map[string]any{"name": "e2e-ns-user-options", "domain_id": "default",
		"options": map[string]any{"ignore_lockout_failure_attempts": true, "lock_password": true}})
	t.Cleanup(func() { keystone.del(t, "users", id) })
	u := &nsksv1alpha1.User{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "adopted"},
		Spec: nsksv1alpha1.UserSpec{ManagedResourceSpec: mrs, AdoptionSpec: identityv1alpha1.AdoptionSpec{AdoptionPolicy: identityv1alpha1.AdoptExisting},
			ForProvider: nsksv1alpha1.UserParameters{Name: "e2e-ns-user-options", DomainID: ptr("default"),
				Options: &nsksv1alpha1.UserOptions{LockPassword: ptr(false)}}}}
	create(t, u)
	waitReady(t, u)
	if got := meta.GetExternalName(u); got != id {
		t.Fatalf("external name %q, want the hand-made user %s", got, id)
	}
	waitUserOptions(t, id, `{"ignore_lockout_failure_attempts":true,"lock_password":false}`)
	eventually(t, 60*time.Second, "provenance Adopted", func() bool { return get(t, u).Status.AtProvider.Provenance == identityv1alpha1.Adopted })
	m, err := provenance.Parse(field(t, keystone.raw(t, "users", id), "user", "crossplane_provenance").(string))
	if err != nil || m.Origin != provenance.OriginAdopted || m.Resource != "User.keystone.identity.m.crossplane.io/"+ns+"/adopted" {
		t.Errorf("marker: got %+v, %v", m, err)
	}
	if c := condition(u, xpv2.TypeSynced); c.Status != corev1.ConditionTrue {
		t.Errorf("Synced: %+v", c)
	}
	if err := kube.Delete(context.Background(), u); err != nil {
		t.Fatal(err)
	}
	waitGone(t, u)
	if keystone.exists(t, "users", id) {
		t.Errorf("the adopted user survived its resource's deletion")
	}
}
