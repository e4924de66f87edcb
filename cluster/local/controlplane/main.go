// Command controlplane runs a throwaway Kubernetes control plane (etcd + kube-apiserver from
// $KUBEBUILDER_ASSETS, on 127.0.0.1) for local development, outside `go test`. It installs the
// CRDs found in the --crd-dir directories, writes an admin kubeconfig, and runs until SIGTERM or
// SIGINT, when it stops both processes and removes their data. When kube-controller-manager sits
// beside kube-apiserver, it runs its garbage collector and namespace controller too: Crossplane
// deletes composed resources through owner references, and a deleted namespace stays
// Terminating without the namespace controller.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// dirs collects a repeatable flag.
type dirs []string

func (d *dirs) String() string     { return strings.Join(*d, ",") }
func (d *dirs) Set(v string) error { *d = append(*d, v); return nil }

func main() {
	var crdDirs dirs
	// controller-runtime registers -kubeconfig on the default FlagSet, hence the longer name.
	kubeconfig := flag.String("write-kubeconfig", "", "path to write the admin kubeconfig to (required)")
	flag.Var(&crdDirs, "crd-dir", "directory of CRD manifests to install (repeatable; missing directories are skipped)")
	timeout := flag.Duration("start-timeout", 60*time.Second, "how long etcd and kube-apiserver may each take to start")
	flag.Parse()
	if *kubeconfig == "" {
		fmt.Fprintln(os.Stderr, "controlplane: --write-kubeconfig is required")
		os.Exit(2)
	}
	if os.Getenv("KUBEBUILDER_ASSETS") == "" {
		fmt.Fprintln(os.Stderr, "controlplane: KUBEBUILDER_ASSETS must name the directory holding kube-apiserver and etcd (hack/build-k8s.sh prints it)")
		os.Exit(2)
	}
	if err := run(*kubeconfig, existing(crdDirs), *timeout); err != nil {
		fmt.Fprintln(os.Stderr, "controlplane:", err)
		os.Exit(1)
	}
}

// existing drops the directories that do not exist yet (e.g. before the first `make generate`).
func existing(in []string) []string {
	var out []string
	for _, d := range in {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			out = append(out, d)
			continue
		}
		fmt.Fprintf(os.Stderr, "controlplane: skipping missing CRD directory %s\n", d)
	}
	return out
}

func run(kubeconfig string, crdDirs []string, timeout time.Duration) (err error) {
	ctx, cancel := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer cancel()

	env := &envtest.Environment{
		CRDDirectoryPaths:        crdDirs,
		ErrorIfCRDPathMissing:    false,
		ControlPlaneStartTimeout: timeout,
		ControlPlaneStopTimeout:  30 * time.Second,
	}
	start := time.Now()
	// Stop also runs when Start failed half-way, so no etcd or apiserver is left behind.
	defer func() {
		if serr := env.Stop(); serr != nil {
			err = errors.Join(err, fmt.Errorf("stopping control plane: %w", serr))
		}
		_ = os.Remove(kubeconfig)
	}()
	cfg, err := env.Start()
	if err != nil {
		return fmt.Errorf("starting control plane: %w", err)
	}
	if err := writeFileAtomic(kubeconfig, env.KubeConfig); err != nil {
		return err
	}
	stopKCM, err := startControllerManager(ctx, kubeconfig)
	if err != nil {
		return err
	}
	defer stopKCM()
	fmt.Printf("controlplane: kube-apiserver %s ready in %s, %d CRDs from %v; kubeconfig %s\n",
		cfg.Host, time.Since(start).Round(time.Millisecond), len(env.CRDs), crdDirs, kubeconfig)

	<-ctx.Done()
	fmt.Println("controlplane: signal received, stopping")
	return nil
}

// startControllerManager starts kube-controller-manager from KUBEBUILDER_ASSETS, when it is
// there, with only the controllers a control plane without nodes needs. It stops when ctx is
// done or the returned function is called: SIGTERM, and SIGKILL 10 s later if it is still there.
func startControllerManager(ctx context.Context, kubeconfig string) (func(), error) {
	bin := filepath.Join(os.Getenv("KUBEBUILDER_ASSETS"), "kube-controller-manager")
	// The binary comes from the KUBEBUILDER_ASSETS of whoever runs the dev environment.
	if _, err := os.Stat(bin); errors.Is(err, fs.ErrNotExist) { //nolint:gosec // G703: our own KUBEBUILDER_ASSETS
		fmt.Println("controlplane: no kube-controller-manager beside kube-apiserver; no garbage collection")
		return func() {}, nil
	} else if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	cmd := exec.CommandContext(ctx, bin, "--kubeconfig="+kubeconfig, //nolint:gosec // G204: our own KUBEBUILDER_ASSETS
		"--authentication-kubeconfig="+kubeconfig, "--authorization-kubeconfig="+kubeconfig,
		"--controllers=garbagecollector,namespace", "--leader-elect=false", "--secure-port=0")
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 10 * time.Second
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		cancel()
		return nil, fmt.Errorf("starting kube-controller-manager: %w", err)
	}
	fmt.Printf("controlplane: kube-controller-manager (garbage collector, namespaces) pid %d\n", cmd.Process.Pid)
	return func() {
		cancel()
		_ = cmd.Wait()
	}, nil
}

// writeFileAtomic writes via a rename so a reader polling for the file never sees half of it.
func writeFileAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
