//go:build e2e

package e2e

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gophercloud/gophercloud/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	ksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

func newGroupMembership(name string, fp ksv1alpha1.GroupMembershipParameters, mutate ...func(*ksv1alpha1.GroupMembership)) *ksv1alpha1.GroupMembership {
	gm := &ksv1alpha1.GroupMembership{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: ksv1alpha1.GroupMembershipSpec{
			ClusterManagedResourceSpec: xpv2.ClusterManagedResourceSpec{ProviderConfigReference: &xpv2.Reference{Name: "keystone"}},
			ForProvider:                fp,
		},
	}
	for _, m := range mutate {
		m(gm)
	}
	return gm
}

// factByHand makes a membership or an implied-role rule at path as an administrator would
// (Keystone answers 204 or 201), and removes it when the test ends if it is still there.
func factByHand(t *testing.T, path ...string) {
	t.Helper()
	if _, err := keystone.sc.Put(context.Background(), keystone.sc.ServiceURL(path...), nil, nil,
		&gophercloud.RequestOpts{OkCodes: []int{http.StatusCreated, http.StatusNoContent}}); err != nil {
		t.Fatalf("cannot make %v by hand: %v", path, err)
	}
	t.Cleanup(func() { keystone.del(t, path...) })
}

// markerOf reads the marker a markerless kind keeps on its resource.
func markerOf(t *testing.T, mg metav1.Object) provenance.Marker {
	t.Helper()
	s := mg.GetAnnotations()[adoption.AnnotationMarker]
	m, err := provenance.Parse(s)
	if err != nil {
		t.Fatalf("annotation %s=%q: %v", adoption.AnnotationMarker, s, err)
	}
	return m
}

// A user put into a group by reference: the external name is <group ID>/<user ID>, Keystone
// holds the membership, deleting the Group first is refused while the GroupMembership still
// manages the membership (ADR 0004), and deleting the GroupMembership removes the membership
// and nothing else.
func TestGroupMembershipByReference(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	domID := handDomain(t, "e2e-gm-ref")
	group := newGroup("gm-ref-group", "gm-team", groupInDomain(domID))
	user := newKeystoneUser("gm-ref-user", "gm-alice", func(u *ksv1alpha1.User) { u.Spec.ForProvider.DomainID = &domID })
	create(t, group)
	create(t, user)
	waitReady(t, group)
	waitReady(t, user)
	gid, uid := meta.GetExternalName(group), meta.GetExternalName(user)

	gm := newGroupMembership("gm-ref", ksv1alpha1.GroupMembershipParameters{
		GroupRef: &xpv2.Reference{Name: group.Name}, UserRef: &xpv2.Reference{Name: user.Name},
	})
	create(t, gm)
	waitReady(t, gm)
	key := gid + "/" + uid
	if got := meta.GetExternalName(gm); got != key {
		t.Fatalf("external name: got %q, want %q", got, key)
	}
	want := ksv1alpha1.GroupMembershipObservation{ID: key, GroupID: gid, UserID: uid, Provenance: identityv1alpha1.Owned}
	if gm.Status.AtProvider != want {
		t.Errorf("status.atProvider: got %+v, want %+v", gm.Status.AtProvider, want)
	}
	if m := markerOf(t, gm); m.Installation != installationID || m.Resource != "GroupMembership.keystone.identity.crossplane.io/gm-ref" || m.Origin != provenance.OriginCreated {
		t.Errorf("marker annotation: got %+v", m)
	}
	path := []string{"groups", gid, "users", uid}
	if !roleAssigned(t, path...) {
		t.Fatalf("Keystone has no membership %s", key)
	}

	// The group's deletion would take the membership with it: refused, naming the resource that
	// still manages it.
	if err := kube.Delete(ctx, group); err != nil {
		t.Fatal(err)
	}
	waitDeletionBlocked(t, group, adoption.ReasonForeignDependents, "user gm-alice in group gm-team", "still managed by", "gm-ref")
	if !roleAssigned(t, path...) {
		t.Fatalf("the membership went while its group's deletion was refused")
	}

	if err := kube.Delete(ctx, gm); err != nil {
		t.Fatal(err)
	}
	waitGone(t, gm)
	waitGone(t, group)
	if roleAssigned(t, path...) {
		t.Fatalf("membership %s still exists after its resource was deleted", key)
	}
	if !keystone.exists(t, "users", uid) {
		t.Errorf("deleting the membership removed the user")
	}
}

