package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestParseBusyTicks(t *testing.T) {
	testParse(t, "parseBusyTicks", parseBusyTicks, map[string]parseCase[uint64]{
		// user nice system idle iowait irq softirq steal guest guest_nice
		"AllButIdleAndIOWait": {in: "cpu  100 2 30 5000 40 1 2 3 0 0\ncpu0 50 1 15 2500 20 0 1 1 0 0\n", want: 100 + 2 + 30 + 1 + 2 + 3},
		"NotTheCPULine":       {in: "intr 1 2 3 4 5 6\n", wantErr: true},
		"ShortLine":           {in: "cpu 1 2 3\n", wantErr: true},
		"UnreadableField":     {in: "cpu 1 2 x 4 5 6\n", wantErr: true},
	})
}

func TestParseCPUOf(t *testing.T) {
	cases := map[string]struct {
		in      string
		want    []pidFile
		wantErr bool
	}{
		"None": {in: ""},
		"Two": {in: "keystone=/s/keystone/uwsgi.pid, controlplane=/s/controlplane.pid",
			want: []pidFile{{Name: "keystone", Path: "/s/keystone/uwsgi.pid"}, {Name: "controlplane", Path: "/s/controlplane.pid"}}},
		"NoPath":     {in: "keystone=", wantErr: true},
		"NoEquals":   {in: "keystone", wantErr: true},
		"EmptyName":  {in: "=/s/x.pid", wantErr: true},
		"OneBadPair": {in: "a=/a.pid,b", wantErr: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := parseCPUOf(tc.in)
			if (err != nil) != tc.wantErr {
				t.Fatalf("parseCPUOf(%q): error %v, want error: %v", tc.in, err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("parseCPUOf(%q) -want +got:\n%s", tc.in, diff)
			}
		})
	}
}

func TestParseRunQueueWait(t *testing.T) {
	testParse(t, "parseRunQueueWait", parseRunQueueWait, map[string]parseCase[uint64]{
		// time on a core (ns), time waiting on a run queue (ns), time slices
		"SecondField": {in: "105777 117664 2\n", want: 117664},
		"ShortLine":   {in: "105777\n", wantErr: true},
		"NotANumber":  {in: "105777 x 2\n", wantErr: true},
	})
}

// TestMeterNames: the system's server (the first pid file) has its wait for a core metered
// beside its CPU; the others only their CPU.
func TestMeterNames(t *testing.T) {
	ms := meters([]pidFile{{Name: "keystone", Path: "/k.pid"}, {Name: "controlplane", Path: "/c.pid"}}, 100)
	got := make([]string, 0, len(ms))
	for _, m := range ms {
		got = append(got, m.Name)
	}
	want := []string{"keystone", "keystone waited", "controlplane", "bench-scale", "kubectl", "machine"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("meter names -want +got:\n%s", diff)
	}
}

// TestSinceMeters: a phase's CPU is each meter's growth since the phase began, in meter order.
func TestSinceMeters(t *testing.T) {
	a, b := 10.0, 100.0
	ms := []cpuMeter{{Name: "a", Read: func() float64 { return a }}, {Name: "b", Read: func() float64 { return b }}}
	then := readMeters(ms)
	a, b = 12.5, 130
	want := []namedCPU{{Name: "a", Seconds: 2.5}, {Name: "b", Seconds: 30}}
	if diff := cmp.Diff(want, sinceMeters(ms, then)); diff != "" {
		t.Errorf("sinceMeters -want +got:\n%s", diff)
	}
}

