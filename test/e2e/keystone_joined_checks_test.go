//go:build e2e

package e2e

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	ksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// RoleAssignments of one role created together check, right before their PUTs, with one list
// of the role's assignments read after all of them asked, not one HEAD each; an assignment
// made by hand is still refused, not claimed, and survives. The first check is held for a few
// seconds (a slow Keystone), so that the others come while it is under way.
func TestRoleAssignmentCreatesCheckTogether(t *testing.T) {
	// Not parallel: it injects a delay.
	const n, hand = 8, 3
	rid := handRole(t, map[string]any{"name": "e2e-joined-role"})
	pid := keystone.post(t, "projects", "project", map[string]any{"name": "e2e-joined-project", "domain_id": "default"})
	t.Cleanup(func() { keystone.del(t, "projects", pid) })
	gids := make([]string, n)
	for i := range gids {
		gids[i] = keystone.post(t, "groups", "group", map[string]any{"name": fmt.Sprintf("e2e-joined-group-%d", i), "domain_id": "default"})
		t.Cleanup(func() { keystone.del(t, "groups", gids[i]) })
	}
	handPath := []string{"projects", pid, "groups", gids[hand], "roles", rid}
	handAssign(t, handPath)

	prefix := "/v3/projects/" + pid + "/groups/"
	counter.inject(t, fault{Method: http.MethodHead, Prefix: prefix, Times: 1, Delay: 4 * time.Second})
	start := time.Now()
	ras := make([]*ksv1alpha1.RoleAssignment, n)
	for i := range ras {
		ras[i] = newRoleAssignment(fmt.Sprintf("ra-joined-%d", i), ksv1alpha1.RoleAssignmentParameters{RoleID: ptr(rid), GroupID: ptr(gids[i]), ProjectID: ptr(pid)})
	}
	createAll(t, ras...)
	for i, ra := range ras {
		if i == hand {
			eventually(t, 60*time.Second, ra.GetName()+" AdoptionRequired", func() bool {
				c := condition(get(t, ra), xpv2.TypeReady)
				return c.Status == corev1.ConditionFalse && c.Reason == "AdoptionRequired"
			})
			continue
		}
		waitReady(t, ra)
		if p := ra.Status.AtProvider.Provenance; p != identityv1alpha1.Owned {
			t.Errorf("%s: provenance %q, want Owned", ra.GetName(), p)
		}
	}
	if got := meta.GetExternalName(ras[hand]); got != "" {
		t.Errorf("%s bound to the assignment made by hand: external name %q", ras[hand].GetName(), got)
	}

	// What the checks cost, until the last of the n-1 PUTs: one HEAD for the first create to
	// check (held), and one list of the role's assignments for the creates that came while it
	// was held; n HEADs if each checked alone. A create that reaches its check late (its first
	// reconcile requeued) may check alone, and the resource of the hand-made assignment looks it
	// up again after its conflict: room for two more.
	heads, lists, puts := 0, 0, 0
	for _, s := range counter.sentSince(start) {
		q, _ := url.ParseQuery(s.Query)
		switch {
		case s.Method == http.MethodPut && strings.HasPrefix(s.Path, prefix):
			puts++
		case s.Method == http.MethodHead && strings.HasPrefix(s.Path, prefix):
			heads++
		case s.Method == http.MethodGet && s.Path == "/v3/role_assignments" && q.Get("role.id") == rid:
			lists++
		}
		if puts == n-1 {
			break
		}
	}
	t.Logf("the checks of %d creates until the last PUT: %d HEADs, %d lists of the role's assignments", n, heads, lists)
	if lists < 1 || heads+lists > 4 {
		t.Errorf("the checks of %d creates cost %d HEADs and %d lists, want at least one list and at most 4 requests: the checks were not joined", n, heads, lists)
	}

	for _, ra := range ras {
		if err := kube.Delete(t.Context(), ra); err != nil {
			t.Fatal(err)
		}
	}
	for _, ra := range ras {
		waitGone(t, ra)
	}
	for i, gid := range gids {
		if got, want := roleAssigned(t, "projects", pid, "groups", gid, "roles", rid), i == hand; got != want {
			t.Errorf("group %d: assigned %v after the resources were deleted, want %v", i, got, want)
		}
	}
}
