package main

import (
	"fmt"
	"sort"
	"strings"
)

// hotLoopLimit is the steady-state rate, in requests per resource per poll interval, above
// which a path template or one object counts as a hot loop: a resource in sync costs one
// observation per poll (two for a kind that reads a dependent), so more is a reconcile that
// does not settle.
const hotLoopLimit = 2.0

// hotLoop is a path template, or one object, asked more than hotLoopLimit times per resource
// per poll in steady state.
type hotLoop struct {
	What string  // "GET /api/v3/core/groups/{id}/" or "object GET /api/v3/core/groups/<uuid>/"
	Rate float64 // requests per resource per poll
}

// hotLoops finds the steady phase's hot loops, the highest rate first: each template rated
// over the resources of its kind (see kindFor), each object over itself.
func (r result) hotLoops() []hotLoop {
	var ph *phaseResult
	for i := range r.Phases {
		if r.Phases[i].Name == r.SteadyPhase {
			ph = &r.Phases[i]
		}
	}
	if ph == nil || r.Poll <= 0 || r.SteadyWindow <= 0 {
		return nil
	}
	polls := r.SteadyWindow.Seconds() / r.Poll.Seconds()
	var out []hotLoop
	for t, n := range ph.Requests {
		if rate := float64(n) / float64(max(r.kindFor(t), 1)) / polls; rate > hotLoopLimit {
			out = append(out, hotLoop{What: t, Rate: rate})
		}
	}
	for o, n := range ph.Objects {
		if rate := float64(n) / polls; rate > hotLoopLimit {
			out = append(out, hotLoop{What: "object " + o, Rate: rate})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Rate != out[j].Rate {
			return out[i].Rate > out[j].Rate
		}
		return out[i].What < out[j].What
	})
	return out
}

// kindFor is how many resources a template's requests serve: the count of the longest
// PerResource prefix its path starts with, or every resource when none matches (a request
// no one kind makes, such as a token).
func (r result) kindFor(template string) int {
	_, path, _ := strings.Cut(template, " ")
	best, n := -1, r.Resources
	for _, k := range r.PerResource {
		if strings.HasPrefix(path, k.Prefix) && len(k.Prefix) > best {
			best, n = len(k.Prefix), k.Count
		}
	}
	return n
}

// hotLoopLine is the summary's verdict: none, or the first few hot loops and how many more.
func (r result) hotLoopLine() string {
	hl := r.hotLoops()
	if len(hl) == 0 {
		return fmt.Sprintf("none (no path template or object above %.0f requests/resource/poll in steady state)", hotLoopLimit)
	}
	const shown = 5
	parts := make([]string, 0, shown)
	for _, h := range hl[:min(len(hl), shown)] {
		parts = append(parts, fmt.Sprintf("%.2f/resource/poll %s", h.Rate, h.What))
	}
	line := fmt.Sprintf("%d above %.0f requests/resource/poll in steady state: %s", len(hl), hotLoopLimit, strings.Join(parts, "; "))
	if len(hl) > shown {
		line += fmt.Sprintf("; and %d more", len(hl)-shown)
	}
	return line
}
