//go:build e2e

// Package render tests the platform Compositions offline: `crossplane render` with the real
// function binaries (function-patch-and-transform and function-identity-platform, run locally
// through the Development runtime), assertions on the composed resources, and `crossplane beta
// validate` of the rendered output against the provider's CRDs, the XRDs, ArgoCD's and
// Crossplane's own CRDs.
//
// The tools come from hack/build-crossplane.sh (cached by version; built on first use).
package render

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Paths of the tools and schema directories, set up by TestMain.
var (
	root          string
	crossplaneBin string
	functionsFile string
	schemaDirs    []string
	validateCache string
)

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	// Every process run starts is started under ctx: whatever is still running when run returns
	// (a function binary whose stop did not run) is killed with it.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var err error
	if root, err = filepath.Abs("../.."); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	env, err := buildTools(ctx)
	if err != nil {
		fmt.Fprintln(os.Stderr, "cannot build the Crossplane tools:", err)
		return 1
	}
	crossplaneBin = env["CROSSPLANE"]

	tmp, err := os.MkdirTemp("", "render-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer func() {
		if err := os.RemoveAll(tmp); err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
	}()

	fn := filepath.Join(tmp, "function-identity-platform")
	build := exec.CommandContext(ctx, "go", "build", "-o", fn, ".")
	build.Dir = filepath.Join(root, "functions", "identity-platform")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "cannot build function-identity-platform:", err)
		return 1
	}

	// The functions run as local processes: render's Development runtime dials them.
	// Ours would also serve metrics on :8080, a port the platform end-to-end test, running beside
	// this one, gives the provider: off here. function-patch-and-transform v0.5.0 serves none.
	targets := map[string]string{}
	for name, cmd := range map[string][]string{
		"function-patch-and-transform": {env["FUNCTION_PT"]},
		"function-identity-platform":   {fn, "--metrics-address="},
	} {
		addr, stop, err := startFunction(ctx, cmd, filepath.Join(tmp, name+".log"))
		if err != nil {
			fmt.Fprintf(os.Stderr, "cannot start %s: %v\n", name, err)
			return 1
		}
		defer stop()
		targets[name] = addr
	}
	functionsFile = filepath.Join(tmp, "functions.yaml")
	if err := os.WriteFile(functionsFile, []byte(functionsYAML(targets)), 0o600); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}

	// beta validate reads Crossplane's own CRDs from its cache; a private copy of the seeded
	// cache keeps it from downloading anything and from writing into the shared one.
	validateCache = filepath.Join(tmp, "validate-cache")
	if err := exec.CommandContext(ctx, "cp", "-a", env["CROSSPLANE_VALIDATE_CACHE"], validateCache).Run(); err != nil {
		fmt.Fprintln(os.Stderr, "cannot copy the validate cache:", err)
		return 1
	}
	schemaDirs = []string{
		filepath.Join(root, "package", "crds"),
		env["ARGOCD_CRDS"],
		env["CROSSPLANE_CRDS"],
	}
	return m.Run()
}

// buildTools runs hack/build-crossplane.sh and returns the KEY=VALUE lines it prints.
func buildTools(ctx context.Context) (map[string]string, error) {
	cmd := exec.CommandContext(ctx, filepath.Join(root, "hack", "build-crossplane.sh"))
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, err
	}
	env := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), "="); ok {
			env[k] = v
		}
	}
	for _, k := range []string{"CROSSPLANE", "FUNCTION_PT", "CROSSPLANE_VALIDATE_CACHE", "CROSSPLANE_CRDS", "ARGOCD_CRDS"} {
		if env[k] == "" {
			return nil, fmt.Errorf("hack/build-crossplane.sh printed no %s", k)
		}
	}
	return env, nil
}

// startFunction runs a function binary (cmd: the binary and its own flags) without TLS on a free
// loopback port and waits until it accepts connections.
func startFunction(ctx context.Context, cmd []string, logFile string) (string, func(), error) {
	l, err := (&net.ListenConfig{}).Listen(ctx, "tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	addr := l.Addr().String()
	_ = l.Close()
	log, err := os.Create(logFile)
	if err != nil {
		return "", nil, err
	}
	proc := exec.CommandContext(ctx, cmd[0], append([]string{"--insecure", "--address=" + addr}, cmd[1:]...)...)
	proc.Stdout, proc.Stderr = log, log
	if err := proc.Start(); err != nil {
		return "", nil, err
	}
	stop := func() {
		_ = proc.Process.Kill()
		_ = proc.Wait()
		_ = log.Close()
	}
	deadline := time.Now().Add(30 * time.Second)
	dialer := &net.Dialer{Timeout: time.Second}
	for {
		c, err := dialer.DialContext(ctx, "tcp", addr)
		if err == nil {
			_ = c.Close()
			return addr, stop, nil
		}
		if time.Now().After(deadline) {
			stop()
			b, _ := os.ReadFile(logFile)
			return "", nil, fmt.Errorf("%s is not listening on %s after 30 s: %s", cmd[0], addr, b)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func functionsYAML(targets map[string]string) string {
	var b strings.Builder
	for _, name := range []string{"function-patch-and-transform", "function-identity-platform"} {
		fmt.Fprintf(&b, `---
apiVersion: pkg.crossplane.io/v1beta1
kind: Function
metadata:
  name: %s
  annotations:
    render.crossplane.io/runtime: Development
    render.crossplane.io/runtime-development-target: %s
spec:
  package: xpkg.crossplane.io/crossplane-contrib/%s:v0.0.0
`, name, targets[name], name)
	}
	return b.String()
}

// crossplane runs the CLI and returns its stdout; stderr goes into the error.
func crossplane(ctx context.Context, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, crossplaneBin, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, fmt.Errorf("crossplane %s: %w\n%s%s", strings.Join(args, " "), err, out, stderr.String())
	}
	return out, nil
}
