//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	ksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

var clusterPC = xpv2.ClusterManagedResourceSpec{ProviderConfigReference: &xpv2.Reference{Name: "keystone"}}

func newRegion(name string, fp ksv1alpha1.RegionParameters, mutate ...func(*ksv1alpha1.Region)) *ksv1alpha1.Region {
	r := &ksv1alpha1.Region{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: ksv1alpha1.RegionSpec{ClusterManagedResourceSpec: clusterPC, ForProvider: fp}}
	for _, m := range mutate {
		m(r)
	}
	return r
}

func newService(name string, fp ksv1alpha1.ServiceParameters, mutate ...func(*ksv1alpha1.Service)) *ksv1alpha1.Service {
	s := &ksv1alpha1.Service{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: ksv1alpha1.ServiceSpec{ClusterManagedResourceSpec: clusterPC, ForProvider: fp}}
	for _, m := range mutate {
		m(s)
	}
	return s
}

func newEndpoint(name string, fp ksv1alpha1.EndpointParameters, mutate ...func(*ksv1alpha1.Endpoint)) *ksv1alpha1.Endpoint {
	e := &ksv1alpha1.Endpoint{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: ksv1alpha1.EndpointSpec{ClusterManagedResourceSpec: clusterPC, ForProvider: fp}}
	for _, m := range mutate {
		m(e)
	}
	return e
}

// handRegion makes a region by hand (Keystone lets the caller choose its ID) and removes it
// when the test ends, if it is still there.
func handRegion(t *testing.T, body map[string]any) string {
	t.Helper()
	id := keystone.post(t, "regions", "region", body)
	t.Cleanup(func() { keystone.del(t, "regions", id) })
	return id
}

// handService makes a service by hand and removes it (with its endpoints) when the test ends.
func handService(t *testing.T, body map[string]any) string {
	t.Helper()
	id := keystone.post(t, "services", "service", body)
	t.Cleanup(func() { keystone.del(t, "services", id) })
	return id
}

// handEndpoint makes an endpoint by hand and removes it when the test ends.
func handEndpoint(t *testing.T, body map[string]any) string {
	t.Helper()
	id := keystone.post(t, "endpoints", "endpoint", body)
	t.Cleanup(func() { keystone.del(t, "endpoints", id) })
	return id
}

func markerIn(t *testing.T, raw json.RawMessage, singular string) provenance.Marker {
	t.Helper()
	s, _ := field(t, raw, singular, "crossplane_provenance").(string)
	m, err := provenance.Parse(s)
	if err != nil {
		t.Fatalf("%s marker %q: %v", singular, s, err)
	}
	return m
}

func catalogAdoptionRequired(t *testing.T, mg resource.Managed, wants ...string) {
	t.Helper()
	eventually(t, 30*time.Second, mg.GetName()+" to be Ready=False with reason AdoptionRequired", func() bool {
		c := condition(get(t, mg), xpv2.TypeReady)
		return c.Status == corev1.ConditionFalse && c.Reason == adoption.ReasonAdoptionRequired
	})
	msg := condition(mg, xpv2.TypeReady).Message
	for _, w := range wants {
		if !strings.Contains(msg, w) {
			t.Errorf("AdoptionRequired message %q does not mention %s", msg, w)
		}
	}
	if got := meta.GetExternalName(mg); got != "" {
		t.Errorf("%s bound to an object not ours: external name %q", mg.GetName(), got)
	}
}

func deleteAndWait(t *testing.T, objs ...client.Object) {
	t.Helper()
	for _, o := range objs {
		if err := kube.Delete(context.Background(), o); err != nil {
			t.Fatal(err)
		}
	}
	for _, o := range objs {
		waitGone(t, o)
	}
}

// endpointsOf lists a service's endpoints as Keystone has them.
func endpointsOf(t *testing.T, serviceID string) []map[string]any {
	t.Helper()
	var l struct {
		Endpoints []map[string]any `json:"endpoints"`
	}
	if _, err := keystone.sc.Get(context.Background(), keystone.sc.ServiceURL("endpoints")+"?service_id="+url.QueryEscape(serviceID), &l, nil); err != nil {
		t.Fatal(err)
	}
	return l.Endpoints
}

