package main

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"time"
)

// phaseResult is what one phase cost: wall time, the provider's CPU seconds, peak RSS and peak
// anonymous memory, and the provider's Keystone requests by template and by response status.
type phaseResult struct {
	Name     string
	Wall     time.Duration
	CPU      float64
	RSSMax   uint64
	AnonMax  uint64
	Requests map[string]int
	Objects  map[string]int // requests that named one object, by method and path
	Statuses map[int]int
	// Busy is how long at least one of the phase's requests was in flight.
	Busy time.Duration
	// CPUBy is the CPU of the other processes on the machine during the phase (the system,
	// the control plane, the bench, kubectl) and of the whole machine, in the meters' order.
	CPUBy []namedCPU
	// APIWrites are the writes the API server served in the phase, by verb and resource (nil:
	// not measured).
	APIWrites map[string]int
	// From and To are when the phase began and ended.
	From, To time.Time
	// Before: the row ran before the provider started (the floor, kapply, kdelete), so it has
	// no provider figures.
	Before bool
	// ServerTime is how long the system's server spent on the phase's requests (every
	// client's), by method and path template, from its request log (nil: not measured).
	ServerTime map[string]serverTime
}

// namedCPU is the CPU seconds one meter counted in a phase.
type namedCPU struct {
	Name    string
	Seconds float64
}

// driftResult is the hand-made change at steady state and how long the provider took to undo it.
type driftResult struct {
	Object   string // the resource whose Keystone object was changed, e.g. Project bench/bench-project-0042
	Change   string // what was changed, e.g. description "changed by hand"
	Reverted bool
	After    time.Duration
	Timeout  time.Duration
	Bound    time.Duration // one poll interval plus the provider's jitter: the revert's deadline
}

// verdict says whether a revert came within Bound, when the run set one.
func (d driftResult) verdict() string {
	switch {
	case d.Bound <= 0:
		return ""
	case d.Reverted && d.After <= d.Bound:
		return fmt.Sprintf("; within one poll plus jitter (%s): yes", secs(d.Bound))
	default:
		return fmt.Sprintf("; within one poll plus jitter (%s): NO", secs(d.Bound))
	}
}

// result is everything the summary prints.
type result struct {
	N, Resources int
	Kinds        string // what the resources are, for the header
	System       string // the external system, e.g. Keystone
	FloorHow     string // what the floor is, e.g. ksfloor -workload-c 10
	RatioGoal    string // what the ratios to the floor are held to
	PerResource  []kindCount
	ProviderArgs []string
	Poll         time.Duration
	Submit       time.Duration // kubectl apply -f alone
	ToReady      time.Duration // from kubectl apply until all Ready and Synced
	DeleteSubmit time.Duration // kubectl delete -f alone
	Deleted      time.Duration // from kubectl delete until no resource and no object on the server is left
	FloorCreate  time.Duration
	FloorDelete  time.Duration
	SteadyWindow time.Duration
	SteadyPhase  string
	Drift        driftResult
	Phases       []phaseResult
	Tofu         tofuResult // the OpenTofu peer, when -tofu was given
	FloorLine    string     // the floor's FLOOR line, verbatim
	// Cores is how many cores the machine has, for the CPU table.
	Cores int
	// Pinned says how the processes were pinned to cores; "" means they were not.
	Pinned string
	// Floor is the floor's run (create and delete) as a phase, for its row of the CPU table.
	Floor *phaseResult
	// KubeOnly are the rows of kubectl's apply and delete of the workload with no provider
	// running (kubeonly.go).
	KubeOnly []phaseResult
	// TofuRun is OpenTofu's apply and destroy as a phase, for the server's time (nil: not run).
	TofuRun    *phaseResult
	Incomplete string // why the run stopped early, if it did
	// ServerLog says why the server's time per phase was not read from its log ("": it was,
	// or no log was given).
	ServerLog string
}

// ratio is a/b, or 0 when b is unknown.
func ratio(a, b time.Duration) float64 {
	if b <= 0 {
		return 0
	}
	return a.Seconds() / b.Seconds()
}

// ratioText is a/b as "1.23x", or "not measured" when either side was not (a skipped floor, a
// phase a stopped run never finished): a ratio of 0 reads as a result.
func ratioText(a, b time.Duration) string {
	if a <= 0 || b <= 0 {
		return "not measured"
	}
	return fmt.Sprintf("%.2fx", ratio(a, b))
}

// steadyRate is the steady phase's requests per resource per poll interval, and its writes.
func (r result) steadyRate() (perResourcePoll float64, t tally) {
	for _, p := range r.Phases {
		if p.Name != r.SteadyPhase {
			continue
		}
		t = sumRequests(p.Requests)
		if r.Resources > 0 && r.Poll > 0 && r.SteadyWindow > 0 {
			polls := r.SteadyWindow.Seconds() / r.Poll.Seconds()
			perResourcePoll = float64(t.Total) / float64(r.Resources) / polls
		}
	}
	return perResourcePoll, t
}

