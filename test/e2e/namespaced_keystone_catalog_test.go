//go:build e2e

package e2e

import (
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	nsksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// A namespaced catalog on its namespace's ProviderConfig, by reference inside the namespace:
// Ready, markers naming the namespace, a spec change applied; a hand-made endpoint of the
// namespace's service blocks the service's deletion and is kept; a hand-made service of the
// same type and name is AdoptionRequired and untouched; deleting all of it removes it from
// Keystone.
func TestNamespacedKeystoneCatalog(t *testing.T) {
	t.Parallel()
	const ns = "team-catalog"
	teamNamespace(t, ns)
	om := func(name string) metav1.ObjectMeta { return metav1.ObjectMeta{Namespace: ns, Name: name} }
	reg := &nsksv1alpha1.Region{ObjectMeta: om("region"), Spec: nsksv1alpha1.RegionSpec{ManagedResourceSpec: teamPC,
		ForProvider: nsksv1alpha1.RegionParameters{ID: "e2e-ns-cat", Description: ptr("team region")}}}
	svc := &nsksv1alpha1.Service{ObjectMeta: om("svc"), Spec: nsksv1alpha1.ServiceSpec{ManagedResourceSpec: teamPC,
		ForProvider: nsksv1alpha1.ServiceParameters{Type: "e2e-ns-cat", Name: "team"}}}
	ep := &nsksv1alpha1.Endpoint{ObjectMeta: om("ep"), Spec: nsksv1alpha1.EndpointSpec{ManagedResourceSpec: teamPC,
		ForProvider: nsksv1alpha1.EndpointParameters{ServiceRef: &xpv2.Reference{Name: "svc"}, RegionRef: &xpv2.Reference{Name: "region"},
			Interface: nsksv1alpha1.InterfacePublic, URL: "https://team.example.com"}}}
	create(t, ep)
	create(t, svc)
	create(t, reg)
	for _, mg := range []resource.Managed{reg, svc, ep} {
		waitReady(t, mg)
	}
	sid, eid := meta.GetExternalName(svc), meta.GetExternalName(ep)
	if got := deref(ep.Spec.ForProvider.ServiceID); got != sid {
		t.Errorf("endpoint's serviceId: got %q, want the Service's ID %q", got, sid)
	}
	for col, want := range map[string]string{
		"regions/e2e-ns-cat": "Region.keystone.identity.m.crossplane.io/" + ns + "/region",
		"services/" + sid:    "Service.keystone.identity.m.crossplane.io/" + ns + "/svc",
		"endpoints/" + eid:   "Endpoint.keystone.identity.m.crossplane.io/" + ns + "/ep",
	} {
		c, id, _ := strings.Cut(col, "/")
		if m := markerIn(t, keystone.raw(t, c, id), strings.TrimSuffix(c, "s")); m.Resource != want || m.Installation != installationID || m.Origin != provenance.OriginCreated {
			t.Errorf("%s marker: got %+v, want %s", col, m, want)
		}
	}
	update(t, ep, func(e *nsksv1alpha1.Endpoint) { e.Spec.ForProvider.Enabled = ptr(false) })
	eventually(t, 30*time.Second, "the endpoint to be disabled in Keystone", func() bool {
		return field(t, keystone.raw(t, "endpoints", eid), "endpoint", "enabled") == false
	})

	// A same-named service made by hand: AdoptionRequired, untouched.
	twin := handService(t, map[string]any{"type": "e2e-ns-cat-hand", "name": "team"})
	before := keystone.raw(t, "services", twin)
	other := &nsksv1alpha1.Service{ObjectMeta: om("svc-hand"), Spec: nsksv1alpha1.ServiceSpec{ManagedResourceSpec: teamPC,
		ForProvider: nsksv1alpha1.ServiceParameters{Type: "e2e-ns-cat-hand", Name: "team", Description: ptr("mine")}}}
	create(t, other)
	catalogAdoptionRequired(t, other, "Keystone service", twin, "spec.adoptionPolicy: AdoptExisting")

	// A hand-made endpoint of the team's service blocks the service's deletion.
	hand := handEndpoint(t, map[string]any{"service_id": sid, "interface": "admin", "url": "https://hand.example.com"})
	handBefore := keystone.raw(t, "endpoints", hand)
	deleteAndWait(t, ep, other)
	if err := kube.Delete(t.Context(), svc); err != nil {
		t.Fatal(err)
	}
	waitDeletionBlocked(t, svc, adoption.ReasonForeignDependents, hand, "not created or adopted by this installation")
	if after := keystone.raw(t, "endpoints", hand); string(after) != string(handBefore) {
		t.Fatalf("the hand-made endpoint changed:\nbefore %s\nafter  %s", handBefore, after)
	}
	if after := keystone.raw(t, "services", twin); string(after) != string(before) {
		t.Fatalf("the hand-made service changed:\nbefore %s\nafter  %s", before, after)
	}
	keystone.del(t, "endpoints", hand)
	waitGone(t, svc)
	deleteAndWait(t, reg)
	for _, p := range [][]string{{"services", sid}, {"endpoints", eid}, {"regions", "e2e-ns-cat"}} {
		if keystone.exists(t, p...) {
			t.Errorf("%v still exists after its resource was deleted", p)
		}
	}
	if !keystone.exists(t, "services", twin) {
		t.Error("the hand-made service was deleted")
	}
}