// A catalog by reference: a region inside a parent region, a service, and an endpoint of that
// service in that region, each carrying its marker; spec changes reach Keystone; deleting the
// service or the parent region first is refused while the endpoint's and the child's resources
// still manage them (Keystone would delete the endpoint with the service, and the child with
// its parent), and deleting everything converges.
func TestCatalogLifecycle(t *testing.T) {
	t.Parallel()
	parent := newRegion("cat-life-parent", ksv1alpha1.RegionParameters{ID: "e2e-cat-life-parent", Description: ptr("parent")})
	child := newRegion("cat-life-child", ksv1alpha1.RegionParameters{ID: "e2e-cat-life-child", ParentRegionRef: &xpv2.Reference{Name: parent.Name}})
	svc := newService("cat-life-svc", ksv1alpha1.ServiceParameters{Type: "e2e-cat-life", Name: "life", Description: ptr("first")})
	ep := newEndpoint("cat-life-ep", ksv1alpha1.EndpointParameters{
		ServiceRef: &xpv2.Reference{Name: svc.Name}, RegionRef: &xpv2.Reference{Name: child.Name},
		Interface: "public", URL: "https://life.example.com/v1",
	})
	// Applied in reverse order: the references wait for what they name.
	create(t, ep)
	create(t, child)
	create(t, svc)
	create(t, parent)
	for _, mg := range []resource.Managed{parent, child, svc, ep} {
		waitReady(t, mg)
	}
	if got := meta.GetExternalName(parent); got != "e2e-cat-life-parent" {
		t.Fatalf("region external name: got %q, want its ID", got)
	}
	if got := field(t, keystone.raw(t, "regions", "e2e-cat-life-child"), "region", "parent_region_id"); got != "e2e-cat-life-parent" {
		t.Errorf("child region's parent_region_id: got %v", got)
	}
	sid, eid := meta.GetExternalName(svc), meta.GetExternalName(ep)
	raw := keystone.raw(t, "endpoints", eid)
	for k, want := range map[string]any{"service_id": sid, "region_id": "e2e-cat-life-child", "interface": "public", "url": "https://life.example.com/v1", "enabled": true} {
		if got := field(t, raw, "endpoint", k); got != want {
			t.Errorf("endpoint %s: got %v, want %v", k, got, want)
		}
	}
	for path, want := range map[string]string{
		"regions/e2e-cat-life-parent": "Region.keystone.identity.crossplane.io/cat-life-parent",
		"services/" + sid:             "Service.keystone.identity.crossplane.io/cat-life-svc",
		"endpoints/" + eid:            "Endpoint.keystone.identity.crossplane.io/cat-life-ep",
	} {
		col, id, _ := strings.Cut(path, "/")
		if m := markerIn(t, keystone.raw(t, col, id), strings.TrimSuffix(col, "s")); m.Resource != want || m.Installation != installationID || m.Origin != provenance.OriginCreated {
			t.Errorf("%s marker: got %+v, want %s", path, m, want)
		}
	}
	if at := ep.Status.AtProvider; at.ID != eid || at.ServiceID != sid || at.RegionID != "e2e-cat-life-child" || at.Provenance != identityv1alpha1.Owned {
		t.Errorf("endpoint status.atProvider: got %+v", at)
	}

	update(t, svc, func(s *ksv1alpha1.Service) {
		s.Spec.ForProvider.Description = ptr("second")
		s.Spec.ForProvider.Enabled = ptr(false)
	})
	update(t, ep, func(e *ksv1alpha1.Endpoint) { e.Spec.ForProvider.URL = "https://life.example.com/v2" })
	update(t, parent, func(r *ksv1alpha1.Region) { r.Spec.ForProvider.Description = ptr("parent, changed") })
	eventually(t, 30*time.Second, "the spec changes to reach Keystone", func() bool {
		s := keystone.raw(t, "services", sid)
		return field(t, s, "service", "description") == "second" && field(t, s, "service", "enabled") == false &&
			field(t, keystone.raw(t, "endpoints", eid), "endpoint", "url") == "https://life.example.com/v2" &&
			field(t, keystone.raw(t, "regions", "e2e-cat-life-parent"), "region", "description") == "parent, changed"
	})

	// Keystone deletes a service's endpoints with it, and a region's children with it.
	if err := kube.Delete(context.Background(), svc); err != nil {
		t.Fatal(err)
	}
	waitDeletionBlocked(t, svc, adoption.ReasonForeignDependents, "Keystone endpoint", "public https://life.example.com/v2", "still managed by", "cat-life-ep")
	if err := kube.Delete(context.Background(), parent); err != nil {
		t.Fatal(err)
	}
	waitDeletionBlocked(t, parent, adoption.ReasonForeignDependents, "Keystone region", "e2e-cat-life-child", "still managed by", "cat-life-child")
	if !keystone.exists(t, "endpoints", eid) || !keystone.exists(t, "regions", "e2e-cat-life-child") {
		t.Fatal("a blocked deletion took the endpoint or the child region")
	}
	deleteAndWait(t, ep, child)
	waitGone(t, svc)
	waitGone(t, parent)
	for _, p := range [][]string{{"services", sid}, {"endpoints", eid}, {"regions", "e2e-cat-life-child"}, {"regions", "e2e-cat-life-parent"}} {
		if keystone.exists(t, p...) {
			t.Errorf("%v still exists after its resource was deleted", p)
		}
	}
}

