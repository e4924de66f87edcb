//go:build e2e

package e2e

import (
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	akv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
)

// Applications applied together with their providers are each created once and reported
// created, never recovered. The in-repo API server answers a create at once, so the reconcile
// that the create's own writes queue starts right after it, often before the cache holds its
// last write: it used to read the create as still pending, look the application up again and
// report it recovered (managedkind.FreshCache now waits for the write).
func TestAuthentikApplicationsCreatedOnce(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	const n = 8
	providers := make([]*akv1alpha1.ProxyProvider, 0, n)
	apps := make([]*akv1alpha1.Application, 0, n)
	for i := range n {
		p := newAKProxy(fmt.Sprintf("ak-once-proxy-%d", i), fmt.Sprintf("e2e-once-proxy-%d", i))
		providers = append(providers, p)
		apps = append(apps, newAKApplication(fmt.Sprintf("ak-once-app-%d", i), fmt.Sprintf("e2e-once-app-%d", i), func(a *akv1alpha1.Application) {
			a.Spec.ForProvider.ProxyProviderRef = &xpv2.Reference{Name: p.Name}
		}))
	}
	createAll(t, providers...)
	createAll(t, apps...)
	for _, a := range apps {
		waitReady(t, a)
	}
	for _, a := range apps {
		if !eventRecorded(t, a, "CreatedExternalResource") {
			t.Errorf("%s: no CreatedExternalResource event", a.Name)
		}
		for _, e := range events(t, a) {
			if e.Type == corev1.EventTypeNormal && e.Reason == "RecoveredExternalResource" {
				t.Errorf("%s: reported recovered after a plain create: %s", a.Name, e.Message)
			}
		}
	}
}
