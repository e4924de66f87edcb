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

// hotLoop is a kind, a path template, or one object, asked more than hotLoopLimit times per
// resource per poll in steady state.
type hotLoop struct {
	What string  // "kind Group", "GET /api/v3/core/groups/{id}/" or "object GET /api/v3/core/groups/<uuid>/"
	Rate float64 // requests per resource per poll
}

// kindRate is one kind's steady-state requests (every template of its prefixes) per resource
// per poll.
type kindRate struct {
	Kind string
	Rate float64
}

// steadyPhase is the steady phase and its length in poll intervals, or nil when not measured.
func (r result) steadyPhase() (*phaseResult, float64) {
	if r.Poll <= 0 || r.SteadyWindow <= 0 {
		return nil, 0
	}
	for i := range r.Phases {
		if r.Phases[i].Name == r.SteadyPhase {
			return &r.Phases[i], r.SteadyWindow.Seconds() / r.Poll.Seconds()
		}
	}
	return nil, 0
}

// kindRates are the steady-state rates of the kinds in PerResource, in its order; requests no
// kind owns (a token, the provider's identity check) are left out.
func (r result) kindRates() []kindRate {
	ph, polls := r.steadyPhase()
	if ph == nil {
		return nil
	}
	sum, count := map[string]int{}, map[string]int{}
	var order []string
	for _, k := range r.PerResource {
		if _, ok := count[k.Kind]; !ok {
			order = append(order, k.Kind)
		}
		count[k.Kind] = k.Count
	}
	for t, n := range ph.Requests {
		if k, ok := r.kindOf(t); ok {
			sum[k.Kind] += n
		}
	}
	out := make([]kindRate, 0, len(order))
	for _, k := range order {
		out = append(out, kindRate{Kind: k, Rate: float64(sum[k]) / float64(max(count[k], 1)) / polls})
	}
	return out
}

// hotLoops finds the steady phase's hot loops, the highest rate first: each template rated
// over the resources of its kind (see kindFor), each object over itself.
func (r result) hotLoops() []hotLoop {
	ph, polls := r.steadyPhase()
	if ph == nil {
		return nil
	}
	var out []hotLoop
	for _, k := range r.kindRates() {
		if k.Rate > hotLoopLimit {
			out = append(out, hotLoop{What: "kind " + k.Kind, Rate: k.Rate})
		}
	}
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

// kindFor is how many resources a template's requests serve: the count of its kind, or every
// resource when no kind owns it (a request no one kind makes, such as a token).
func (r result) kindFor(template string) int {
	if k, ok := r.kindOf(template); ok {
		return k.Count
	}
	return r.Resources
}

// kindOf is the PerResource entry with the longest prefix the template's path starts with.
func (r result) kindOf(template string) (kindCount, bool) {
	_, path, _ := strings.Cut(template, " ")
	var best kindCount
	found := false
	for _, k := range r.PerResource {
		if strings.HasPrefix(path, k.Prefix) && (!found || len(k.Prefix) > len(best.Prefix)) {
			best, found = k, true
		}
	}
	return best, found
}

// kindLine renders the kinds' steady-state rates: "OAuth2Provider 5.00, Group 0.93".
func (r result) kindLine() string {
	rates := r.kindRates()
	if len(rates) == 0 {
		return "not measured"
	}
	parts := make([]string, 0, len(rates))
	for _, k := range rates {
		parts = append(parts, fmt.Sprintf("%s %.2f", k.Kind, k.Rate))
	}
	return strings.Join(parts, ", ") + " requests/resource/poll"
}

// hotLoopLine is the summary's verdict: none, or the first few hot loops and how many more.
func (r result) hotLoopLine() string {
	hl := r.hotLoops()
	if len(hl) == 0 {
		return fmt.Sprintf("none (no kind, path template or object above %.0f requests/resource/poll in steady state)", hotLoopLimit)
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
