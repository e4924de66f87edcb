package main

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestSummary(t *testing.T) {
	r := result{
		N: 2, Resources: 7, Kinds: "1 Domain, 2 Projects, 1 Groups, 2 RoleAssignments, 1 observed Role member",
		System: "Keystone", FloorHow: "ksfloor -workload-c 10", RatioGoal: (&keystoneSystem{}).ratioGoal(), PerResource: (&keystoneSystem{w: workload{N: 2}}).perResource(),
		ProviderArgs: []string{"provider", "--poll=10s"}, Poll: 10 * time.Second,
		Submit: 2 * time.Second, ToReady: 30 * time.Second, DeleteSubmit: time.Second, Deleted: 20 * time.Second,
		FloorCreate: 10 * time.Second, FloorDelete: 16 * time.Second,
		SteadyWindow: 30 * time.Second, SteadyPhase: "steady",
		Drift: driftResult{Object: "Project bench/project-0001", Change: "description", Reverted: true, After: 4500 * time.Millisecond,
			Bound: 11 * time.Second},
		FloorLine: "FLOOR n=2 workload_c10_create_s=10.00 workload_c10_delete_s=16.00 errors=0",
		Phases: []phaseResult{
			{Name: "apply", Wall: 30 * time.Second, Busy: 12500 * time.Millisecond, CPU: 1.5, RSSMax: 64 << 20, AnonMax: 30 << 20,
				Requests:  map[string]int{"POST /v3/projects": 2, "GET /v3/projects/{id}": 4, "POST /v3/auth/tokens": 1},
				Statuses:  map[int]int{201: 3, 200: 4},
				APIWrites: map[string]int{"POST projects.keystone.identity.m.crossplane.io": 2, "PUT projects.keystone.identity.m.crossplane.io/status": 2}},
			// 21 requests for 7 resources over 3 polls: 1 per resource per poll, each by its kind's path.
			{Name: "steady", Wall: 30 * time.Second, CPU: 0.25, RSSMax: 65 << 20, AnonMax: 31 << 20,
				Requests: map[string]int{"GET /v3/projects/{id}": 6, "GET /v3/projects/{id}/groups/{id}/roles/{id}": 6,
					"GET /v3/groups/{id}": 3, "GET /v3/domains/{id}": 3, "GET /v3/roles/{id}": 3}, Statuses: map[int]int{200: 21},
				APIWrites: map[string]int{}},
			{Name: "drift", Wall: 5 * time.Second},
		},
	}
	var b strings.Builder
	if err := r.write(&b); err != nil {
		t.Fatal(err)
	}
	want := `==== bench-scale summary: N=2, 7 resources (1 Domain, 2 Projects, 1 Groups, 2 RoleAssignments, 1 observed Role member) ====
provider    : provider --poll=10s
apply       : every resource Ready and Synced 30.0 s after kubectl apply started (kubectl apply -f itself: 2.0 s; 28.0 s after it returned)
delete      : every resource gone and no object left in Keystone 20.0 s after kubectl delete started (kubectl delete -f itself: 1.0 s)
floor       : create 10.0 s, delete 16.0 s (ksfloor -workload-c 10, same fresh Keystone, same run)
opentofu    : not measured
ratios      : create provider/floor 3.00x, delete provider/floor 1.25x (issue 12's goal: both <= 1.25x)
steady state: 30.0 s = 3.0 poll intervals of 10s: 1.00 requests/resource/poll (goal <= 0.2), 0 writes, 0 token requests
drift       : description of Project bench/project-0001 changed straight in Keystone: reverted after 4.5 s (poll interval 10s); within one poll plus jitter (11.0 s): yes
steady/kind : RoleAssignment 1.00, Project 1.00, Group 1.00, Domain 1.00, Role 1.00 requests/resource/poll
hot loops   : none (no kind, path template or object above 2 requests/resource/poll in steady state)
resources   : provider RSS max 65.0 MiB (anonymous max 31.0 MiB; the rest is mostly the binary's code and data, mapped from the page cache), CPU 1.75 s over all phases (per phase below)
kube only   : not measured
cpu budget  : not measured
ksfloor     : FLOOR n=2 workload_c10_create_s=10.00 workload_c10_delete_s=16.00 errors=0

phase      wall_s  busy_s  requests  writes tokens   cpu_s  rss_max_MiB  anon_max_MiB  statuses
apply        30.0    12.5         7       2      1    1.50         64.0          30.0  200:4 201:3
steady       30.0     0.0        21       0      0    0.25         65.0          31.0  200:21
drift         5.0     0.0         0       0      0    0.00          0.0           0.0
(busy_s: how long at least one provider request was in flight; the rest of wall_s the system was idle)

API server writes per phase (every client: kubectl, the provider, the controller manager):
  apply    4: 2 POST projects, 2 PUT projects/status
  steady   none
  drift    not measured

requests by method and path, per phase:
apply:
        4  GET /v3/projects/{id}
        2  POST /v3/projects
        1  POST /v3/auth/tokens
steady:
        6  GET /v3/projects/{id}
        6  GET /v3/projects/{id}/groups/{id}/roles/{id}
        3  GET /v3/domains/{id}
        3  GET /v3/groups/{id}
        3  GET /v3/roles/{id}
drift: none
==== end of bench-scale summary ====
`
	if diff := cmp.Diff(strings.Split(want, "\n"), strings.Split(b.String(), "\n")); diff != "" {
		t.Errorf("summary -want +got:\n%s", diff)
	}
}

// TestSummaryIncomplete: a run that stopped half-way says so first, and what it did not measure.
func TestSummaryIncomplete(t *testing.T) {
	r := result{N: 2, Resources: 7, Incomplete: "not all Ready and Synced after 45m0s", Drift: driftResult{}}
	var b strings.Builder
	if err := r.write(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"INCOMPLETE  : not all Ready and Synced after 45m0s", "drift       : not measured",
		"ratios      : create provider/floor not measured, delete provider/floor not measured", "Ready and Synced not measured after", "floor       : create not measured, delete not measured"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, b.String())
		}
	}
	r.Drift = driftResult{Object: "Project bench/project-0001", Change: "description", Timeout: time.Minute}
	b.Reset()
	if err := r.write(&b); err != nil {
		t.Fatal(err)
	}
	if want := "NOT reverted within 60.0 s"; !strings.Contains(b.String(), want) {
		t.Errorf("summary lacks %q:\n%s", want, b.String())
	}
}

// A pinned run says how it was pinned; an unpinned one prints no such line (TestSummary).
func TestSummaryPinned(t *testing.T) {
	r := result{N: 2, Resources: 7, Pinned: "the keystone server on core 0 alone (PIN=1)"}
	var b strings.Builder
	if err := r.write(&b); err != nil {
		t.Fatal(err)
	}
	if want := "pinned      : the keystone server on core 0 alone (PIN=1)"; !strings.Contains(b.String(), want) {
		t.Errorf("summary lacks %q:\n%s", want, b.String())
	}
}
