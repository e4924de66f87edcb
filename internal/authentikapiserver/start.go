package authentikapiserver

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// StartTest serves a new Server on a loopback httptest server for the life
// of the test and returns it with its URL (no /api/v3 suffix). At cleanup it
// fails the test when any violation was recorded, so every test that uses it
// asserts the provider spoke authentik's API correctly. Call
// ResetViolations before the end to drop ones a test provoked on purpose.
func StartTest(tb testing.TB, opts Options) (*Server, string) {
	tb.Helper()
	if opts.Logf == nil {
		opts.Logf = tb.Logf
	}
	s, err := New(opts)
	if err != nil {
		tb.Fatalf("authentikapiserver: %v", err)
	}
	ts := httptest.NewServer(s)
	s.SetBaseURL(ts.URL)
	tb.Cleanup(func() {
		ts.Close()
		for _, v := range s.Violations() {
			tb.Errorf("authentikapiserver: %s\n  body: %s", v, v.Body)
		}
	})
	return s, ts.URL
}

// Listen serves s on addr (e.g. "127.0.0.1:0") and returns its URL and a
// function that stops it.
func (s *Server) Listen(addr string) (string, func() error, error) {
	ln, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", addr)
	if err != nil {
		return "", nil, err
	}
	host := ln.Addr().String()
	if strings.HasPrefix(host, "[::]") || strings.HasPrefix(host, "0.0.0.0") {
		_, port, _ := net.SplitHostPort(host)
		host = net.JoinHostPort("127.0.0.1", port)
	}
	u := "http://" + host
	s.SetBaseURL(u)
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			if s.logf != nil {
				s.logf("authentikapiserver: serve: %v", err)
			}
		}
	}()
	return u, srv.Close, nil
}
