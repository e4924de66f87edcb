package main

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"time"
)

// treeSampler samples the summed RSS of a process and its descendants: tofu holds the graph and
// the state, its plugin (a child process) the API client, so either alone would understate.
type treeSampler struct {
	max  uint64 // written by the sampling goroutine alone, read after done
	stop chan struct{}
	done chan struct{}
}

func newTreeSampler(root int, every time.Duration) *treeSampler {
	s := &treeSampler{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			s.max = max(s.max, treeRSS(root))
			select {
			case <-s.stop:
				return
			case <-t.C:
			}
		}
	}()
	return s
}

// close stops the sampling and returns the peak.
func (s *treeSampler) close() uint64 {
	close(s.stop)
	<-s.done
	return s.max
}

// treeRSS is the summed RSS of root and its descendants now, from /proc.
func treeRSS(root int) uint64 {
	var sum uint64
	for _, pid := range descendants(root, processParents()) {
		if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid)); err == nil {
			m, _ := parseMemory(string(b)) // 0 for a zombie, which holds no memory
			sum += m.RSS
		}
	}
	return sum
}

// processParents maps every live process's PID to its parent's, from /proc.
func processParents() map[int]int {
	parent := map[int]int{}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return parent
	}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if b, err := os.ReadFile("/proc/" + e.Name() + "/stat"); err == nil {
			if pp, err := parsePPID(string(b)); err == nil {
				parent[pid] = pp
			}
		}
	}
	return parent
}

// parsePPID returns the parent's PID (field 4) from the content of /proc/PID/stat.
func parsePPID(stat string) (int, error) {
	f, err := statFields(stat, 2)
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(f[1])
}

// descendants is root and every process whose chain of parents reaches it, in PID order.
func descendants(root int, parent map[int]int) []int {
	children := map[int][]int{}
	for pid, pp := range parent {
		if pid != pp {
			children[pp] = append(children[pp], pid)
		}
	}
	out := []int{root}
	for i := 0; i < len(out); i++ {
		out = append(out, children[out[i]]...)
	}
	slices.Sort(out)
	return out
}