// Deleting a whole catalog at once: the service waits for its endpoint's resource and the
// region for its child's, each object deleted by its own resource.
func TestCatalogDeletedAtOnce(t *testing.T) {
	t.Parallel()
	parent := newRegion("cat-once-parent", ksv1alpha1.RegionParameters{ID: "e2e-cat-once-parent"})
	child := newRegion("cat-once-child", ksv1alpha1.RegionParameters{ID: "e2e-cat-once-child", ParentRegionRef: &xpv2.Reference{Name: parent.Name}})
	svc := newService("cat-once-svc", ksv1alpha1.ServiceParameters{Type: "e2e-cat-once", Name: "once"})
	ep := newEndpoint("cat-once-ep", ksv1alpha1.EndpointParameters{
		ServiceRef: &xpv2.Reference{Name: svc.Name}, RegionRef: &xpv2.Reference{Name: child.Name},
		Interface: "internal", URL: "http://once.internal:8080",
	})
	for _, mg := range []resource.Managed{parent, child, svc, ep} {
		create(t, mg)
	}
	for _, mg := range []resource.Managed{parent, child, svc, ep} {
		waitReady(t, mg)
	}
	sid, eid := meta.GetExternalName(svc), meta.GetExternalName(ep)
	deleteAndWait(t, parent, svc, child, ep)
	for _, p := range [][]string{{"services", sid}, {"endpoints", eid}, {"regions", "e2e-cat-once-child"}, {"regions", "e2e-cat-once-parent"}} {
		if keystone.exists(t, p...) {
			t.Errorf("%v still exists after its resource was deleted", p)
		}
	}
}

// What a delete of ours would take that is not ours: a hand-made endpoint of our service, a
// hand-made child region of our region. Neither is deleted; the deletions go ahead once the
// hand-made objects are gone.
func TestCatalogDeleteKeepsHandMadeDependents(t *testing.T) {
	t.Parallel()
	svc := newService("cat-keep-svc", ksv1alpha1.ServiceParameters{Type: "e2e-cat-keep", Name: "keep"})
	reg := newRegion("cat-keep-region", ksv1alpha1.RegionParameters{ID: "e2e-cat-keep"})
	create(t, svc)
	create(t, reg)
	waitReady(t, svc)
	waitReady(t, reg)
	sid := meta.GetExternalName(svc)
	handEP := handEndpoint(t, map[string]any{"service_id": sid, "interface": "admin", "url": "https://hand.example.com"})
	handChild := handRegion(t, map[string]any{"id": "e2e-cat-keep-hand", "parent_region_id": "e2e-cat-keep"})
	epBefore := keystone.raw(t, "endpoints", handEP)
	childBefore := keystone.raw(t, "regions", handChild)

	if err := kube.Delete(context.Background(), svc); err != nil {
		t.Fatal(err)
	}
	if err := kube.Delete(context.Background(), reg); err != nil {
		t.Fatal(err)
	}
	waitDeletionBlocked(t, svc, adoption.ReasonForeignDependents, handEP, "not created or adopted by this installation")
	waitDeletionBlocked(t, reg, adoption.ReasonForeignDependents, "e2e-cat-keep-hand", "not created or adopted by this installation")
	time.Sleep(2 * pollInterval)
	if after := keystone.raw(t, "endpoints", handEP); !bytes.Equal(epBefore, after) {
		t.Fatalf("the hand-made endpoint changed:\nbefore %s\nafter  %s", epBefore, after)
	}
	if after := keystone.raw(t, "regions", handChild); !bytes.Equal(childBefore, after) {
		t.Fatalf("the hand-made child region changed:\nbefore %s\nafter  %s", childBefore, after)
	}
	if !keystone.exists(t, "services", sid) || !keystone.exists(t, "regions", "e2e-cat-keep") {
		t.Fatal("a blocked deletion deleted its object")
	}
	keystone.del(t, "endpoints", handEP)
	keystone.del(t, "regions", handChild)
	waitGone(t, svc)
	waitGone(t, reg)
	if keystone.exists(t, "services", sid) || keystone.exists(t, "regions", "e2e-cat-keep") {
		t.Error("the service or the region survived once nothing was in the way")
	}
}

