package main

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestHotLoops(t *testing.T) {
	// 10 Applications, 10 providers, 5 Groups over 3 polls of 10 s.
	base := result{Resources: 25, Poll: 10 * time.Second, SteadyWindow: 30 * time.Second, SteadyPhase: "steady",
		PerResource: []kindCount{{"/api/v3/core/applications", "Application", 10}, {"/api/v3/providers", "OAuth2Provider", 10},
			{"/api/v3/flows", "OAuth2Provider", 10}, {"/api/v3/core/groups", "Group", 5}}}
	const none = "none (no kind, path template or object above 2 requests/resource/poll in steady state)"
	cases := map[string]struct {
		requests, objects map[string]int
		want              []hotLoop
		line, kinds       string
	}{
		"one read per resource per poll": {
			requests: map[string]int{"GET /api/v3/core/applications/{slug}/": 30, "GET /api/v3/core/groups/{id}/": 15},
			objects:  map[string]int{"GET /api/v3/core/groups/g1/": 3},
			line:     none, kinds: "Application 1.00, OAuth2Provider 0.00, Group 1.00 requests/resource/poll",
		},
		"exactly 2 per poll is no hot loop": {
			requests: map[string]int{"GET /api/v3/core/groups/{id}/": 30},
			line:     none, kinds: "Application 0.00, OAuth2Provider 0.00, Group 2.00 requests/resource/poll",
		},
		"a template over its kind's count, not every resource": {
			// 45 group reads are 3 per Group per poll, though 0.6 per resource per poll.
			requests: map[string]int{"GET /api/v3/core/groups/{id}/": 45, "GET /api/v3/core/applications/{slug}/": 30},
			want:     []hotLoop{{What: "GET /api/v3/core/groups/{id}/", Rate: 3}, {What: "kind Group", Rate: 3}},
			line:     "2 above 2 requests/resource/poll in steady state: 3.00/resource/poll GET /api/v3/core/groups/{id}/; 3.00/resource/poll kind Group",
			kinds:    "Application 1.00, OAuth2Provider 0.00, Group 3.00 requests/resource/poll",
		},
		"a kind whose templates are each harmless": {
			// Each OAuth2Provider reads itself and two flows once per poll: 3 per poll.
			requests: map[string]int{"GET /api/v3/providers/oauth2/{id}/": 30, "GET /api/v3/flows/instances/a/": 30, "GET /api/v3/flows/instances/b/": 30},
			want:     []hotLoop{{What: "kind OAuth2Provider", Rate: 3}},
			line:     "1 above 2 requests/resource/poll in steady state: 3.00/resource/poll kind OAuth2Provider",
			kinds:    "Application 0.00, OAuth2Provider 3.00, Group 0.00 requests/resource/poll",
		},
		"one object in a loop, its template harmless": {
			requests: map[string]int{"GET /api/v3/core/applications/{slug}/": 39},
			objects:  map[string]int{"GET /api/v3/core/applications/bench-app-0003/": 12, "GET /api/v3/core/applications/bench-app-0004/": 3},
			want:     []hotLoop{{What: "object GET /api/v3/core/applications/bench-app-0003/", Rate: 4}},
			line:     "1 above 2 requests/resource/poll in steady state: 4.00/resource/poll object GET /api/v3/core/applications/bench-app-0003/",
			kinds:    "Application 1.30, OAuth2Provider 0.00, Group 0.00 requests/resource/poll",
		},
		"a template no kind owns is rated over every resource": {
			requests: map[string]int{"GET /api/v3/core/users/me/": 300},
			want:     []hotLoop{{What: "GET /api/v3/core/users/me/", Rate: 4}},
			line:     "1 above 2 requests/resource/poll in steady state: 4.00/resource/poll GET /api/v3/core/users/me/",
			kinds:    "Application 0.00, OAuth2Provider 0.00, Group 0.00 requests/resource/poll",
		},
		"highest first, at most 5 shown": {
			objects: map[string]int{"GET /a/1": 7, "GET /a/2": 8, "GET /a/3": 9, "GET /a/4": 10, "GET /a/5": 11, "GET /a/6": 12, "GET /a/7": 13},
			want: []hotLoop{{"object GET /a/7", 13.0 / 3}, {"object GET /a/6", 4}, {"object GET /a/5", 11.0 / 3}, {"object GET /a/4", 10.0 / 3},
				{"object GET /a/3", 3}, {"object GET /a/2", 8.0 / 3}, {"object GET /a/1", 7.0 / 3}},
			line: "7 above 2 requests/resource/poll in steady state: 4.33/resource/poll object GET /a/7; 4.00/resource/poll object GET /a/6; " +
				"3.67/resource/poll object GET /a/5; 3.33/resource/poll object GET /a/4; 3.00/resource/poll object GET /a/3; and 2 more",
			kinds: "Application 0.00, OAuth2Provider 0.00, Group 0.00 requests/resource/poll",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			r := base
			r.Phases = []phaseResult{{Name: "apply", Requests: map[string]int{"GET /api/v3/core/groups/{id}/": 1000}},
				{Name: "steady", Requests: tc.requests, Objects: tc.objects}}
			if diff := cmp.Diff(tc.want, r.hotLoops()); diff != "" {
				t.Errorf("hotLoops -want +got:\n%s", diff)
			}
			if diff := cmp.Diff(tc.line, r.hotLoopLine()); diff != "" {
				t.Errorf("hotLoopLine -want +got:\n%s", diff)
			}
			if diff := cmp.Diff(tc.kinds, r.kindLine()); diff != "" {
				t.Errorf("kindLine -want +got:\n%s", diff)
			}
		})
	}
}

func TestHotLoopsUnmeasured(t *testing.T) {
	for name, r := range map[string]result{
		"no steady phase": {Resources: 3, Poll: time.Second, SteadyWindow: time.Second, SteadyPhase: "steady"},
		"no window":       {Resources: 3, Poll: time.Second, SteadyPhase: "steady", Phases: []phaseResult{{Name: "steady", Requests: map[string]int{"GET /x": 100}}}},
	} {
		if got := r.hotLoops(); got != nil {
			t.Errorf("%s: hotLoops %v, want none", name, got)
		}
		if got := r.kindLine(); got != "not measured" {
			t.Errorf("%s: kindLine %q, want not measured", name, got)
		}
	}
}
