//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// countingTransport counts requests by "METHOD /path" (summarize folds IDs into {id}), and can
// make requests fail as a broken or unreachable server would.
type countingTransport struct {
	mu     sync.Mutex
	byPath map[string]int
	faults []*fault
	sent   []sentRequest
}

// A sentRequest is one request as the transport saw it: when, which, and whether a fault
// answered it.
type sentRequest struct {
	At                        time.Time
	Method, Host, Path, Query string
	Fault                     *fault
}

// A fault answers the next Times requests whose method matches and whose path starts with
// Prefix with Status (or, with Status 0, fails them as a refused connection would). With
// Committed, the request reaches the server first and only its answer is lost, as when a
// server fails after committing a write. With Delay, the request is only held that long and
// then sent to the server, as to a slow one (Status and Committed do not apply).
type fault struct {
	Method, Prefix string
	Status, Times  int
	Committed      bool
	RetryAfter     string // the answer's Retry-After header, if not empty
	Delay          time.Duration
}

// inject adds a fault; it is removed when the test ends, or when the returned func is called.
func (c *countingTransport) inject(t *testing.T, f fault) (lift func()) {
	c.mu.Lock()
	c.faults = append(c.faults, &f)
	c.mu.Unlock()
	lift = func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		for i, g := range c.faults {
			if g == &f {
				c.faults = append(c.faults[:i], c.faults[i+1:]...)
				return
			}
		}
	}
	t.Cleanup(lift)
	return lift
}

func (c *countingTransport) fault(r *http.Request) *fault {
	for _, f := range c.faults {
		if f.Times > 0 && f.Method == r.Method && strings.HasPrefix(r.URL.Path, f.Prefix) {
			f.Times--
			return f
		}
	}
	return nil
}

func newCountingTransport() *countingTransport {
	return &countingTransport{byPath: map[string]int{}}
}

var idSegment = regexp.MustCompile(`/[0-9a-f]{32}(/|$)`)

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.mu.Lock()
	c.byPath[r.Method+" "+r.URL.Path]++
	f := c.fault(r)
	c.sent = append(c.sent, sentRequest{At: time.Now(), Method: r.Method, Host: r.URL.Host, Path: r.URL.Path, Query: r.URL.RawQuery, Fault: f})
	c.mu.Unlock()
	if f != nil && f.Delay > 0 {
		select {
		case <-time.After(f.Delay):
		case <-r.Context().Done():
			return nil, r.Context().Err()
		}
		return http.DefaultTransport.RoundTrip(r)
	}
	if f != nil && f.Committed {
		resp, err := http.DefaultTransport.RoundTrip(r)
		if err != nil {
			return nil, err
		}
		_ = resp.Body.Close()
	}
	switch {
	case f == nil:
		return http.DefaultTransport.RoundTrip(r)
	case f.Status == 0:
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	default:
		body := `{"error":{"code":` + strconv.Itoa(f.Status) + `,"message":"injected by the test","title":"Injected"}}`
		h := http.Header{"Content-Type": {"application/json"}}
		if f.RetryAfter != "" {
			h.Set("Retry-After", f.RetryAfter)
		}
		return &http.Response{StatusCode: f.Status, Status: strconv.Itoa(f.Status) + " " + http.StatusText(f.Status),
			Header: h, Body: io.NopCloser(strings.NewReader(body)), Request: r}, nil
	}
}

// sentSince returns the requests sent at or after t, in order.
func (c *countingTransport) sentSince(t time.Time) []sentRequest {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []sentRequest
	for _, s := range c.sent {
		if !s.At.Before(t) {
			out = append(out, s)
		}
	}
	return out
}

// snapshot returns a copy of the counts by exact path.
func (c *countingTransport) snapshot() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return maps.Clone(c.byPath)
}

func delta(before, after map[string]int) map[string]int {
	d := map[string]int{}
	for k, v := range after {
		if n := v - before[k]; n != 0 {
			d[k] = n
		}
	}
	return d
}