// Hand-made catalog objects under the resources' keys: AdoptionRequired and byte-identical
// under FailOnConflict (also after the resources are deleted), read and never written when
// observed, adopted under AdoptExisting.
func TestCatalogPreExisting(t *testing.T) {
	t.Parallel()
	rid := handRegion(t, map[string]any{"id": "e2e-cat-pre", "description": "by hand"})
	sid := handService(t, map[string]any{"type": "e2e-cat-pre", "name": "pre", "description": "by hand"})
	eid := handEndpoint(t, map[string]any{"service_id": sid, "interface": "public", "url": "https://pre.example.com", "region_id": rid})
	regionFP := ksv1alpha1.RegionParameters{ID: rid, Description: ptr("from the spec")}
	serviceFP := ksv1alpha1.ServiceParameters{Type: "e2e-cat-pre", Name: "pre", Description: ptr("from the spec")}
	endpointFP := ksv1alpha1.EndpointParameters{ServiceID: ptr(sid), RegionID: ptr(rid), Interface: "public", URL: "https://pre.example.com/spec"}
	snapshot := func() [3]json.RawMessage {
		return [3]json.RawMessage{keystone.raw(t, "regions", rid), keystone.raw(t, "services", sid), keystone.raw(t, "endpoints", eid)}
	}
	unchanged := func(t *testing.T, before [3]json.RawMessage) {
		t.Helper()
		for i, after := range snapshot() {
			if !bytes.Equal(before[i], after) {
				t.Fatalf("a hand-made object changed:\nbefore %s\nafter  %s", before[i], after)
			}
		}
	}

	t.Run("FailOnConflict", func(t *testing.T) {
		before := snapshot()
		r := newRegion("cat-pre-region", regionFP)
		s := newService("cat-pre-svc", serviceFP)
		e := newEndpoint("cat-pre-ep", endpointFP)
		create(t, r)
		create(t, s)
		create(t, e)
		catalogAdoptionRequired(t, r, "Keystone region", rid, "spec.adoptionPolicy: AdoptExisting")
		catalogAdoptionRequired(t, s, "Keystone service", "pre (type e2e-cat-pre)", sid, "spec.adoptionPolicy: AdoptExisting")
		catalogAdoptionRequired(t, e, "Keystone endpoint", eid, "spec.adoptionPolicy: AdoptExisting")
		time.Sleep(2 * pollInterval)
		unchanged(t, before)
		deleteAndWait(t, e, s, r)
		unchanged(t, before)
	})

	t.Run("ObserveOnly", func(t *testing.T) {
		before := snapshot()
		observe := xpv2.ManagementPolicies{xpv2.ManagementActionObserve}
		r := newRegion("cat-obs-region", regionFP, func(r *ksv1alpha1.Region) { r.Spec.ManagementPolicies = observe })
		s := newService("cat-obs-svc", serviceFP, func(s *ksv1alpha1.Service) { s.Spec.ManagementPolicies = observe })
		e := newEndpoint("cat-obs-ep", endpointFP, func(e *ksv1alpha1.Endpoint) { e.Spec.ManagementPolicies = observe })
		create(t, r)
		create(t, s)
		create(t, e)
		waitReady(t, r)
		waitReady(t, s)
		waitReady(t, e)
		if at := s.Status.AtProvider; at.ID != sid || at.Description != "by hand" || at.Provenance != identityv1alpha1.Observed {
			t.Errorf("service status.atProvider: got %+v", at)
		}
		if at := e.Status.AtProvider; at.ID != eid || at.URL != "https://pre.example.com" || at.Provenance != identityv1alpha1.Observed {
			t.Errorf("endpoint status.atProvider: got %+v", at)
		}
		if at := r.Status.AtProvider; at.ID != rid || at.Description != "by hand" || at.Provenance != identityv1alpha1.Observed {
			t.Errorf("region status.atProvider: got %+v", at)
		}
		time.Sleep(2 * pollInterval)
		deleteAndWait(t, e, s, r)
		unchanged(t, before)
	})

	t.Run("AdoptExisting", func(t *testing.T) {
		adopt := identityv1alpha1.AdoptionSpec{AdoptionPolicy: identityv1alpha1.AdoptExisting}
		r := newRegion("cat-adopt-region", regionFP, func(r *ksv1alpha1.Region) { r.Spec.AdoptionSpec = adopt })
		s := newService("cat-adopt-svc", serviceFP, func(s *ksv1alpha1.Service) { s.Spec.AdoptionSpec = adopt })
		e := newEndpoint("cat-adopt-ep", endpointFP, func(e *ksv1alpha1.Endpoint) { e.Spec.AdoptionSpec = adopt })
		create(t, r)
		create(t, s)
		create(t, e)
		for _, mg := range []resource.Managed{r, s, e} {
			waitReady(t, mg)
		}
		eventually(t, 30*time.Second, "the three to be adopted and reconciled", func() bool {
			return field(t, keystone.raw(t, "regions", rid), "region", "description") == "from the spec" &&
				field(t, keystone.raw(t, "services", sid), "service", "description") == "from the spec" &&
				field(t, keystone.raw(t, "endpoints", eid), "endpoint", "url") == "https://pre.example.com/spec"
		})
		for col, id := range map[string]string{"regions": rid, "services": sid, "endpoints": eid} {
			if m := markerIn(t, keystone.raw(t, col, id), strings.TrimSuffix(col, "s")); m.Origin != provenance.OriginAdopted || m.Installation != installationID {
				t.Errorf("%s %s adoption marker: got %+v", col, id, m)
			}
		}
		if got := []string{meta.GetExternalName(r), meta.GetExternalName(s), meta.GetExternalName(e)}; got[0] != rid || got[1] != sid || got[2] != eid {
			t.Errorf("external names: got %v, want [%s %s %s]", got, rid, sid, eid)
		}
		deleteAndWait(t, e, s, r)
		for col, id := range map[string]string{"regions": rid, "services": sid, "endpoints": eid} {
			if keystone.exists(t, col, id) {
				t.Errorf("adopted %s %s survived its resource's deletion", col, id)
			}
		}
	})
}

