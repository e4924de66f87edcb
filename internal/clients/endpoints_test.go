package clients

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
)

func TestNextPause(t *testing.T) {
	l := EndpointLimits{MinPause: time.Second, MaxPause: 30 * time.Second}
	cases := map[string]struct {
		last, retryAfter, want time.Duration
	}{
		"FirstIsTheMinimum":        {want: time.Second},
		"EachFurtherOneDoubles":    {last: 4 * time.Second, want: 8 * time.Second},
		"NeverAboveTheMaximum":     {last: 20 * time.Second, want: 30 * time.Second},
		"RetryAfterHonoured":       {last: 8 * time.Second, retryAfter: 3 * time.Second, want: 3 * time.Second},
		"RetryAfterUpToTheMaximum": {retryAfter: time.Hour, want: 30 * time.Second},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := nextPause(tc.last, tc.retryAfter, l); got != tc.want {
				t.Errorf("nextPause(%s, %s): want %s, got %s", tc.last, tc.retryAfter, tc.want, got)
			}
		})
	}
}

func TestOverload(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	answer := func(status int, retryAfter string) *http.Response {
		h := http.Header{}
		if retryAfter != "" {
			h.Set("Retry-After", retryAfter)
		}
		return &http.Response{StatusCode: status, Header: h}
	}
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	type want struct {
		Pause      time.Duration
		Overloaded bool
	}
	cases := map[string]struct {
		ctx  context.Context
		resp *http.Response
		err  error
		want want
	}{
		"TooManyRequestsWithRetryAfter": {resp: answer(http.StatusTooManyRequests, "7"), want: want{7 * time.Second, true}},
		"UnavailableWithout":            {resp: answer(http.StatusServiceUnavailable, ""), want: want{0, true}},
		"RetryAfterAsADateCountsAsNone": {resp: answer(http.StatusServiceUnavailable, "Wed, 21 Oct 2026 07:28:00 GMT"), want: want{0, true}},
		"ServerErrorIsNoOverload":       {resp: answer(http.StatusInternalServerError, "")},
		"NotFoundIsNoOverload":          {resp: answer(http.StatusNotFound, "")},
		"ConnectionRefused":             {err: refused, want: want{0, true}},
		"OwnCancellationSaysNothing":    {ctx: cancelled, err: refused},
		"OtherErrorsSayNothing":         {err: errors.New("cannot encode the request")},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			ctx := tc.ctx
			if ctx == nil {
				ctx = context.Background()
			}
			var got want
			got.Pause, got.Overloaded = overload(ctx, tc.resp, tc.err)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("overload: -want +got:\n%s", diff)
			}
		})
	}
}

// stubTransport answers every request with status after delay, and records how many requests
// it had in flight at most.
type stubTransport struct {
	delay  time.Duration
	status func(n int) int // the status of the n-th request, from 0

	mu          sync.Mutex
	n, inFlight int
	maxInFlight int
	started     []time.Time
}

func (s *stubTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	s.mu.Lock()
	n := s.n
	s.n++
	s.inFlight++
	s.maxInFlight = max(s.maxInFlight, s.inFlight)
	s.started = append(s.started, time.Now())
	s.mu.Unlock()
	time.Sleep(s.delay)
	s.mu.Lock()
	s.inFlight--
	s.mu.Unlock()
	status := http.StatusOK
	if s.status != nil {
		status = s.status(n)
	}
	return &http.Response{StatusCode: status, Header: http.Header{}, Body: io.NopCloser(strings.NewReader("")), Request: r}, nil
}

func get(t *testing.T, rt http.RoundTripper, ctx context.Context, url string) error {
	t.Helper()
	r, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := rt.RoundTrip(r)
	if err == nil {
		_ = resp.Body.Close()
	}
	return err
}

func TestEndpointsLimitRequestsInFlight(t *testing.T) {
	stub := &stubTransport{delay: 20 * time.Millisecond}
	rt := NewEndpoints(EndpointLimits{MaxInFlight: 3, MinPause: time.Second, MaxPause: time.Second}, nil).Limit(stub)
	var wg sync.WaitGroup
	for range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := get(t, rt, context.Background(), "http://keystone:5000/v3/projects"); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if stub.n != 12 || stub.maxInFlight != 3 {
		t.Errorf("12 requests with at most 3 in flight: got %d requests, at most %d in flight", stub.n, stub.maxInFlight)
	}
}

