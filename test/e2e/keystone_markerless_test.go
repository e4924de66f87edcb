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

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	ksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// handAssignable makes a role, a project and a user by hand (deleted with the test), named after
// prefix, and returns the spec of the assignment of the one to the other on the third, its path
// in the identity API and its key.
func handAssignable(t *testing.T, prefix string) (ksv1alpha1.RoleAssignmentParameters, []string, string) {
	t.Helper()
	rid := handRole(t, map[string]any{"name": prefix + "-role"})
	pid := keystone.post(t, "projects", "project", map[string]any{"name": prefix + "-project", "domain_id": "default"})
	t.Cleanup(func() { keystone.del(t, "projects", pid) })
	uid := keystone.post(t, "users", "user", map[string]any{"name": prefix + "-user", "domain_id": "default"})
	t.Cleanup(func() { keystone.del(t, "users", uid) })
	fp := ksv1alpha1.RoleAssignmentParameters{RoleID: ptr(rid), UserID: ptr(uid), ProjectID: ptr(pid)}
	return fp, []string{"projects", pid, "users", uid, "roles", rid}, "project/" + pid + "/user/" + uid + "/role/" + rid
}

// handAssign assigns the role of path by hand; deleting the test's user takes it away if nothing
// else does.
func handAssign(t *testing.T, path []string) {
	t.Helper()
	if _, err := keystone.sc.Put(context.Background(), keystone.sc.ServiceURL(path...), nil, nil, &gophercloud.RequestOpts{OkCodes: []int{http.StatusNoContent}}); err != nil {
		t.Fatalf("cannot assign by hand: %v", err)
	}
}

// stays checks cond on every poll for three poll intervals.
func stays(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(3 * pollInterval); time.Now().Before(deadline); time.Sleep(pollInterval / 4) {
		if !cond() {
			t.Fatalf("%s no longer holds", what)
		}
	}
}

// A create whose result was lost: Keystone made the assignment, but the provider stopped before
// recording its external name, leaving only crossplane.io/external-create-pending on the
// resource. The assignment is recovered as the resource's own, stays so on the polls after the
// recovery (its marker annotation was recorded with the external name), and is unassigned with
// the resource.
func TestRoleAssignmentLostCreateRecovered(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	fp, path, key := handAssignable(t, "e2e-ra-lost")
	handAssign(t, path)
	ra := newRoleAssignment("ra-lost-create", fp, func(r *ksv1alpha1.RoleAssignment) {
		meta.SetExternalCreatePending(r, time.Now())
	})
	create(t, ra)
	waitReady(t, ra)
	if got := meta.GetExternalName(ra); got != key {
		t.Fatalf("external name: got %q, want %q", got, key)
	}
	if m := raMarker(t, ra); m.Installation != installationID || m.Resource != "RoleAssignment.keystone.identity.crossplane.io/"+ra.Name || m.Origin != provenance.OriginCreated {
		t.Errorf("marker annotation: got %+v", m)
	}
	if !eventRecorded(t, ra, "RecoveredExternalResource") {
		t.Errorf("no RecoveredExternalResource event")
	}
	stays(t, "Ready, Synced and Owned after the recovery", func() bool {
		get(t, ra)
		return condition(ra, xpv2.TypeReady).Status == corev1.ConditionTrue && condition(ra, xpv2.TypeSynced).Status == corev1.ConditionTrue &&
			ra.Status.AtProvider.Provenance == identityv1alpha1.Owned
	})

	if err := kube.Delete(ctx, ra); err != nil {
		t.Fatal(err)
	}
	waitGone(t, ra)
	if roleAssigned(t, path...) {
		t.Fatalf("the recovered assignment %s survived its resource's deletion", key)
	}
}

// Two resources of this installation for one assignment: the second, even under AdoptExisting,
// is AdoptionRequired naming the first (the assignment's marker is on the first resource, not
// in Keystone), the first stays Ready, and deleting the second leaves the assignment.
func TestRoleAssignmentTwoResourcesOneAssignment(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	fp, path, key := handAssignable(t, "e2e-ra-twin")
	first := newRoleAssignment("ra-twin-first", fp)
	create(t, first)
	waitReady(t, first)
	if got := meta.GetExternalName(first); got != key {
		t.Fatalf("external name of the first: got %q, want %q", got, key)
	}

	second := newRoleAssignment("ra-twin-second", fp, func(r *ksv1alpha1.RoleAssignment) { r.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting })
	create(t, second)
	eventually(t, 30*time.Second, "the second to be AdoptionRequired", func() bool {
		c := condition(get(t, second), xpv2.TypeReady)
		return c.Status == corev1.ConditionFalse && c.Reason == adoption.ReasonAdoptionRequired
	})
	msg := condition(second, xpv2.TypeReady).Message
	for _, want := range []string{key, "RoleAssignment.keystone.identity.crossplane.io/" + first.Name} {
		if !strings.Contains(msg, want) {
			t.Errorf("AdoptionRequired message %q does not name %s", msg, want)
		}
	}
	stays(t, "the first Ready and Owned, the second holding nothing", func() bool {
		get(t, first)
		get(t, second)
		return condition(first, xpv2.TypeReady).Status == corev1.ConditionTrue && first.Status.AtProvider.Provenance == identityv1alpha1.Owned &&
			meta.GetExternalName(second) == "" && second.GetAnnotations()[adoption.AnnotationMarker] == ""
	})

	if err := kube.Delete(ctx, second); err != nil {
		t.Fatal(err)
	}
	waitGone(t, second)
	if !roleAssigned(t, path...) {
		t.Fatalf("deleting the second resource unassigned the first one's assignment")
	}
	waitReady(t, first)
	if err := kube.Delete(ctx, first); err != nil {
		t.Fatal(err)
	}
	waitGone(t, first)
	if roleAssigned(t, path...) {
		t.Fatalf("the first resource's assignment survived its deletion")
	}
}

