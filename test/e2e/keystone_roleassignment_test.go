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
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	ksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

func newRoleAssignment(name string, fp ksv1alpha1.RoleAssignmentParameters, mutate ...func(*ksv1alpha1.RoleAssignment)) *ksv1alpha1.RoleAssignment {
	ra := &ksv1alpha1.RoleAssignment{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: ksv1alpha1.RoleAssignmentSpec{
			ClusterManagedResourceSpec: xpv2.ClusterManagedResourceSpec{ProviderConfigReference: &xpv2.Reference{Name: "keystone"}},
			ForProvider:                fp,
		},
	}
	for _, m := range mutate {
		m(ra)
	}
	return ra
}

// roleAssigned reports whether Keystone has the assignment at path (HEAD: 204 yes, 404 no).
func roleAssigned(t *testing.T, path ...string) bool {
	t.Helper()
	_, err := keystone.sc.Head(context.Background(), keystone.sc.ServiceURL(path...), &gophercloud.RequestOpts{OkCodes: []int{http.StatusNoContent}})
	if gophercloud.ResponseCodeIs(err, http.StatusNotFound) {
		return false
	}
	if err != nil {
		t.Fatalf("cannot check assignment %v: %v", path, err)
	}
	return true
}

// raMarker reads the marker a role assignment keeps on its resource.
func raMarker(t *testing.T, ra *ksv1alpha1.RoleAssignment) provenance.Marker {
	t.Helper()
	s := ra.GetAnnotations()[adoption.AnnotationMarker]
	m, err := provenance.Parse(s)
	if err != nil {
		t.Fatalf("annotation %s=%q: %v", adoption.AnnotationMarker, s, err)
	}
	return m
}

// A role given to a user on a project, all three named by reference: the external name is the
// readable key, the assignment lets the user into the project, each poll costs one HEAD, and
// deleting the resource unassigns the role and nothing else.
func TestRoleAssignmentUserOnProject(t *testing.T) {
	// Not parallel: it wants one HEAD per poll, give or take one, and Keystone (one worker)
	// busy with other tests' requests would stretch the polls.
	ctx := context.Background()
	dom := readyDomain(t, "ra-user-domain", "e2e-ra-user")
	pw := randomPassword(t, "ra")
	sec := passwordSecret(t, "ra-user-password", pw)
	role := newRole("ra-user-role", "e2e-ra-user-role")
	project := newProject("ra-user-project", "e2e-ra-user-project", func(p *ksv1alpha1.Project) {
		p.Spec.ForProvider.DomainRef = &xpv2.Reference{Name: dom.Name}
	})
	user := newKeystoneUser("ra-user", "e2e-ra-user", func(u *ksv1alpha1.User) {
		u.Spec.ForProvider.DomainID, u.Spec.ForProvider.DomainRef, u.Spec.ForProvider.PasswordSecretRef = nil, &xpv2.Reference{Name: dom.Name}, passwordKey(sec)
	})
	createAll[client.Object](t, role, project, user)
	waitReady(t, role)
	waitReady(t, project)
	waitReady(t, user)
	waitPasswordSent(t, user, sec)
	rid, pid, uid := meta.GetExternalName(role), meta.GetExternalName(project), meta.GetExternalName(user)
	if got := keystoneUserToken(t, uid, pw, pid); got != http.StatusUnauthorized {
		t.Fatalf("a project-scoped token before the assignment: HTTP %d, want 401", got)
	}

	ra := newRoleAssignment("ra-user-on-project", ksv1alpha1.RoleAssignmentParameters{
		RoleRef: &xpv2.Reference{Name: role.Name}, UserRef: &xpv2.Reference{Name: user.Name}, ProjectRef: &xpv2.Reference{Name: project.Name},
	})
	create(t, ra)
	waitReady(t, ra)

	key := "project/" + pid + "/user/" + uid + "/role/" + rid
	if got := meta.GetExternalName(ra); got != key {
		t.Fatalf("external name: got %q, want %q", got, key)
	}
	want := ksv1alpha1.RoleAssignmentObservation{ID: key, RoleID: rid, UserID: uid, ProjectID: pid, Provenance: identityv1alpha1.Owned}
	if ra.Status.AtProvider != want {
		t.Errorf("status.atProvider: got %+v, want %+v", ra.Status.AtProvider, want)
	}
	if m := raMarker(t, ra); m.Installation != installationID || m.Resource != "RoleAssignment.keystone.identity.crossplane.io/ra-user-on-project" || m.Origin != provenance.OriginCreated {
		t.Errorf("marker annotation: got %+v", m)
	}
	path := []string{"projects", pid, "users", uid, "roles", rid}
	if !roleAssigned(t, path...) {
		t.Fatalf("Keystone has no assignment %s", key)
	}
	if got := keystoneUserToken(t, uid, pw, pid); got != http.StatusCreated {
		t.Errorf("a project-scoped token with the assignment: HTTP %d, want 201", got)
	}

	// One HEAD of the assignment per poll, and nothing else for it.
	time.Sleep(pollInterval)
	before := counter.snapshot()
	window := 5 * pollInterval
	time.Sleep(window)
	after := counter.snapshot()
	d := delta(before, after)
	polls := int(window / pollInterval)
	if got := d["HEAD /v3/projects/"+pid+"/users/"+uid+"/roles/"+rid]; got < polls-1 || got > polls+1 {
		t.Errorf("%d HEADs of the assignment in %s, want about %d (one per poll)", got, window, polls)
	}
	for _, m := range []string{"PUT", "DELETE", "GET"} {
		if n := d[m+" /v3/projects/"+pid+"/users/"+uid+"/roles/"+rid]; n != 0 {
			t.Errorf("%d %s requests for the assignment at steady state", n, m)
		}
	}

	if err := kube.Delete(ctx, ra); err != nil {
		t.Fatal(err)
	}
	waitGone(t, ra)
	if roleAssigned(t, path...) {
		t.Fatalf("assignment %s still exists after its resource was deleted", key)
	}
	for _, obj := range [][]string{{"users", uid}, {"projects", pid}, {"roles", rid}} {
		if !keystone.exists(t, obj...) {
			t.Errorf("deleting the assignment removed %v", obj)
		}
	}
}

