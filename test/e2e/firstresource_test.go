//go:build e2e

package e2e

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	ksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
)

// A kind is set up with its first resource (managedkind.FirstResources), through a list and a
// watch of the real API server: a kind without a resource waits; the first resource created
// while the provider runs is reconciled, and so is one created while no provider ran, found by
// the list of the next provider's start. The provider runs on a control plane of its own, with
// the ProviderConfig CRDs and the Domain CRD only.
func TestKindSetUpWithItsFirstResource(t *testing.T) {
	ctx, check := privateTest(t)
	configCRDs, domainCRD := packageCRDs(t)
	cfg, sch, k := privateControlPlane(ctx, t, append(configCRDs, domainCRD), "e2e-firstresource")

	domainKind := ksv1alpha1.DomainGroupVersionKind.GroupKind().String()
	ready := func(d *ksv1alpha1.Domain) func() bool {
		return func() bool {
			check(k.Get(ctx, keyOf(d), d))
			return d.GetCondition(xpv2.TypeReady).Status == corev1.ConditionTrue
		}
	}

	// The first provider: Domain has no resource, so it waits; its first one is reconciled.
	first := providerOptions("provider-firstresource", 2)
	_, stopFirst := startPrivateProvider(ctx, t, cfg, sch, first)
	// Waiting is set when the CRD gate sets the kind up and cleared only by a resource.
	eventually(t, 30*time.Second, "Domain to wait for its first resource, with none created", func() bool {
		return first.FirstResources.Waiting(domainKind)
	})
	d1 := newDomain("firstres-running", "e2e-firstres-running")
	check(k.Create(ctx, d1))
	eventually(t, 60*time.Second, "the first Domain, created while the provider runs, to be Ready", ready(d1))
	if first.FirstResources.Waiting(domainKind) {
		t.Errorf("Domain still waits for its first resource with one Ready")
	}
	stopFirst()

	// While no provider runs, a second Domain is made; the next provider's list finds it.
	d2 := newDomain("firstres-stopped", "e2e-firstres-stopped")
	check(k.Create(ctx, d2))
	second := providerOptions("provider-firstresource", 2)
	_, stopSecond := startPrivateProvider(ctx, t, cfg, sch, second)
	defer stopSecond()
	eventually(t, 60*time.Second, "the Domain created while no provider ran to be Ready under the next one", ready(d2))
	if second.FirstResources.Waiting(domainKind) {
		t.Errorf("Domain still waits for its first resource under the second provider, with two")
	}

	for _, d := range []*ksv1alpha1.Domain{d1, d2} {
		id := meta.GetExternalName(d)
		check(k.Delete(ctx, d))
		eventually(t, 60*time.Second, "Domain "+d.GetName()+" to be deleted", func() bool {
			return kerrors.IsNotFound(k.Get(ctx, keyOf(d), d))
		})
		if keystone.exists(t, "domains", id) {
			t.Errorf("Keystone domain %s still exists after its resource %s was deleted", id, d.GetName())
		}
	}
}
