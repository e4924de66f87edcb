//go:build e2e

package e2e

import (
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
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

func newImpliedRole(name string, fp ksv1alpha1.ImpliedRoleParameters, mutate ...func(*ksv1alpha1.ImpliedRole)) *ksv1alpha1.ImpliedRole {
	ir := &ksv1alpha1.ImpliedRole{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: ksv1alpha1.ImpliedRoleSpec{
			ClusterManagedResourceSpec: xpv2.ClusterManagedResourceSpec{ProviderConfigReference: &xpv2.Reference{Name: "keystone"}},
			ForProvider:                fp,
		},
	}
	for _, m := range mutate {
		m(ir)
	}
	return ir
}

// A role made to imply another by reference: the external name is <prior>/<implied>, Keystone
// holds the rule, deleting the prior Role first is refused while the ImpliedRole still manages
// the rule (ADR 0004), and deleting the ImpliedRole removes the rule and nothing else.
func TestImpliedRoleByReference(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	prior := newRole("ir-ref-prior", "e2e-ir-ref-prior")
	implied := newRole("ir-ref-implied", "e2e-ir-ref-implied")
	create(t, prior)
	create(t, implied)
	waitReady(t, prior)
	waitReady(t, implied)
	pid, iid := meta.GetExternalName(prior), meta.GetExternalName(implied)

	ir := newImpliedRole("ir-ref", ksv1alpha1.ImpliedRoleParameters{
		PriorRoleRef: &xpv2.Reference{Name: prior.Name}, ImpliedRoleRef: &xpv2.Reference{Name: implied.Name},
	})
	create(t, ir)
	waitReady(t, ir)
	key := pid + "/" + iid
	if got := meta.GetExternalName(ir); got != key {
		t.Fatalf("external name: got %q, want %q", got, key)
	}
	want := ksv1alpha1.ImpliedRoleObservation{ID: key, PriorRoleID: pid, ImpliedRoleID: iid, Provenance: identityv1alpha1.Owned}
	if ir.Status.AtProvider != want {
		t.Errorf("status.atProvider: got %+v, want %+v", ir.Status.AtProvider, want)
	}
	if m := markerOf(t, ir); m.Installation != installationID || m.Resource != "ImpliedRole.keystone.identity.crossplane.io/ir-ref" || m.Origin != provenance.OriginCreated {
		t.Errorf("marker annotation: got %+v", m)
	}
	path := []string{"roles", pid, "implies", iid}
	if !roleAssigned(t, path...) {
		t.Fatalf("Keystone has no rule %s", key)
	}

	if err := kube.Delete(ctx, prior); err != nil {
		t.Fatal(err)
	}
	waitDeletionBlocked(t, prior, adoption.ReasonForeignDependents, "e2e-ir-ref-prior implies e2e-ir-ref-implied", "still managed by", "ir-ref")

	if err := kube.Delete(ctx, ir); err != nil {
		t.Fatal(err)
	}
	waitGone(t, ir)
	waitGone(t, prior)
	if !keystone.exists(t, "roles", iid) {
		t.Errorf("deleting the rule removed the implied role")
	}
}

// A rule made by hand is AdoptionRequired under FailOnConflict and survives the resource's
// deletion untouched; observe-only reports it and writes nothing; AdoptExisting adopts it, and
// then removes it with the resource.
func TestImpliedRolePreExisting(t *testing.T) {
	t.Parallel()
	pid := handRole(t, map[string]any{"name": "e2e-ir-hand-prior"})
	iid := handRole(t, map[string]any{"name": "e2e-ir-hand-implied"})
	path := []string{"roles", pid, "implies", iid}
	factByHand(t, path...)
	key := pid + "/" + iid
	fp := ksv1alpha1.ImpliedRoleParameters{PriorRoleID: ptr(pid), ImpliedRoleID: ptr(iid)}
	listing := func() string { return string(keystone.raw(t, "roles", pid, "implies")) }
	before := listing()

	t.Run("FailOnConflict", func(t *testing.T) {
		ir := newImpliedRole("ir-hand", fp)
		create(t, ir)
		eventually(t, 30*time.Second, "Ready=False with reason AdoptionRequired", func() bool {
			c := condition(get(t, ir), xpv2.TypeReady)
			return c.Status == corev1.ConditionFalse && c.Reason == adoption.ReasonAdoptionRequired
		})
		msg := condition(ir, xpv2.TypeReady).Message
		for _, want := range []string{"Keystone implied-role rule", key, "spec.adoptionPolicy: AdoptExisting"} {
			if !strings.Contains(msg, want) {
				t.Errorf("AdoptionRequired message %q does not mention %s", msg, want)
			}
		}
		if got := meta.GetExternalName(ir); got != "" {
			t.Errorf("external name bound to a rule not ours: %q", got)
		}
		time.Sleep(3 * pollInterval)
		if after := listing(); after != before {
			t.Fatalf("the role's rules changed under FailOnConflict:\nbefore %s\nafter  %s", before, after)
		}
		if err := kube.Delete(t.Context(), ir); err != nil {
			t.Fatal(err)
		}
		waitGone(t, ir)
		if !roleAssigned(t, path...) {
			t.Fatalf("deleting a resource that never owned the rule removed it")
		}
	})

	t.Run("ObserveOnly", func(t *testing.T) {
		ir := newImpliedRole("ir-observed", fp, func(r *ksv1alpha1.ImpliedRole) {
			r.Spec.ManagementPolicies = xpv2.ManagementPolicies{xpv2.ManagementActionObserve}
		})
		create(t, ir)
		waitReady(t, ir)
		if at := ir.Status.AtProvider; at.Provenance != identityv1alpha1.Observed || at.ID != key {
			t.Errorf("status.atProvider: got %+v", at)
		}
		time.Sleep(2 * pollInterval)
		if err := kube.Delete(t.Context(), ir); err != nil {
			t.Fatal(err)
		}
		waitGone(t, ir)
		if after := listing(); after != before || !roleAssigned(t, path...) {
			t.Fatalf("an observed rule was written or removed:\nbefore %s\nafter  %s", before, after)
		}
	})

	t.Run("AdoptExisting", func(t *testing.T) {
		ir := newImpliedRole("ir-adopted", fp, func(r *ksv1alpha1.ImpliedRole) { r.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting })
		create(t, ir)
		waitReady(t, ir)
		eventually(t, 30*time.Second, "provenance Adopted", func() bool {
			return get(t, ir).Status.AtProvider.Provenance == identityv1alpha1.Adopted
		})
		if m := markerOf(t, ir); m.Origin != provenance.OriginAdopted || m.Installation != installationID {
			t.Errorf("marker annotation: got %+v", m)
		}
		if err := kube.Delete(t.Context(), ir); err != nil {
			t.Fatal(err)
		}
		waitGone(t, ir)
		if roleAssigned(t, path...) {
			t.Fatalf("the adopted rule survived its resource's deletion")
		}
		if !keystone.exists(t, "roles", pid) || !keystone.exists(t, "roles", iid) {
			t.Errorf("removing the rule removed a role")
		}
	})
}