// A role given to a group on a domain, directly and inherited by the domain's projects: two
// assignments, two resources, and deleting one leaves the other.
func TestRoleAssignmentGroupOnDomain(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dom := readyDomain(t, "ra-group-domain", "e2e-ra-group")
	role := newRole("ra-group-role", "e2e-ra-group-role")
	create(t, role)
	group := newGroup("ra-group", "e2e-ra-group", func(g *ksv1alpha1.Group) {
		g.Spec.ForProvider.DomainRef = &xpv2.Reference{Name: dom.Name}
	})
	create(t, group)

	fp := ksv1alpha1.RoleAssignmentParameters{
		RoleRef: &xpv2.Reference{Name: role.Name}, GroupRef: &xpv2.Reference{Name: group.Name}, DomainRef: &xpv2.Reference{Name: dom.Name},
	}
	direct := newRoleAssignment("ra-group-on-domain", fp)
	create(t, direct)
	inheritedFP := fp
	inheritedFP.Inherited = ptr(true)
	inherited := newRoleAssignment("ra-group-on-domain-inherited", inheritedFP)
	create(t, inherited)
	waitReady(t, direct)
	waitReady(t, inherited)

	did, gid, rid := meta.GetExternalName(get(t, dom)), meta.GetExternalName(get(t, group)), meta.GetExternalName(get(t, role))
	key := "domain/" + did + "/group/" + gid + "/role/" + rid
	if got := meta.GetExternalName(direct); got != key {
		t.Errorf("external name: got %q, want %q", got, key)
	}
	if got := meta.GetExternalName(inherited); got != key+"/inherited" {
		t.Errorf("external name: got %q, want %q", got, key+"/inherited")
	}
	if !inherited.Status.AtProvider.Inherited || inherited.Status.AtProvider.GroupID != gid || inherited.Status.AtProvider.DomainID != did {
		t.Errorf("status.atProvider of the inherited assignment: %+v", inherited.Status.AtProvider)
	}
	directPath := []string{"domains", did, "groups", gid, "roles", rid}
	inheritedPath := []string{"OS-INHERIT", "domains", did, "groups", gid, "roles", rid, "inherited_to_projects"}
	if !roleAssigned(t, directPath...) || !roleAssigned(t, inheritedPath...) {
		t.Fatalf("Keystone lacks an assignment: direct %v, inherited %v", roleAssigned(t, directPath...), roleAssigned(t, inheritedPath...))
	}

	if err := kube.Delete(ctx, inherited); err != nil {
		t.Fatal(err)
	}
	waitGone(t, inherited)
	if roleAssigned(t, inheritedPath...) {
		t.Errorf("the inherited assignment still exists after its resource was deleted")
	}
	if !roleAssigned(t, directPath...) {
		t.Fatalf("deleting the inherited assignment removed the direct one")
	}
	if err := kube.Delete(ctx, direct); err != nil {
		t.Fatal(err)
	}
	waitGone(t, direct)
	if roleAssigned(t, directPath...) {
		t.Errorf("the direct assignment still exists after its resource was deleted")
	}
}

