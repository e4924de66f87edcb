package main

import (
	"maps"
	"sort"
	"strings"
	"sync"
	"time"
)

// counter counts requests by template and by response status for the phase they arrived in.
// Phases are switched by the orchestrator; a request in flight at the switch belongs to the
// phase in which it was sent, which is when the provider decided to make it.
//
// It also counts, apart, each request that names one object (its path has an ID its template
// folds away), so that one resource reconciled in a loop stands out even when the template's
// total, spread over all resources, looks harmless.
type counter struct {
	mu       sync.Mutex
	phase    string
	template func(method, path, query string) string // the system's: pathTemplate for Keystone
	reqs     map[string]map[string]int               // phase -> template -> count
	objs     map[string]map[string]int               // phase -> "METHOD /path" of one object -> count
	codes    map[string]map[int]int                  // phase -> HTTP status -> count

	// busy is, per phase, how long at least one request was in flight: the time the system
	// spent on the provider. Wall time minus busy time is time the provider left it idle,
	// which is where a phase is bound by the provider's own latency rather than by the system.
	busy      map[string]time.Duration
	inFlight  int
	busySince time.Time
	now       func() time.Time
}

func newCounter() *counter { return newCounterWith(pathTemplate) }

// newCounterWith counts under the templates template makes.
func newCounterWith(template func(method, path, query string) string) *counter {
	return &counter{template: template, reqs: map[string]map[string]int{}, objs: map[string]map[string]int{}, codes: map[string]map[int]int{},
		busy: map[string]time.Duration{}, now: time.Now}
}

// setPhase makes every later request count for phase p.
func (c *counter) setPhase(p string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.inFlight > 0 {
		// The busy stretch so far belongs to the phase that is ending.
		now := c.now()
		c.busy[c.phase] += now.Sub(c.busySince)
		c.busySince = now
	}
	c.phase = p
}

// count records one request under its template (and under its object, if it names one) and
// returns its phase, for the status that follows.
func (c *counter) count(method, path, query string) string {
	t := c.template(method, path, query)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.reqs[c.phase] == nil {
		c.reqs[c.phase], c.objs[c.phase] = map[string]int{}, map[string]int{}
	}
	c.reqs[c.phase][t]++
	if c.inFlight == 0 {
		c.busySince = c.now()
	}
	c.inFlight++
	if tpath, _, _ := strings.Cut(strings.TrimPrefix(t, method+" "), "?"); tpath != path {
		c.objs[c.phase][method+" "+path]++
	}
	return c.phase
}

// status records the response status of a request counted in phase p (0: no response).
func (c *counter) status(p string, code int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.codes[p] == nil {
		c.codes[p] = map[int]int{}
	}
	c.codes[p][code]++
	if c.inFlight--; c.inFlight == 0 {
		c.busy[c.phase] += c.now().Sub(c.busySince)
	}
}

// busyFor returns how long at least one request of phase p's was in flight.
func (c *counter) busyFor(p string) time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.busy[p]
}

// requests returns a copy of phase p's counts by template.
func (c *counter) requests(p string) map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[string]int{}
	for k, v := range c.reqs[p] {
		out[k] = v
	}
	return out
}

// objects returns a copy of phase p's counts by object.
func (c *counter) objects(p string) map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[string]int{}
	maps.Copy(out, c.objs[p])
	return out
}

// statuses returns a copy of phase p's counts by response status.
func (c *counter) statuses(p string) map[int]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[int]int{}
	for k, v := range c.codes[p] {
		out[k] = v
	}
	return out
}

// issueToken is the template of a token request: a POST that writes no identity object.
const issueToken = "POST /v3/auth/tokens"

// tally sums counts: all requests, the writes among them, the token requests.
type tally struct{ Total, Writes, Auth int }

func sumRequests(m map[string]int) tally {
	var t tally
	for k, v := range m {
		t.Total += v
		switch {
		case isWrite(k):
			t.Writes += v
		case k == issueToken:
			t.Auth += v
		}
	}
	return t
}

// byCount orders templates by count, most first, then by name, so the summary reads top-down.
func byCount(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	return keys
}