func secs(d time.Duration) string { return fmt.Sprintf("%.1f s", d.Seconds()) }

// measured is secs, or "not measured" for a phase a stopped run never finished (0).
func measured(d time.Duration) string {
	if d == 0 {
		return "not measured"
	}
	return secs(d)
}

// lag is how long after kubectl apply returned the last resource became Ready: the part of
// the apply that is the provider's alone (kubectl's own creates take seconds at N=500).
func lag(toReady, submit time.Duration) string {
	if toReady == 0 || submit == 0 {
		return "not measured"
	}
	return secs(max(toReady-submit, 0))
}

func mib(b uint64) float64 { return float64(b) / (1 << 20) }

// write prints the summary block: headline figures first, then a table per phase, then the
// requests of each phase by method and path template. It returns the first write error, if any.
func (r result) write(w io.Writer) error {
	ew := &errWriter{w: w}
	// Trailing blanks trimmed: a phase with no responses ends its row with an empty statuses column.
	p := func(format string, a ...any) { ew.printf("%s\n", strings.TrimRight(fmt.Sprintf(format, a...), " ")) }
	p("==== bench-scale summary: N=%d, %d resources (%s) ====", r.N, r.Resources, r.Kinds)
	if r.Incomplete != "" {
		p("INCOMPLETE  : %s", r.Incomplete)
	}
	p("provider    : %s", strings.Join(r.ProviderArgs, " "))
	p("apply       : every resource Ready and Synced %s after kubectl apply started (kubectl apply -f itself: %s; %s after it returned)", measured(r.ToReady), measured(r.Submit), lag(r.ToReady, r.Submit))
	p("delete      : every resource gone and no object left in %s %s after kubectl delete started (kubectl delete -f itself: %s)", r.System, measured(r.Deleted), measured(r.DeleteSubmit))
	p("floor       : create %s, delete %s (%s, same fresh %s, same run)", measured(r.FloorCreate), measured(r.FloorDelete), r.FloorHow, r.System)
	p("opentofu    : %s", r.Tofu.line(r.FloorCreate, r.FloorDelete))
	var vsTofu string
	if r.Tofu.Apply > 0 {
		vsTofu = fmt.Sprintf("; provider/OpenTofu create %s, delete %s", ratioText(r.ToReady, r.Tofu.Apply), ratioText(r.Deleted, r.Tofu.Destroy))
	}
	p("ratios      : create provider/floor %s, delete provider/floor %s (%s)%s", ratioText(r.ToReady, r.FloorCreate), ratioText(r.Deleted, r.FloorDelete), r.RatioGoal, vsTofu)
	rate, t := r.steadyRate()
	p("steady state: %s = %.1f poll intervals of %s: %.2f requests/resource/poll (goal <= 0.2), %d writes, %d token requests", secs(r.SteadyWindow), r.SteadyWindow.Seconds()/max(r.Poll.Seconds(), 1e-9), r.Poll, rate, t.Writes, t.Auth)
	switch {
	case r.Drift.Object == "":
		p("drift       : not measured")
	case r.Drift.Reverted:
		p("drift       : %s of %s changed straight in %s: reverted after %s (poll interval %s)%s", r.Drift.Change, r.Drift.Object, r.System, secs(r.Drift.After), r.Poll, r.Drift.verdict())
	default:
		p("drift       : %s of %s changed straight in %s: NOT reverted within %s (poll interval %s)%s", r.Drift.Change, r.Drift.Object, r.System, secs(r.Drift.Timeout), r.Poll, r.Drift.verdict())
	}
	p("steady/kind : %s", r.kindLine())
	p("hot loops   : %s", r.hotLoopLine())
	var peak, anon uint64
	var cpu float64
	for _, ph := range r.Phases {
		peak, anon, cpu = max(peak, ph.RSSMax), max(anon, ph.AnonMax), cpu+ph.CPU
	}
	p("resources   : provider RSS max %.1f MiB (anonymous max %.1f MiB; the rest is mostly the binary's code and data, mapped from the page cache), CPU %.2f s over all phases (per phase below)", mib(peak), mib(anon), cpu)
	p("kube only   : %s", r.kubeOnlyLine())
	if r.Pinned != "" {
		p("pinned      : %s", r.Pinned)
	}
	p("cpu budget  : %s", r.budgetLine())
	if r.FloorLine != "" {
		p("%-12s: %s", strings.Fields(r.FloorHow + " floor")[0], r.FloorLine)
	}
	p("")
	p("%-8s %8s %7s %9s %7s %6s %7s %12s %13s  %s", "phase", "wall_s", "busy_s", "requests", "writes", "tokens", "cpu_s", "rss_max_MiB", "anon_max_MiB", "statuses")
	for _, ph := range r.Phases {
		t := sumRequests(ph.Requests)
		p("%-8s %8.1f %7.1f %9d %7d %6d %7.2f %12.1f %13.1f  %s", ph.Name, ph.Wall.Seconds(), ph.Busy.Seconds(), t.Total, t.Writes, t.Auth, ph.CPU, mib(ph.RSSMax), mib(ph.AnonMax), statusLine(ph.Statuses))
	}
	p("(busy_s: how long at least one provider request was in flight; the rest of wall_s the system was idle)")
	r.cpuTable(p)
	p("")
	p("API server writes per phase (every client: kubectl, the provider, the controller manager):")
	for _, ph := range slices.Concat(r.KubeOnly, r.Phases) {
		p("  %-8s %s", ph.Name, apiWritesLine(ph.APIWrites))
	}
	r.serverTimeSection(p)
	p("")
	p("requests by method and path, per phase:")
	for _, ph := range r.Phases {
		if len(ph.Requests) == 0 {
			p("%s: none", ph.Name)
			continue
		}
		p("%s:", ph.Name)
		for _, k := range byCount(ph.Requests) {
			p("  %7d  %s", ph.Requests[k], k)
		}
	}
	p("==== end of bench-scale summary ====")
	return ew.err
}