// A create whose result was lost (the provider stopped between Keystone's 201 and recording the
// external name) is recovered through the marker: no second service or endpoint is made, since
// Keystone would not refuse one.
func TestCatalogLostCreateRecovered(t *testing.T) {
	t.Parallel()
	sid := handService(t, map[string]any{"type": "e2e-cat-lost", "name": "lost",
		"crossplane_provenance": marker(installationID, "Service.keystone.identity.crossplane.io/cat-lost-svc")})
	eid := handEndpoint(t, map[string]any{"service_id": sid, "interface": "internal", "url": "http://lost",
		"crossplane_provenance": marker(installationID, "Endpoint.keystone.identity.crossplane.io/cat-lost-ep")})
	s := newService("cat-lost-svc", ksv1alpha1.ServiceParameters{Type: "e2e-cat-lost", Name: "lost"})
	e := newEndpoint("cat-lost-ep", ksv1alpha1.EndpointParameters{ServiceID: ptr(sid), Interface: "internal", URL: "http://lost"})
	meta.SetExternalCreatePending(s, time.Now())
	meta.SetExternalCreatePending(e, time.Now())
	create(t, s)
	create(t, e)
	waitReady(t, s)
	waitReady(t, e)
	if got := meta.GetExternalName(s); got != sid {
		t.Errorf("service external name: got %q, want the service the lost create made (%s)", got, sid)
	}
	if got := meta.GetExternalName(e); got != eid {
		t.Errorf("endpoint external name: got %q, want the endpoint the lost create made (%s)", got, eid)
	}
	for _, mg := range []client.Object{s, e} {
		if !eventRecorded(t, mg, "RecoveredExternalResource") {
			t.Errorf("no RecoveredExternalResource event on %s", mg.GetName())
		}
	}
	var l struct {
		Services []map[string]any `json:"services"`
	}
	if _, err := keystone.sc.Get(context.Background(), keystone.sc.ServiceURL("services")+"?type=e2e-cat-lost", &l, nil); err != nil {
		t.Fatal(err)
	}
	if len(l.Services) != 1 {
		t.Errorf("%d services of type e2e-cat-lost, want 1", len(l.Services))
	}
	if n := len(endpointsOf(t, sid)); n != 1 {
		t.Errorf("%d endpoints of the service, want 1", n)
	}
}

