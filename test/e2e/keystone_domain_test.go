//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	ksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

func newDomain(name, keystoneName string, mutate ...func(*ksv1alpha1.Domain)) *ksv1alpha1.Domain {
	d := &ksv1alpha1.Domain{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: ksv1alpha1.DomainSpec{
			ClusterManagedResourceSpec: xpv2.ClusterManagedResourceSpec{ProviderConfigReference: &xpv2.Reference{Name: "keystone"}},
			ForProvider:                ksv1alpha1.DomainParameters{Name: keystoneName, Description: ptr("made by " + name)},
		},
	}
	for _, m := range mutate {
		m(d)
	}
	return d
}

func ptr[T any](v T) *T { return &v }

func marker(installation, resource string) string {
	return provenance.Marker{Installation: installation, Resource: resource, Origin: provenance.OriginCreated}.Encode()
}

// A domain the provider creates carries its marker, follows spec changes and is deleted
// (disabled first) with the resource.
func TestDomainLifecycle(t *testing.T) {
	t.Parallel()
	mg := newDomain("lifecycle", "e2e-lifecycle")
	create(t, mg)
	waitReady(t, mg)

	id := meta.GetExternalName(mg)
	raw := keystone.raw(t, "domains", id)
	if got := field(t, raw, "domain", "name"); got != "e2e-lifecycle" {
		t.Fatalf("Keystone domain name: got %v", got)
	}
	m, err := provenance.Parse(field(t, raw, "domain", "crossplane_provenance").(string))
	if err != nil || m.Installation != installationID || m.Resource != "Domain.keystone.identity.crossplane.io/lifecycle" || m.Origin != provenance.OriginCreated {
		t.Fatalf("marker: got %+v, %v", m, err)
	}
	if p := mg.Status.AtProvider.Provenance; p != identityv1alpha1.Owned {
		t.Fatalf("provenance: got %q, want Owned", p)
	}

	update(t, mg, func(d *ksv1alpha1.Domain) { d.Spec.ForProvider.Description = ptr("changed") })
	eventually(t, 30*time.Second, "the description to reach Keystone", func() bool {
		return field(t, keystone.raw(t, "domains", id), "domain", "description") == "changed"
	})

	if err := kube.Delete(context.Background(), mg); err != nil {
		t.Fatal(err)
	}
	waitGone(t, mg)
	if keystone.exists(t, "domains", id) {
		t.Fatalf("domain %s still exists after its resource was deleted with deletionPolicy Delete", id)
	}
}

// Case 3: a same-named domain made by hand is never written under FailOnConflict; the resource
// reports AdoptionRequired, and proceeds by itself once the hand-made domain is gone.
func TestDomainConflictFailOnConflict(t *testing.T) {
	t.Parallel()
	handID := keystone.post(t, "domains", "domain", map[string]any{"name": "e2e-handmade", "description": "tuned by hand"})
	before := keystone.raw(t, "domains", handID)

	mg := newDomain("conflict", "e2e-handmade")
	create(t, mg)
	eventually(t, 30*time.Second, "Ready=False with reason AdoptionRequired", func() bool {
		c := condition(get(t, mg), xpv2.TypeReady)
		return c.Status == corev1.ConditionFalse && c.Reason == "AdoptionRequired"
	})
	msg := condition(mg, xpv2.TypeReady).Message
	for _, want := range []string{"Keystone domain", `"e2e-handmade"`, handID, "spec.adoptionPolicy: AdoptExisting", `spec.managementPolicies: ["Observe"]`} {
		if !strings.Contains(msg, want) {
			t.Errorf("AdoptionRequired message %q does not mention %s", msg, want)
		}
	}
	if meta.GetExternalName(mg) != "" {
		t.Errorf("external name was bound to a foreign object: %q", meta.GetExternalName(mg))
	}
	eventually(t, 30*time.Second, "a Warning event", func() bool { return hasEvent(t, mg, corev1.EventTypeWarning, "CannotObserveExternalResource") })

	// Let several reconciles pass, then compare every byte of the hand-made object.
	time.Sleep(3 * pollInterval)
	if after := keystone.raw(t, "domains", handID); !bytes.Equal(before, after) {
		t.Fatalf("the hand-made domain changed under FailOnConflict:\nbefore %s\nafter  %s", before, after)
	}

	keystone.deleteDomain(t, handID)
	waitReady(t, get(t, mg))
	if id := meta.GetExternalName(mg); id == "" || id == handID {
		t.Fatalf("expected a new domain after the conflict cleared, got external name %q", id)
	}
}

