// Command bench-scale measures the provider at scale against a floor, in one run on fresh
// services: a workload applied with kubectl through the namespaced kinds, a steady state of a
// few poll intervals, a change made by hand on the server, and the delete of everything; and
// the floor, the same writes sent straight to the server by 10 clients. Two systems:
//   - keystone (the default): the workload of ../shared/bench/README.md (1 Domain, N Projects,
//     N/2 Groups, N RoleAssignments of the observed Role member), ksfloor as the floor;
//   - authentik: N Applications each with its OAuth2Provider, N/2 Groups, against the in-repo
//     authentik API server, with the floor of akfloor.go.
//
// The provider runs as its own process behind a counting reverse proxy, so its requests (by
// method and path template), RSS and CPU seconds are read per phase. With -tofu (keystone only),
// OpenTofu + terraform-provider-openstack apply and destroy the same workload right after the
// floor, as the peer issue 12 compares the provider with (tofu.go).
//
// `make bench-scale N=200` runs it through hack/bench-scale.sh, which starts Keystone and the
// control plane and builds the binaries; this program expects them running.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

type options struct {
	N           int
	Poll        time.Duration
	SteadyPolls int
	Timeout     time.Duration
	Seed        uint64
	Kubeconfig  string
	Kubectl     string
	System      string
	KeystoneURL string
	KSFloor     string
	// AuthentikURL is the authentik API server's root (without /api/v3).
	AuthentikURL string
	Provider     string
	// Tofu is hack/build-tofu.sh's directory (the tofu binary and a provider mirror): OpenTofu
	// is then measured on the same workload right after the floor (keystone only); "" skips it.
	Tofu string
	Dir  string
	// Skip names steps left out of a quicker run (floor, tofu, kubeonly, drift, delete), e.g.
	// to measure only memory at a size; their figures then read "not measured".
	Skip map[string]bool
	// ProviderArgs are more flags for the provider, e.g. --pprof-bind-address=127.0.0.1:6060,
	// which also makes the bench save a heap profile at the end of the apply and steady phases.
	ProviderArgs []string
	// ProviderEnv are more environment variables for the provider alone (GOMEMLIMIT=64MiB, say:
	// set for the bench, it would reach the control plane's Go programs too).
	ProviderEnv []string
	// CPUOf names pid files of other processes whose CPU (with their children's) each phase
	// reports: the system's server and the control plane (hack/bench-scale.sh passes both,
	// the server first: its wait for a core is reported too).
	CPUOf []pidFile
	// ServerLog is the system's request log (Keystone's uwsgi log), from which each phase's
	// time in the server's worker is read; "" reads none.
	ServerLog string
	// Pinned says how hack/bench-scale.sh pinned the processes to cores (PIN=1), for the
	// summary; "" means they were not.
	Pinned string
}

func main() {
	if err := benchMain(); err != nil {
		fmt.Fprintln(os.Stderr, "bench-scale:", err)
		os.Exit(1)
	}
}

