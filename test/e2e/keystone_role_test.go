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

func newRole(name, keystoneName string, mutate ...func(*ksv1alpha1.Role)) *ksv1alpha1.Role {
	r := &ksv1alpha1.Role{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: ksv1alpha1.RoleSpec{
			ClusterManagedResourceSpec: xpv2.ClusterManagedResourceSpec{ProviderConfigReference: &xpv2.Reference{Name: "keystone"}},
			ForProvider:                ksv1alpha1.RoleParameters{Name: keystoneName, Description: ptr("made by " + name)},
		},
	}
	for _, m := range mutate {
		m(r)
	}
	return r
}

// handRole makes a role by hand and deletes it when the test ends.
func handRole(t *testing.T, body map[string]any) string {
	t.Helper()
	id := keystone.post(t, "roles", "role", body)
	t.Cleanup(func() { keystone.del(t, "roles", id) })
	return id
}

// A global role: created with the marker, updated, deleted with its resource.
func TestRoleLifecycle(t *testing.T) {
	t.Parallel()
	mg := newRole("role-life", "e2e-role-life")
	create(t, mg)
	waitReady(t, mg)
	id := meta.GetExternalName(mg)
	raw := keystone.raw(t, "roles", id)
	if got := field(t, raw, "role", "domain_id"); got != nil {
		t.Errorf("a role without a domain must be global, got domain_id %v", got)
	}
	m, err := provenance.Parse(field(t, raw, "role", "crossplane_provenance").(string))
	if err != nil || m.Resource != "Role.keystone.identity.crossplane.io/role-life" || m.Origin != provenance.OriginCreated {
		t.Fatalf("marker: got %+v, %v", m, err)
	}
	if at := mg.Status.AtProvider; at.ID != id || at.Name != "e2e-role-life" || at.Provenance != identityv1alpha1.Owned {
		t.Errorf("status.atProvider: got %+v", at)
	}

	update(t, mg, func(r *ksv1alpha1.Role) { r.Spec.ForProvider.Description = ptr("changed") })
	eventually(t, 30*time.Second, "the description to reach Keystone", func() bool {
		return field(t, keystone.raw(t, "roles", id), "role", "description") == "changed"
	})
	if err := kube.Delete(context.Background(), mg); err != nil {
		t.Fatal(err)
	}
	waitGone(t, mg)
	if keystone.exists(t, "roles", id) {
		t.Fatalf("role %s still exists after its resource was deleted", id)
	}
}

// A domain-specific role (domain by reference) is found by name within its domain only: a global
// role of the same name made by hand is neither a conflict nor touched.
func TestRoleDomainSpecific(t *testing.T) {
	t.Parallel()
	globalID := handRole(t, map[string]any{"name": "e2e-role-scoped", "description": "global, by hand"})
	before := keystone.raw(t, "roles", globalID)
	dom := readyDomain(t, "role-scoped-dom", "e2e-role-scoped")

	mg := newRole("role-scoped", "e2e-role-scoped", func(r *ksv1alpha1.Role) {
		r.Spec.ForProvider.DomainRef = &xpv2.Reference{Name: dom.Name}
	})
	create(t, mg)
	waitReady(t, mg)
	id := meta.GetExternalName(mg)
	if id == globalID {
		t.Fatal("the domain-specific role bound the global role of the same name")
	}
	if got := field(t, keystone.raw(t, "roles", id), "role", "domain_id"); got != meta.GetExternalName(dom) {
		t.Errorf("role domain_id: got %v, want %s", got, meta.GetExternalName(dom))
	}
	if got := deref(mg.Spec.ForProvider.DomainID); got != meta.GetExternalName(dom) {
		t.Errorf("resolved domainId not written into the spec: %q", got)
	}
	if after := keystone.raw(t, "roles", globalID); !bytes.Equal(before, after) {
		t.Fatalf("the global role changed:\nbefore %s\nafter  %s", before, after)
	}
}

