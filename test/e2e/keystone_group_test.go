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

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	ksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

func newGroup(name, keystoneName string, mutate ...func(*ksv1alpha1.Group)) *ksv1alpha1.Group {
	g := &ksv1alpha1.Group{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: ksv1alpha1.GroupSpec{
			ClusterManagedResourceSpec: xpv2.ClusterManagedResourceSpec{ProviderConfigReference: &xpv2.Reference{Name: "keystone"}},
			ForProvider:                ksv1alpha1.GroupParameters{Name: keystoneName, Description: ptr("made by " + name)},
		},
	}
	for _, m := range mutate {
		m(g)
	}
	return g
}

func groupInDomain(id string) func(*ksv1alpha1.Group) {
	return func(g *ksv1alpha1.Group) { g.Spec.ForProvider.DomainID = &id }
}

// A group in a domain given by reference: created with the marker, updated, deleted.
func TestGroupLifecycle(t *testing.T) {
	t.Parallel()
	dom := readyDomain(t, "grp-life-dom", "e2e-grp-life")
	mg := newGroup("grp-life", "admins", func(g *ksv1alpha1.Group) {
		g.Spec.ForProvider.DomainRef = &xpv2.Reference{Name: dom.Name}
	})
	create(t, mg)
	waitReady(t, mg)
	id := meta.GetExternalName(mg)
	raw := keystone.raw(t, "groups", id)
	if got := field(t, raw, "group", "domain_id"); got != meta.GetExternalName(dom) {
		t.Errorf("group domain_id: got %v, want %s", got, meta.GetExternalName(dom))
	}
	m, err := provenance.Parse(field(t, raw, "group", "crossplane_provenance").(string))
	if err != nil || m.Resource != "Group.keystone.identity.crossplane.io/grp-life" || m.Origin != provenance.OriginCreated {
		t.Fatalf("marker: got %+v, %v", m, err)
	}
	if got := deref(mg.Spec.ForProvider.DomainID); got != meta.GetExternalName(dom) {
		t.Errorf("resolved domainId not written into the spec: %q", got)
	}
	if at := mg.Status.AtProvider; at.ID != id || at.DomainID != meta.GetExternalName(dom) || at.Provenance != identityv1alpha1.Owned {
		t.Errorf("status.atProvider: got %+v", at)
	}

	update(t, mg, func(g *ksv1alpha1.Group) { g.Spec.ForProvider.Description = ptr("changed") })
	eventually(t, 30*time.Second, "the description to reach Keystone", func() bool {
		return field(t, keystone.raw(t, "groups", id), "group", "description") == "changed"
	})
	if err := kube.Delete(context.Background(), mg); err != nil {
		t.Fatal(err)
	}
	waitGone(t, mg)
	if keystone.exists(t, "groups", id) {
		t.Fatalf("group %s still exists after its resource was deleted", id)
	}
}

func TestGroupConflictFailOnConflict(t *testing.T) {
	t.Parallel()
	domID := handDomain(t, "e2e-grp-conflict")
	handID := keystone.post(t, "groups", "group", map[string]any{"name": "handmade", "domain_id": domID, "description": "tuned by hand"})
	before := keystone.raw(t, "groups", handID)

	mg := newGroup("grp-conflict", "handmade", groupInDomain(domID))
	create(t, mg)
	eventually(t, 30*time.Second, "Ready=False with reason AdoptionRequired", func() bool {
		c := condition(get(t, mg), xpv2.TypeReady)
		return c.Status == corev1.ConditionFalse && c.Reason == "AdoptionRequired"
	})
	msg := condition(mg, xpv2.TypeReady).Message
	for _, want := range []string{"Keystone group", `"handmade"`, handID, "spec.adoptionPolicy: AdoptExisting"} {
		if !strings.Contains(msg, want) {
			t.Errorf("AdoptionRequired message %q does not mention %s", msg, want)
		}
	}
	time.Sleep(3 * pollInterval)
	if after := keystone.raw(t, "groups", handID); !bytes.Equal(before, after) {
		t.Fatalf("the hand-made group changed under FailOnConflict:\nbefore %s\nafter  %s", before, after)
	}
	keystone.del(t, "groups", handID)
	waitReady(t, get(t, mg))
	if id := meta.GetExternalName(mg); id == "" || id == handID {
		t.Fatalf("expected a new group after the conflict cleared, got external name %q", id)
	}
}

func TestGroupAdoptExisting(t *testing.T) {
	t.Parallel()
	domID := handDomain(t, "e2e-grp-adopt")
	handID := keystone.post(t, "groups", "group", map[string]any{"name": "adopted", "domain_id": domID, "description": "old"})
	mg := newGroup("grp-adopt", "adopted", groupInDomain(domID), func(g *ksv1alpha1.Group) {
		g.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting
	})
	create(t, mg)
	waitReady(t, mg)
	eventually(t, 30*time.Second, "provenance Adopted", func() bool {
		return get(t, mg).Status.AtProvider.Provenance == identityv1alpha1.Adopted
	})
	if got := meta.GetExternalName(mg); got != handID {
		t.Fatalf("external name: got %q, want %q", got, handID)
	}
	raw := keystone.raw(t, "groups", handID)
	if got := field(t, raw, "group", "description"); got != "made by grp-adopt" {
		t.Errorf("description not reconciled: %v", got)
	}
	m, err := provenance.Parse(field(t, raw, "group", "crossplane_provenance").(string))
	if err != nil || m.Origin != provenance.OriginAdopted {
		t.Errorf("adoption marker: got %+v, %v", m, err)
	}
	if !eventRecorded(t, mg, "AdoptedExternalResource") {
		t.Errorf("no AdoptedExternalResource event")
	}
}

func TestGroupObserveOnly(t *testing.T) {
	t.Parallel()
	domID := handDomain(t, "e2e-grp-observed")
	handID := keystone.post(t, "groups", "group", map[string]any{"name": "observed", "domain_id": domID, "description": "not ours"})
	before := keystone.raw(t, "groups", handID)
	mg := newGroup("grp-observed", "observed", groupInDomain(domID), func(g *ksv1alpha1.Group) {
		g.Spec.ForProvider.Description = ptr("ignored while observing")
		g.Spec.ManagementPolicies = xpv2.ManagementPolicies{xpv2.ManagementActionObserve}
	})
	create(t, mg)
	waitReady(t, mg)
	if at := mg.Status.AtProvider; at.Provenance != identityv1alpha1.Observed || at.ID != handID || at.Description != "not ours" {
		t.Errorf("status.atProvider: got %+v", at)
	}
	time.Sleep(2 * pollInterval)
	if after := keystone.raw(t, "groups", handID); !bytes.Equal(before, after) {
		t.Fatalf("an observed group was written:\nbefore %s\nafter  %s", before, after)
	}
	if err := kube.Delete(context.Background(), mg); err != nil {
		t.Fatal(err)
	}
	waitGone(t, mg)
	if !keystone.exists(t, "groups", handID) {
		t.Fatal("an observed group was deleted")
	}
}
