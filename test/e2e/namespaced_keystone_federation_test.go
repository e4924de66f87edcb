//go:build e2e

package e2e

import (
	"os"
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	nsksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
	nsidentityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
	"github.com/crossplane-contrib/provider-identity/internal/usage"
)

// teamNamespace creates a namespace with its own Keystone ProviderConfig `keystone`, whose
// password Secret is in the namespace, and waits for it to authenticate.
func teamNamespace(t *testing.T, ns string) {
	t.Helper()
	namespace(t, ns)
	create(t, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "keystone-admin"},
		StringData: map[string]string{"password": os.Getenv("KEYSTONE_ADMIN_PASSWORD")}})
	pc := &nsidentityv1alpha1.ProviderConfig{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "keystone"}, Spec: keystoneSpec("", "keystone-admin")}
	create(t, pc)
	releaseNamespacedProviderConfig(t, pc)
	eventually(t, 60*time.Second, "the "+ns+" ProviderConfig to authenticate", func() bool {
		return condition(get(t, pc), identityv1alpha1.ConditionTypeAuthenticated).Status == corev1.ConditionTrue
	})
}

// teamPC is the spec part of a namespaced resource on its namespace's ProviderConfig keystone.
var teamPC = xpv2.ManagedResourceSpec{ProviderConfigReference: &xpv2.ProviderConfigReference{Kind: "ProviderConfig", Name: "keystone"}}

// A namespaced IdentityProvider, Mapping and Protocol, all by reference inside their namespace
// and applied in reverse dependency order, become Ready on the namespace's ProviderConfig; the
// markers and the Protocol's in-use finalizers name the namespace; deleting all of them at once,
// the used ones first, removes them from Keystone.
func TestNamespacedKeystoneFederation(t *testing.T) {
	t.Parallel()
	const ns, issuer = "fed-a", "https://e2e-ns-fed.example.com/realms/e2e"
	teamNamespace(t, ns)

	dom := &nsksv1alpha1.Domain{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "fed-domain"},
		Spec:       nsksv1alpha1.DomainSpec{ManagedResourceSpec: teamPC, ForProvider: nsksv1alpha1.DomainParameters{Name: "e2e-ns-fed"}},
	}
	idp := &nsksv1alpha1.IdentityProvider{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "fed-idp"},
		Spec: nsksv1alpha1.IdentityProviderSpec{ManagedResourceSpec: teamPC, ForProvider: nsksv1alpha1.IdentityProviderParameters{
			ID: "e2e-ns-fed-idp", DomainRef: &xpv2.Reference{Name: "fed-domain"}, RemoteIDs: []string{issuer}, Description: ptr("namespaced"),
		}},
	}
	mapping := &nsksv1alpha1.Mapping{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "fed-mapping"},
		Spec: nsksv1alpha1.MappingSpec{ManagedResourceSpec: teamPC, ForProvider: nsksv1alpha1.MappingParameters{
			ID: "e2e-ns-fed-mapping", Rules: oidcRules(issuer),
		}},
	}
	proto := &nsksv1alpha1.Protocol{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "openid"},
		Spec: nsksv1alpha1.ProtocolSpec{ManagedResourceSpec: teamPC, ForProvider: nsksv1alpha1.ProtocolParameters{
			ID: "openid", IdentityProviderRef: &xpv2.Reference{Name: "fed-idp"}, MappingRef: &xpv2.Reference{Name: "fed-mapping"},
		}},
	}
	apply(t, proto, mapping, idp, dom)
	cleanup(t, proto, mapping, idp, dom)
	for _, mg := range []resource.Managed{dom, idp, mapping, proto} {
		waitReady(t, mg)
	}

	// References resolved inside the namespace.
	domainID := meta.GetExternalName(dom)
	if got := deref(get(t, idp).Spec.ForProvider.DomainID); got != domainID {
		t.Errorf("IdentityProvider domainId: got %q, want the namespace's Domain %q", got, domainID)
	}
	if got := meta.GetExternalName(proto); got != "e2e-ns-fed-idp/openid" {
		t.Errorf("Protocol external name %q, want e2e-ns-fed-idp/openid", got)
	}

	// Keystone holds them, with markers naming namespace and name.
	desc := jsonOf(t, keystone.raw(t, "OS-FEDERATION", "identity_providers", "e2e-ns-fed-idp"), "identity_provider", "description").(string)
	if _, m, found, err := provenance.ExtractFromText(desc); !found || err != nil || m.Installation != installationID ||
		m.Resource != "IdentityProvider.keystone.identity.m.crossplane.io/fed-a/fed-idp" {
		t.Errorf("identity provider marker: got %+v (found %v, %v), want IdentityProvider.keystone.identity.m.crossplane.io/fed-a/fed-idp", m, found, err)
	}
	if got := jsonOf(t, keystone.raw(t, "OS-FEDERATION", "identity_providers", "e2e-ns-fed-idp"), "identity_provider", "domain_id"); got != domainID {
		t.Errorf("identity provider domain_id: got %v, want %s", got, domainID)
	}
	if got := jsonOf(t, keystone.raw(t, "OS-FEDERATION", "identity_providers", "e2e-ns-fed-idp", "protocols", "openid"), "protocol", "mapping_id"); got != "e2e-ns-fed-mapping" {
		t.Errorf("protocol mapping_id: got %v, want e2e-ns-fed-mapping", got)
	}
	for _, mg := range []client.Object{get(t, mapping), get(t, proto)} {
		m, err := provenance.Parse(mg.GetAnnotations()[adoption.AnnotationMarker])
		want := kindOf(mg) + ".keystone.identity.m.crossplane.io/fed-a/" + mg.GetName()
		if err != nil || m.Installation != installationID || m.Resource != want {
			t.Errorf("%s marker annotation: got %+v, %v; want %s", kindOf(mg), m, err, want)
		}
	}

	// The Protocol holds its IdentityProvider and Mapping, of its own namespace.
	fin := usage.FinalizerName("Protocol", "openid")
	for _, o := range []client.Object{get(t, idp), get(t, mapping)} {
		if !slices.Contains(o.GetFinalizers(), fin) {
			t.Errorf("%s %s/%s finalizers %v lack %s", kindOf(o), ns, o.GetName(), o.GetFinalizers(), fin)
		}
	}

	// Deleted together, the used ones first: all go, and Keystone forgets them.
	deleteAll(t, dom, idp, mapping, proto)
	for _, path := range [][]string{
		{"OS-FEDERATION", "identity_providers", "e2e-ns-fed-idp"},
		{"OS-FEDERATION", "mappings", "e2e-ns-fed-mapping"},
		{"domains", domainID},
	} {
		if keystone.exists(t, path...) {
			t.Errorf("Keystone still has %v after its resource was deleted", path)
		}
	}
}
