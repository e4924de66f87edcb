//go:build e2e

package e2e

import (
	"os"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"

	nsidentityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// The provider's cache keeps neither managedFields nor, for Secrets, kubectl's last-applied
// annotation (controller.CacheOptions), yet its full updates of a resource (finalizer, external
// name) must keep both on the stored object: the API server keeps the stored managedFields when
// an update sends none, and a managed resource's last-applied annotation is cached, so kubectl
// apply still knows which fields it set.
func TestCacheKeepsStoredMetadata(t *testing.T) {
	t.Parallel()
	const applied = `{"apiVersion":"keystone.identity.crossplane.io/v1alpha1","kind":"Domain","metadata":{"name":"cache-meta"}}`
	d := newDomain("cache-meta", "e2e-cache-meta")
	d.SetAnnotations(map[string]string{corev1.LastAppliedConfigAnnotation: applied})
	create(t, d)
	created := d.GetManagedFields()
	if len(created) == 0 {
		t.Fatal("the created Domain has no managedFields: nothing to check")
	}
	waitReady(t, d)

	if meta.GetExternalName(d) == "" || !meta.FinalizerExists(d, managed.FinalizerName) {
		t.Fatalf("the provider did not update the Domain: external name %q, finalizers %v", meta.GetExternalName(d), d.GetFinalizers())
	}
	if got := d.GetAnnotations()[corev1.LastAppliedConfigAnnotation]; got != applied {
		t.Errorf("last-applied-configuration after the provider's updates: -want, +got:\n%s", cmp.Diff(applied, got))
	}
	managers := map[string]bool{}
	for _, e := range d.GetManagedFields() {
		managers[e.Manager] = true
	}
	if !managers[created[0].Manager] {
		t.Errorf("managedFields after the provider's updates: the creator %q's entry is gone; got %v", created[0].Manager, d.GetManagedFields())
	}
}

// The cache leaves Helm's release Secrets out; a ProviderConfig whose password is in a Secret of
// that type (unlikely, but allowed) still reads it, from the API server.
func TestCacheSecretLeftOutStillRead(t *testing.T) {
	t.Parallel()
	namespace(t, "e2e-helm-secret")
	create(t, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "e2e-helm-secret", Name: "keystone-admin"},
		Type: "helm.sh/release.v1", StringData: map[string]string{"password": os.Getenv("KEYSTONE_ADMIN_PASSWORD")}})
	pc := &nsidentityv1alpha1.ProviderConfig{ObjectMeta: metav1.ObjectMeta{Namespace: "e2e-helm-secret", Name: "keystone"},
		Spec: keystoneSpec("", "keystone-admin")}
	create(t, pc)
	releaseNamespacedProviderConfig(t, pc)
	eventually(t, 60*time.Second, "the ProviderConfig with a Helm-typed password Secret to authenticate", func() bool {
		return condition(get(t, pc), identityv1alpha1.ConditionTypeAuthenticated).Status == corev1.ConditionTrue
	})
}