// benchMain runs the benchmark with the flags given and prints its summary to stdout and to
// summary.txt in -dir, also when the run stopped half-way; it returns why it stopped, if it did.
func benchMain() error {
	var o options
	flag.IntVar(&o.N, "n", 50, "workload size N: keystone: 1 Domain, N Projects, N/2 Groups, N RoleAssignments; authentik: N Applications, N OAuth2Providers, N/2 Groups")
	flag.StringVar(&o.System, "system", "keystone", "keystone or authentik")
	flag.DurationVar(&o.Poll, "poll", time.Minute, "the provider's --poll (its only flag the bench sets besides loopback ports; 1m is the provider's default)")
	flag.IntVar(&o.SteadyPolls, "steady-polls", 3, "length of the steady-state window, in poll intervals")
	flag.DurationVar(&o.Timeout, "timeout", 45*time.Minute, "how long the apply phase, and then the delete phase, may each take")
	flag.Uint64Var(&o.Seed, "seed", 0, "seed picking the object changed by hand (0: from the clock)")
	flag.StringVar(&o.Kubeconfig, "kubeconfig", "", "kubeconfig of the bench's API server")
	flag.StringVar(&o.Kubectl, "kubectl", "kubectl", "kubectl binary")
	flag.StringVar(&o.KeystoneURL, "keystone-url", os.Getenv("KEYSTONE_URL"), "Keystone's URL (with or without /v3)")
	flag.StringVar(&o.Provider, "provider", "", "provider binary built from ./cmd/provider")
	flag.StringVar(&o.KSFloor, "ksfloor", "", "ksfloor binary built from ../shared/bench/ksfloor (keystone only)")
	flag.StringVar(&o.AuthentikURL, "authentik-url", os.Getenv("AUTHENTIK_URL"), "the authentik API server's URL (without /api/v3)")
	flag.StringVar(&o.Tofu, "tofu", "", "hack/build-tofu.sh's directory: also measure OpenTofu + terraform-provider-openstack on the workload, after the floor (keystone only)")
	flag.StringVar(&o.Dir, "dir", os.TempDir(), "directory for the manifests, the provider's log and the summary")
	skip := flag.String("skip", "", "comma-separated steps to leave out: floor, tofu, kubeonly, drift, delete")
	provArgs := flag.String("provider-args", "", "space-separated extra flags for the provider (--pprof-bind-address=ADDR also saves heap-<phase>.pb.gz in -dir)")
	cpuOf := flag.String("cpu-of", "", "comma-separated NAME=PIDFILE: report each phase's CPU of the process in PIDFILE and its children as NAME, and for the first also the time it waited for a core as \"NAME waited\" (hack/bench-scale.sh passes the system's server first, then the control plane)")
	flag.StringVar(&o.ServerLog, "server-log", "", "Keystone's request log (uwsgi's line per request; hack/bench-scale.sh passes hack/keystone.sh's): report how long its worker spent on each phase's requests, by method and path")
	flag.StringVar(&o.Pinned, "pinned", "", "how the processes were pinned to cores, for the summary (hack/bench-scale.sh sets it with PIN=1)")
	provEnv := flag.String("provider-env", "", "space-separated KEY=VALUE environment variables for the provider alone, e.g. GOMEMLIMIT=64MiB")
	flag.Parse()
	var err error
	if o.Skip, err = parseSkip(*skip); err != nil {
		fmt.Fprintln(os.Stderr, "bench-scale:", err)
		os.Exit(2)
	}
	if o.CPUOf, err = parseCPUOf(*cpuOf); err != nil {
		fmt.Fprintln(os.Stderr, "bench-scale:", err)
		os.Exit(2)
	}
	o.ProviderArgs = strings.Fields(*provArgs)
	o.ProviderEnv = strings.Fields(*provEnv)
	if o.Seed == 0 {
		o.Seed = uint64(time.Now().UnixNano())
	}
	ctx, cancel := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer cancel()
	r, err := run(ctx, o, os.Getenv, os.Stderr)
	if err != nil {
		r.Incomplete = err.Error()
	}
	if o.ServerLog != "" {
		if lerr := readServerTimes(&r, o.ServerLog, time.Local); lerr != nil {
			r.ServerLog = lerr.Error()
		}
	}
	if werr := r.write(os.Stdout); werr != nil {
		err = errors.Join(err, fmt.Errorf("writing the summary to stdout: %w", werr))
	}
	if f, ferr := os.Create(filepath.Join(o.Dir, "summary.txt")); ferr == nil {
		if werr := errors.Join(r.write(f), f.Close()); werr != nil {
			err = errors.Join(err, fmt.Errorf("writing %s: %w", f.Name(), werr))
		}
	}
	return err
}

// bench is one run's state, shared by its steps.
type bench struct {
	o        options
	log      *errWriter
	sys      system
	r        *result
	c        *counter
	proxy    string
	k        *kube
	setup    string // the setup manifest: namespace, secret, ProviderConfig
	manifest string // the workload's manifest
	teardown string // the same objects, dependents first, for the delete phase
	prov     *providerProc
	ph       *phases
	meters   []cpuMeter
	api      *apiWrites
	cleanups []func() // run in reverse order when the run ends
}

