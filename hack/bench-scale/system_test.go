package main

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestNewSystem(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	creds := env(map[string]string{"KEYSTONE_ADMIN_PASSWORD": "pw", "AUTHENTIK_TOKEN": "tok"})
	cases := map[string]struct {
		o         options
		env       func(string) string
		name      string
		resources int
		wantErr   string
	}{
		"keystone by default": {o: options{N: 4, KeystoneURL: "http://k", KSFloor: "ksfloor"}, env: creds, name: "Keystone", resources: 12},
		"keystone without ksfloor": {o: options{System: "keystone", N: 4, KeystoneURL: "http://k"}, env: creds, name: "Keystone", resources: 12,
			wantErr: "-ksfloor are required for -system keystone"},
		"authentik": {o: options{System: "authentik", N: 4, AuthentikURL: "http://a"}, env: creds, name: "authentik", resources: 10},
		"authentik without token": {o: options{System: "authentik", N: 4, AuthentikURL: "http://a"}, env: env(nil), name: "authentik", resources: 10,
			wantErr: "AUTHENTIK_TOKEN and -authentik-url are required"},
		"unknown": {o: options{System: "ldap", N: 4}, env: creds, name: "Keystone", resources: 12, wantErr: `-system "ldap": want keystone or authentik`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s, err := newSystem(tc.o, tc.env)
			if got := errText(err); !strings.Contains(got, tc.wantErr) || (tc.wantErr == "") != (err == nil) {
				t.Errorf("newSystem: error %q, want one with %q", got, tc.wantErr)
			}
			if diff := cmp.Diff([]any{tc.name, tc.resources}, []any{s.name(), s.resources()}); diff != "" {
				t.Errorf("system (name, resources) -want +got:\n%s", diff)
			}
		})
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestSummaryAuthentik: an authentik run names authentik and its floor where a Keystone run
// names Keystone and ksfloor, and flags its hot loops and a late revert.
func TestSummaryAuthentik(t *testing.T) {
	w := akWorkload{N: 2, Namespace: "bench", Prefix: "bench"}
	s := &authentikSystem{w: w}
	r := result{N: 2, Resources: w.resources(), Kinds: w.kinds(), System: s.name(), FloorHow: s.floorHow(), RatioGoal: s.ratioGoal(), PerResource: s.perResource(),
		Poll: 10 * time.Second, SteadyWindow: 10 * time.Second, SteadyPhase: "steady",
		Drift:     driftResult{Object: "Application bench/app-0001", Change: "meta_launch_url", Reverted: true, After: 12 * time.Second, Bound: 11 * time.Second},
		FloorLine: "FLOOR system=authentik n=2 workload_c10_create_s=1.00 errors=0",
		Phases: []phaseResult{{Name: "steady", Requests: map[string]int{"GET /api/v3/core/groups/{id}/": 3, "GET /api/v3/core/applications/{slug}/": 2},
			Objects: map[string]int{"GET /api/v3/core/groups/00000000-0000-0000-0000-000000000001/": 3}}},
	}
	var b strings.Builder
	if err := r.write(&b); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range strings.Split(b.String(), "\n") {
		for _, p := range []string{"==== bench-scale summary", "delete ", "floor ", "ratios ", "drift ", "steady/kind", "hot loops", "akfloor"} {
			if strings.HasPrefix(l, p) {
				got = append(got, l)
			}
		}
	}
	want := []string{
		"==== bench-scale summary: N=2, 5 resources (2 Applications, 2 OAuth2Providers, 1 Groups) ====",
		"delete      : every resource gone and no object left in authentik not measured after kubectl delete started (kubectl delete -f itself: not measured)",
		"floor       : create not measured, delete not measured (akfloor -c 10 (hack/bench-scale/akfloor.go), same fresh authentik, same run)",
		"ratios      : create provider/floor not measured, delete provider/floor not measured (no goal: the in-repo API server is not as slow as authentik; issue 12 asks time to Ready, requests per poll and no hot loops)",
		"drift       : meta_launch_url of Application bench/app-0001 changed straight in authentik: reverted after 12.0 s (poll interval 10s); within one poll plus jitter (11.0 s): NO",
		"steady/kind : Application 1.00, OAuth2Provider 0.00, Group 3.00 requests/resource/poll",
		"hot loops   : 3 above 2 requests/resource/poll in steady state: 3.00/resource/poll GET /api/v3/core/groups/{id}/; " +
			"3.00/resource/poll kind Group; 3.00/resource/poll object GET /api/v3/core/groups/00000000-0000-0000-0000-000000000001/",
		"akfloor     : FLOOR system=authentik n=2 workload_c10_create_s=1.00 errors=0",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("summary lines -want +got:\n%s", diff)
	}
}
