package main

import (
	"context"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"time"
)

// startProxy serves a reverse proxy to target on a free loopback port and counts every request
// in c. The provider is pointed at it (authURL and Keystone's catalog), so its requests are
// counted without touching its code; the bench's own requests and ksfloor's go to Keystone
// directly and are not counted.
func startProxy(ctx context.Context, target *url.URL, c *counter) (string, func(), error) {
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	rp := httputil.NewSingleHostReverseProxy(target)
	// As many idle connections as the provider may hold open, so that the proxy does not turn
	// its keep-alive connections into new ones to Keystone's router.
	rp.Transport = &http.Transport{MaxIdleConns: 256, MaxIdleConnsPerHost: 256, IdleConnTimeout: 90 * time.Second}
	rp.ErrorHandler = proxyError
	srv := &http.Server{ReadHeaderTimeout: 30 * time.Second, Handler: countingHandler(rp, c)}
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String(), func() { _ = srv.Close() }, nil
}

// statusClientClosed is what a request the provider gave up on (its context was cancelled) is
// counted as: nginx's 499, not the 502 of httputil's default, which would read as Keystone failing.
const statusClientClosed = 499

// proxyError answers a request the proxy could not complete: 499 when the provider cancelled it,
// 502 (and a log line) when Keystone did not answer.
func proxyError(w http.ResponseWriter, r *http.Request, err error) {
	if r.Context().Err() != nil {
		w.WriteHeader(statusClientClosed)
		return
	}
	//nolint:gosec // G706: only the provider the bench started reaches this loopback proxy
	log.Printf("bench-scale proxy: %s %s: %v", r.Method, r.URL.Path, err)
	w.WriteHeader(http.StatusBadGateway)
}

// countingHandler counts r under its template, and its response status, then hands it on.
func countingHandler(next http.Handler, c *counter) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		phase := c.count(r.Method, r.URL.Path, r.URL.RawQuery)
		sw := &statusWriter{ResponseWriter: w}
		next.ServeHTTP(sw, r)
		c.status(phase, sw.code)
	})
}

// statusWriter remembers the status code a handler wrote.
type statusWriter struct {
	http.ResponseWriter
	code int
}

func (s *statusWriter) WriteHeader(code int) {
	if s.code == 0 {
		s.code = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusWriter) Write(b []byte) (int, error) {
	if s.code == 0 {
		s.code = http.StatusOK
	}
	return s.ResponseWriter.Write(b)
}