// run does the whole benchmark and returns what it measured, also when it stops half-way (r is
// named: the cleanup at the end of the last phase fills in r.Phases after a return).
func run(ctx context.Context, o options, env func(string) string, log io.Writer) (r result, err error) {
	sys, err := newSystem(o, env)
	r = result{N: o.N, Resources: sys.resources(), Kinds: sys.kinds(), System: sys.name(), FloorHow: sys.floorHow(), RatioGoal: sys.ratioGoal(),
		PerResource: sys.perResource(), Poll: o.Poll, SteadyPhase: "steady", Cores: onlineCPUs(), Pinned: o.Pinned}
	if err != nil {
		return r, err
	}
	if o.Kubeconfig == "" || o.Provider == "" {
		return r, errors.New("-kubeconfig and -provider are required (hack/bench-scale.sh sets them)")
	}
	if _, ks := sys.(*keystoneSystem); o.Tofu != "" && !ks {
		return r, fmt.Errorf("-tofu measures the Keystone workload: -system %s has no OpenTofu peer", o.System)
	}
	b := &bench{o: o, log: &errWriter{w: log}, sys: sys, r: &r, meters: meters(o.CPUOf, clockTicks(ctx))}
	defer func() {
		b.cleanup()
		if b.log.err != nil && err == nil {
			err = fmt.Errorf("writing the progress log: %w", b.log.err)
		}
	}()
	for _, step := range []struct {
		name string
		run  func(context.Context) error
	}{
		{"floor", b.floor}, {"tofu", b.tofu}, {"prepare", b.prepare}, {"kubeonly", b.kubeOnly}, {"startup", b.startup}, {"apply", b.apply},
		{"steady", b.steady}, {"drift", b.drift}, {"delete", b.delete},
	} {
		if o.Skip[step.name] {
			continue
		}
		if err := step.run(ctx); err != nil {
			return r, err
		}
	}
	return r, nil
}

func (b *bench) cleanup() {
	for i := len(b.cleanups) - 1; i >= 0; i-- {
		b.cleanups[i]()
	}
}

// floor measures the floor first, while nothing else talks to the fresh server.
func (b *bench) floor(ctx context.Context) error {
	t0, cpu0 := time.Now(), readMeters(b.meters)
	fl, err := b.sys.floor(ctx, b.log)
	if err != nil {
		return err
	}
	b.r.FloorCreate, b.r.FloorDelete, b.r.FloorLine = fl.Create, fl.Delete, fl.Line
	// The same CPU table row as a phase's: what Keystone could use with nothing else running.
	t1 := time.Now()
	b.r.Floor = &phaseResult{Name: "floor", Before: true, From: t0, To: t1, Wall: t1.Sub(t0), CPUBy: sinceMeters(b.meters, cpu0)}
	return nil
}

// tofu measures OpenTofu on the workload when -tofu names it, after the floor and before the
// provider: like the floor it talks to Keystone directly (before prepare points the catalog at
// the proxy), under its own prefix, and leaves nothing behind.
func (b *bench) tofu(ctx context.Context) error {
	if b.o.Tofu == "" {
		return nil
	}
	s := b.sys.(*keystoneSystem) // run checked
	if err := s.connect(ctx); err != nil {
		return err
	}
	t0 := time.Now()
	var err error
	b.r.Tofu, err = runTofu(ctx, b.o.Tofu, filepath.Join(b.o.Dir, "tofu"), s, b.log)
	b.r.TofuRun = &phaseResult{Name: "opentofu", From: t0, To: time.Now()}
	return err
}

