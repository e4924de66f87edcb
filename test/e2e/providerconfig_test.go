//go:build e2e

package e2e

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	ksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// The ProviderConfig shows whether the provider can authenticate, without any secret in its
// status, and derives its installation ID from the cluster when none is given.
func TestProviderConfigAuthentication(t *testing.T) {
	// Not parallel: it has Keystone refuse the password of the admin user every test
	// authenticates as (harmless without a lockout policy, but not worth the doubt).
	ctx := context.Background()
	good := keystoneProviderConfig("pc-good", "", "keystone-admin")
	create(t, good)
	releaseProviderConfig(t, good.Name)
	eventually(t, 30*time.Second, "Authenticated=True", func() bool {
		return condition(get(t, good), identityv1alpha1.ConditionTypeAuthenticated).Status == corev1.ConditionTrue
	})
	ns := &corev1.Namespace{}
	if err := kube.Get(ctx, types.NamespacedName{Name: "kube-system"}, ns); err != nil {
		t.Fatal(err)
	}
	if got := good.Status.InstallationID; got != string(ns.GetUID()) {
		t.Errorf("status.installationID: got %q, want the kube-system namespace UID %q", got, ns.GetUID())
	}

	const wrong = "definitely-not-the-password"
	create(t, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "crossplane-system", Name: "keystone-wrong"}, StringData: map[string]string{"password": wrong}})
	bad := keystoneProviderConfig("pc-wrong-password", "", "keystone-wrong")
	create(t, bad)
	eventually(t, 30*time.Second, "Authenticated=False", func() bool {
		return condition(get(t, bad), identityv1alpha1.ConditionTypeAuthenticated).Status == corev1.ConditionFalse
	})
	c := condition(bad, identityv1alpha1.ConditionTypeAuthenticated)
	if c.Reason != "CannotAuthenticate" || !strings.Contains(c.Message, os.Getenv("KEYSTONE_URL")) || !strings.Contains(c.Message, "401") {
		t.Errorf("condition should say Keystone at the URL answered 401: %+v", c)
	}
	for _, e := range events(t, bad) {
		if strings.Contains(e.Message, wrong) {
			t.Errorf("event leaks the password: %q", e.Message)
		}
	}
	if strings.Contains(c.Message, wrong) {
		t.Errorf("condition leaks the password: %q", c.Message)
	}
}

// A Keystone resource that references an authentik ProviderConfig says so.
func TestProviderConfigWrongSystem(t *testing.T) {
	t.Parallel()
	pc := &identityv1alpha1.ProviderConfig{
		ObjectMeta: metav1.ObjectMeta{Name: "pc-authentik-for-keystone"},
		Spec: identityv1alpha1.ProviderConfigSpec{Authentik: &identityv1alpha1.AuthentikConfig{
			URL:            "http://127.0.0.1:1",
			TokenSecretRef: identityv1alpha1.SecretKeySelector{SecretReference: identityv1alpha1.SecretReference{Namespace: "crossplane-system", Name: "none"}, Key: "token"},
		}},
	}
	create(t, pc)
	releaseProviderConfig(t, pc.Name)
	mg := newDomain("wrong-system", "e2e-wrong-system", func(d *ksv1alpha1.Domain) {
		d.Spec.ProviderConfigReference = &xpv2.Reference{Name: pc.Name}
	})
	create(t, mg)
	eventually(t, 30*time.Second, "Synced=False naming the mismatch", func() bool {
		c := condition(get(t, mg), xpv2.TypeSynced)
		return c.Status == corev1.ConditionFalse && strings.Contains(c.Message, `ProviderConfig "pc-authentik-for-keystone" configures authentik`) && strings.Contains(c.Message, "spec.keystone")
	})
}

// A wrong password costs Keystone one token request per backoff period (5 s, doubling), not one
// per reconcile of every resource and health check: a Keystone with lockout_failure_attempts
// must not lock the service user out because of the provider. Fixing the password starts afresh.
func TestProviderConfigWrongPasswordBackoff(t *testing.T) {
	// Not parallel: it counts every token request Keystone receives.
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "crossplane-system", Name: "keystone-wrong-backoff"},
		StringData: map[string]string{"password": "not-the-password-either"}}
	create(t, secret)
	pc := keystoneProviderConfig("pc-backoff", "", secret.Name)
	before := counter.snapshot()
	start := time.Now()
	create(t, pc)
	releaseProviderConfig(t, pc.Name)
	names := []string{"backoff-1", "backoff-2", "backoff-3"}
	doms := make([]*ksv1alpha1.Domain, 0, len(names))
	for _, n := range names {
		d := newDomain(n, "e2e-"+n, func(d *ksv1alpha1.Domain) { d.Spec.ProviderConfigReference = &xpv2.Reference{Name: pc.Name} })
		create(t, d)
		doms = append(doms, d)
	}
	// Attempts at about 0 s, 5 s and 15 s (the next at 35 s): three, one more for slack.
	time.Sleep(time.Until(start.Add(28 * time.Second)))
	after := counter.snapshot()
	if n := delta(before, after)["POST /v3/auth/tokens"]; n > 4 {
		t.Errorf("%d token requests in 28 s for a wrong password (3 Domains and the health check), want at most 4", n)
	}
	for _, d := range doms {
		if c := condition(get(t, d), xpv2.TypeSynced); c.Status != corev1.ConditionFalse || !strings.Contains(c.Message, "401") || !strings.Contains(c.Message, "tries again after") {
			t.Errorf("%s Synced condition: %+v, want False naming the 401 and when the provider retries", d.Name, c)
		}
	}
	if c := condition(get(t, pc), identityv1alpha1.ConditionTypeAuthenticated); c.Status != corev1.ConditionFalse || !strings.Contains(c.Message, "401") {
		t.Errorf("ProviderConfig Authenticated condition: %+v, want False naming the 401", c)
	}

	// The right password is new credentials: no waiting for the client's backoff. Each Domain
	// still waits for its own next reconcile, which the controller's per-resource backoff (up to
	// a minute after half a minute of failures) schedules.
	get(t, secret)
	secret.StringData = map[string]string{"password": os.Getenv("KEYSTONE_ADMIN_PASSWORD")}
	if err := kube.Update(context.Background(), secret); err != nil {
		t.Fatal(err)
	}
	for _, d := range doms {
		eventually(t, 150*time.Second, d.Name+" to be Ready and Synced with the right password", func() bool {
			get(t, d)
			return condition(d, xpv2.TypeReady).Status == corev1.ConditionTrue && condition(d, xpv2.TypeSynced).Status == corev1.ConditionTrue
		})
	}
}
