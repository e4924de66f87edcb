package authentikapiserver

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"
)

// Violation kinds.
const (
	// KindRequest: the client sent something authentik's document rejects
	// (answered 400, or 404/405 for a path or method it does not have).
	KindRequest = "request"
	// KindResponse: this server answered outside the document (its own bug).
	KindResponse = "response"
	// KindUnimplemented: the document has it, this server does not (501).
	KindUnimplemented = "unimplemented"
)

// Violation is one exchange that broke the openapi contract.
type Violation struct {
	Kind      string `json:"kind"`
	Method    string `json:"method"`
	Path      string `json:"path"`
	Operation string `json:"operation,omitempty"`
	Status    int    `json:"status,omitempty"`
	Message   string `json:"message"`
	Body      string `json:"body,omitempty"`
}

func (v Violation) String() string {
	return fmt.Sprintf("%s violation: %s %s (%s): %s", v.Kind, v.Method, v.Path, v.Operation, v.Message)
}

// Fault makes the next matching requests fail or slow down, to exercise a
// client's error handling.
type Fault struct {
	// Method matches the HTTP method; empty matches any.
	Method string `json:"method,omitempty"`
	// PathPrefix matches the path below /api/v3, e.g. "/core/applications/";
	// empty matches any.
	PathPrefix string `json:"path_prefix,omitempty"`
	// Status, when non-zero, is answered instead of serving the request
	// (e.g. 500, 502, 503). Zero serves the request normally after Latency.
	Status int `json:"status,omitempty"`
	// Body is sent with Status; empty sends a JSON {"detail": ...}.
	Body string `json:"body,omitempty"`
	// Latency delays the matching requests.
	Latency time.Duration `json:"-"`
	// LatencyMS is Latency for the HTTP admin API.
	LatencyMS int `json:"latency_ms,omitempty"`
	// Times is how many matching requests the fault applies to; 0 means
	// until ClearFaults.
	Times int `json:"times,omitempty"`
}

type hooks struct {
	mu         sync.Mutex
	counts     map[string]int
	violations []Violation
	faults     []*Fault
	base       string // origin Seed and Raw render URLs with
}

func (h *hooks) init() { h.counts = map[string]int{} }

func (h *hooks) count(key string) {
	h.mu.Lock()
	h.counts[key]++
	h.mu.Unlock()
}

// fault applies the first matching fault: it sleeps for its latency and
// returns the reply to send when the fault answers in place of the server.
func (h *hooks) fault(ctx context.Context, method, path string) (reply, bool) {
	h.mu.Lock()
	var f Fault
	found := false
	for i, x := range h.faults {
		if (x.Method == "" || strings.EqualFold(x.Method, method)) && strings.HasPrefix(path, x.PathPrefix) {
			f, found = *x, true
			if x.Times > 0 {
				x.Times--
				if x.Times == 0 {
					h.faults = append(h.faults[:i], h.faults[i+1:]...)
				}
			}
			break
		}
	}
	h.mu.Unlock()
	if !found {
		return reply{}, false
	}
	if f.Latency > 0 {
		sleep(ctx, f.Latency)
	}
	if f.Status == 0 {
		return reply{}, false
	}
	if f.Body != "" {
		return reply{status: f.Status, raw: []byte(f.Body), contentType: "text/plain"}, true
	}
	return detail(f.Status, fmt.Sprintf("authentikapiserver: injected fault (status %d)", f.Status)), true
}

func (s *Server) violate(v Violation) {
	s.hooks.mu.Lock()
	s.hooks.violations = append(s.hooks.violations, v)
	s.hooks.mu.Unlock()
	if s.logf != nil {
		s.logf("%s", v.String())
	}
}

// Violations returns every contract violation recorded so far.
func (s *Server) Violations() []Violation {
	s.hooks.mu.Lock()
	defer s.hooks.mu.Unlock()
	return append([]Violation(nil), s.hooks.violations...)
}

// ResetViolations forgets recorded violations.
func (s *Server) ResetViolations() {
	s.hooks.mu.Lock()
	s.hooks.violations = nil
	s.hooks.mu.Unlock()
}

// Counts returns how many requests each "METHOD /path/{template}/" received
// (paths relative to /api/v3, as in the openapi document).
func (s *Server) Counts() map[string]int {
	s.hooks.mu.Lock()
	defer s.hooks.mu.Unlock()
	out := make(map[string]int, len(s.hooks.counts))
	for k, v := range s.hooks.counts {
		out[k] = v
	}
	return out
}

// Count is Counts()[method+" "+pathTemplate].
func (s *Server) Count(method, pathTemplate string) int {
	s.hooks.mu.Lock()
	defer s.hooks.mu.Unlock()
	return s.hooks.counts[method+" "+pathTemplate]
}

// ResetCounts zeroes the request counters.
func (s *Server) ResetCounts() {
	s.hooks.mu.Lock()
	s.hooks.counts = map[string]int{}
	s.hooks.mu.Unlock()
}

// InjectFault adds a fault; faults are tried in the order they were added.
func (s *Server) InjectFault(f Fault) {
	if f.Latency == 0 && f.LatencyMS > 0 {
		f.Latency = time.Duration(f.LatencyMS) * time.Millisecond
	}
	s.hooks.mu.Lock()
	s.hooks.faults = append(s.hooks.faults, &f)
	s.hooks.mu.Unlock()
}

// ClearFaults removes every fault.
func (s *Server) ClearFaults() {
	s.hooks.mu.Lock()
	s.hooks.faults = nil
	s.hooks.mu.Unlock()
}

// ResetHooks clears counts, violations and faults.
func (s *Server) ResetHooks() {
	s.ResetCounts()
	s.ResetViolations()
	s.ClearFaults()
}
