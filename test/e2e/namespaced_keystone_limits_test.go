//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	nsksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
)

// Namespaced RegisteredLimit and Limit: made with the namespace's marker, of a namespaced
// Service and Region and the limit on a namespaced Project, all by reference; updated, and
// deleted (the Limit first: Keystone refuses the registered limit's deletion while it has
// limits); a hand-made registered limit of the same key is AdoptionRequired and left
// byte-identical.
func TestNamespacedLimits(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const ns = "e2e-ns-limits"
	mrs := namespacedKeystone(t, ns)
	om := func(name string) metav1.ObjectMeta { return metav1.ObjectMeta{Namespace: ns, Name: name} }
	service := &nsksv1alpha1.Service{ObjectMeta: om("svc"), Spec: nsksv1alpha1.ServiceSpec{ManagedResourceSpec: mrs,
		ForProvider: nsksv1alpha1.ServiceParameters{Type: "e2e-ns-limits", Name: "e2e-ns-limits"}}}
	region := &nsksv1alpha1.Region{ObjectMeta: om("region"), Spec: nsksv1alpha1.RegionSpec{ManagedResourceSpec: mrs,
		ForProvider: nsksv1alpha1.RegionParameters{ID: "e2e-ns-limits"}}}
	serviceRef, regionRef := &xpv2.Reference{Name: "svc"}, &xpv2.Reference{Name: "region"}
	rl := &nsksv1alpha1.RegisteredLimit{ObjectMeta: om("cores"), Spec: nsksv1alpha1.RegisteredLimitSpec{ManagedResourceSpec: mrs,
		ForProvider: nsksv1alpha1.RegisteredLimitParameters{ServiceRef: serviceRef, RegionRef: regionRef, ResourceName: "cores", DefaultLimit: 10}}}
	p := &nsksv1alpha1.Project{ObjectMeta: om("home"), Spec: nsksv1alpha1.ProjectSpec{
		ManagedResourceSpec: mrs, ForProvider: nsksv1alpha1.ProjectParameters{Name: "e2e-ns-limits-home", DomainID: ptr("default")}}}
	l := &nsksv1alpha1.Limit{ObjectMeta: om("home-cores"), Spec: nsksv1alpha1.LimitSpec{ManagedResourceSpec: mrs,
		ForProvider: nsksv1alpha1.LimitParameters{ProjectRef: &xpv2.Reference{Name: "home"}, ServiceRef: serviceRef, RegionRef: regionRef,
			ResourceName: "cores", ResourceLimit: 30, Description: ptr("home needs more")}}}
	// The registered limit first: it waits for the service and region it references.
	create(t, rl)
	create(t, service)
	create(t, region)
	create(t, p)
	waitReady(t, rl)
	waitReady(t, p)
	create(t, l)
	waitReady(t, l)
	svc := meta.GetExternalName(get(t, service))
	if at := rl.Status.AtProvider; at.ServiceID != svc || at.RegionID != "e2e-ns-limits" {
		t.Errorf("registered limit of service %q in region %q, want the namespace's Service %s and Region e2e-ns-limits", at.ServiceID, at.RegionID, svc)
	}
	rlID, lID := meta.GetExternalName(rl), meta.GetExternalName(l)
	if m := descriptionMarker(t, limitDescription(t, "registered_limits", "registered_limit", rlID)); m.Resource != "RegisteredLimit.keystone.identity.m.crossplane.io/"+ns+"/cores" {
		t.Errorf("registered limit marker: got %+v", m)
	}
	desc := limitDescription(t, "limits", "limit", lID)
	if m := descriptionMarker(t, desc); m.Resource != "Limit.keystone.identity.m.crossplane.io/"+ns+"/home-cores" || !strings.HasPrefix(desc, "home needs more\n") {
		t.Errorf("limit description %q, marker %+v", desc, m)
	}
	if got := l.Status.AtProvider.ProjectID; got != meta.GetExternalName(p) {
		t.Errorf("limit's project %q, want the namespace's Project %s", got, meta.GetExternalName(p))
	}
	update(t, l, func(l *nsksv1alpha1.Limit) { l.Spec.ForProvider.ResourceLimit = 35 })
	eventually(t, 60*time.Second, "resource_limit 35", func() bool { return limitNumber(t, "limits", "limit", "resource_limit", lID) == 35 })

	// A second resource for a hand-made registered limit of another resource name.
	handID := handLimit(t, "registered_limits", map[string]any{"service_id": svc, "resource_name": "ram", "default_limit": 1, "description": "by hand"})
	before := keystone.raw(t, "registered_limits", handID)
	hand := &nsksv1alpha1.RegisteredLimit{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "ram"}, Spec: nsksv1alpha1.RegisteredLimitSpec{
		ManagedResourceSpec: mrs, ForProvider: nsksv1alpha1.RegisteredLimitParameters{ServiceID: ptr(svc), ResourceName: "ram", DefaultLimit: 2}}}
	create(t, hand)
	eventually(t, 30*time.Second, "Ready=False with reason AdoptionRequired", func() bool {
		c := condition(get(t, hand), xpv2.TypeReady)
		return c.Status == corev1.ConditionFalse && c.Reason == adoption.ReasonAdoptionRequired
	})
	time.Sleep(2 * pollInterval)
	if err := kube.Delete(ctx, hand); err != nil {
		t.Fatal(err)
	}
	waitGone(t, hand)
	if after := keystone.raw(t, "registered_limits", handID); !bytes.Equal(before, after) {
		t.Errorf("the hand-made registered limit changed:\nbefore %s\nafter  %s", before, after)
	}

	if err := kube.Delete(ctx, l); err != nil {
		t.Fatal(err)
	}
	waitGone(t, l)
	if err := kube.Delete(ctx, rl); err != nil {
		t.Fatal(err)
	}
	waitGone(t, rl)
	if keystone.exists(t, "limits", lID) || keystone.exists(t, "registered_limits", rlID) {
		t.Errorf("limits survived their resources' deletion")
	}
	for _, mg := range []client.Object{service, region} {
		if err := kube.Delete(ctx, mg); err != nil {
			t.Fatal(err)
		}
		waitGone(t, mg)
	}
}