// A same-named global role made by hand is never written under FailOnConflict.
func TestRoleConflictFailOnConflict(t *testing.T) {
	t.Parallel()
	handID := handRole(t, map[string]any{"name": "e2e-role-handmade", "description": "tuned by hand"})
	before := keystone.raw(t, "roles", handID)

	mg := newRole("role-conflict", "e2e-role-handmade")
	create(t, mg)
	eventually(t, 30*time.Second, "Ready=False with reason AdoptionRequired", func() bool {
		c := condition(get(t, mg), xpv2.TypeReady)
		return c.Status == corev1.ConditionFalse && c.Reason == "AdoptionRequired"
	})
	msg := condition(mg, xpv2.TypeReady).Message
	for _, want := range []string{"Keystone role", `"e2e-role-handmade"`, handID, "spec.adoptionPolicy: AdoptExisting"} {
		if !strings.Contains(msg, want) {
			t.Errorf("AdoptionRequired message %q does not mention %s", msg, want)
		}
	}
	time.Sleep(3 * pollInterval)
	if after := keystone.raw(t, "roles", handID); !bytes.Equal(before, after) {
		t.Fatalf("the hand-made role changed under FailOnConflict:\nbefore %s\nafter  %s", before, after)
	}
	keystone.del(t, "roles", handID)
	waitReady(t, get(t, mg))
	if id := meta.GetExternalName(mg); id == "" || id == handID {
		t.Fatalf("expected a new role after the conflict cleared, got external name %q", id)
	}
}

func TestRoleAdoptExisting(t *testing.T) {
	t.Parallel()
	handID := handRole(t, map[string]any{"name": "e2e-role-adopt", "description": "old"})
	mg := newRole("role-adopt", "e2e-role-adopt", func(r *ksv1alpha1.Role) { r.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting })
	create(t, mg)
	waitReady(t, mg)
	eventually(t, 30*time.Second, "provenance Adopted", func() bool {
		return get(t, mg).Status.AtProvider.Provenance == identityv1alpha1.Adopted
	})
	if got := meta.GetExternalName(mg); got != handID {
		t.Fatalf("external name: got %q, want %q", got, handID)
	}
	raw := keystone.raw(t, "roles", handID)
	if got := field(t, raw, "role", "description"); got != "made by role-adopt" {
		t.Errorf("description not reconciled: %v", got)
	}
	m, err := provenance.Parse(field(t, raw, "role", "crossplane_provenance").(string))
	if err != nil || m.Origin != provenance.OriginAdopted {
		t.Errorf("adoption marker: got %+v, %v", m, err)
	}
	if !eventRecorded(t, mg, "AdoptedExternalResource") {
		t.Errorf("no AdoptedExternalResource event")
	}
}

func TestRoleObserveOnly(t *testing.T) {
	t.Parallel()
	handID := handRole(t, map[string]any{"name": "e2e-role-observed", "description": "not ours"})
	before := keystone.raw(t, "roles", handID)
	mg := newRole("role-observed", "e2e-role-observed", func(r *ksv1alpha1.Role) {
		r.Spec.ManagementPolicies = xpv2.ManagementPolicies{xpv2.ManagementActionObserve}
	})
	create(t, mg)
	waitReady(t, mg)
	if at := mg.Status.AtProvider; at.Provenance != identityv1alpha1.Observed || at.ID != handID || at.Description != "not ours" {
		t.Errorf("status.atProvider: got %+v", at)
	}
	time.Sleep(2 * pollInterval)
	if after := keystone.raw(t, "roles", handID); !bytes.Equal(before, after) {
		t.Fatalf("an observed role was written:\nbefore %s\nafter  %s", before, after)
	}
	if err := kube.Delete(context.Background(), mg); err != nil {
		t.Fatal(err)
	}
	waitGone(t, mg)
	if !keystone.exists(t, "roles", handID) {
		t.Fatal("an observed role was deleted")
	}
}
