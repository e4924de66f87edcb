package clients

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
)

// EndpointLimits bound the load the provider puts on one Keystone or authentik: how many
// requests it has in flight there at once, and how long it stops sending when the endpoint says
// it is overloaded or cannot be reached.
type EndpointLimits struct {
	// MaxInFlight is the most requests in flight to one endpoint (scheme, host and port) at
	// once, across every ProviderConfig and kind. Zero or less means no limit.
	MaxInFlight int
	// MinPause is the first pause after a 429, a 503 or a connection error without a
	// Retry-After; each further one in a row doubles it, up to MaxPause. A Retry-After is
	// honoured up to MaxPause.
	MinPause, MaxPause time.Duration
}

// DefaultEndpointLimits suit a Keystone behind its usual proxy: Keystone's workers gain little
// from more than a few concurrent clients, and its own floor is measured with ten.
var DefaultEndpointLimits = EndpointLimits{MaxInFlight: 10, MinPause: time.Second, MaxPause: 30 * time.Second}

// Endpoints limits the requests the provider sends to each endpoint. Its zero value is not
// usable; a nil *Endpoints limits nothing.
type Endpoints struct {
	limits EndpointLimits
	now    func() time.Time
	log    logging.Logger

	mu        sync.Mutex
	endpoints map[string]*endpoint
}

// NewEndpoints returns an Endpoints with the limits l that logs each pause to log (nil: no log).
func NewEndpoints(l EndpointLimits, log logging.Logger) *Endpoints {
	if log == nil {
		log = logging.NewNopLogger()
	}
	return &Endpoints{limits: l, now: time.Now, log: log, endpoints: map[string]*endpoint{}}
}

// Limits are the limits e applies.
func (e *Endpoints) Limits() EndpointLimits { return e.limits }

type endpoint struct {
	slots chan struct{} // nil without MaxInFlight

	mu          sync.Mutex
	pausedAt    time.Time     // when the latest pause began
	pausedUntil time.Time     // no request is sent before this
	lastPause   time.Duration // of the current run of overload answers; 0 after a good one
}

// Limit returns rt with the limits applied to every request it sends.
func (e *Endpoints) Limit(rt http.RoundTripper) http.RoundTripper {
	if e == nil {
		return rt
	}
	return &limitedTransport{endpoints: e, next: rt}
}

func (e *Endpoints) endpoint(key string) *endpoint {
	e.mu.Lock()
	defer e.mu.Unlock()
	ep, ok := e.endpoints[key]
	if !ok {
		ep = &endpoint{}
		if e.limits.MaxInFlight > 0 {
			ep.slots = make(chan struct{}, e.limits.MaxInFlight)
		}
		e.endpoints[key] = ep
	}
	return ep
}

type limitedTransport struct {
	endpoints *Endpoints
	next      http.RoundTripper
}

func (t *limitedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	key := r.URL.Scheme + "://" + r.URL.Host
	ep := t.endpoints.endpoint(key)
	if err := ep.acquire(r.Context(), t.endpoints.now); err != nil {
		return nil, err
	}
	sent := t.endpoints.now()
	resp, err := t.next.RoundTrip(r)
	ep.release()
	if retryAfter, overloaded := overload(r.Context(), resp, err); overloaded {
		if p, paused := ep.pause(sent, t.endpoints.now(), retryAfter, t.endpoints.limits); paused {
			t.endpoints.log.Info("Pausing requests to an overloaded or unreachable endpoint", "endpoint", key, "pause", p.String(), "answer", answer(resp, err))
		}
	} else if err == nil {
		ep.recovered()
	}
	return resp, err
}

// answer says what an overload answer was, for the log: the status, or the error's text
// (a transport error never holds a secret; request bodies are not part of it).
func answer(resp *http.Response, err error) string {
	if err != nil {
		return err.Error()
	}
	return resp.Status
}

// acquire waits out the endpoint's pause, then for a free slot, or until ctx is done.
func (ep *endpoint) acquire(ctx context.Context, now func() time.Time) error {
	for {
		ep.mu.Lock()
		wait := ep.pausedUntil.Sub(now())
		ep.mu.Unlock()
		if wait <= 0 {
			break
		}
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			return ctx.Err()
		case <-timer.C:
		}
	}
	if ep.slots == nil {
		return nil
	}
	select {
	case ep.slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (ep *endpoint) release() {
	if ep.slots != nil {
		<-ep.slots
	}
}

// pause starts a pause after an overload answer to a request sent at sent, unless the request
// was already in flight when the latest pause began: the requests in flight together fail
// together, and one incident must count once, not double the pause for each of them. It
// returns the pause and whether one began.
func (ep *endpoint) pause(sent, now time.Time, retryAfter time.Duration, l EndpointLimits) (time.Duration, bool) {
	ep.mu.Lock()
	defer ep.mu.Unlock()
	if sent.Before(ep.pausedAt) {
		return 0, false
	}
	ep.lastPause = nextPause(ep.lastPause, retryAfter, l)
	ep.pausedAt = now
	if until := now.Add(ep.lastPause); until.After(ep.pausedUntil) {
		ep.pausedUntil = until
	}
	return ep.lastPause, true
}

func (ep *endpoint) recovered() {
	ep.mu.Lock()
	ep.lastPause = 0
	ep.mu.Unlock()
}

// nextPause is the pause after an overload answer: the server's Retry-After when it sent one,
// otherwise double the last pause of this run (MinPause for the first), never above MaxPause.
func nextPause(last, retryAfter time.Duration, l EndpointLimits) time.Duration {
	p := retryAfter
	if p <= 0 {
		p = 2 * last
		if p < l.MinPause {
			p = l.MinPause
		}
	}
	if p > l.MaxPause {
		p = l.MaxPause
	}
	return p
}

// overload tells whether an answer says the endpoint is overloaded or unreachable (429, 503,
// or a connection that could not be made or broke), and the pause the server asked for. A
// request cancelled by its own context says nothing about the endpoint.
func overload(ctx context.Context, resp *http.Response, err error) (time.Duration, bool) {
	if err != nil {
		if ctx.Err() != nil {
			return 0, false
		}
		var ne net.Error
		return 0, errors.As(err, &ne) || errors.Is(err, net.ErrClosed)
	}
	if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode != http.StatusServiceUnavailable {
		return 0, false
	}
	return retryAfter(resp.Header.Get("Retry-After")), true
}

// retryAfter reads a Retry-After header in seconds (the form Keystone's proxies and authentik
// send); a date or anything else counts as none.
func retryAfter(v string) time.Duration {
	s, err := strconv.Atoi(v)
	if err != nil || s < 0 {
		return 0
	}
	return time.Duration(s) * time.Second
}
