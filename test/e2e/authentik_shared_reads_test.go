//go:build e2e

package e2e

import (
	"fmt"
	"testing"
	"time"

	akv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
)

// Applications polling together read one shared list of all applications, not one application
// each: at steady state they cost well under one request per application per poll and no
// writes, and a change made by hand to any of them is still noticed and reverted within a poll
// interval plus the list's freshness.
func TestAuthentikSharedListsNoticeDrift(t *testing.T) {
	// Not parallel: it counts the provider's reads of applications, other tests' too.
	authentikAPI.noNewViolations(t)
	const n = 12
	apps := make([]*akv1alpha1.Application, n)
	for i := range apps {
		apps[i] = newAKApplication(fmt.Sprintf("ak-shared-reads-%d", i), fmt.Sprintf("e2e-ak-shared-reads-%d", i))
	}
	createAll(t, apps...)
	for _, a := range apps {
		waitReady(t, a)
	}

	time.Sleep(pollInterval) // let in-flight reconciles of the creates settle
	before := counter.snapshot()
	const polls = 4
	time.Sleep(polls * pollInterval)
	d := delta(before, counter.snapshot())
	lists, single := 0, 0
	for k, v := range d {
		if k == "GET /api/v3/core/applications/" { // the counter keys a request by its path: a list page
			lists += v
		}
	}
	for _, a := range apps {
		single += d["GET /api/v3/core/applications/"+a.Spec.ForProvider.Slug+"/"]
	}
	if w := authentikWrites(d); len(w) != 0 {
		t.Errorf("writes to authentik at steady state: %v", w)
	}
	perPoll := float64(lists+single) / float64(n*polls)
	t.Logf("steady state over %d polls of %d applications: %d list pages, %d single reads: %.2f requests per application per poll", polls, n, lists, single, perPoll)
	if lists == 0 {
		t.Errorf("no list of applications in %d polls of %d applications (%d single reads): the reads are not shared", polls, n, single)
	}
	if perPoll > 0.5 {
		t.Errorf("%.2f requests per application per poll (%d list pages, %d single reads), want at most 0.5: the reads are not shared", perPoll, lists, single)
	}

	// A change by hand to a random application is seen through the shared list and reverted.
	victim := apps[int(time.Now().UnixNano()%int64(n))] // any one will do
	slug := victim.Spec.ForProvider.Slug
	want := "App " + slug
	authentikAPI.patch(t, akApps, slug, map[string]any{"name": "changed by hand"})
	changed := time.Now()
	eventually(t, 30*time.Second, "the hand-made change to "+victim.GetName()+" reverted", func() bool {
		return authentikAPI.object(t, akApps, slug)["name"] == want
	})
	took := time.Since(changed)
	t.Logf("the change to %s was reverted after %s", victim.GetName(), took.Round(time.Millisecond))
	if limit := pollInterval + sharedReadsFresh + 5*time.Second; took > limit {
		t.Errorf("the change to %s was reverted after %s, want within %s", victim.GetName(), took, limit)
	}
}