// A membership made by hand is AdoptionRequired under FailOnConflict and survives the
// resource's deletion untouched; observe-only reports it and writes nothing; AdoptExisting
// adopts it, and then removes it with the resource.
func TestGroupMembershipPreExisting(t *testing.T) {
	t.Parallel()
	domID := handDomain(t, "e2e-gm-hand")
	gid := keystone.post(t, "groups", "group", map[string]any{"name": "hand-team", "domain_id": domID})
	uid := keystone.post(t, "users", "user", map[string]any{"name": "hand-bob", "domain_id": domID})
	path := []string{"groups", gid, "users", uid}
	factByHand(t, path...)
	key := gid + "/" + uid
	fp := ksv1alpha1.GroupMembershipParameters{GroupID: ptr(gid), UserID: ptr(uid)}
	listing := func() string { return string(keystone.raw(t, "users", uid, "groups")) }
	before := listing()

	t.Run("FailOnConflict", func(t *testing.T) {
		gm := newGroupMembership("gm-hand", fp)
		create(t, gm)
		eventually(t, 30*time.Second, "Ready=False with reason AdoptionRequired", func() bool {
			c := condition(get(t, gm), xpv2.TypeReady)
			return c.Status == corev1.ConditionFalse && c.Reason == adoption.ReasonAdoptionRequired
		})
		msg := condition(gm, xpv2.TypeReady).Message
		for _, want := range []string{"Keystone group membership", key, "spec.adoptionPolicy: AdoptExisting"} {
			if !strings.Contains(msg, want) {
				t.Errorf("AdoptionRequired message %q does not mention %s", msg, want)
			}
		}
		if got := meta.GetExternalName(gm); got != "" {
			t.Errorf("external name bound to a membership not ours: %q", got)
		}
		if s, ok := gm.GetAnnotations()[adoption.AnnotationMarker]; ok {
			t.Errorf("marker annotation %q on a resource that owns nothing", s)
		}
		time.Sleep(3 * pollInterval)
		if after := listing(); after != before {
			t.Fatalf("the user's groups changed under FailOnConflict:\nbefore %s\nafter  %s", before, after)
		}
		if err := kube.Delete(t.Context(), gm); err != nil {
			t.Fatal(err)
		}
		waitGone(t, gm)
		if !roleAssigned(t, path...) {
			t.Fatalf("deleting a resource that never owned the membership removed it")
		}
	})

	t.Run("ObserveOnly", func(t *testing.T) {
		gm := newGroupMembership("gm-observed", fp, func(g *ksv1alpha1.GroupMembership) {
			g.Spec.ManagementPolicies = xpv2.ManagementPolicies{xpv2.ManagementActionObserve}
		})
		create(t, gm)
		waitReady(t, gm)
		if at := gm.Status.AtProvider; at.Provenance != identityv1alpha1.Observed || at.ID != key {
			t.Errorf("status.atProvider: got %+v", at)
		}
		time.Sleep(2 * pollInterval)
		if err := kube.Delete(t.Context(), gm); err != nil {
			t.Fatal(err)
		}
		waitGone(t, gm)
		if after := listing(); after != before || !roleAssigned(t, path...) {
			t.Fatalf("an observed membership was written or removed:\nbefore %s\nafter  %s", before, after)
		}
	})

	t.Run("AdoptExisting", func(t *testing.T) {
		gm := newGroupMembership("gm-adopted", fp, func(g *ksv1alpha1.GroupMembership) { g.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting })
		create(t, gm)
		waitReady(t, gm)
		eventually(t, 30*time.Second, "provenance Adopted", func() bool {
			return get(t, gm).Status.AtProvider.Provenance == identityv1alpha1.Adopted
		})
		if got := meta.GetExternalName(gm); got != key {
			t.Errorf("external name: got %q, want %q", got, key)
		}
		if m := markerOf(t, gm); m.Origin != provenance.OriginAdopted || m.Installation != installationID {
			t.Errorf("marker annotation: got %+v", m)
		}
		if err := kube.Delete(t.Context(), gm); err != nil {
			t.Fatal(err)
		}
		waitGone(t, gm)
		if roleAssigned(t, path...) {
			t.Fatalf("the adopted membership survived its resource's deletion")
		}
		if !keystone.exists(t, "users", uid) || !keystone.exists(t, "groups", gid) {
			t.Errorf("removing the membership removed its user or group")
		}
	})
}