// prepare starts the counting proxy, points the system at it, and applies the setup manifest
// (the workload's manifest is only written, for the apply phase).
func (b *bench) prepare(ctx context.Context) error {
	if err := b.sys.connect(ctx); err != nil {
		return err
	}
	target, err := url.Parse(b.sys.target())
	if err != nil {
		return err
	}
	b.c = newCounterWith(b.sys.template)
	proxy, stopProxy, err := startProxy(ctx, target, b.c)
	if err != nil {
		return err
	}
	b.proxy = proxy
	b.cleanups = append(b.cleanups, stopProxy)
	setup, err := b.sys.setup(ctx, proxy)
	if err != nil {
		return err
	}
	if b.k, err = newKube(b.o.Kubeconfig, b.o.Kubectl, b.sys.namespace(), b.sys.kubeKinds()); err != nil {
		return err
	}
	if b.api, err = newAPIWrites(b.k.cfg); err != nil {
		return err
	}
	b.setup = filepath.Join(b.o.Dir, "setup.yaml")
	b.manifest = filepath.Join(b.o.Dir, "workload.yaml")
	b.teardown = filepath.Join(b.o.Dir, "workload-teardown.yaml")
	for file, content := range map[string]string{b.setup: setup, b.manifest: b.sys.manifest(), b.teardown: dependentsFirst(b.sys.manifest())} {
		if err := os.WriteFile(file, []byte(content), 0o600); err != nil {
			return err
		}
	}
	if err := b.k.run(ctx, "apply", "-f", b.setup); err != nil {
		return err
	}
	return b.k.watch(ctx)
}

// startup starts the provider and its sampler, and the phases with it, and waits until its
// controllers run.
func (b *bench) startup(ctx context.Context) error {
	prov, err := startProvider(ctx, b.o.Provider, b.o.Kubeconfig, filepath.Join(b.o.Dir, "provider.log"), b.o.Poll, b.o.ProviderArgs, b.o.ProviderEnv)
	if err != nil {
		return err
	}
	b.prov = prov
	b.cleanups = append(b.cleanups, prov.stop)
	b.r.ProviderArgs = slices.Concat(goEnv(b.o.ProviderEnv), prov.args, []string{"(every other flag at its default)"})
	ps := newProcSampler(ctx, prov.pid(), 250*time.Millisecond)
	b.cleanups = append(b.cleanups, ps.close)
	b.ph = &phases{c: b.c, ps: ps, meters: b.meters, api: b.api}
	b.cleanups = append(b.cleanups, func() { b.ph.end(ctx); b.r.Phases = b.ph.results() })

	b.ph.begin(ctx, "startup")
	if err := prov.waitReady(ctx, 2*time.Minute); err != nil {
		return err
	}
	// Its controllers start once safe-start has seen their CRDs: a moment after readiness.
	return sleep(ctx, 3*time.Second)
}

// apply applies the workload and waits until every resource is Ready and Synced.
func (b *bench) apply(ctx context.Context) error {
	b.ph.begin(ctx, "apply")
	t0 := time.Now()
	if err := b.k.run(ctx, "apply", "-f", b.manifest); err != nil {
		return err
	}
	b.r.Submit = time.Since(t0)
	if err := waitFor(ctx, b.prov, b.o.Timeout, b.log, "Ready and Synced", func() (bool, string, error) {
		cs := b.k.census()
		return cs.Ready == b.r.Resources, fmt.Sprintf("%d/%d Ready and Synced %v", cs.Ready, b.r.Resources, cs.NotReady), nil
	}); err != nil {
		return err
	}
	b.r.ToReady = time.Since(t0)
	b.log.printf("bench-scale: all %d resources Ready and Synced after %s\n", b.r.Resources, secs(b.r.ToReady))
	b.saveHeap(ctx, "apply")
	return nil
}

// steady waits one poll interval for the polls to spread out after the apply, then measures
// the steady-state window.
func (b *bench) steady(ctx context.Context) error {
	b.ph.begin(ctx, "settle")
	if err := sleep(ctx, b.o.Poll); err != nil {
		return err
	}
	b.ph.begin(ctx, "steady")
	b.r.SteadyWindow = time.Duration(b.o.SteadyPolls) * b.o.Poll
	if err := sleep(ctx, b.r.SteadyWindow); err != nil {
		return err
	}
	b.saveHeap(ctx, "steady")
	return b.prov.exited()
}

// drift is the drift phase: see drift.
func (b *bench) drift(ctx context.Context) error {
	b.ph.begin(ctx, "drift")
	var err error
	b.r.Drift, err = b.sys.drift(ctx, b.k, b.o, b.log)
	// The provider's default --poll-jitter-percentage is 10 (cmd/provider/flags.go).
	b.r.Drift.Bound = b.o.Poll + b.o.Poll/10
	return err
}

