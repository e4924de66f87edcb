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
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	nsksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
	nsidentityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// namespace creates a namespace for a test (envtest runs no namespace controller, so it is
// left behind; names are the test's own).
func namespace(t *testing.T, name string) {
	t.Helper()
	if err := kube.Create(context.Background(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}); err != nil {
		t.Fatalf("cannot create namespace %s: %v", name, err)
	}
}

// keystoneSpec is the spec of a Keystone ProviderConfig of any kind whose password is in the
// Secret namespace/name; a namespaced ProviderConfig's names no namespace ("": its own).
func keystoneSpec(secretNamespace, secret string) identityv1alpha1.ProviderConfigSpec {
	spec := keystoneProviderConfig("unused", installationID, secret).Spec
	spec.Keystone.Password.PasswordSecretRef.Namespace = secretNamespace
	return spec
}

// releaseNamespacedProviderConfig is releaseProviderConfig for the ProviderConfigUsages of a
// ProviderConfig (in its namespace: resources of other namespaces cannot use it) or a
// ClusterProviderConfig (in every namespace) of identity.m.crossplane.io. Tests running at the
// same time name their ProviderConfigs alike in namespaces of their own ("keystone"): a release
// by name alone took away another test's usages.
func releaseNamespacedProviderConfig(t *testing.T, pc client.Object) {
	kind, opts := "ClusterProviderConfig", []client.ListOption{}
	if ns := pc.GetNamespace(); ns != "" {
		kind, opts = "ProviderConfig", append(opts, client.InNamespace(ns))
	}
	t.Cleanup(func() {
		l := &nsidentityv1alpha1.ProviderConfigUsageList{}
		if err := kube.List(context.Background(), l, opts...); err != nil {
			t.Errorf("cannot list ProviderConfigUsages: %v", err)
			return
		}
		for i := range l.Items {
			if r := l.Items[i].ProviderConfigReference; r.Kind == kind && r.Name == pc.GetName() {
				_ = kube.Delete(context.Background(), &l.Items[i])
			}
		}
	})
}

func nsRef(kind, name string) *xpv2.ProviderConfigReference {
	return &xpv2.ProviderConfigReference{Kind: kind, Name: name}
}

