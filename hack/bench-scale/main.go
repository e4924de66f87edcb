// Command bench-scale measures the provider at scale against Keystone's floor, in one run on
// fresh services: the workload of ../shared/bench/README.md (1 Domain, N Projects, N/2 Groups, N
// RoleAssignments of the observed Role member) applied with kubectl through the namespaced
// kinds, a steady state of a few poll intervals, a change made by hand in Keystone, and the
// delete of everything; and ksfloor, the same writes sent straight to Keystone by 10 clients.
// The provider runs as its own process behind a counting reverse proxy, so its requests (by
// method and path template), RSS and CPU seconds are read per phase.
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
	KeystoneURL string
	Provider    string
	KSFloor     string
	Dir         string
}

func main() {
	var o options
	flag.IntVar(&o.N, "n", 50, "workload size N: 1 Domain, N Projects, N/2 Groups, N RoleAssignments")
	flag.DurationVar(&o.Poll, "poll", 30*time.Second, "the provider's --poll (its only flag the bench sets besides loopback ports)")
	flag.IntVar(&o.SteadyPolls, "steady-polls", 3, "length of the steady-state window, in poll intervals")
	flag.DurationVar(&o.Timeout, "timeout", 45*time.Minute, "how long the apply phase, and then the delete phase, may each take")
	flag.Uint64Var(&o.Seed, "seed", 0, "seed picking the object changed by hand (0: from the clock)")
	flag.StringVar(&o.Kubeconfig, "kubeconfig", "", "kubeconfig of the bench's API server")
	flag.StringVar(&o.Kubectl, "kubectl", "kubectl", "kubectl binary")
	flag.StringVar(&o.KeystoneURL, "keystone-url", os.Getenv("KEYSTONE_URL"), "Keystone's URL (with or without /v3)")
	flag.StringVar(&o.Provider, "provider", "", "provider binary built from ./cmd/provider")
	flag.StringVar(&o.KSFloor, "ksfloor", "", "ksfloor binary built from ../shared/bench/ksfloor")
	flag.StringVar(&o.Dir, "dir", os.TempDir(), "directory for the manifests, the provider's log and the summary")
	flag.Parse()
	if o.Seed == 0 {
		o.Seed = uint64(time.Now().UnixNano())
	}
	ctx, cancel := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer cancel()
	r, err := run(ctx, o, os.Getenv("KEYSTONE_ADMIN_PASSWORD"), os.Stderr)
	if err != nil {
		r.Incomplete = err.Error()
	}
	r.write(os.Stdout)
	if f, ferr := os.Create(filepath.Join(o.Dir, "summary.txt")); ferr == nil {
		r.write(f)
		_ = f.Close()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench-scale:", err)
		os.Exit(1)
	}
}