// An assignment made by hand between the provider's read and its write: the provider's first
// HEAD is answered 404 as if it came just before the hand-made PUT. Keystone's PUT would answer
// 204 all the same, so only the check right before it keeps the resource from claiming the
// assignment: it is AdoptionRequired, and deleting it leaves the assignment. The resource
// records an earlier failed create, so that Observe reads before the create does: a first
// create has no read of its own before that check (adoption.TwinRefuser), which
// TestRoleAssignmentPreExisting covers.
func TestRoleAssignmentMadeDuringCreate(t *testing.T) {
	// Not parallel: it injects a fault.
	ctx := context.Background()
	fp, path, key := handAssignable(t, "e2e-ra-race")
	handAssign(t, path)
	counter.inject(t, fault{Method: http.MethodHead, Prefix: "/v3/" + strings.Join(path, "/"), Status: http.StatusNotFound, Times: 1})
	ra := newRoleAssignment("ra-made-during-create", fp)
	meta.SetExternalCreateFailed(ra, time.Now())
	create(t, ra)
	eventually(t, 30*time.Second, "AdoptionRequired", func() bool {
		c := condition(get(t, ra), xpv2.TypeReady)
		return c.Status == corev1.ConditionFalse && c.Reason == adoption.ReasonAdoptionRequired
	})
	if msg := condition(ra, xpv2.TypeReady).Message; !strings.Contains(msg, key) {
		t.Errorf("AdoptionRequired message %q does not name %s", msg, key)
	}
	if got, s := meta.GetExternalName(ra), ra.GetAnnotations()[adoption.AnnotationMarker]; got != "" || s != "" {
		t.Errorf("the resource claimed the hand-made assignment: external name %q, marker %q", got, s)
	}
	if err := kube.Delete(ctx, ra); err != nil {
		t.Fatal(err)
	}
	waitGone(t, ra)
	if !roleAssigned(t, path...) {
		t.Fatalf("deleting the resource unassigned the hand-made assignment")
	}
}

// A domain configuration made by hand between the provider's read and its write: the
// provider's first GET of it is answered 404. Keystone's PUT would replace it (answering 200),
// so the check right before the PUT refuses it untouched: AdoptionRequired, and deleting the
// resource leaves it.
func TestDomainConfigMadeDuringCreate(t *testing.T) {
	// Not parallel: it injects a fault.
	ctx := context.Background()
	did := keystone.post(t, "domains", "domain", map[string]any{"name": "e2e-dc-race"})
	t.Cleanup(func() { keystone.deleteDomain(t, did) })
	cfgPath := []string{"domains", did, "config"}
	if _, err := keystone.sc.Put(ctx, keystone.sc.ServiceURL(cfgPath...), map[string]any{"config": map[string]any{"ldap": map[string]any{"url": "ldap://by-hand.invalid"}}},
		nil, &gophercloud.RequestOpts{OkCodes: []int{http.StatusCreated}}); err != nil {
		t.Fatalf("cannot configure the domain by hand: %v", err)
	}
	t.Cleanup(func() { keystone.del(t, cfgPath...) })
	before := string(keystone.raw(t, cfgPath...))
	counter.inject(t, fault{Method: http.MethodGet, Prefix: "/v3/" + strings.Join(cfgPath, "/"), Status: http.StatusNotFound, Times: 1})

	secret := bindSecret(t, "e2e-dc-race-bind")
	dc := newDomainConfig("dc-made-during-create", "", secret.Name, func(c *ksv1alpha1.DomainConfig) {
		c.Spec.ForProvider.DomainRef, c.Spec.ForProvider.DomainID = nil, ptr(did)
	})
	create(t, dc)
	eventually(t, 30*time.Second, "AdoptionRequired", func() bool {
		c := condition(get(t, dc), xpv2.TypeReady)
		return c.Status == corev1.ConditionFalse && c.Reason == adoption.ReasonAdoptionRequired
	})
	if got, s := meta.GetExternalName(dc), dc.GetAnnotations()[adoption.AnnotationMarker]; got != "" || s != "" {
		t.Errorf("the resource claimed the hand-made configuration: external name %q, marker %q", got, s)
	}
	if after := string(keystone.raw(t, cfgPath...)); after != before {
		t.Errorf("the hand-made configuration changed:\nbefore %s\nafter  %s", before, after)
	}
	if err := kube.Delete(ctx, dc); err != nil {
		t.Fatal(err)
	}
	waitGone(t, dc)
	if after := string(keystone.raw(t, cfgPath...)); after != before {
		t.Errorf("deleting the resource changed the hand-made configuration:\nbefore %s\nafter  %s", before, after)
	}
}
