//go:build e2e

package e2e

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gophercloud/gophercloud/v2"
	corev1 "k8s.io/api/core/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	ksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
)

// Keystone deletes more than the object asked for: a domain takes its projects, users and
// groups, a role its assignments, a user its memberships. These tests make such objects by hand
// inside objects the provider owns and check that deleting the owner's resource deletes
// nothing, says what is in the way, and goes ahead by itself once the way is clear.

// waitDeletionBlocked waits for the DeletionBlocked condition with the given reason and a
// message that names every want.
func waitDeletionBlocked(t *testing.T, mg resource.Managed, reason xpv2.ConditionReason, wants ...string) {
	t.Helper()
	var msg string
	defer func() {
		if t.Failed() {
			t.Logf("last DeletionBlocked message of %s: %q", mg.GetName(), msg)
		}
	}()
	// A deletion that only waits for resources of ours being deleted reports after a minute.
	eventually(t, 90*time.Second, mg.GetName()+" to report DeletionBlocked/"+string(reason)+" naming "+strings.Join(wants, ", "), func() bool {
		c := condition(get(t, mg), adoption.TypeDeletionBlocked)
		msg = c.Message
		if c.Status != corev1.ConditionTrue || c.Reason != reason {
			return false
		}
		for _, w := range wants {
			if !strings.Contains(msg, w) {
				return false
			}
		}
		return true
	})
	if s := condition(mg, xpv2.TypeSynced); s.Status != corev1.ConditionFalse {
		t.Errorf("Synced while the deletion is blocked: %+v", s)
	}
}

// quietWhileWaiting checks, for d after a deletion began, that a resource waiting only for
// resources of ours being deleted has written no DeletionBlocked condition, no failed Synced
// and no Warning event: it is woken when they are gone, as crossplane-runtime waits silently
// for other finalizers.
func quietWhileWaiting(t *testing.T, mg resource.Managed, d time.Duration) {
	t.Helper()
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(500 * time.Millisecond) {
		get(t, mg)
		if mg.GetDeletionTimestamp() == nil {
			t.Fatalf("%s is not being deleted", mg.GetName())
		}
		if c := condition(mg, adoption.TypeDeletionBlocked); c.Status == corev1.ConditionTrue {
			t.Fatalf("%s reported its wait at once: %q", mg.GetName(), c.Message)
		}
		if s := condition(mg, xpv2.TypeSynced); s.Status == corev1.ConditionFalse {
			t.Fatalf("%s wrote a failed Synced while it waits: %q", mg.GetName(), s.Message)
		}
	}
	evs := &corev1.EventList{}
	if err := kube.List(context.Background(), evs); err != nil {
		t.Fatalf("cannot list events: %v", err)
	}
	for _, e := range evs.Items {
		if e.InvolvedObject.UID == mg.GetUID() && e.Type == corev1.EventTypeWarning {
			t.Errorf("%s recorded a warning while it waits: %s: %s", mg.GetName(), e.Reason, e.Message)
		}
	}
}

// assignByHand assigns a role at path (e.g. projects/P/groups/G/roles/R) as an administrator
// would, and removes it when the test ends if it is still there.
func assignByHand(t *testing.T, path ...string) {
	t.Helper()
	if _, err := keystone.sc.Put(context.Background(), keystone.sc.ServiceURL(path...), nil, nil, &gophercloud.RequestOpts{OkCodes: []int{http.StatusNoContent}}); err != nil {
		t.Fatalf("cannot assign %v by hand: %v", path, err)
	}
	t.Cleanup(func() { keystone.del(t, path...) })
}

// deleteResource deletes a resource without waiting.
func deleteResource(t *testing.T, mg resource.Managed) {
	t.Helper()
	if err := kube.Delete(context.Background(), mg); err != nil {
		t.Fatalf("cannot delete %s: %v", mg.GetName(), err)
	}
}