// eventually polls f until it returns true or the timeout passes.
func eventually(t *testing.T, timeout time.Duration, what string, f func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if f() {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("timed out after %s waiting for %s", timeout, what)
}

// eventuallyObject is eventually for a wait on one object: on timeout it also says what the
// object looks like then (finalizers, conditions, events), so a failure explains itself.
func eventuallyObject(t *testing.T, timeout time.Duration, obj client.Object, what string, f func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if f() {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("timed out after %s waiting for %s; %s", timeout, what, describe(obj))
}

// describe reads obj again and summarises its finalizers, conditions and latest events.
func describe(obj client.Object) string {
	if err := kube.Get(context.Background(), keyOf(obj), obj); err != nil {
		return "cannot read it: " + err.Error()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "finalizers %v", obj.GetFinalizers())
	if c, ok := obj.(resource.Conditioned); ok {
		for _, ct := range []xpv2.ConditionType{xpv2.TypeReady, xpv2.TypeSynced} {
			cond := c.GetCondition(ct)
			fmt.Fprintf(&b, "; %s=%s %s %q", ct, cond.Status, cond.Reason, cond.Message)
		}
	}
	evs := &corev1.EventList{}
	if err := kube.List(context.Background(), evs); err == nil {
		var last []string
		for _, e := range evs.Items {
			if e.InvolvedObject.UID == obj.GetUID() {
				last = append(last, e.Reason+": "+e.Message)
			}
		}
		if len(last) > 3 {
			last = last[len(last)-3:]
		}
		fmt.Fprintf(&b, "; events %q", last)
	}
	return b.String()
}

func keyOf(obj client.Object) types.NamespacedName {
	return types.NamespacedName{Name: obj.GetName(), Namespace: obj.GetNamespace()}
}

// get re-reads a managed resource; a failed read is fatal.
func get[T client.Object](t *testing.T, obj T) T {
	t.Helper()
	if err := kube.Get(context.Background(), types.NamespacedName{Name: obj.GetName(), Namespace: obj.GetNamespace()}, obj); err != nil {
		t.Fatalf("cannot get %s: %v", obj.GetName(), err)
	}
	return obj
}

// condition returns a condition of a resource.
func condition(obj resource.Conditioned, ct xpv2.ConditionType) xpv2.Condition {
	return obj.GetCondition(ct)
}

// waitReady waits for Ready=True and Synced=True.
func waitReady(t *testing.T, mg resource.Managed) {
	t.Helper()
	eventuallyObject(t, 60*time.Second, mg, mg.GetName()+" to be Ready and Synced", func() bool {
		get(t, mg)
		return condition(mg, xpv2.TypeReady).Status == corev1.ConditionTrue && condition(mg, xpv2.TypeSynced).Status == corev1.ConditionTrue
	})
}

// waitGone waits until a resource no longer exists in the API server.
func waitGone(t *testing.T, obj client.Object) {
	t.Helper()
	eventuallyObject(t, 60*time.Second, obj, obj.GetName()+" to be deleted", func() bool {
		err := kube.Get(context.Background(), types.NamespacedName{Name: obj.GetName(), Namespace: obj.GetNamespace()}, obj)
		return kerrors.IsNotFound(err)
	})
}

// update re-reads obj, applies mutate and updates it, retrying on conflicts with the
// controller's own writes.
func update[T client.Object](t *testing.T, obj T, mutate func(T)) {
	t.Helper()
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		mutate(get(t, obj))
		return kube.Update(context.Background(), obj)
	})
	if err != nil {
		t.Fatalf("cannot update %s: %v", obj.GetName(), err)
	}
}

// updateWith re-reads obj, runs mutate (which changes obj in place) and updates it, retrying on
// conflicts with the controller's own writes.
func updateWith(t *testing.T, obj client.Object, mutate func()) {
	t.Helper()
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		get(t, obj)
		mutate()
		return kube.Update(context.Background(), obj)
	})
	if err != nil {
		t.Fatalf("cannot update %s: %v", obj.GetName(), err)
	}
}

// create creates an object and deletes it (waiting) when the test ends.
func create(t *testing.T, obj client.Object) {
	t.Helper()
	if err := kube.Create(context.Background(), obj); err != nil {
		t.Fatalf("cannot create %s: %v", obj.GetName(), err)
	}
	t.Cleanup(func() {
		if err := kube.Delete(context.Background(), obj); err != nil && !kerrors.IsNotFound(err) {
			t.Errorf("cannot delete %s: %v", obj.GetName(), err)
			return
		}
		waitGone(t, obj)
	})
}

// createAll creates the objects without waiting for any of them and, when the test ends, deletes
// them all before waiting until all are gone: resources that do not depend on each other become
// ready, and go, together rather than one after the other.
func createAll[T client.Object](t *testing.T, objs ...T) {
	t.Helper()
	created := make([]T, 0, len(objs))
	t.Cleanup(func() {
		for _, obj := range created {
			if err := kube.Delete(context.Background(), obj); err != nil && !kerrors.IsNotFound(err) {
				t.Errorf("cannot delete %s: %v", obj.GetName(), err)
			}
		}
		for _, obj := range created {
			waitGone(t, obj)
		}
	})
	for _, obj := range objs {
		if err := kube.Create(context.Background(), obj); err != nil {
			t.Fatalf("cannot create %s: %v", obj.GetName(), err)
		}
		created = append(created, obj)
	}
}

// releaseProviderConfig deletes the ProviderConfigUsages of a ProviderConfig when the test ends.
// A real cluster's garbage collector removes a usage with its resource; envtest runs no
// garbage collector, so the usage would keep the ProviderConfig's in-use finalizer forever.
func releaseProviderConfig(t *testing.T, name string) {
	t.Cleanup(func() {
		l := &identityv1alpha1.ProviderConfigUsageList{}
		if err := kube.List(context.Background(), l); err != nil {
			t.Errorf("cannot list ProviderConfigUsages: %v", err)
			return
		}
		for i := range l.Items {
			if l.Items[i].ProviderConfigReference.Name == name {
				_ = kube.Delete(context.Background(), &l.Items[i])
			}
		}
	})
}

// events lists the events recorded for an object.
func events(t *testing.T, obj client.Object) []corev1.Event {
	t.Helper()
	l := &corev1.EventList{}
	if err := kube.List(context.Background(), l); err != nil {
		t.Fatalf("cannot list events: %v", err)
	}
	var out []corev1.Event
	for _, e := range l.Items {
		if e.InvolvedObject.UID == obj.GetUID() {
			out = append(out, e)
		}
	}
	return out
}

func hasEvent(t *testing.T, obj client.Object, typ, reason string) bool {
	for _, e := range events(t, obj) {
		if e.Type == typ && e.Reason == reason {
			return true
		}
	}
	return false
}

// eventRecorded reports whether a Normal event of the reason is recorded for obj within 30 s.
// The recorder sends events asynchronously, so under load an event can reach the API server
// after the status written by the same reconcile.
func eventRecorded(t *testing.T, obj client.Object, reason string) bool {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !hasEvent(t, obj, corev1.EventTypeNormal, reason) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(200 * time.Millisecond)
	}
	return true
}