// Case 4: another installation's marker is a conflict even under AdoptExisting.
func TestDomainForeignInstallation(t *testing.T) {
	t.Parallel()
	foreign := marker("other-cluster", "Domain.keystone.identity.crossplane.io/foreign")
	handID := keystone.post(t, "domains", "domain", map[string]any{"name": "e2e-foreign", "crossplane_provenance": foreign})
	t.Cleanup(func() { keystone.deleteDomain(t, handID) })
	before := keystone.raw(t, "domains", handID)

	mg := newDomain("foreign", "e2e-foreign", func(d *ksv1alpha1.Domain) { d.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting })
	create(t, mg)
	eventually(t, 30*time.Second, "AdoptionRequired naming the other installation", func() bool {
		c := condition(get(t, mg), xpv2.TypeReady)
		return c.Reason == "AdoptionRequired" && strings.Contains(c.Message, `"other-cluster"`)
	})
	time.Sleep(2 * pollInterval)
	if after := keystone.raw(t, "domains", handID); !bytes.Equal(before, after) {
		t.Fatalf("a domain of another installation changed:\nbefore %s\nafter  %s", before, after)
	}
}

// Case 5: AdoptExisting stamps the marker, reconciles the fields and records the adoption.
func TestDomainAdoptExisting(t *testing.T) {
	t.Parallel()
	handID := keystone.post(t, "domains", "domain", map[string]any{"name": "e2e-adopt", "description": "old"})
	mg := newDomain("adopt", "e2e-adopt", func(d *ksv1alpha1.Domain) { d.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting })
	create(t, mg)
	waitReady(t, mg)
	eventually(t, 30*time.Second, "provenance Adopted", func() bool {
		return get(t, mg).Status.AtProvider.Provenance == identityv1alpha1.Adopted
	})
	if got := meta.GetExternalName(mg); got != handID {
		t.Fatalf("external name: got %q, want the adopted domain %q", got, handID)
	}
	raw := keystone.raw(t, "domains", handID)
	if got := field(t, raw, "domain", "description"); got != "made by adopt" {
		t.Errorf("description not reconciled to spec: %v", got)
	}
	m, err := provenance.Parse(field(t, raw, "domain", "crossplane_provenance").(string))
	if err != nil || m.Origin != provenance.OriginAdopted || m.Installation != installationID {
		t.Errorf("adoption marker: got %+v, %v", m, err)
	}
	if !eventRecorded(t, mg, "AdoptedExternalResource") {
		t.Errorf("no AdoptedExternalResource event")
	}
}

// Case 1 and 2: a resource deleted with deletionPolicy Orphan and created again recognises its
// own domain by the marker and manages it, under FailOnConflict.
func TestDomainRecreatedResource(t *testing.T) {
	t.Parallel()
	mg := newDomain("recreated", "e2e-recreated", func(d *ksv1alpha1.Domain) { d.Spec.DeletionPolicy = xpv2.DeletionOrphan })
	if err := kube.Create(context.Background(), mg); err != nil {
		t.Fatal(err)
	}
	waitReady(t, mg)
	id := meta.GetExternalName(mg)
	t.Cleanup(func() { keystone.deleteDomain(t, id) })
	if err := kube.Delete(context.Background(), mg); err != nil {
		t.Fatal(err)
	}
	waitGone(t, mg)
	if !keystone.exists(t, "domains", id) {
		t.Fatalf("deletionPolicy Orphan deleted the domain")
	}

	again := newDomain("recreated", "e2e-recreated", func(d *ksv1alpha1.Domain) { d.Spec.ForProvider.Description = ptr("second life") })
	create(t, again)
	waitReady(t, again)
	if got := meta.GetExternalName(again); got != id {
		t.Fatalf("recreated resource bound %q, want its own domain %q", got, id)
	}
	if p := again.Status.AtProvider.Provenance; p != identityv1alpha1.Owned {
		t.Errorf("provenance: got %q, want Owned", p)
	}
	eventually(t, 30*time.Second, "the update to reach Keystone", func() bool {
		return field(t, keystone.raw(t, "domains", id), "domain", "description") == "second life"
	})
}