// An owned domain that holds a hand-made project, user and group is not disabled and not
// deleted; its resource names all three and the way out, and deletes the domain once they are
// gone.
func TestDomainDeletionBlockedByHandmadeContents(t *testing.T) {
	t.Parallel()
	dom := readyDomain(t, "casc-dom", "e2e-casc-dom")
	id := meta.GetExternalName(dom)
	proj := keystone.post(t, "projects", "project", map[string]any{"name": "hand-proj", "domain_id": id})
	user := keystone.post(t, "users", "user", map[string]any{"name": "hand-user", "domain_id": id})
	grp := keystone.post(t, "groups", "group", map[string]any{"name": "hand-group", "domain_id": id})

	deleteResource(t, dom)
	waitDeletionBlocked(t, dom, adoption.ReasonForeignDependents,
		`"hand-proj"`, proj, `"hand-user"`, user, `"hand-group"`, grp, "3 objects", "not created or adopted by this installation",
		"spec.deletionPolicy: Orphan")
	eventually(t, 30*time.Second, "a Warning event about the deletion", func() bool {
		return hasEvent(t, dom, corev1.EventTypeWarning, "CannotDeleteExternalResource")
	})
	time.Sleep(2 * pollInterval)
	for _, p := range [][]string{{"projects", proj}, {"users", user}, {"groups", grp}} {
		if !keystone.exists(t, p...) {
			t.Errorf("%v was deleted with a domain whose deletion was blocked", p)
		}
	}
	if enabled := field(t, keystone.raw(t, "domains", id), "domain", "enabled"); enabled != true {
		t.Errorf("the blocked domain was disabled (enabled=%v): Keystone's own safety catch is gone", enabled)
	}

	keystone.del(t, "projects", proj)
	keystone.del(t, "users", user)
	keystone.del(t, "groups", grp)
	waitGone(t, dom)
	if keystone.exists(t, "domains", id) {
		t.Errorf("domain %s still exists after what blocked its deletion was removed", id)
	}
}

// Deleting a whole tree at once (kubectl delete -f on a folder) converges: the domain waits for
// the objects its sibling resources are deleting, each object is deleted by its own resource,
// and the domain goes last.
func TestDomainDeletionWaitsForOwnContents(t *testing.T) {
	t.Parallel()
	dom := readyDomain(t, "casc-tree-dom", "e2e-casc-tree")
	inDom := func(n string) *xpv2.Reference { return &xpv2.Reference{Name: n} }
	proj := newProject("casc-tree-proj", "p", func(p *ksv1alpha1.Project) { p.Spec.ForProvider.DomainRef = inDom(dom.Name) })
	child := newProject("casc-tree-child", "c", func(p *ksv1alpha1.Project) {
		p.Spec.ForProvider.DomainRef = inDom(dom.Name)
		p.Spec.ForProvider.ParentRef = &xpv2.Reference{Name: "casc-tree-proj"}
	})
	grp := newGroup("casc-tree-group", "g", func(g *ksv1alpha1.Group) { g.Spec.ForProvider.DomainRef = inDom(dom.Name) })
	role := newRole("casc-tree-role", "e2e-casc-tree-role")
	ra := newRoleAssignment("casc-tree-ra", ksv1alpha1.RoleAssignmentParameters{
		RoleRef: &xpv2.Reference{Name: role.Name}, GroupRef: &xpv2.Reference{Name: grp.Name}, ProjectRef: &xpv2.Reference{Name: child.Name},
	})
	for _, mg := range []resource.Managed{proj, child, grp, role, ra} {
		create(t, mg)
	}
	for _, mg := range []resource.Managed{proj, child, grp, role, ra} {
		waitReady(t, mg)
	}
	ids := map[string][]string{
		"domain": {"domains", meta.GetExternalName(dom)}, "project": {"projects", meta.GetExternalName(proj)},
		"child": {"projects", meta.GetExternalName(child)}, "group": {"groups", meta.GetExternalName(grp)},
		"role": {"roles", meta.GetExternalName(role)},
	}

	// The owners first, as a folder lists them; each waits for what Keystone would take along.
	for _, mg := range []resource.Managed{dom, role, grp, proj, child, ra} {
		deleteResource(t, mg)
	}
	for _, mg := range []resource.Managed{dom, role, grp, proj, child, ra} {
		eventually(t, 3*time.Minute, mg.GetName()+" to be deleted", func() bool { return !exists(t, mg) })
	}
	for what, p := range ids {
		if keystone.exists(t, p...) {
			t.Errorf("the %s %v outlived its resource", what, p)
		}
	}
}