// statusLine renders status counts as "200:12 404:1", in status order; 0 means no response.
func statusLine(m map[int]int) string {
	codes := make([]int, 0, len(m))
	for c := range m {
		codes = append(codes, c)
	}
	sort.Ints(codes)
	parts := make([]string, 0, len(codes))
	for _, c := range codes {
		parts = append(parts, fmt.Sprintf("%d:%d", c, m[c]))
	}
	return strings.Join(parts, " ")
}

// cpuTable prints, per phase, the CPU seconds of each process the meters watched and of the
// machine, with the cores they average over the phase in parentheses.
// The rows from before the provider started come first, the floor's and kubectl's alone,
// without a provider figure.
func (r result) cpuTable(p func(string, ...any)) {
	var rows []phaseResult
	if r.Floor != nil {
		rows = append(rows, *r.Floor)
	}
	rows = slices.Concat(rows, r.KubeOnly, r.Phases)
	if len(rows) == 0 || len(rows[0].CPUBy) == 0 {
		return
	}
	p("")
	head := fmt.Sprintf("%-8s %16s", "phase", "provider")
	for _, c := range rows[0].CPUBy {
		head += fmt.Sprintf(" %16s", c.Name)
	}
	p("CPU seconds (cores) per phase, on %d cores:", r.Cores)
	p("%s", head)
	for _, ph := range rows {
		prov := cores(ph.CPU, ph.Wall)
		if ph.Before {
			prov = "-"
		}
		line := fmt.Sprintf("%-8s %16s", ph.Name, prov)
		for _, c := range ph.CPUBy {
			line += fmt.Sprintf(" %16s", cores(c.Seconds, ph.Wall))
		}
		p("%s", line)
	}
	for _, c := range rows[0].CPUBy {
		if strings.HasSuffix(c.Name, " waited") {
			p("(%s: seconds it was ready to run but waited for a core, besides its CPU)", c.Name)
		}
	}
}

// cores is "12.34 (0.56)": seconds, and the cores they average over wall.
func cores(s float64, wall time.Duration) string {
	if wall <= 0 {
		return fmt.Sprintf("%.2f", s)
	}
	return fmt.Sprintf("%.2f (%.2f)", s, s/wall.Seconds())
}

// serverTimeLimit is how many templates each phase's server time lists.
const serverTimeLimit = 8

// serverTimeSection prints how long the server's worker spent on each phase's requests (the
// floor's and OpenTofu's first), when its log was read or failed to be.
func (r result) serverTimeSection(p func(string, ...any)) {
	phases := serverPhases(&r)
	read := false
	for _, ph := range phases {
		read = read || ph.ServerTime != nil
	}
	if !read && r.ServerLog == "" {
		return
	}
	p("")
	p("%s's worker time per phase (its request log: the time each request took, every client's, by the second it started; one worker serves one request at a time):", r.System)
	if r.ServerLog != "" {
		p("  not measured: %s", r.ServerLog)
		return
	}
	for _, ph := range phases {
		lines := serverTimeLines(ph.ServerTime, serverTimeLimit)
		p("  %-8s %s", ph.Name, lines[0])
		for _, l := range lines[1:] {
			p("  %8s %s", "", l)
		}
	}
}