// managementPolicies [Observe] reads an existing domain, never writes it and never deletes it.
func TestDomainObserveOnly(t *testing.T) {
	t.Parallel()
	handID := keystone.post(t, "domains", "domain", map[string]any{"name": "e2e-observed", "description": "not ours"})
	t.Cleanup(func() { keystone.deleteDomain(t, handID) })
	before := keystone.raw(t, "domains", handID)

	mg := newDomain("observed", "e2e-observed", func(d *ksv1alpha1.Domain) {
		d.Spec.ManagementPolicies = xpv2.ManagementPolicies{xpv2.ManagementActionObserve}
	})
	create(t, mg)
	waitReady(t, mg)
	if p := mg.Status.AtProvider.Provenance; p != identityv1alpha1.Observed {
		t.Fatalf("provenance: got %q, want Observed", p)
	}
	if got := mg.Status.AtProvider.Description; got != "not ours" {
		t.Errorf("atProvider.description: got %q", got)
	}
	time.Sleep(2 * pollInterval)
	if after := keystone.raw(t, "domains", handID); !bytes.Equal(before, after) {
		t.Fatalf("an observed domain was written:\nbefore %s\nafter  %s", before, after)
	}
	if err := kube.Delete(context.Background(), mg); err != nil {
		t.Fatal(err)
	}
	waitGone(t, mg)
	if !keystone.exists(t, "domains", handID) {
		t.Fatal("an observed domain was deleted")
	}
}

// A create whose result was lost (the provider stopped between Keystone's 201 and recording the
// external name) is recovered through the marker: no second domain is made.
func TestDomainLostCreateRecovered(t *testing.T) {
	t.Parallel()
	// What the provider's create left behind: a domain carrying this resource's marker, and the
	// resource with external-create-pending but no external name.
	id := keystone.post(t, "domains", "domain", map[string]any{"name": "e2e-lost", "crossplane_provenance": marker(installationID, "Domain.keystone.identity.crossplane.io/lost")})
	mg := newDomain("lost", "e2e-lost")
	meta.SetExternalCreatePending(mg, time.Now())
	create(t, mg)
	waitReady(t, mg)
	if got := meta.GetExternalName(mg); got != id {
		t.Fatalf("external name: got %q, want the domain the lost create made (%s)", got, id)
	}
	var l struct {
		Domains []map[string]any `json:"domains"`
	}
	if _, err := keystone.sc.Get(context.Background(), keystone.sc.ServiceURL("domains")+"?name=e2e-lost", &l, nil); err != nil {
		t.Fatal(err)
	}
	if len(l.Domains) != 1 {
		t.Fatalf("%d domains named e2e-lost, want 1", len(l.Domains))
	}
}

// At steady state the domains cost fewer reads than one per resource per poll, because they
// share lists of domains, and no writes and no tokens.
func TestDomainSteadyStateRequests(t *testing.T) {
	// Not parallel: it checks every request the provider sends at steady state, other tests' too.
	const n = 5
	mgs := make([]*ksv1alpha1.Domain, n)
	for i := range mgs {
		mgs[i] = newDomain(fmt.Sprintf("steady-%d", i), fmt.Sprintf("e2e-steady-%d", i))
	}
	createAll(t, mgs...)
	ids := make([]string, 0, len(mgs))
	for _, mg := range mgs {
		waitReady(t, mg)
		ids = append(ids, meta.GetExternalName(mg))
	}
	time.Sleep(pollInterval) // let in-flight reconciles of the creates settle
	before := counter.snapshot()
	window := 5 * pollInterval
	time.Sleep(window)
	after := counter.snapshot()
	d := delta(before, after)
	polls := int(window / pollInterval)
	reads := d["GET /v3/domains"] // the shared lists
	delete(d, "GET /v3/domains")
	for _, id := range ids {
		got := d["GET /v3/domains/"+id]
		// At most one read alone per poll; allow one poll of jitter.
		if got > polls+1 {
			t.Errorf("domain %s: %d GETs in %s, want at most about %d (one per poll)", id, got, window, polls)
		}
		reads += got
		delete(d, "GET /v3/domains/"+id)
	}
	if reads >= n*polls {
		t.Errorf("%d reads of %d domains in %d polls, want fewer than one per domain per poll: the domains polling together share lists", reads, n, polls)
	}
	for k, v := range d {
		if strings.HasPrefix(k, "GET /v3/domains/") && !containsID(ids, k) {
			continue // other tests' resources
		}
		if !strings.HasPrefix(k, "GET ") || strings.Contains(k, "auth/tokens") {
			t.Errorf("unexpected requests at steady state: %s x%d", k, v)
		}
	}
}

func containsID(ids []string, k string) bool {
	for _, id := range ids {
		if strings.HasSuffix(k, id) {
			return true
		}
	}
	return false
}