// A project whose resource keeps it (deletionPolicy Orphan) is not deleted by its domain's
// deletion: the domain's resource says which resource left it behind.
func TestDomainDeletionKeepsOrphanedProject(t *testing.T) {
	t.Parallel()
	dom := readyDomain(t, "casc-orph-dom", "e2e-casc-orph")
	proj := newProject("casc-orph-proj", "kept", func(p *ksv1alpha1.Project) {
		p.Spec.ForProvider.DomainRef = &xpv2.Reference{Name: dom.Name}
		p.Spec.DeletionPolicy = xpv2.DeletionOrphan
	})
	create(t, proj)
	waitReady(t, proj)
	projID := meta.GetExternalName(proj)

	deleteResource(t, proj)
	waitGone(t, proj)
	deleteResource(t, dom)
	waitDeletionBlocked(t, dom, adoption.ReasonForeignDependents, `"kept"`, projID, "Project.keystone.identity.crossplane.io/casc-orph-proj")
	if !keystone.exists(t, "projects", projID) {
		t.Fatalf("the orphaned project %s was deleted with its domain", projID)
	}
	keystone.del(t, "projects", projID)
	waitGone(t, dom)
}

// An owned role with a hand-made assignment, and one with a hand-made implied-role rule, are
// not deleted while those exist.
func TestRoleDeletionBlockedByHandmadeAssignmentAndRule(t *testing.T) {
	t.Parallel()
	domID := handDomain(t, "e2e-casc-role-dom")
	proj := keystone.post(t, "projects", "project", map[string]any{"name": "p", "domain_id": domID})
	grp := keystone.post(t, "groups", "group", map[string]any{"name": "g", "domain_id": domID})
	role := newRole("casc-role", "e2e-casc-role")
	create(t, role)
	waitReady(t, role)
	roleID := meta.GetExternalName(role)
	assignByHand(t, "projects", proj, "groups", grp, "roles", roleID)

	implied := keystone.post(t, "roles", "role", map[string]any{"name": "e2e-casc-implied"})
	t.Cleanup(func() { keystone.del(t, "roles", implied) })
	if _, err := keystone.sc.Put(context.Background(), keystone.sc.ServiceURL("roles", roleID, "implies", implied), nil, nil,
		&gophercloud.RequestOpts{OkCodes: []int{http.StatusCreated}}); err != nil {
		t.Fatalf("cannot add an implied-role rule by hand: %v", err)
	}

	deleteResource(t, role)
	waitDeletionBlocked(t, role, adoption.ReasonForeignDependents, "role e2e-casc-role to group g on project p",
		"project/"+proj+"/group/"+grp+"/role/"+roleID, "e2e-casc-role implies e2e-casc-implied", "2 objects")
	if !roleAssigned(t, "projects", proj, "groups", grp, "roles", roleID) {
		t.Fatalf("the hand-made assignment was removed")
	}
	keystone.del(t, "projects", proj, "groups", grp, "roles", roleID)
	waitDeletionBlocked(t, role, adoption.ReasonForeignDependents, "e2e-casc-role implies e2e-casc-implied", "1 object")
	keystone.del(t, "roles", roleID, "implies", implied)
	waitGone(t, role)
	if keystone.exists(t, "roles", roleID) {
		t.Errorf("role %s still exists", roleID)
	}
}

