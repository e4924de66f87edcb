package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// keystoneLog is an excerpt of hack/keystone.sh's keystone.log as uwsgi 2.0 writes it: its
// start-up, a token request, Keystone's own warning, then requests in three seconds (a day
// with one digit, which uwsgi pads with a space).
const keystoneLog = `*** Starting uWSGI 2.0.21-debian (64bit) on [Sun Dec  6 16:06:45 2026] ***
[pid: 24832|app: 0|req: 1/1] 127.0.0.1 () {32 vars in 366 bytes} [Sun Dec  6 16:06:49 2026] POST /v3/auth/tokens => generated 1217 bytes in 251 msecs (HTTP/1.1 201) 5 headers in 366 bytes (1 switches on core 0)
2026-12-06 16:06:50.001 24832 WARNING keystone.server.flask.application [-] Could not find project: x.
[pid: 24832|app: 0|req: 2/2] 127.0.0.1 () {34 vars in 696 bytes} [Sun Dec  6 16:06:50 2026] POST /v3/projects => generated 590 bytes in 32 msecs (HTTP/1.1 201) 4 headers in 161 bytes (1 switches on core 0)
[pid: 24832|app: 0|req: 3/3] 127.0.0.1 () {34 vars in 696 bytes} [Sun Dec  6 16:06:51 2026] POST /v3/projects => generated 590 bytes in 40 msecs (HTTP/1.1 201) 4 headers in 161 bytes (1 switches on core 0)
[pid: 24832|app: 0|req: 4/4] 127.0.0.1 () {34 vars in 708 bytes} [Sun Dec  6 16:06:51 2026] GET /v3/role_assignments?role.id=89b2fd3e19164846b0d7d3be2db1620c => generated 174161 bytes in 36 msecs (HTTP/1.1 200) 4 headers in 161 bytes (2 switches on core 0)
[pid: 24832|app: 0|req: 5/5] 127.0.0.1 () {34 vars in 708 bytes} [Sun Dec  6 16:06:52 2026] HEAD /v3/projects/0ae532166d46406b9f4c15e9504c1700/groups/5f7d397415354a8cb76557fe90c0fa42/roles/89b2fd3e19164846b0d7d3be2db1620c => generated 0 bytes in 25 msecs (HTTP/1.1 404) 4 headers in 161 bytes (1 switches on core 0)
`

// at is 6 December 2026 at the given time of day, in UTC.
func at(hms string) time.Time {
	t, err := time.ParseInLocation("2006-01-02 15:04:05.000", "2026-12-06 "+hms, time.UTC)
	if err != nil {
		panic(err)
	}
	return t
}

