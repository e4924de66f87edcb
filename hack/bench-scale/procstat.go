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

// memory is a process's resident memory in bytes: RSS, and the part of it that is anonymous
// (heap, stacks, the runtime's own). The rest of a Go binary's RSS is mostly its own code and
// read-only data mapped from the page cache, which the kernel shares and can drop, and whose
// size varies by several MiB from one build to the next with the code's layout.
type memory struct {
	RSS, Anon uint64
}

// parseMemory reads VmRSS and RssAnon from the content of /proc/PID/status.
func parseMemory(status string) (memory, error) {
	var m memory
	var rss bool
	for _, l := range strings.Split(status, "\n") {
		k, v, ok := strings.Cut(l, ":")
		if !ok || (k != "VmRSS" && k != "RssAnon") {
			continue
		}
		kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		if err != nil {
			return memory{}, fmt.Errorf("%s in /proc status: %w", k, err)
		}
		if k == "VmRSS" {
			m.RSS, rss = kb*1024, true
		} else {
			m.Anon = kb * 1024
		}
	}
	if !rss {
		return memory{}, fmt.Errorf("no VmRSS in /proc status")
	}
	return m, nil
}

// procSampler reads one process's CPU time and memory: CPU as a difference between phase
// boundaries (exact, the kernel accumulates it), RSS and anonymous memory as the maxima of
// samples every interval (the kernel's VmHWM is the process's lifetime peak, not the phase's).
type procSampler struct {
	pid   int
	ticks float64
	mu    sync.Mutex
	max   memory
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
	if m, err := parseMemory(string(b)); err == nil {
		p.mu.Lock()
		p.max = memory{RSS: max(p.max.RSS, m.RSS), Anon: max(p.max.Anon, m.Anon)}
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

// takeMax returns the highest RSS and anonymous memory seen since the last call and starts the
// next phase's maxima from the current values.
func (p *procSampler) takeMax() memory {
	p.sample()
	p.mu.Lock()
	m := p.max
	p.max = memory{}
	p.mu.Unlock()
	p.sample()
	return m
}

func (p *procSampler) close() { close(p.stop) }
