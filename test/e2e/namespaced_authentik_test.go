//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	nsakv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1"
	nsidentityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// Namespaced authentik kinds in one namespace, on that namespace's ProviderConfig: a Group, a
// User in it by groupRefs whose password Secret is in the namespace, and an OAuth2Provider
// with an Application referencing it, become Ready; the authentik objects' markers name the
// namespace; a second namespace's Group aiming at the first's group with AdoptExisting is
// refused, naming the first with its namespace; deleting the resources deletes the objects.
func TestNamespacedAuthentik(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	ctx := context.Background()
	const nsA, nsB = "ak-team-a", "ak-team-b"
	namespace(t, nsA)
	namespace(t, nsB)
	create(t, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: nsA, Name: "authentik-token"},
		StringData: map[string]string{"token": authentikAPI.token}})
	create(t, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: nsA, Name: "alice-password"},
		StringData: map[string]string{"password": "team-a-s3cret"}})

	spec := authentikProviderConfig("unused", "authentik-token").Spec
	spec.Authentik.TokenSecretRef.Namespace = "" // a namespaced ProviderConfig reads its own
	pc := &nsidentityv1alpha1.ProviderConfig{ObjectMeta: metav1.ObjectMeta{Namespace: nsA, Name: "authentik"}, Spec: spec}
	create(t, pc)
	releaseNamespacedProviderConfig(t, pc)
	eventually(t, 60*time.Second, "the ak-team-a ProviderConfig to authenticate", func() bool {
		return condition(get(t, pc), identityv1alpha1.ConditionTypeAuthenticated).Status == corev1.ConditionTrue
	})
	onPC := xpv2.ManagedResourceSpec{ProviderConfigReference: nsRef("ProviderConfig", "authentik")}

	g := &nsakv1alpha1.Group{
		ObjectMeta: metav1.ObjectMeta{Namespace: nsA, Name: "staff"},
		Spec:       nsakv1alpha1.GroupSpec{ManagedResourceSpec: onPC, ForProvider: nsakv1alpha1.GroupParameters{Name: "e2e-ns-staff"}},
	}
	u := &nsakv1alpha1.User{
		ObjectMeta: metav1.ObjectMeta{Namespace: nsA, Name: "alice"},
		Spec: nsakv1alpha1.UserSpec{ManagedResourceSpec: onPC, ForProvider: nsakv1alpha1.UserParameters{
			Username: "e2e-ns-alice", Name: ptr("Alice"),
			GroupRefs:         []xpv2.Reference{{Name: "staff"}},
			PasswordSecretRef: &identityv1alpha1.SecretKeySelector{SecretReference: identityv1alpha1.SecretReference{Name: "alice-password"}, Key: "password"},
		}},
	}
	p := &nsakv1alpha1.OAuth2Provider{
		ObjectMeta: metav1.ObjectMeta{Namespace: nsA, Name: "wiki"},
		Spec: nsakv1alpha1.OAuth2ProviderSpec{ManagedResourceSpec: onPC, ForProvider: nsakv1alpha1.OAuth2ProviderParameters{
			Name: "e2e-ns-wiki",
			ProviderFlows: nsakv1alpha1.ProviderFlows{
				AuthorizationFlow: "default-provider-authorization-implicit-consent",
				InvalidationFlow:  "default-provider-invalidation-flow",
			},
			RedirectURIs: []nsakv1alpha1.RedirectURI{{URL: "https://wiki.example.com/callback"}},
		}},
	}
	app := &nsakv1alpha1.Application{
		ObjectMeta: metav1.ObjectMeta{Namespace: nsA, Name: "wiki"},
		Spec: nsakv1alpha1.ApplicationSpec{ManagedResourceSpec: onPC, ForProvider: nsakv1alpha1.ApplicationParameters{
			Name: "Wiki", Slug: "e2e-ns-wiki", OAuth2ProviderRef: &xpv2.Reference{Name: "wiki"},
		}},
	}
	// Cleanups run last-in first-out: the User and the Application go before what they use.
	for _, mg := range []client.Object{g, u, p, app} {
		create(t, mg)
	}
	for _, mg := range []resource.Managed{g, u, p, app} {
		waitReady(t, mg)
	}

	groupPK, userPK, providerPK := meta.GetExternalName(g), meta.GetExternalName(u), meta.GetExternalName(p)
	marker := func(attrs map[string]any) provenance.Marker {
		m, err := provenance.Parse(fmt.Sprint(attrs[authentik.MarkerAttribute]))
		if err != nil {
			t.Fatalf("marker %v: %v", attrs[authentik.MarkerAttribute], err)
		}
		return m
	}
	if m := marker(akAttributes(authentikAPI.object(t, akGroups, groupPK))); m.Installation != installationID || m.Resource != "Group.authentik.identity.m.crossplane.io/ak-team-a/staff" {
		t.Errorf("group marker: %+v", m)
	}
	uo := authentikAPI.object(t, "core/users", userPK)
	if m := marker(akAttributes(uo)); m.Resource != "User.authentik.identity.m.crossplane.io/ak-team-a/alice" {
		t.Errorf("user marker: %+v", m)
	}
	if got := fmt.Sprint(uo["groups"]); got != "["+groupPK+"]" {
		t.Errorf("user's groups: got %s, want [%s] (groupRefs resolved in the namespace)", got, groupPK)
	}
	if pw, ok := authentikAPI.password(t, userPK); !ok || pw != "team-a-s3cret" {
		t.Errorf("user's password was not set from the Secret of its namespace")
	}
	if _, m := akDescriptionMarker(t, authentikAPI.object(t, akApps, "e2e-ns-wiki")); m.Resource != "Application.authentik.identity.m.crossplane.io/ak-team-a/wiki" {
		t.Errorf("application marker: %+v", m)
	}
	if a := authentikAPI.object(t, akApps, "e2e-ns-wiki"); fmt.Sprint(a["provider"]) != providerPK {
		t.Errorf("application's provider: got %v, want %s (oauth2ProviderRef resolved in the namespace)", a["provider"], providerPK)
	}
	if m, err := provenance.Parse(get(t, p).GetAnnotations()[adoption.AnnotationMarker]); err != nil || m.Resource != "OAuth2Provider.authentik.identity.m.crossplane.io/ak-team-a/wiki" {
		t.Errorf("provider marker (kept on the resource): %+v, %v", m, err)
	}

	// ak-team-b, on a ClusterProviderConfig, aims at ak-team-a's group with AdoptExisting.
	cspec := authentikProviderConfig("unused", "authentik-token").Spec
	cpc := &nsidentityv1alpha1.ClusterProviderConfig{ObjectMeta: metav1.ObjectMeta{Name: "e2e-ns-authentik"}, Spec: cspec}
	create(t, cpc)
	releaseNamespacedProviderConfig(t, cpc)
	twin := &nsakv1alpha1.Group{
		ObjectMeta: metav1.ObjectMeta{Namespace: nsB, Name: "staff"},
		Spec: nsakv1alpha1.GroupSpec{
			ManagedResourceSpec: xpv2.ManagedResourceSpec{ProviderConfigReference: nsRef("ClusterProviderConfig", cpc.GetName())},
			AdoptionSpec:        identityv1alpha1.AdoptionSpec{AdoptionPolicy: identityv1alpha1.AdoptExisting},
			ForProvider:         nsakv1alpha1.GroupParameters{Name: "e2e-ns-staff"},
		},
	}
	create(t, twin)
	eventually(t, 30*time.Second, "the ak-team-b Group to report AdoptionRequired", func() bool {
		c := condition(get(t, twin), xpv2.TypeReady)
		return c.Status == corev1.ConditionFalse && c.Reason == "AdoptionRequired"
	})
	if msg := condition(twin, xpv2.TypeReady).Message; !strings.Contains(msg, `Group.authentik.identity.m.crossplane.io "staff" in namespace ak-team-a`) {
		t.Errorf("AdoptionRequired message %q does not name ak-team-a's Group with its namespace", msg)
	}

	// A namespaced User must not name its Secret's namespace (CEL on the namespaced kind).
	peek := u.DeepCopy()
	peek.ObjectMeta = metav1.ObjectMeta{Namespace: nsB, Name: "peek"}
	peek.Spec.ForProvider.PasswordSecretRef.Namespace = nsA
	peek.Spec.ForProvider.GroupRefs = nil
	if err := kube.Create(ctx, peek); err == nil || !strings.Contains(err.Error(), "passwordSecretRef.namespace must not be set") {
		t.Errorf("a namespaced User naming another namespace's Secret: got %v, want it refused at admission", err)
		_ = kube.Delete(ctx, peek)
	}

	for _, mg := range []client.Object{twin, app, p, u, g} {
		if err := kube.Delete(ctx, mg); err != nil {
			t.Fatal(err)
		}
		waitGone(t, mg)
	}
	for kind, id := range map[string]string{akApps: "e2e-ns-wiki", akOAuth2: providerPK, "core/users": userPK, akGroups: groupPK} {
		if authentikAPI.exists(t, kind, id) {
			t.Errorf("authentik %s %s still exists after its resource was deleted", kind, id)
		}
	}
}
