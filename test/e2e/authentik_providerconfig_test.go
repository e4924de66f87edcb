//go:build e2e

package e2e

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// An authentik ProviderConfig shows in `kubectl get providerconfig` whether its token is
// accepted: True for a good one; False with authentik's answer and the URL for a bad one,
// never the token itself.
func TestAuthentikProviderConfig(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	good := get(t, &identityv1alpha1.ProviderConfig{ObjectMeta: metav1.ObjectMeta{Name: "authentik"}})
	eventually(t, 30*time.Second, "Authenticated=True", func() bool {
		return condition(get(t, good), identityv1alpha1.ConditionTypeAuthenticated).Status == corev1.ConditionTrue
	})
	if got := good.Status.InstallationID; got != installationID {
		t.Errorf("status.installationID: got %q, want %q", got, installationID)
	}

	const wrong = "not-the-authentik-token"
	create(t, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "crossplane-system", Name: "authentik-wrong-token"}, StringData: map[string]string{"token": wrong}})
	bad := authentikProviderConfig("authentik-wrong-token", "authentik-wrong-token")
	create(t, bad)
	eventually(t, 30*time.Second, "Authenticated=False", func() bool {
		return condition(get(t, bad), identityv1alpha1.ConditionTypeAuthenticated).Status == corev1.ConditionFalse
	})
	c := condition(bad, identityv1alpha1.ConditionTypeAuthenticated)
	for _, want := range []string{"cannot authenticate to authentik at " + os.Getenv("AUTHENTIK_URL"), "/api/v3/core/users/me/", "403", "Token invalid/expired"} {
		if !strings.Contains(c.Message, want) {
			t.Errorf("Authenticated=False message %q does not mention %q", c.Message, want)
		}
	}
	if c.Reason != "CannotAuthenticate" {
		t.Errorf("Authenticated=False reason: got %q, want CannotAuthenticate", c.Reason)
	}
	if strings.Contains(c.Message, wrong) {
		t.Errorf("condition leaks the token: %q", c.Message)
	}
	for _, e := range events(t, bad) {
		if strings.Contains(e.Message, wrong) {
			t.Errorf("event leaks the token: %q", e.Message)
		}
	}

	// What a user sees: one row per ProviderConfig with the AUTHENTICATED column.
	out := kubectlRun(t, "get", "providerconfig", "authentik", "authentik-wrong-token")
	for name, want := range map[string]string{"authentik": "True", "authentik-wrong-token": "False"} {
		row := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + `\s+(\S+)\s+(\S+)`).FindStringSubmatch(out)
		if row == nil || row[1] != want {
			t.Errorf("kubectl get providerconfig: row %s should show AUTHENTICATED %s:\n%s", name, want, out)
		}
	}
	if !strings.Contains(out, "Token invalid/expired") {
		t.Errorf("kubectl get providerconfig: the MESSAGE column should carry authentik's answer:\n%s", out)
	}

	// Fixing the Secret fixes the ProviderConfig (within the recheck of an unhealthy one).
	sec := &corev1.Secret{}
	sec.Namespace, sec.Name = "crossplane-system", "authentik-wrong-token"
	updateWith(t, sec, func() {
		sec.Data = map[string][]byte{"token": []byte(os.Getenv("AUTHENTIK_TOKEN"))}
	})
	// The health check runs on ProviderConfig events: touch it rather than wait 30 s.
	updateWith(t, bad, func() {
		meta := bad.GetAnnotations()
		if meta == nil {
			meta = map[string]string{}
		}
		meta["e2e/touch"] = "1"
		bad.SetAnnotations(meta)
	})
	eventually(t, 45*time.Second, "Authenticated=True once the token is right", func() bool {
		return condition(get(t, bad), identityv1alpha1.ConditionTypeAuthenticated).Status == corev1.ConditionTrue
	})
}
