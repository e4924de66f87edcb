package main

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
)

// The provider, Keystone (one uwsgi worker: one core at most), the API server and etcd, kubectl
// and the bench itself share the machine's cores. Keystone's floor is measured with Keystone
// alone on them, so a ratio above one is partly CPU that the others took from Keystone. These
// meters say how much, per phase.

// A cpuMeter reads a CPU time in seconds that only grows; a phase's share is the difference
// between its ends.
type cpuMeter struct {
	Name string
	Read func() float64
}

// A pidFile names the file a process writes its PID to.
type pidFile struct {
	Name, Path string
}

// parseCPUOf parses -cpu-of: comma-separated NAME=PIDFILE.
func parseCPUOf(s string) ([]pidFile, error) {
	var out []pidFile
	for _, kv := range strings.Split(s, ",") {
		if kv = strings.TrimSpace(kv); kv == "" {
			continue
		}
		name, path, ok := strings.Cut(kv, "=")
		if !ok || name == "" || path == "" {
			return nil, fmt.Errorf("-cpu-of %q: want NAME=PIDFILE[,NAME=PIDFILE...], got %q", s, kv)
		}
		out = append(out, pidFile{Name: name, Path: path})
	}
	return out, nil
}

// meters are the phases' CPU meters besides the provider's: the processes in pids, the bench
// itself, the kubectl runs it waited for, and the machine. The first of pids is the system's
// server (hack/bench-scale.sh passes it first): its time ready to run but waiting for a core is
// metered too, as "NAME waited". Keystone serves one request at a time, so that wait adds to
// every request it serves; the floor runs with Keystone alone on the machine and waits for none.
func meters(pids []pidFile, ticks float64) []cpuMeter {
	var m []cpuMeter
	for i, p := range pids {
		m = append(m, cpuMeter{Name: p.Name, Read: treeCPU(p.Path, ticks)})
		if i == 0 {
			m = append(m, cpuMeter{Name: p.Name + " waited", Read: treeRunQueueWait(p.Path)})
		}
	}
	return append(m,
		cpuMeter{Name: "bench-scale", Read: selfCPU(ticks, false)},
		cpuMeter{Name: "kubectl", Read: selfCPU(ticks, true)},
		cpuMeter{Name: machineMeter, Read: machineCPU(ticks)},
	)
}

// machineMeter names the meter of the whole machine's CPU.
const machineMeter = "machine"

// treeCPU reads the CPU seconds of the live processes under the PID written in pidFile.
func treeCPU(pidFile string, ticks float64) func() float64 {
	return treeSum(pidFile, "stat", parseCPUTicks, ticks)
}

// treeRunQueueWait reads the seconds the live processes under the PID written in pidFile spent
// ready to run on a run queue, waiting for a core (/proc/PID/schedstat, in nanoseconds).
func treeRunQueueWait(pidFile string) func() float64 {
	return treeSum(pidFile, "schedstat", parseRunQueueWait, 1e9)
}

// treeSum sums a counter that parse reads from /proc/PID/<file> over the live processes under
// the PID written in pidFile (read at each call: a restarted service writes a new one), in
// units per second. A process that ended within the phase is not counted: the services here
// keep their processes for the whole run.
func treeSum(pidFile, file string, parse func(string) (uint64, error), unit float64) func() float64 {
	return func() float64 {
		b, err := os.ReadFile(pidFile) //nolint:gosec // G304: a pid file hack/bench-scale.sh names in its own state directory
		if err != nil {
			return 0
		}
		root, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil {
			return 0
		}
		var sum uint64
		for _, pid := range descendants(root, processParents()) {
			if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/%s", pid, file)); err == nil {
				if t, err := parse(string(b)); err == nil {
					sum += t
				}
			}
		}
		return float64(sum) / unit
	}
}

// parseRunQueueWait reads the second field of /proc/PID/schedstat: nanoseconds spent waiting
// on a run queue (the first is time on a core, the third the number of time slices).
func parseRunQueueWait(schedstat string) (uint64, error) {
	f := strings.Fields(schedstat)
	if len(f) < 2 {
		return 0, fmt.Errorf("short /proc schedstat line %q", schedstat)
	}
	return strconv.ParseUint(f[1], 10, 64)
}

// selfCPU reads the bench's own CPU seconds; children reads those of its children that ended
// and were waited for (each kubectl it ran), which the kernel adds to its cutime and cstime.
func selfCPU(ticks float64, children bool) func() float64 {
	return func() float64 {
		b, err := os.ReadFile("/proc/self/stat")
		if err != nil {
			return 0
		}
		f, err := statFields(string(b), 15)
		if err != nil {
			return 0
		}
		i := 11 // utime, stime
		if children {
			i = 13 // cutime, cstime
		}
		u, _ := strconv.ParseUint(f[i], 10, 64)
		s, _ := strconv.ParseUint(f[i+1], 10, 64)
		return float64(u+s) / ticks
	}
}

// machineCPU reads the CPU seconds every core spent busy (neither idle nor waiting for I/O),
// from the first line of /proc/stat.
func machineCPU(ticks float64) func() float64 {
	return func() float64 {
		b, err := os.ReadFile("/proc/stat")
		if err != nil {
			return 0
		}
		busy, err := parseBusyTicks(string(b))
		if err != nil {
			return 0
		}
		return float64(busy) / ticks
	}
}

// parseBusyTicks sums the first ("cpu") line of /proc/stat but its idle and iowait fields.
func parseBusyTicks(stat string) (uint64, error) {
	line, _, _ := strings.Cut(stat, "\n")
	f := strings.Fields(line)
	if len(f) < 6 || f[0] != "cpu" {
		return 0, fmt.Errorf("no cpu line in /proc/stat: %q", line)
	}
	var busy uint64
	for i, v := range f[1:] {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc/stat field %d: %w", i+1, err)
		}
		if i != 3 && i != 4 { // idle, iowait
			busy += n
		}
	}
	return busy, nil
}

// onlineCPUs is how many cores the machine has online, whatever this process is pinned to
// (runtime.NumCPU counts only the cores it may run on, one in a PIN=1 run).
func onlineCPUs() int {
	b, err := os.ReadFile("/sys/devices/system/cpu/online")
	if err != nil {
		return runtime.NumCPU()
	}
	if n := countCPUList(strings.TrimSpace(string(b))); n > 0 {
		return n
	}
	return runtime.NumCPU()
}

// countCPUList counts the cores of a kernel CPU list such as "0-3,6"; 0 if it is malformed.
func countCPUList(s string) int {
	n := 0
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil {
			return 0
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a {
				return 0
			}
		}
		n += b - a + 1
	}
	return n
}
