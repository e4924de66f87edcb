package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// clockTicks is the unit of utime and stime in /proc/PID/stat (sysconf(_SC_CLK_TCK)); the
// standard library has no sysconf, so ask getconf once and fall back to Linux's usual 100.
func clockTicks(ctx context.Context) float64 {
	out, err := exec.CommandContext(ctx, "getconf", "CLK_TCK").Output()
	if err == nil {
		if v, err := strconv.ParseFloat(strings.TrimSpace(string(out)), 64); err == nil && v > 0 {
			return v
		}
	}
	return 100
}

// statFields returns the fields of the content of /proc/PID/stat that follow the command name
// (field 2), which may hold spaces and parentheses: fields are counted from the last ')'. f[0]
// is field 3; fewer than need fields is an error.
func statFields(stat string, need int) ([]string, error) {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return nil, fmt.Errorf("no ')' in /proc stat line %q", stat)
	}
	f := strings.Fields(stat[i+1:])
	if len(f) < need {
		return nil, fmt.Errorf("short /proc stat line %q", stat)
	}
	return f, nil
}

// parseCPUTicks returns utime+stime from the content of /proc/PID/stat.
func parseCPUTicks(stat string) (uint64, error) {
	// State is field 3 (f[0]), utime field 14 (f[11]), stime field 15 (f[12]).
	f, err := statFields(stat, 13)
	if err != nil {
		return 0, err
	}
	u, err := strconv.ParseUint(f[11], 10, 64)
	if err != nil {
		return 0, err
	}
	s, err := strconv.ParseUint(f[12], 10, 64)
	if err != nil {
		return 0, err
	}
	return u + s, nil
}

// parseRSS returns VmRSS in bytes from the content of /proc/PID/status.
func parseRSS(status string) (uint64, error) {
	for _, l := range strings.Split(status, "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb * 1024, err
		}
	}
	return 0, fmt.Errorf("no VmRSS in /proc status")
}

// procSampler reads one process's CPU time and RSS: CPU as a difference between phase
// boundaries (exact, the kernel accumulates it), RSS as the maximum of samples every interval
// (the kernel's VmHWM is the process's lifetime peak, not the phase's).
type procSampler struct {
	pid   int
	ticks float64
	mu    sync.Mutex
	max   uint64
	stop  chan struct{}
}

func newProcSampler(ctx context.Context, pid int, every time.Duration) *procSampler {
	p := &procSampler{pid: pid, ticks: clockTicks(ctx), stop: make(chan struct{})}
	go func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			p.sample()
			select {
			case <-p.stop:
				return
			case <-t.C:
			}
		}
	}()
	return p
}

func (p *procSampler) sample() {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.pid))
	if err != nil {
		return
	}
	if rss, err := parseRSS(string(b)); err == nil {
		p.mu.Lock()
		p.max = max(p.max, rss)
		p.mu.Unlock()
	}
}

// cpuSeconds is the process's user+system CPU time so far.
func (p *procSampler) cpuSeconds() float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.pid))
	if err != nil {
		return 0
	}
	t, err := parseCPUTicks(string(b))
	if err != nil {
		return 0
	}
	return float64(t) / p.ticks
}

// takeMaxRSS returns the highest RSS seen since the last call and starts the next phase's
// maximum from the current RSS.
func (p *procSampler) takeMaxRSS() uint64 {
	p.sample()
	p.mu.Lock()
	m := p.max
	p.max = 0
	p.mu.Unlock()
	p.sample()
	return m
}

func (p *procSampler) close() { close(p.stop) }