// An assignment made by hand is AdoptionRequired under FailOnConflict and survives the
// resource's deletion; once it is gone the resource makes (and then owns) its own. Under
// AdoptExisting it is adopted, and then deleted with the resource.
func TestRoleAssignmentPreExisting(t *testing.T) {
	t.Parallel()
	rid := handRole(t, map[string]any{"name": "e2e-ra-hand-role"})
	pid := keystone.post(t, "projects", "project", map[string]any{"name": "e2e-ra-hand-project", "domain_id": "default"})
	t.Cleanup(func() { keystone.del(t, "projects", pid) })
	uid := keystone.post(t, "users", "user", map[string]any{"name": "e2e-ra-hand-user", "domain_id": "default"})
	t.Cleanup(func() { keystone.del(t, "users", uid) })
	path := []string{"projects", pid, "users", uid, "roles", rid}
	if _, err := keystone.sc.Put(t.Context(), keystone.sc.ServiceURL(path...), nil, nil, &gophercloud.RequestOpts{OkCodes: []int{http.StatusNoContent}}); err != nil {
		t.Fatalf("cannot assign by hand: %v", err)
	}
	key := "project/" + pid + "/user/" + uid + "/role/" + rid
	fp := ksv1alpha1.RoleAssignmentParameters{RoleID: ptr(rid), UserID: ptr(uid), ProjectID: ptr(pid)}
	listing := func() string {
		return string(keystone.raw(t, "role_assignments?user.id="+uid))
	}
	before := listing()

	t.Run("FailOnConflict", func(t *testing.T) {
		ra := newRoleAssignment("ra-hand", fp)
		create(t, ra)
		eventually(t, 30*time.Second, "Ready=False with reason AdoptionRequired", func() bool {
			c := condition(get(t, ra), xpv2.TypeReady)
			return c.Status == corev1.ConditionFalse && c.Reason == "AdoptionRequired"
		})
		msg := condition(ra, xpv2.TypeReady).Message
		for _, want := range []string{"Keystone role assignment", key, "spec.adoptionPolicy: AdoptExisting"} {
			if !strings.Contains(msg, want) {
				t.Errorf("AdoptionRequired message %q does not mention %s", msg, want)
			}
		}
		if got := meta.GetExternalName(ra); got != "" {
			t.Errorf("external name bound to an assignment not ours: %q", got)
		}
		if s, ok := ra.GetAnnotations()[adoption.AnnotationMarker]; ok {
			t.Errorf("marker annotation %q on a resource that owns nothing", s)
		}
		time.Sleep(3 * pollInterval)
		if after := listing(); after != before {
			t.Fatalf("the user's assignments changed under FailOnConflict:\nbefore %s\nafter  %s", before, after)
		}

		if err := kube.Delete(t.Context(), ra); err != nil {
			t.Fatal(err)
		}
		waitGone(t, ra)
		if !roleAssigned(t, path...) {
			t.Fatalf("deleting a resource that never owned the assignment unassigned it")
		}
	})

	t.Run("ConflictClearsByItself", func(t *testing.T) {
		ra := newRoleAssignment("ra-hand-cleared", fp)
		create(t, ra)
		eventually(t, 30*time.Second, "AdoptionRequired", func() bool {
			return condition(get(t, ra), xpv2.TypeReady).Reason == "AdoptionRequired"
		})
		keystone.del(t, path...)
		waitReady(t, ra)
		if got := meta.GetExternalName(ra); got != key {
			t.Errorf("external name: got %q, want %q", got, key)
		}
		if p := ra.Status.AtProvider.Provenance; p != identityv1alpha1.Owned {
			t.Errorf("provenance: got %q, want Owned", p)
		}
		if m := raMarker(t, ra); m.Origin != provenance.OriginCreated {
			t.Errorf("marker annotation: got %+v", m)
		}
		if !roleAssigned(t, path...) {
			t.Fatalf("the resource did not assign the role once the hand-made assignment was gone")
		}
		if err := kube.Delete(t.Context(), ra); err != nil {
			t.Fatal(err)
		}
		waitGone(t, ra)
		if roleAssigned(t, path...) {
			t.Fatalf("the owned assignment survived its resource's deletion")
		}
	})

	t.Run("AdoptExisting", func(t *testing.T) {
		if _, err := keystone.sc.Put(t.Context(), keystone.sc.ServiceURL(path...), nil, nil, &gophercloud.RequestOpts{OkCodes: []int{http.StatusNoContent}}); err != nil {
			t.Fatalf("cannot assign by hand: %v", err)
		}
		ra := newRoleAssignment("ra-hand-adopted", fp, func(r *ksv1alpha1.RoleAssignment) { r.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting })
		create(t, ra)
		waitReady(t, ra)
		eventually(t, 30*time.Second, "provenance Adopted", func() bool {
			return get(t, ra).Status.AtProvider.Provenance == identityv1alpha1.Adopted
		})
		if got := meta.GetExternalName(ra); got != key {
			t.Errorf("external name: got %q, want %q", got, key)
		}
		if m := raMarker(t, ra); m.Origin != provenance.OriginAdopted || m.Installation != installationID {
			t.Errorf("marker annotation: got %+v", m)
		}
		if !eventRecorded(t, ra, "AdoptedExternalResource") {
			t.Errorf("no AdoptedExternalResource event")
		}
		if err := kube.Delete(t.Context(), ra); err != nil {
			t.Fatal(err)
		}
		waitGone(t, ra)
		if roleAssigned(t, path...) {
			t.Fatalf("the adopted assignment survived its resource's deletion")
		}
	})
}
