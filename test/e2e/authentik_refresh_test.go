//go:build e2e

package e2e

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	akv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
)

// An application assigns its provider, whose connection Secret then names it (the issuer and
// OpenID configuration URLs): the provider's resource is refreshed at once, not at its next
// poll. The provider polls every ten minutes here, on a control plane of its own, so only the
// refresh can have written those within the test.
func TestAuthentikProviderRefreshedByItsApplication(t *testing.T) {
	ctx, check := privateTest(t)
	crds, _ := packageCRDs(t)
	crds = append(crds, clusterCRDs(t, akv1alpha1.SchemeGroupVersion.Group, akv1alpha1.OAuth2ProviderKind, akv1alpha1.ApplicationKind)...)
	cfg, sch, k := privateControlPlane(ctx, t, crds, installationID)
	check(k.Create(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "crossplane-system", Name: "authentik-token"},
		StringData: map[string]string{"token": authentikAPI.token}}))
	check(k.Create(ctx, authentikProviderConfig("authentik", "authentik-token")))

	o := providerOptions("provider-refresh", 2)
	o.PollInterval = 10 * time.Minute
	_, stop := startPrivateProvider(ctx, t, cfg, sch, o)
	defer stop()

	p := newAKOAuth2("ak-refresh-oauth2", "e2e-refresh-oauth2", func(p *akv1alpha1.OAuth2Provider) {
		p.Spec.WriteConnectionSecretToReference = &xpv2.SecretReference{Namespace: "crossplane-system", Name: "ak-refresh-oauth2"}
	})
	app := newAKApplication("ak-refresh-app", "e2e-refresh-app", func(a *akv1alpha1.Application) {
		a.Spec.ForProvider.OAuth2ProviderRef = &xpv2.Reference{Name: p.Name}
	})
	ready := func(name string, obj interface {
		GetCondition(xpv2.ConditionType) xpv2.Condition
	}, get func() error) {
		t.Helper()
		eventually(t, 60*time.Second, name+" to be Ready", func() bool {
			check(get())
			return obj.GetCondition(xpv2.TypeReady).Status == corev1.ConditionTrue
		})
	}
	secret := func() map[string]string {
		s := &corev1.Secret{}
		if err := k.Get(ctx, keyOf(&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "crossplane-system", Name: "ak-refresh-oauth2"}}), s); err != nil {
			return nil
		}
		out := map[string]string{}
		for key, v := range s.Data {
			out[key] = string(v)
		}
		return out
	}
	check(k.Create(ctx, p))
	ready("the OAuth2Provider", p, func() error { return k.Get(ctx, keyOf(p), p) })
	if s := secret(); s["client_id"] == "" || s["issuer_url"] != "" {
		t.Fatalf("connection Secret of a provider no application uses: %v", s)
	}

	check(k.Create(ctx, app))
	ready("the Application", app, func() error { return k.Get(ctx, keyOf(app), app) })
	issuer := authentikAPI.url + "/application/o/e2e-refresh-app/"
	eventually(t, 20*time.Second, "the provider's Secret and status to name its new application, long before its next poll", func() bool {
		check(k.Get(ctx, keyOf(p), p))
		return secret()["issuer_url"] == issuer && p.Status.AtProvider.AssignedApplication == "e2e-refresh-app"
	})

	check(k.Delete(ctx, app))
	eventually(t, 60*time.Second, "the Application to be gone", func() bool {
		return !authentikAPI.exists(t, akApps, "e2e-refresh-app")
	})
	check(k.Delete(ctx, p))
	eventually(t, 60*time.Second, "the OAuth2Provider to be gone", func() bool {
		return !authentikAPI.exists(t, akOAuth2, p.Status.AtProvider.ID)
	})
}

// clusterCRDs reads the CRDs of the cluster-scoped kinds of group from package/crds.
func clusterCRDs(t *testing.T, group string, kinds ...string) []*apiextensionsv1.CustomResourceDefinition {
	t.Helper()
	out := make([]*apiextensionsv1.CustomResourceDefinition, 0, len(kinds))
	for _, kind := range kinds {
		out = append(out, readCRD(t, filepath.Join("..", "..", "package", "crds", group+"_"+strings.ToLower(kind)+"s.yaml")))
	}
	return out
}