// delete deletes the workload and waits until no resource and no object on the server is left.
// kubectl deletes in the order of its file, so it is handed the workload dependents first, the
// order in which the floor and OpenTofu's destroy delete theirs: a Project's deletion waits for
// the RoleAssignments on it, and with them last in the file the deletions kubectl submitted
// first would wait for the rest of its submissions.
func (b *bench) delete(ctx context.Context) error {
	b.ph.begin(ctx, "delete")
	t0 := time.Now()
	if err := b.k.run(ctx, "delete", "--wait=false", "-f", b.teardown); err != nil {
		return err
	}
	b.r.DeleteSubmit = time.Since(t0)
	if err := waitFor(ctx, b.prov, b.o.Timeout, b.log, "gone", func() (bool, string, error) {
		if cs := b.k.census(); cs.Total > 0 {
			return false, fmt.Sprintf("%d resources left %v", cs.Total, cs.NotReady), nil
		}
		left, err := b.sys.leftovers(ctx)
		return len(left) == 0, fmt.Sprintf("no resource left; in %s: %v", b.sys.name(), left), err
	}); err != nil {
		return err
	}
	b.r.Deleted = time.Since(t0)
	b.log.printf("bench-scale: every resource and %s object gone after %s\n", b.sys.name(), secs(b.r.Deleted))
	return nil
}

// drift changes one random Project's description straight in Keystone and waits until the
// provider has put the desired one back, reading Keystone directly twice a second.
func drift(ctx context.Context, ks *keystoneAdmin, k *kube, w workload, o options, log *errWriter) (driftResult, error) {
	//nolint:gosec // G404: picks which test object to change; nothing depends on it being unpredictable
	i := rand.New(rand.NewPCG(o.Seed, 0)).IntN(w.N)
	name := fmt.Sprintf("project-%04d", i)
	d := driftResult{Object: fmt.Sprintf("Project %s/%s (seed %d)", w.Namespace, name, o.Seed), Change: "description",
		Timeout: 5*o.Poll + time.Minute}
	id, err := k.externalID(ctx, "projects", name)
	if err != nil {
		return d, err
	}
	if err := ks.setProjectDescription(ctx, id, "changed by hand at steady state"); err != nil {
		return d, err
	}
	t0 := time.Now()
	want := w.projectDescription(i)
	log.printf("bench-scale: changed the description of %s (Keystone project %s); waiting for %q again\n", d.Object, id, want)
	for time.Since(t0) < d.Timeout {
		got, err := ks.projectDescription(ctx, id)
		if err != nil {
			return d, err
		}
		if got == want {
			d.Reverted, d.After = true, time.Since(t0)
			return d, nil
		}
		if err := sleep(ctx, 500*time.Millisecond); err != nil {
			return d, err
		}
	}
	return d, nil
}

// waitFor asks done every lookEvery until it holds, printing its progress every 10 s; it fails
// when the provider exits, the context ends or timeout passes. done reads the watches' stores
// (and, once no resource is left, the system's own lists), so asking often costs little and
// adds at most lookEvery to the times measured.
const lookEvery = 200 * time.Millisecond

func waitFor(ctx context.Context, prov *providerProc, timeout time.Duration, log *errWriter, what string, done func() (bool, string, error)) error {
	t0 := time.Now()
	last := t0
	for {
		ok, progress, err := done()
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
		if err := prov.exited(); err != nil {
			return err
		}
		if time.Since(t0) > timeout {
			return fmt.Errorf("not all %s after %s: %s", what, timeout, progress)
		}
		if time.Since(last) >= 10*time.Second {
			log.printf("bench-scale: %5.0f s: %s\n", time.Since(t0).Seconds(), progress)
			last = time.Now()
		}
		if err := sleep(ctx, lookEvery); err != nil {
			return err
		}
	}
}

func sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return fmt.Errorf("interrupted: %w", ctx.Err())
	case <-time.After(d):
		return nil
	}
}