func TestEndpointsLimitEachEndpointApart(t *testing.T) {
	stub := &stubTransport{delay: 50 * time.Millisecond}
	rt := NewEndpoints(EndpointLimits{MaxInFlight: 1, MinPause: time.Second, MaxPause: time.Second}, nil).Limit(stub)
	var wg sync.WaitGroup
	for _, u := range []string{"http://keystone:5000/v3", "http://authentik:9000/api/v3"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := get(t, rt, context.Background(), u); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if stub.maxInFlight != 2 {
		t.Errorf("one request each to two endpoints with a limit of 1: want both in flight at once, got at most %d", stub.maxInFlight)
	}
}

// After an overload answer the endpoint gets no request for the pause; a good answer ends the
// run of pauses, so the next overload pauses for the minimum again, not double. The pauses
// taken are read from the log, not from the gaps between requests: on a loaded machine a
// sleep can last much longer than asked, never shorter.
func TestEndpointsPauseAfterOverload(t *testing.T) {
	const pause = 150 * time.Millisecond
	statuses := []int{http.StatusServiceUnavailable, http.StatusOK, http.StatusTooManyRequests, http.StatusOK}
	stub := &stubTransport{status: func(n int) int { return statuses[n] }}
	log := &pauseLog{}
	rt := NewEndpoints(EndpointLimits{MaxInFlight: 10, MinPause: pause, MaxPause: 10 * pause}, log).Limit(stub)
	for range statuses {
		if err := get(t, rt, context.Background(), "http://keystone:5000/v3/projects"); err != nil {
			t.Fatal(err)
		}
	}
	gaps := []time.Duration{stub.started[1].Sub(stub.started[0]), stub.started[2].Sub(stub.started[1]), stub.started[3].Sub(stub.started[2])}
	if gaps[0] < pause || gaps[2] < pause {
		t.Errorf("requests after an overload answer came %s and %s later, want at least %s", gaps[0], gaps[2], pause)
	}
	if diff := cmp.Diff([]string{pause.String(), pause.String()}, log.pauses()); diff != "" {
		t.Errorf("pauses taken: one after each overload answer, the minimum both times (the good answer between ends the run): -want +got:\n%s", diff)
	}
}

// pauseLog records the pauses an Endpoints logs.
type pauseLog struct {
	mu  sync.Mutex
	got []string
}

func (l *pauseLog) Info(_ string, kv ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i] == "pause" {
			l.got = append(l.got, fmt.Sprint(kv[i+1]))
		}
	}
}

func (l *pauseLog) Debug(string, ...any) {}

func (l *pauseLog) WithValues(...any) logging.Logger { return l }

func (l *pauseLog) pauses() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.got...)
}

func TestEndpointsWaitEndsWithTheRequestsContext(t *testing.T) {
	stub := &stubTransport{status: func(int) int { return http.StatusServiceUnavailable }}
	rt := NewEndpoints(EndpointLimits{MaxInFlight: 1, MinPause: time.Hour, MaxPause: time.Hour}, nil).Limit(stub)
	if err := get(t, rt, context.Background(), "http://keystone:5000/v3"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := get(t, rt, ctx, "http://keystone:5000/v3"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a request to a paused endpoint whose context ends: want %v, got %v", context.DeadlineExceeded, err)
	}
	if stub.n != 1 {
		t.Errorf("the paused endpoint got %d requests, want only the first", stub.n)
	}
}

func TestNilEndpointsLimitNothing(t *testing.T) {
	stub := &stubTransport{}
	var e *Endpoints
	if got := e.Limit(stub); got != http.RoundTripper(stub) {
		t.Errorf("a nil Endpoints wrapped the transport: %T", got)
	}
}

// Requests in flight together that fail together are one incident: the pause is the first
// one, not doubled for each of them.
func TestEndpointsConcurrentFailuresPauseOnce(t *testing.T) {
	const pause = 100 * time.Millisecond
	stub := &stubTransport{delay: 50 * time.Millisecond, status: func(int) int { return http.StatusServiceUnavailable }}
	e := NewEndpoints(EndpointLimits{MaxInFlight: 10, MinPause: pause, MaxPause: time.Hour}, nil)
	rt := e.Limit(stub)
	var wg sync.WaitGroup
	for range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := get(t, rt, context.Background(), "http://keystone:5000/v3"); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	ep := e.endpoint("http://keystone:5000")
	if ep.lastPause != pause {
		t.Errorf("5 requests in flight together answered 503: pause %s, want the first pause %s", ep.lastPause, pause)
	}
	// The next request, sent after that pause began, fails on its own: that doubles it.
	if err := get(t, rt, context.Background(), "http://keystone:5000/v3"); err != nil {
		t.Fatal(err)
	}
	if ep.lastPause != 2*pause {
		t.Errorf("a further 503 after the pause: pause %s, want %s", ep.lastPause, 2*pause)
	}
}
