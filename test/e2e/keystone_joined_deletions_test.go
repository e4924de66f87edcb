//go:build e2e

package e2e

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"

	ksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
)

// Projects deleted together ask Keystone which role assignments would go with them by one list
// of all assignments, read after all of them asked, not by one read each; a project with an
// assignment made by hand is still kept, and its resource names the assignment by its names.
// The first read is held for a few seconds (a slow Keystone), so that the others come while it
// is under way.
func TestProjectDeletionsCheckTogether(t *testing.T) {
	// Not parallel: it injects a delay.
	const n, hand = 8, 3
	domID := handDomain(t, "e2e-joined-del-dom")
	grp := keystone.post(t, "groups", "group", map[string]any{"name": "g", "domain_id": domID})
	role := handRole(t, map[string]any{"name": "e2e-joined-del-role"})
	projs := make([]*ksv1alpha1.Project, n)
	for i := range projs {
		projs[i] = newProject(fmt.Sprintf("joined-del-%d", i), fmt.Sprintf("p%d", i), inDomain(domID))
	}
	createAll(t, projs...)
	ids := make([]string, n)
	for i, p := range projs {
		waitReady(t, p)
		ids[i] = meta.GetExternalName(p)
	}
	assignByHand(t, "projects", ids[hand], "groups", grp, "roles", role)

	counter.inject(t, fault{Method: http.MethodGet, Prefix: "/v3/role_assignments", Times: 1, Delay: 4 * time.Second})
	start := time.Now()
	for _, p := range projs {
		deleteResource(t, p)
	}
	for i, p := range projs {
		if i != hand {
			waitGone(t, p)
		}
	}
	waitDeletionBlocked(t, projs[hand], adoption.ReasonForeignDependents, "role e2e-joined-del-role to group g on project p3")
	if !keystone.exists(t, "projects", ids[hand]) {
		t.Fatalf("the project with an assignment made by hand was deleted")
	}

	// What the questions cost: one read of its own for the first deletion to ask (held), one
	// list of all assignments for those that asked while it was held, and one read of its own
	// for the project the list showed an assignment on (for the names). A deletion that reached
	// its question late may read alone: room for one more.
	alone, lists := 0, 0
	for _, s := range counter.sentSince(start) {
		if s.Method != http.MethodGet || s.Path != "/v3/role_assignments" {
			continue
		}
		q, _ := url.ParseQuery(s.Query)
		switch p := q.Get("scope.project.id"); {
		case p == ids[hand]:
		case p != "":
			alone++
		case len(q) == 0:
			lists++
		}
	}
	t.Logf("what %d deletions asked about assignments cost: %d reads of their own (the other projects), %d lists of all", n, alone, lists)
	if lists < 1 || alone > 2 {
		t.Errorf("the deletions of %d projects read %d lists of all assignments and %d of their own, want at least one list and at most 2 of their own: the questions were not joined", n, lists, alone)
	}

	keystone.del(t, "projects", ids[hand], "groups", grp, "roles", role)
	waitGone(t, projs[hand])
}