// A namespaced Domain and a Project referencing it by domainRef, using their namespace's
// ProviderConfig whose password Secret is in that namespace, become Ready against Keystone;
// their markers name the namespace; references and Secrets stay within the namespace; and a
// second namespace aiming at the same Keystone domain is refused, naming the first.
func TestNamespacedDomainProject(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	namespace(t, "team-a")
	namespace(t, "team-b")
	create(t, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "keystone-admin"},
		StringData: map[string]string{"password": os.Getenv("KEYSTONE_ADMIN_PASSWORD")}})

	pc := &nsidentityv1alpha1.ProviderConfig{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "keystone"}, Spec: keystoneSpec("", "keystone-admin")}
	create(t, pc)
	releaseNamespacedProviderConfig(t, pc)
	eventually(t, 60*time.Second, "the team-a ProviderConfig to authenticate", func() bool {
		return condition(get(t, pc), identityv1alpha1.ConditionTypeAuthenticated).Status == corev1.ConditionTrue
	})

	d := &nsksv1alpha1.Domain{
		ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "team-domain"},
		Spec: nsksv1alpha1.DomainSpec{
			ManagedResourceSpec: xpv2.ManagedResourceSpec{ProviderConfigReference: nsRef("ProviderConfig", "keystone")},
			ForProvider:         nsksv1alpha1.DomainParameters{Name: "e2e-ns-team-a", Description: ptr("namespaced")},
		},
	}
	p := &nsksv1alpha1.Project{
		ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "team-project"},
		Spec: nsksv1alpha1.ProjectSpec{
			ManagedResourceSpec: xpv2.ManagedResourceSpec{ProviderConfigReference: nsRef("ProviderConfig", "keystone")},
			ForProvider:         nsksv1alpha1.ProjectParameters{Name: "e2e-ns-project", DomainRef: &xpv2.Reference{Name: "team-domain"}},
		},
	}
	// The Domain is deleted after the Project (cleanups run last-in first-out).
	create(t, d)
	create(t, p)
	waitReady(t, d)
	waitReady(t, p)

	domainID, projectID := meta.GetExternalName(d), meta.GetExternalName(p)
	if got := deref(p.Spec.ForProvider.DomainID); got != domainID {
		t.Fatalf("project's domainId: got %q, want the Domain's ID %q", got, domainID)
	}
	if got := field(t, keystone.raw(t, "projects", projectID), "project", "domain_id"); got != domainID {
		t.Fatalf("Keystone project's domain_id: got %v, want %s", got, domainID)
	}
	m, err := provenance.Parse(field(t, keystone.raw(t, "domains", domainID), "domain", "crossplane_provenance").(string))
	if err != nil || m.Installation != installationID || m.Resource != "Domain.keystone.identity.m.crossplane.io/team-a/team-domain" {
		t.Fatalf("domain marker: got %+v, %v; want this installation and Domain.keystone.identity.m.crossplane.io/team-a/team-domain", m, err)
	}
	usages := &nsidentityv1alpha1.ProviderConfigUsageList{}
	if err := kube.List(ctx, usages, client.InNamespace("team-a")); err != nil {
		t.Fatal(err)
	}
	if len(usages.Items) != 2 {
		t.Errorf("ProviderConfigUsages in team-a: got %d, want 2 (Domain and Project)", len(usages.Items))
	}
	for _, u := range usages.Items {
		if u.ProviderConfigReference.Kind != "ProviderConfig" || u.ProviderConfigReference.Name != "keystone" {
			t.Errorf("usage %s names %+v, want ProviderConfig keystone", u.GetName(), u.ProviderConfigReference)
		}
	}
	// The ProviderConfig counts them, in one batched count (config.usageBatch) after they appear.
	eventually(t, 30*time.Second, "the team-a ProviderConfig to count 2 users", func() bool {
		return get(t, pc).Status.Users == 2
	})

	// team-b: a ClusterProviderConfig (Secret by namespace and name) serves it.
	cpc := &nsidentityv1alpha1.ClusterProviderConfig{ObjectMeta: metav1.ObjectMeta{Name: "e2e-ns-cluster"}, Spec: keystoneSpec("crossplane-system", "keystone-admin")}
	create(t, cpc)
	releaseNamespacedProviderConfig(t, cpc)

	// A reference never leaves the namespace: team-b cannot point at team-a's Domain.
	stray := &nsksv1alpha1.Project{
		ObjectMeta: metav1.ObjectMeta{Namespace: "team-b", Name: "team-domain-stray"},
		Spec: nsksv1alpha1.ProjectSpec{
			ManagedResourceSpec: xpv2.ManagedResourceSpec{ProviderConfigReference: nsRef("ClusterProviderConfig", cpc.GetName())},
			ForProvider:         nsksv1alpha1.ProjectParameters{Name: "e2e-ns-stray", DomainRef: &xpv2.Reference{Name: "team-domain"}},
		},
	}
	create(t, stray)
	eventually(t, 30*time.Second, "the team-b Project to fail resolving team-a's Domain", func() bool {
		c := condition(get(t, stray), xpv2.TypeSynced)
		return c.Status == corev1.ConditionFalse && strings.Contains(c.Message, "spec.forProvider.domainId")
	})
	if stray.Spec.ForProvider.DomainID != nil {
		t.Errorf("team-b's Project resolved a domainId from team-a: %q", *stray.Spec.ForProvider.DomainID)
	}

	// Two namespaces aiming at one Keystone domain: the second is refused, naming the first.
	twin := &nsksv1alpha1.Domain{
		ObjectMeta: metav1.ObjectMeta{Namespace: "team-b", Name: "team-domain"},
		Spec: nsksv1alpha1.DomainSpec{
			ManagedResourceSpec: xpv2.ManagedResourceSpec{ProviderConfigReference: nsRef("ClusterProviderConfig", cpc.GetName())},
			AdoptionSpec:        identityv1alpha1.AdoptionSpec{AdoptionPolicy: identityv1alpha1.AdoptExisting},
			ForProvider:         nsksv1alpha1.DomainParameters{Name: "e2e-ns-team-a"},
		},
	}
	create(t, twin)
	eventually(t, 30*time.Second, "the team-b Domain to report AdoptionRequired", func() bool {
		c := condition(get(t, twin), xpv2.TypeReady)
		return c.Status == corev1.ConditionFalse && c.Reason == "AdoptionRequired"
	})
	if msg := condition(twin, xpv2.TypeReady).Message; !strings.Contains(msg, `Domain.keystone.identity.m.crossplane.io "team-domain" in namespace team-a`) {
		t.Errorf("AdoptionRequired message %q does not name team-a's Domain with its namespace", msg)
	}

	// A namespaced ProviderConfig reads Secrets of its own namespace only: the API server
	// refuses one naming a namespace.
	peek := &nsidentityv1alpha1.ProviderConfig{ObjectMeta: metav1.ObjectMeta{Namespace: "team-b", Name: "peek"}, Spec: keystoneSpec("team-a", "keystone-admin")}
	rejected(t, peek, "spec.keystone.password.passwordSecretRef.namespace must not be set: a namespaced ProviderConfig reads its Secrets in its own namespace")

	// Deleting the namespaced resources deletes their Keystone objects (no deletionPolicy:
	// the default management policies include Delete).
	for _, mg := range []client.Object{twin, stray, p, d} {
		if err := kube.Delete(ctx, mg); err != nil {
			t.Fatal(err)
		}
		waitGone(t, mg)
	}
	if keystone.exists(t, "projects", projectID) || keystone.exists(t, "domains", domainID) {
		t.Fatalf("Keystone project %s or domain %s still exists after their resources were deleted", projectID, domainID)
	}
}