// An owned group with a hand-made member and a hand-made assignment, and an owned user in a
// hand-made group, keep everything until the way is clear.
func TestGroupAndUserDeletionBlockedByHandmadeLinks(t *testing.T) {
	t.Parallel()
	domID := handDomain(t, "e2e-casc-gu-dom")
	proj := keystone.post(t, "projects", "project", map[string]any{"name": "p", "domain_id": domID})
	member := keystone.post(t, "users", "user", map[string]any{"name": "hand-member", "domain_id": domID})
	handGroup := keystone.post(t, "groups", "group", map[string]any{"name": "hand-team", "domain_id": domID})

	grp := newGroup("casc-grp", "owned-team", func(g *ksv1alpha1.Group) { g.Spec.ForProvider.DomainID = &domID })
	user := newKeystoneUser("casc-user", "owned-user", func(u *ksv1alpha1.User) { u.Spec.ForProvider.DomainID = &domID })
	create(t, grp)
	create(t, user)
	waitReady(t, grp)
	waitReady(t, user)
	grpID, userID := meta.GetExternalName(grp), meta.GetExternalName(user)
	memberRole := keystone.post(t, "roles", "role", map[string]any{"name": "e2e-casc-gu-role"})
	t.Cleanup(func() { keystone.del(t, "roles", memberRole) })

	assignByHand(t, "groups", grpID, "users", member)
	assignByHand(t, "projects", proj, "groups", grpID, "roles", memberRole)
	assignByHand(t, "groups", handGroup, "users", userID)

	deleteResource(t, grp)
	deleteResource(t, user)
	waitDeletionBlocked(t, grp, adoption.ReasonForeignDependents, "user hand-member in group owned-team",
		"role e2e-casc-gu-role to group owned-team on project p")
	waitDeletionBlocked(t, user, adoption.ReasonForeignDependents, "user owned-user in group hand-team")
	if !keystone.exists(t, "groups", grpID) || !keystone.exists(t, "users", userID) {
		t.Fatalf("a blocked group or user was deleted")
	}

	keystone.del(t, "groups", grpID, "users", member)
	keystone.del(t, "projects", proj, "groups", grpID, "roles", memberRole)
	keystone.del(t, "groups", handGroup, "users", userID)
	waitGone(t, grp)
	waitGone(t, user)
	if !keystone.exists(t, "users", member) || !keystone.exists(t, "groups", handGroup) {
		t.Errorf("a hand-made user or group disappeared")
	}
}

// An owned project holding a hand-made assignment is not deleted.
func TestProjectDeletionBlockedByHandmadeAssignment(t *testing.T) {
	t.Parallel()
	domID := handDomain(t, "e2e-casc-pa-dom")
	grp := keystone.post(t, "groups", "group", map[string]any{"name": "g", "domain_id": domID})
	role := keystone.post(t, "roles", "role", map[string]any{"name": "e2e-casc-pa-role"})
	t.Cleanup(func() { keystone.del(t, "roles", role) })
	proj := newProject("casc-pa", "owned-proj", inDomain(domID))
	create(t, proj)
	waitReady(t, proj)
	projID := meta.GetExternalName(proj)
	assignByHand(t, "projects", projID, "groups", grp, "roles", role)

	deleteResource(t, proj)
	waitDeletionBlocked(t, proj, adoption.ReasonForeignDependents, "role e2e-casc-pa-role to group g on project owned-proj")
	if !keystone.exists(t, "projects", projID) {
		t.Fatalf("the blocked project was deleted")
	}
	keystone.del(t, "projects", projID, "groups", grp, "roles", role)
	waitGone(t, proj)
}

// An owned identity provider with a hand-made protocol keeps it.
func TestIdentityProviderDeletionBlockedByHandmadeProtocol(t *testing.T) {
	t.Parallel()
	dom := readyDomain(t, "casc-idp-dom", "e2e-casc-idp")
	idp := newIdentityProvider("casc-idp", "e2e-casc-idp", dom.Name)
	create(t, idp)
	waitReady(t, idp)
	rules := map[string]any{"rules": []any{map[string]any{
		"local":  []any{map[string]any{"user": map[string]any{"name": "{0}"}}},
		"remote": []any{map[string]any{"type": "REMOTE_USER"}},
	}}}
	if _, err := keystone.sc.Put(context.Background(), keystone.sc.ServiceURL("OS-FEDERATION", "mappings", "e2e-casc-idp-map"), map[string]any{"mapping": rules}, nil,
		&gophercloud.RequestOpts{OkCodes: []int{http.StatusCreated}}); err != nil {
		t.Fatalf("cannot create a mapping by hand: %v", err)
	}
	t.Cleanup(func() { keystone.del(t, "OS-FEDERATION", "mappings", "e2e-casc-idp-map") })
	protoPath := []string{"OS-FEDERATION", "identity_providers", "e2e-casc-idp", "protocols", "openid"}
	if _, err := keystone.sc.Put(context.Background(), keystone.sc.ServiceURL(protoPath...),
		map[string]any{"protocol": map[string]any{"mapping_id": "e2e-casc-idp-map"}}, nil, &gophercloud.RequestOpts{OkCodes: []int{http.StatusCreated}}); err != nil {
		t.Fatalf("cannot create a protocol by hand: %v", err)
	}

	deleteResource(t, idp)
	waitDeletionBlocked(t, idp, adoption.ReasonForeignDependents, "Keystone federation protocol", `"openid"`)
	if !keystone.exists(t, protoPath...) {
		t.Fatalf("the hand-made protocol was deleted")
	}
	keystone.del(t, protoPath...)
	waitGone(t, idp)
}