func TestScanServerLog(t *testing.T) {
	type line struct {
		At       time.Time
		Template string
		Took     time.Duration
	}
	var got []line
	err := scanServerLog(strings.NewReader(keystoneLog), time.UTC, func(a time.Time, tmpl string, took time.Duration) {
		got = append(got, line{a, tmpl, took})
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []line{
		{at("16:06:49.000"), "POST /v3/auth/tokens", 251 * time.Millisecond},
		{at("16:06:50.000"), "POST /v3/projects", 32 * time.Millisecond},
		{at("16:06:51.000"), "POST /v3/projects", 40 * time.Millisecond},
		{at("16:06:51.000"), "GET /v3/role_assignments?role.id=*", 36 * time.Millisecond},
		{at("16:06:52.000"), "HEAD /v3/projects/{id}/groups/{id}/roles/{id}", 25 * time.Millisecond},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("scanServerLog(...): -want, +got:\n%s", diff)
	}
}

// TestReadServerTimes cuts the log at the phases' seconds: the floor, from 16:06:49.7 to
// 16:06:50.2, holds the requests that started in seconds 49 and 50; the apply, which began in
// second 50 too, those of second 51 (where it ended); OpenTofu's run, whenever it was, its own.
func TestReadServerTimes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keystone.log")
	if err := os.WriteFile(path, []byte(keystoneLog), 0o600); err != nil {
		t.Fatal(err)
	}
	r := result{
		System:  "Keystone",
		Floor:   &phaseResult{Name: "floor", From: at("16:06:49.700"), To: at("16:06:50.200")},
		TofuRun: &phaseResult{Name: "opentofu", From: at("16:06:52.000"), To: at("16:06:53.000")},
		Phases:  []phaseResult{{Name: "apply", From: at("16:06:50.200"), To: at("16:06:51.900")}},
	}
	if err := readServerTimes(&r, path, time.UTC); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]serverTime{
		"POST /v3/auth/tokens": {N: 1, Took: 251 * time.Millisecond},
		"POST /v3/projects":    {N: 1, Took: 32 * time.Millisecond},
	}, r.Floor.ServerTime); diff != "" {
		t.Errorf("floor: -want, +got:\n%s", diff)
	}
	if diff := cmp.Diff(map[string]serverTime{
		"POST /v3/projects":                  {N: 1, Took: 40 * time.Millisecond},
		"GET /v3/role_assignments?role.id=*": {N: 1, Took: 36 * time.Millisecond},
	}, r.Phases[0].ServerTime); diff != "" {
		t.Errorf("apply: -want, +got:\n%s", diff)
	}
	if diff := cmp.Diff(map[string]serverTime{
		"HEAD /v3/projects/{id}/groups/{id}/roles/{id}": {N: 1, Took: 25 * time.Millisecond},
	}, r.TofuRun.ServerTime); diff != "" {
		t.Errorf("opentofu: -want, +got:\n%s", diff)
	}

	var b strings.Builder
	r.serverTimeSection(func(format string, a ...any) { b.WriteString(strings.TrimRight(fmt.Sprintf(format, a...), " ") + "\n") })
	want := `
Keystone's worker time per phase (its request log: the time each request took, every client's, by the second it started; one worker serves one request at a time):
  floor    0.3 s busy over 2 requests: writes 0.0 s, reads 0.0 s, tokens 0.3 s
                 1     0.3 s   251.0 ms  POST /v3/auth/tokens
                 1     0.0 s    32.0 ms  POST /v3/projects
  opentofu 0.0 s busy over 1 requests: writes 0.0 s, reads 0.0 s, tokens 0.0 s
                 1     0.0 s    25.0 ms  HEAD /v3/projects/{id}/groups/{id}/roles/{id}
  apply    0.1 s busy over 2 requests: writes 0.0 s, reads 0.0 s, tokens 0.0 s
                 1     0.0 s    40.0 ms  POST /v3/projects
                 1     0.0 s    36.0 ms  GET /v3/role_assignments?role.id=*
`
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("serverTimeSection: -want, +got:\n%s", diff)
	}
}

func TestReadServerTimesUnreadable(t *testing.T) {
	r := result{System: "Keystone", Phases: []phaseResult{{Name: "apply"}}}
	err := readServerTimes(&r, filepath.Join(t.TempDir(), "missing.log"), time.UTC)
	if err == nil {
		t.Fatal("readServerTimes(missing file) = nil, want an error")
	}
	r.ServerLog = err.Error()
	var b strings.Builder
	if err := r.write(&b); err != nil {
		t.Fatal(err)
	}
	if want := "  not measured: open "; !strings.Contains(b.String(), want) {
		t.Errorf("summary lacks %q:\n%s", want, b.String())
	}
}

// TestServerTimeLines keeps the longest templates and says how many it left out.
func TestServerTimeLines(t *testing.T) {
	m := map[string]serverTime{
		"POST /v3/projects":      {N: 2, Took: 90 * time.Millisecond},
		"GET /v3/projects/{id}":  {N: 3, Took: 30 * time.Millisecond},
		"DELETE /v3/groups/{id}": {N: 1, Took: 1200 * time.Millisecond},
	}
	want := []string{
		"1.3 s busy over 6 requests: writes 1.3 s, reads 0.0 s, tokens 0.0 s",
		"      1     1.2 s  1200.0 ms  DELETE /v3/groups/{id}",
		"      2     0.1 s    45.0 ms  POST /v3/projects",
		"... and 1 more",
	}
	if diff := cmp.Diff(want, serverTimeLines(m, 2)); diff != "" {
		t.Errorf("serverTimeLines: -want, +got:\n%s", diff)
	}
	if diff := cmp.Diff([]string{"no requests"}, serverTimeLines(nil, 2)); diff != "" {
		t.Errorf("serverTimeLines(nil): -want, +got:\n%s", diff)
	}
}