// Two services of one type and name (Keystone allows it) are ambiguous: nothing is written and
// the resource says which external name to set; with it, the resource manages that one.
func TestServiceTwinsAreAmbiguous(t *testing.T) {
	t.Parallel()
	first := handService(t, map[string]any{"type": "e2e-cat-twin", "name": "twin"})
	second := handService(t, map[string]any{"type": "e2e-cat-twin", "name": "twin"})
	before := [2]json.RawMessage{keystone.raw(t, "services", first), keystone.raw(t, "services", second)}
	s := newService("cat-twin-svc", ksv1alpha1.ServiceParameters{Type: "e2e-cat-twin", Name: "twin", Description: ptr("mine")},
		func(s *ksv1alpha1.Service) { s.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting })
	create(t, s)
	eventually(t, 30*time.Second, "Synced=False naming the ambiguity", func() bool {
		c := condition(get(t, s), xpv2.TypeSynced)
		return c.Status == corev1.ConditionFalse && strings.Contains(c.Message, "2 objects of type Keystone service match") &&
			strings.Contains(c.Message, "crossplane.io/external-name")
	})
	time.Sleep(2 * pollInterval)
	if a, b := keystone.raw(t, "services", first), keystone.raw(t, "services", second); !bytes.Equal(before[0], a) || !bytes.Equal(before[1], b) {
		t.Fatalf("an ambiguous service was written:\n%s\n%s", a, b)
	}
	updateWith(t, s, func() { meta.SetExternalName(s, second) })
	waitReady(t, get(t, s))
	eventually(t, 30*time.Second, "the named twin to be adopted", func() bool {
		return field(t, keystone.raw(t, "services", second), "service", "description") == "mine"
	})
	if a := keystone.raw(t, "services", first); !bytes.Equal(before[0], a) {
		t.Fatalf("the other twin was written: %s", a)
	}
}

// A project associated by hand with our endpoint (the endpoint filter): Keystone would drop the
// association with the endpoint, so the deletion waits, and goes ahead once it is removed.
func TestEndpointDeleteKeepsHandMadeAssociation(t *testing.T) {
	t.Parallel()
	svc := newService("cat-assoc-svc", ksv1alpha1.ServiceParameters{Type: "e2e-cat-assoc", Name: "assoc"})
	ep := newEndpoint("cat-assoc-ep", ksv1alpha1.EndpointParameters{ServiceRef: &xpv2.Reference{Name: svc.Name}, Interface: "public", URL: "https://assoc.example.com"})
	create(t, svc)
	create(t, ep)
	waitReady(t, svc)
	waitReady(t, ep)
	eid := meta.GetExternalName(ep)
	domID := handDomain(t, "e2e-cat-assoc")
	pid := keystone.post(t, "projects", "project", map[string]any{"name": "assoc", "domain_id": domID})
	t.Cleanup(func() { keystone.del(t, "projects", pid) })
	factByHand(t, "OS-EP-FILTER", "projects", pid, "endpoints", eid)

	if err := kube.Delete(context.Background(), ep); err != nil {
		t.Fatal(err)
	}
	waitDeletionBlocked(t, ep, adoption.ReasonForeignDependents, "Keystone endpoint-project association", "for project assoc", "not created or adopted by this installation")
	if !keystone.exists(t, "endpoints", eid) || !roleAssigned(t, "OS-EP-FILTER", "projects", pid, "endpoints", eid) {
		t.Fatal("a blocked deletion removed the endpoint or its association")
	}
	keystone.del(t, "OS-EP-FILTER", "projects", pid, "endpoints", eid)
	waitGone(t, ep)
	if keystone.exists(t, "endpoints", eid) {
		t.Error("the endpoint survived once nothing was in the way")
	}
}

// A region whose create's result was lost is recognised by its marker under its ID.
func TestRegionLostCreateRecovered(t *testing.T) {
	t.Parallel()
	rid := handRegion(t, map[string]any{"id": "e2e-cat-lost", "crossplane_provenance": marker(installationID, "Region.keystone.identity.crossplane.io/cat-lost-region")})
	r := newRegion("cat-lost-region", ksv1alpha1.RegionParameters{ID: rid, Description: ptr("recovered")})
	meta.SetExternalCreatePending(r, time.Now())
	create(t, r)
	waitReady(t, r)
	if got := meta.GetExternalName(r); got != rid {
		t.Fatalf("external name: got %q, want %s", got, rid)
	}
	if !eventRecorded(t, r, "RecoveredExternalResource") {
		t.Error("no RecoveredExternalResource event")
	}
	eventually(t, 30*time.Second, "the recovered region to be reconciled", func() bool {
		return field(t, keystone.raw(t, "regions", rid), "region", "description") == "recovered"
	})
}
