package main

import (
	"bufio"
	"fmt"
	"io"
	"net/url"
	"os"
	"regexp"
	"sort"
	"strconv"
	"time"
)

// serverTime is how many requests of one method and path template the server's worker served
// in a phase, and how long it took over them.
type serverTime struct {
	N    int
	Took time.Duration
}

// uwsgiRequest matches uwsgi's line for one request (hack/keystone.sh's keystone.log), e.g.
// "... [Sun Dec  6 16:08:27 2026] POST /v3/projects => generated 590 bytes in 44 msecs (HTTP/1.1 201) ...":
// when the request started (to the second, local time), the method, the URI and how long the
// worker took over it. Keystone runs one worker of one thread (../shared/bench/README.md), so
// these times never overlap: their sum is how long a phase kept Keystone busy, and the same
// path's mean in the floor's phase and the provider's tells whether a write cost Keystone more
// (its wall time includes waiting for a core) or the provider asked for more.
var uwsgiRequest = regexp.MustCompile(`\[(\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4})\] ([A-Z]+) (\S+) => generated \d+ bytes in (\d+) msecs`)

// uwsgiTime is the layout of uwsgi's request time (asctime).
const uwsgiTime = "Mon Jan _2 15:04:05 2006"

// readServerTimes fills each phase's ServerTime in r (the floor's and OpenTofu's too) from the
// server's request log at path, whose times are in loc (the server's local time). A request
// counts for the phase it started in. The log gives whole seconds: a phase holds the requests
// that started from the second it began through the second it ended in, and a second two
// phases share belongs to the earlier one (its last requests, rather than none).
func readServerTimes(r *result, path string, loc *time.Location) error {
	f, err := os.Open(path) //nolint:gosec // G304: the log hack/bench-scale.sh names
	if err != nil {
		return err
	}
	defer func() { _ = f.Close() }()
	phases := serverPhases(r)
	for _, ph := range phases {
		ph.ServerTime = map[string]serverTime{}
	}
	return scanServerLog(f, loc, func(at time.Time, template string, took time.Duration) {
		for _, ph := range phases {
			if !at.Before(ph.From.Truncate(time.Second)) && !at.After(ph.To.Truncate(time.Second)) {
				t := ph.ServerTime[template]
				ph.ServerTime[template] = serverTime{N: t.N + 1, Took: t.Took + took}
				return
			}
		}
	})
}

// serverPhases are the runs whose server time is read, in the order they ran: the floor's and
// OpenTofu's (when measured), then the provider's phases.
func serverPhases(r *result) []*phaseResult {
	phases := make([]*phaseResult, 0, len(r.Phases)+2)
	for _, ph := range []*phaseResult{r.Floor, r.TofuRun} {
		if ph != nil {
			phases = append(phases, ph)
		}
	}
	for i := range r.Phases {
		phases = append(phases, &r.Phases[i])
	}
	return phases
}

// scanServerLog calls each for every request line of the log, its time read in loc; other
// lines (uwsgi's start-up, Keystone's warnings) are skipped.
func scanServerLog(rd io.Reader, loc *time.Location, each func(at time.Time, template string, took time.Duration)) error {
	s := bufio.NewScanner(rd)
	s.Buffer(make([]byte, 64*1024), 1024*1024)
	for s.Scan() {
		m := uwsgiRequest.FindStringSubmatch(s.Text())
		if m == nil {
			continue
		}
		at, err := time.ParseInLocation(uwsgiTime, m[1], loc)
		if err != nil {
			return fmt.Errorf("request time %q: %w", m[1], err)
		}
		ms, err := strconv.Atoi(m[4])
		if err != nil {
			return fmt.Errorf("request duration %q: %w", m[4], err)
		}
		u, err := url.ParseRequestURI(m[3])
		if err != nil {
			// Counted all the same, under its raw path: a request is time the worker spent.
			u = &url.URL{Path: m[3]}
		}
		each(at, pathTemplate(m[2], u.Path, u.RawQuery), time.Duration(ms)*time.Millisecond)
	}
	return s.Err()
}

// serverTimeLines renders a phase's server time: the total, split into writes, reads and token
// requests, then the templates that took longest, at most top of them.
func serverTimeLines(m map[string]serverTime, top int) []string {
	var total, writes, reads, tokens time.Duration
	n := 0
	keys := make([]string, 0, len(m))
	for k, t := range m {
		keys = append(keys, k)
		total += t.Took
		n += t.N
		switch {
		case k == issueToken:
			tokens += t.Took
		case isWrite(k):
			writes += t.Took
		default:
			reads += t.Took
		}
	}
	if n == 0 {
		return []string{"no requests"}
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]].Took != m[keys[j]].Took {
			return m[keys[i]].Took > m[keys[j]].Took
		}
		return keys[i] < keys[j]
	})
	out := []string{fmt.Sprintf("%.1f s busy over %d requests: writes %.1f s, reads %.1f s, tokens %.1f s", total.Seconds(), n, writes.Seconds(), reads.Seconds(), tokens.Seconds())}
	for i, k := range keys {
		if i == top {
			out = append(out, fmt.Sprintf("... and %d more", len(keys)-top))
			break
		}
		t := m[k]
		out = append(out, fmt.Sprintf("%7d %7.1f s %7.1f ms  %s", t.N, t.Took.Seconds(), float64(t.Took.Microseconds())/1000/float64(t.N), k))
	}
	return out
}