// exists reports whether a resource is still in the API server.
func exists(t *testing.T, mg resource.Managed) bool {
	t.Helper()
	err := kube.Get(context.Background(), keyOf(mg), mg)
	return err == nil
}

// A deletion that waits for sibling resources is reconciled as soon as the last of them is
// gone, not when its backoff comes round: here the domain has been retried for over a minute
// (its backoff is at its one-minute cap) when its project's resource finally goes, and the
// domain's deletion starts within seconds. The domain says nothing for its first minute of
// waiting, then what it waits for.
func TestDomainDeletionWokenWhenItsContentsAreGone(t *testing.T) {
	t.Parallel()
	dom := readyDomain(t, "casc-wake-dom", "e2e-casc-wake")
	proj := newProject("casc-wake-proj", "held", func(p *ksv1alpha1.Project) {
		p.Spec.ForProvider.DomainRef = &xpv2.Reference{Name: dom.Name}
		// Another controller's finalizer holds the resource, and so its project, for a while.
		p.SetFinalizers([]string{"e2e.identity.crossplane.io/hold"})
	})
	create(t, proj)
	waitReady(t, proj)
	began := time.Now()
	domConfig := "GET /v3/domains/" + meta.GetExternalName(dom) + "/config"
	before := counter.snapshot()
	deleteResource(t, proj)
	deleteResource(t, dom)
	quietWhileWaiting(t, dom, 15*time.Second)
	waitDeletionBlocked(t, dom, adoption.ReasonDependentsDeleting, "being deleted by Project.keystone.identity.crossplane.io/casc-wake-proj")
	time.Sleep(75*time.Second - time.Since(began))
	if !exists(t, dom) {
		t.Fatalf("the domain's resource went while its project was held")
	}
	// The Project resource holds the deletion without a request to Keystone: the deletion's
	// first question, whether the domain has a configuration, was never asked.
	if n := delta(before, counter.snapshot())[domConfig]; n != 0 {
		t.Errorf("the held deletion sent %s %d times, want none: the Project resource alone holds it", domConfig, n)
	}

	released := time.Now()
	updateWith(t, proj, func() {
		proj.SetFinalizers(slices.DeleteFunc(proj.GetFinalizers(), func(f string) bool { return f == "e2e.identity.crossplane.io/hold" }))
	})
	// A resource being deleted is queued on every change, this finalizer's removal too
	// (managedkind.managedEvents): the project's resource goes right after.
	eventually(t, 150*time.Second, "the project's resource to go", func() bool { return !exists(t, proj) })
	gone := time.Now()
	// The wake-up is timed by the deletion's first question to Keystone, not by the domain's
	// end: the rest of a deletion (six reads, a PATCH, a DELETE, a last read) takes as long as
	// Keystone does. Timed by its end, the domain once went 24 s after its project's resource in
	// a CI run, the whole parallel suite beside it (the log did not say why).
	// Without the wake-up the deletion would not even start before its next retry, which
	// waitingRetry puts a minute after the one near the 60 s mark: over 40 s after this point.
	eventually(t, 60*time.Second, "the domain's deletion to ask Keystone about its configuration", func() bool {
		return firstSent(domConfig, released) != nil
	})
	// The provider may see the project's resource go, and wake the domain, before this test does.
	if d := firstSent(domConfig, released).At.Sub(gone); d > 20*time.Second {
		t.Errorf("the domain's deletion asked %s %s after its project's resource went, want it woken at once, not at its next retry", domConfig, d.Round(time.Second))
	}
	eventually(t, 120*time.Second, "the domain's resource to go", func() bool { return !exists(t, dom) })
}

// firstSent returns the first request, sent at or after since, whose method and path are
// request ("GET /v3/..."), or nil.
func firstSent(request string, since time.Time) *sentRequest {
	for _, s := range counter.sentSince(since) {
		if s.Method+" "+s.Path == request {
			return &s
		}
	}
	return nil
}