// run does the whole benchmark and returns what it measured, also when it stops half-way (r is
// named: the deferred end of the last phase fills in r.Phases after a return).
func run(ctx context.Context, o options, password string, log io.Writer) (r result, err error) {
	w := workload{N: o.N, Namespace: "bench", Prefix: "bench"}
	r = result{N: o.N, Resources: w.resources(), Kinds: w.kinds(), Poll: o.Poll, SteadyPhase: "steady"}
	if password == "" || o.KeystoneURL == "" || o.Kubeconfig == "" || o.Provider == "" || o.KSFloor == "" {
		return r, errors.New("KEYSTONE_ADMIN_PASSWORD, -keystone-url, -kubeconfig, -provider and -ksfloor are required (hack/bench-scale.sh sets them)")
	}
	ks, err := newKeystoneAdmin(o.KeystoneURL, password)
	if err != nil {
		return r, err
	}

	// The floor first, while nothing else talks to this fresh Keystone.
	fmt.Fprintf(log, "bench-scale: ksfloor -n %d -workload-c 10 against %s\n", o.N, ks.base)
	fl, err := runFloor(o.KSFloor, ks.base, password, o.N, "floor", log)
	if err != nil {
		return r, err
	}
	r.FloorCreate, r.FloorDelete, r.FloorLine = fl.Create, fl.Delete, fl.Line

	target, err := url.Parse(ks.base)
	if err != nil {
		return r, err
	}
	c := newCounter()
	proxy, stopProxy, err := startProxy(target, c)
	if err != nil {
		return r, err
	}
	defer stopProxy()
	if err := ks.pointCatalogAt(proxy); err != nil {
		return r, err
	}
	k, err := newKube(o.Kubeconfig, o.Kubectl, w.Namespace)
	if err != nil {
		return r, err
	}
	setup := filepath.Join(o.Dir, "setup.yaml")
	manifest := filepath.Join(o.Dir, "workload.yaml")
	if err := os.WriteFile(setup, []byte(w.setup(proxy+"/v3", password)), 0o600); err != nil {
		return r, err
	}
	if err := os.WriteFile(manifest, []byte(w.manifest()), 0o600); err != nil {
		return r, err
	}
	if err := k.run("apply", "-f", setup); err != nil {
		return r, err
	}

	prov, err := startProvider(o.Provider, o.Kubeconfig, filepath.Join(o.Dir, "provider.log"), o.Poll)
	if err != nil {
		return r, err
	}
	defer prov.stop()
	r.ProviderArgs = append(prov.args, "(every other flag at its default)")
	ps := newProcSampler(prov.pid(), 250*time.Millisecond)
	defer ps.close()
	ph := &phases{c: c, ps: ps}
	defer func() { ph.end(); r.Phases = ph.results() }()

	ph.begin("startup")
	if err := prov.waitReady(2 * time.Minute); err != nil {
		return r, err
	}
	// Its controllers start once safe-start has seen their CRDs: a moment after readiness.
	if err := sleep(ctx, 3*time.Second); err != nil {
		return r, err
	}

	ph.begin("apply")
	t0 := time.Now()
	if err := k.run("apply", "-f", manifest); err != nil {
		return r, err
	}
	r.Submit = time.Since(t0)
	if err := waitFor(ctx, prov, o.Timeout, log, "Ready and Synced", func() (bool, string, error) {
		cs, err := k.census(ctx)
		return cs.Ready == r.Resources, fmt.Sprintf("%d/%d Ready and Synced %v", cs.Ready, r.Resources, cs.NotReady), err
	}); err != nil {
		return r, err
	}
	r.ToReady = time.Since(t0)
	fmt.Fprintf(log, "bench-scale: all %d resources Ready and Synced after %s\n", r.Resources, secs(r.ToReady))

	// One poll interval for the polls to spread out after the apply, then the measured window.
	ph.begin("settle")
	if err := sleep(ctx, o.Poll); err != nil {
		return r, err
	}
	ph.begin("steady")
	r.SteadyWindow = time.Duration(o.SteadyPolls) * o.Poll
	if err := sleep(ctx, r.SteadyWindow); err != nil {
		return r, err
	}
	if err := prov.exited(); err != nil {
		return r, err
	}

	ph.begin("drift")
	if r.Drift, err = drift(ctx, ks, k, w, o, log); err != nil {
		return r, err
	}

	ph.begin("delete")
	t0 = time.Now()
	if err := k.run("delete", "--wait=false", "-f", manifest); err != nil {
		return r, err
	}
	r.DeleteSubmit = time.Since(t0)
	if err := waitFor(ctx, prov, o.Timeout, log, "gone", func() (bool, string, error) {
		cs, err := k.census(ctx)
		if err != nil || cs.Total > 0 {
			return false, fmt.Sprintf("%d resources left %v", cs.Total, cs.NotReady), err
		}
		left, err := ks.leftovers(w.domainName(), w.Prefix)
		return len(left) == 0, fmt.Sprintf("no resource left; in Keystone: %v", left), err
	}); err != nil {
		return r, err
	}
	r.Deleted = time.Since(t0)
	fmt.Fprintf(log, "bench-scale: every resource and Keystone object gone after %s\n", secs(r.Deleted))
	return r, nil
}

// drift changes one random Project's description straight in Keystone and waits until the
// provider has put the desired one back, reading Keystone directly twice a second.
func drift(ctx context.Context, ks *keystoneAdmin, k *kube, w workload, o options, log io.Writer) (driftResult, error) {
	i := rand.New(rand.NewPCG(o.Seed, 0)).IntN(w.N)
	name := fmt.Sprintf("project-%04d", i)
	d := driftResult{Object: fmt.Sprintf("Project %s/%s (seed %d)", w.Namespace, name, o.Seed), Change: "description",
		Timeout: 5*o.Poll + time.Minute}
	id, err := k.externalID(ctx, "projects", name)
	if err != nil {
		return d, err
	}
	if err := ks.setProjectDescription(id, "changed by hand at steady state"); err != nil {
		return d, err
	}
	t0 := time.Now()
	want := w.projectDescription(i)
	fmt.Fprintf(log, "bench-scale: changed the description of %s (Keystone project %s); waiting for %q again\n", d.Object, id, want)
	for time.Since(t0) < d.Timeout {
		got, err := ks.projectDescription(id)
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

// waitFor polls done once a second until it holds, printing its progress every 10 s; it fails
// when the provider exits, the context ends or timeout passes. Not more often: listing every
// kind costs the API server and the bench CPU that the provider, on the same 2 cores, then lacks.
func waitFor(ctx context.Context, prov *providerProc, timeout time.Duration, log io.Writer, what string, done func() (bool, string, error)) error {
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
			fmt.Fprintf(log, "bench-scale: %5.0f s: %s\n", time.Since(t0).Seconds(), progress)
			last = time.Now()
		}
		if err := sleep(ctx, time.Second); err != nil {
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