// TestTreeCPUOfThisProcess: a pid file naming this test counts at least the CPU it has used, and
// one that cannot be read counts nothing rather than failing the run.
func TestTreeCPUOfThisProcess(t *testing.T) {
	ticks := clockTicks(t.Context())
	self := selfCPU(ticks, false)
	dir := t.TempDir()
	pf := dir + "/self.pid"
	if err := os.WriteFile(pf, []byte(strconv.Itoa(os.Getpid())+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// Some CPU to count.
	n := 0
	for end := time.Now().Add(50 * time.Millisecond); time.Now().Before(end); n++ {
	}
	t.Logf("%d turns", n)
	// The process's own CPU is read first: both counters only grow, so the tree, read after
	// it, can hold no less.
	floor := self()
	if got := treeCPU(pf, ticks)(); got < floor {
		t.Errorf("treeCPU of this process: %.2f s, less than its own %.2f s", got, floor)
	}
	if got := treeCPU(dir+"/missing.pid", ticks)(); got != 0 {
		t.Errorf("treeCPU of a missing pid file: %.2f s, want 0", got)
	}
	// The wait for a core only grows; a process that has run has a readable one.
	wait := treeRunQueueWait(pf)
	w0 := wait()
	for end := time.Now().Add(20 * time.Millisecond); time.Now().Before(end); n++ {
	}
	if w1 := wait(); w1 < w0 || w0 < 0 {
		t.Errorf("treeRunQueueWait of this process went from %.6f s to %.6f s", w0, w1)
	}
	if got := treeRunQueueWait(dir + "/missing.pid")(); got != 0 {
		t.Errorf("treeRunQueueWait of a missing pid file: %.2f s, want 0", got)
	}
}

// TestCPUTable: the rows from before the provider started come first (the floor's, then
// kubectl's alone) with no provider figure; each row gives seconds and
// the cores they average over the phase; a wait for a core is explained under the table.
func TestCPUTable(t *testing.T) {
	r := result{Cores: 2,
		Floor: &phaseResult{Name: "floor", Before: true, Wall: 10 * time.Second,
			CPUBy: []namedCPU{{Name: "keystone", Seconds: 9.9}, {Name: "keystone waited", Seconds: 0.1}, {Name: "machine", Seconds: 11}}},
		KubeOnly: []phaseResult{{Name: "kapply", Before: true, Wall: 8 * time.Second,
			CPUBy: []namedCPU{{Name: "keystone", Seconds: 0.1}, {Name: "keystone waited", Seconds: 0}, {Name: "machine", Seconds: 12}}}},
		Phases: []phaseResult{{Name: "apply", Wall: 20 * time.Second, CPU: 4,
			CPUBy: []namedCPU{{Name: "keystone", Seconds: 13}, {Name: "keystone waited", Seconds: 4}, {Name: "machine", Seconds: 39.5}}}},
	}
	var lines []string
	r.cpuTable(func(f string, a ...any) { lines = append(lines, strings.TrimRight(fmt.Sprintf(f, a...), " ")) })
	want := []string{
		"",
		"CPU seconds (cores) per phase, on 2 cores:",
		"phase            provider         keystone  keystone waited          machine",
		"floor                   -      9.90 (0.99)      0.10 (0.01)     11.00 (1.10)",
		"kapply                  -      0.10 (0.01)      0.00 (0.00)     12.00 (1.50)",
		"apply         4.00 (0.20)     13.00 (0.65)      4.00 (0.20)     39.50 (1.98)",
		"(keystone waited: seconds it was ready to run but waited for a core, besides its CPU)",
	}
	if diff := cmp.Diff(want, lines); diff != "" {
		t.Errorf("cpuTable -want +got:\n%s", diff)
	}
	var none []string
	result{Phases: []phaseResult{{Name: "apply"}}}.cpuTable(func(f string, a ...any) { none = append(none, f) })
	if len(none) != 0 {
		t.Errorf("cpuTable without meters printed %q, want nothing", none)
	}
}

func TestCountCPUList(t *testing.T) {
	for in, want := range map[string]int{"0": 1, "0-1": 2, "0-3,6": 5, "0,2-3": 3, "": 0, "1-0": 0, "a": 0, "0-x": 0} {
		if got := countCPUList(in); got != want {
			t.Errorf("countCPUList(%q) = %d, want %d", in, got, want)
		}
	}
}
