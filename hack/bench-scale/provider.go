package main

import (
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
	done  chan error
}

// startProvider runs bin with the provider's default flags but --poll, and with its metrics and
// health probe endpoints on free loopback ports (the defaults, :8080 and :8081 on every
// interface, may be taken by another engineer's run on this machine).
func startProvider(bin, kubeconfig, logPath string, poll time.Duration) (*providerProc, error) {
	metrics, err := freePort()
	if err != nil {
		return nil, err
	}
	probe, err := freePort()
	if err != nil {
		return nil, err
	}
	args := []string{"--poll=" + poll.String(), "--metrics-bind-address=" + metrics, "--health-probe-bind-address=" + probe}
	logf, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "KUBECONFIG="+kubeconfig)
	cmd.Stdout, cmd.Stderr = logf, logf
	// Its own process group: a Ctrl-C at the terminal reaches the bench, which stops it in order.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		_ = logf.Close()
		return nil, err
	}
	p := &providerProc{cmd: cmd, args: append([]string{"provider"}, args...), probe: probe, done: make(chan error, 1)}
	go func() { p.done <- cmd.Wait(); _ = logf.Close() }()
	return p, nil
}

func (p *providerProc) pid() int { return p.cmd.Process.Pid }

// waitReady waits until the provider's readiness probe answers 200, or it exits.
func (p *providerProc) waitReady(timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		select {
		case err := <-p.done:
			p.done <- err
			return fmt.Errorf("the provider exited during start-up: %v", err)
		default:
		}
		if resp, err := http.Get("http://" + p.probe + "/readyz"); err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	return fmt.Errorf("the provider's readiness probe did not answer 200 within %s", timeout)
}

// exited reports the provider's exit, if it exited: a benchmark of a crashed provider is void.
func (p *providerProc) exited() error {
	select {
	case err := <-p.done:
		p.done <- err
		return fmt.Errorf("the provider exited: %v", err)
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
	case <-p.done:
	case <-time.After(15 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
}

// freePort returns a loopback address with a port nothing listens on right now.
func freePort() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return "127.0.0.1:" + strconv.Itoa(ln.Addr().(*net.TCPAddr).Port), nil
}
