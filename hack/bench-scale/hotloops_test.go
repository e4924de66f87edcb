package main

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestHotLoops(t *testing.T) {
	// 10 Applications, 10 providers, 5 Groups over 3 polls of 10 s.
	base := result{Resources: 25, Poll: 10 * time.Second, SteadyWindow: 30 * time.Second, SteadyPhase: "steady",
		PerResource: []kindCount{{"/api/v3/core/applications", 10}, {"/api/v3/providers", 10}, {"/api/v3/core/groups", 5}}}
	cases := map[string]struct {
		requests, objects map[string]int
		want              []hotLoop
		line              string
	}{
		"one read per resource per poll": {
			requests: map[string]int{"GET /api/v3/core/applications/{slug}/": 30, "GET /api/v3/core/groups/{id}/": 15},
			objects:  map[string]int{"GET /api/v3/core/groups/g1/": 3},
			line:     "none (no path template or object above 2 requests/resource/poll in steady state)",
		},
		"exactly 2 per poll is no hot loop": {
			requests: map[string]int{"GET /api/v3/core/groups/{id}/": 30},
			line:     "none (no path template or object above 2 requests/resource/poll in steady state)",
		},
		"a template over its kind's count, not every resource": {
			// 45 group reads are 3 per Group per poll, though 0.6 per resource per poll.
			requests: map[string]int{"GET /api/v3/core/groups/{id}/": 45, "GET /api/v3/core/applications/{slug}/": 30},
			want:     []hotLoop{{What: "GET /api/v3/core/groups/{id}/", Rate: 3}},
			line:     "1 above 2 requests/resource/poll in steady state: 3.00/resource/poll GET /api/v3/core/groups/{id}/",
		},
		"one object in a loop, its template harmless": {
			requests: map[string]int{"GET /api/v3/core/applications/{slug}/": 39},
			objects:  map[string]int{"GET /api/v3/core/applications/bench-app-0003/": 12, "GET /api/v3/core/applications/bench-app-0004/": 3},
			want:     []hotLoop{{What: "object GET /api/v3/core/applications/bench-app-0003/", Rate: 4}},
			line:     "1 above 2 requests/resource/poll in steady state: 4.00/resource/poll object GET /api/v3/core/applications/bench-app-0003/",
		},
		"a template no kind owns is rated over every resource": {
			requests: map[string]int{"GET /api/v3/core/users/me/": 300},
			want:     []hotLoop{{What: "GET /api/v3/core/users/me/", Rate: 4}},
			line:     "1 above 2 requests/resource/poll in steady state: 4.00/resource/poll GET /api/v3/core/users/me/",
		},
		"highest first, at most 5 shown": {
			objects: map[string]int{"GET /a/1": 7, "GET /a/2": 8, "GET /a/3": 9, "GET /a/4": 10, "GET /a/5": 11, "GET /a/6": 12, "GET /a/7": 13},
			want: []hotLoop{{"object GET /a/7", 13.0 / 3}, {"object GET /a/6", 4}, {"object GET /a/5", 11.0 / 3}, {"object GET /a/4", 10.0 / 3},
				{"object GET /a/3", 3}, {"object GET /a/2", 8.0 / 3}, {"object GET /a/1", 7.0 / 3}},
			line: "7 above 2 requests/resource/poll in steady state: 4.33/resource/poll object GET /a/7; 4.00/resource/poll object GET /a/6; " +
				"3.67/resource/poll object GET /a/5; 3.33/resource/poll object GET /a/4; 3.00/resource/poll object GET /a/3; and 2 more",
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
	}
}
