package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"
)

// providerProc is the provider as its own process (built from ./cmd/provider), so that its RSS
// and CPU time can be read from /proc and nothing of the bench's own work is counted as its.
type providerProc struct {
	cmd   *exec.Cmd
	args  []string
	probe string
	pprof string        // the provider's pprof address, if it serves one
	exit  chan struct{} // closed once the process has exited; err is then its exit
	err   error
}

// startProvider runs bin with the provider's default flags but --poll, and with its metrics and
// health probe endpoints on free loopback ports (the defaults, :8080 and :8081 on every
// interface, may be taken by another engineer's run on this machine).
func startProvider(ctx context.Context, bin, kubeconfig, logPath string, poll time.Duration, extra, env []string) (*providerProc, error) {
	metrics, err := freePort(ctx)
	if err != nil {
		return nil, err
	}
	probe, err := freePort(ctx)
	if err != nil {
		return nil, err
	}
	args := append([]string{"--poll=" + poll.String(), "--metrics-bind-address=" + metrics, "--health-probe-bind-address=" + probe}, extra...)
	logf, err := os.Create(logPath) //nolint:gosec // G304: the log's path is the bench's own -dir flag
	if err != nil {
		return nil, err
	}
	// Without the run's cancellation: an interrupted run must not SIGKILL the provider; stop
	// ends it in order, SIGTERM first (a second signal would make it exit at once).
	cmd := exec.CommandContext(context.WithoutCancel(ctx), bin, args...) //nolint:gosec // G204: bin is the bench's own -provider flag
	cmd.Env = append(append(os.Environ(), "KUBECONFIG="+kubeconfig), env...)
	cmd.Stdout, cmd.Stderr = logf, logf
	// Its own process group: a Ctrl-C at the terminal reaches the bench, which stops it in order.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		_ = logf.Close()
		return nil, err
	}
	p := &providerProc{cmd: cmd, args: append([]string{"provider"}, args...), probe: probe, pprof: pprofAddr(extra), exit: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		_ = logf.Close()
		close(p.exit)
	}()
	return p, nil
}

func (p *providerProc) pid() int { return p.cmd.Process.Pid }

// waitReady waits until the provider's readiness probe answers 200, or it exits.
func (p *providerProc) waitReady(ctx context.Context, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		select {
		case <-p.exit:
			return fmt.Errorf("the provider exited during start-up: %w", p.err)
		default:
		}
		if p.ready(ctx) {
			return nil
		}
		if err := sleep(ctx, 200*time.Millisecond); err != nil {
			return err
		}
	}
	return fmt.Errorf("the provider's readiness probe did not answer 200 within %s", timeout)
}

// ready is whether the provider's readiness probe answers 200 now.
func (p *providerProc) ready(ctx context.Context) bool {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+p.probe+"/readyz", nil)
	if err != nil {
		return false
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return false
	}
	_ = resp.Body.Close() // the status is all we read
	return resp.StatusCode == http.StatusOK
}

// exited reports the provider's exit, if it exited: a benchmark of a crashed provider is void.
func (p *providerProc) exited() error {
	select {
	case <-p.exit:
		return fmt.Errorf("the provider exited: %w", p.err)
	default:
		return nil
	}
}

// stop sends SIGTERM (the provider finishes its reconciles), SIGKILL after 15 s.
func (p *providerProc) stop() {
	if p.exited() != nil {
		return
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.exit:
	case <-time.After(15 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.exit
	}
}

// freePort returns a loopback address with a port nothing listens on right now.
func freePort(ctx context.Context) (string, error) {
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	addr := "127.0.0.1:" + strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	if err := ln.Close(); err != nil {
		return "", err
	}
	return addr, nil
}
