//go:build e2e

package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"

	ksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
)

// Projects of one domain polling together read one shared list of the domain's projects, not
// one project each: at steady state they cost well under one request per project per poll and
// no writes, and a change made by hand to any of them is still noticed and reverted within a
// poll interval plus the list's freshness.
func TestSharedListsNoticeDrift(t *testing.T) {
	// Not parallel: it counts the provider's reads of projects, other tests' too.
	domainID := handDomain(t, "e2e-shared-reads")
	const n = 12
	projects := make([]*ksv1alpha1.Project, n)
	for i := range projects {
		projects[i] = newProject(fmt.Sprintf("shared-reads-%d", i), fmt.Sprintf("e2e-shared-reads-%d", i), inDomain(domainID))
	}
	createAll(t, projects...)
	for _, p := range projects {
		waitReady(t, p)
	}

	time.Sleep(pollInterval) // let in-flight reconciles of the creates settle
	before := counter.snapshot()
	const polls = 4
	time.Sleep(polls * pollInterval)
	d := delta(before, counter.snapshot())
	lists, single := d["GET /v3/projects"], 0
	for _, p := range projects {
		single += d["GET /v3/projects/"+meta.GetExternalName(p)]
	}
	for k, v := range d {
		if strings.Contains(k, "/v3/projects") && !strings.HasPrefix(k, "GET ") {
			t.Errorf("write at steady state: %s x%d", k, v)
		}
	}
	perPoll := float64(lists+single) / float64(n*polls)
	t.Logf("steady state over %d polls of %d projects: %d lists, %d single reads: %.2f requests per project per poll", polls, n, lists, single, perPoll)
	if lists == 0 {
		t.Errorf("no list of the domain's projects in %d polls of %d projects (%d single reads): the reads are not shared", polls, n, single)
	}
	if perPoll > 0.5 {
		t.Errorf("%.2f requests per project per poll (%d lists, %d single reads), want at most 0.5: the reads are not shared", perPoll, lists, single)
	}

	// A change by hand to a random project is seen through the shared list and reverted.
	victim := projects[int(time.Now().UnixNano()%int64(n))] // any one will do
	id := meta.GetExternalName(victim)
	want := *victim.Spec.ForProvider.Description
	keystone.patch(t, "projects", "project", id, map[string]any{"description": "changed by hand"})
	changed := time.Now()
	eventually(t, 30*time.Second, "the hand-made change to "+victim.GetName()+" reverted", func() bool {
		return jsonOf(t, keystone.raw(t, "projects", id), "project", "description") == want
	})
	took := time.Since(changed)
	t.Logf("the change to %s was reverted after %s", victim.GetName(), took.Round(time.Millisecond))
	// A poll interval plus the list's freshness, and room for a loaded machine.
	if limit := pollInterval + sharedReadsFresh + 5*time.Second; took > limit {
		t.Errorf("the change to %s was reverted after %s, want within %s", victim.GetName(), took, limit)
	}
}
