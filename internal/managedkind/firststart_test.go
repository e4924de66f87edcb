package managedkind

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"github.com/google/go-cmp/cmp"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/prometheus/common/expfmt"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	"github.com/crossplane/crossplane-runtime/v2/pkg/statemetrics"

	nsv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
)

var projectGVK = nsv1alpha1.SchemeGroupVersion.WithKind("Project")

// A step is what the fake API server answers to one list or watch, in order.
type step struct {
	// items is how many resources the list finds; listErr fails it instead.
	items   int
	listErr error
	// watchErr fails the watch that follows an empty list; events are what it sends, then it
	// ends (or stays open when open).
	watchErr error
	events   []watch.Event
	open     bool
}

// scriptedWatcher is a client.WithWatch whose lists and watches answer steps in turn, and
// records what it was asked.
type scriptedWatcher struct {
	client.WithWatch

	mu    sync.Mutex
	steps []step
	asked []string
}

func (s *scriptedWatcher) next(what string) step {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.asked = append(s.asked, what)
	if len(s.steps) == 0 {
		return step{open: true}
	}
	return s.steps[0]
}

func (s *scriptedWatcher) List(_ context.Context, list client.ObjectList, opts ...client.ListOption) error {
	st := s.next("list")
	lo := (&client.ListOptions{}).ApplyOptions(opts)
	if lo.Limit != 1 {
		return errors.Errorf("listed with limit %d, want 1", lo.Limit)
	}
	if st.listErr != nil {
		s.pop()
		return st.listErr
	}
	l := list.(*metav1.PartialObjectMetadataList)
	l.ResourceVersion = "7"
	for range st.items {
		l.Items = append(l.Items, metav1.PartialObjectMetadata{})
	}
	if st.items > 0 {
		s.pop()
	}
	return nil
}

func (s *scriptedWatcher) Watch(_ context.Context, _ client.ObjectList, opts ...client.ListOption) (watch.Interface, error) {
	st := s.next("watch")
	s.pop()
	if rv := (&client.ListOptions{}).ApplyOptions(opts).Raw.ResourceVersion; rv != "7" {
		return nil, errors.Errorf("watched from resource version %q, want the list's 7", rv)
	}
	if st.watchErr != nil {
		return nil, st.watchErr
	}
	w := watch.NewFakeWithChanSize(len(st.events), false)
	for _, ev := range st.events {
		w.Action(ev.Type, ev.Object)
	}
	if !st.open {
		w.Stop()
	}
	return w, nil
}

func (s *scriptedWatcher) pop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.steps) > 0 {
		s.steps = s.steps[1:]
	}
}

func (s *scriptedWatcher) calls() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.asked...)
}

func TestWaitForFirst(t *testing.T) {
	firstRetryMin, firstRetryMax = 10*time.Millisecond, 40*time.Millisecond
	t.Cleanup(func() { firstRetryMin, firstRetryMax = time.Second, time.Minute })
	obj := &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Name: "p", ResourceVersion: "8"}}
	gone := &metav1.Status{Status: metav1.StatusFailure, Code: 410, Reason: metav1.StatusReasonExpired, Message: "too old"}
	errBoom := errors.New("boom")
	cases := map[string]struct {
		reason string
		steps  []step
		// cancel: the context ends instead, after this long.
		cancel time.Duration
		found  bool
		calls  []string
		// pauses: how many pauses of at least firstRetryMin must have passed.
		pauses int
	}{
		"Exists": {
			reason: "A resource that exists when the kind is set up is found by the list alone.",
			steps:  []step{{items: 1}},
			found:  true,
			calls:  []string{"list"},
		},
		"Added": {
			reason: "Without a resource, the watch from the list's version tells of the first one added.",
			steps:  []step{{events: []watch.Event{{Type: watch.Added, Object: obj}}}},
			found:  true,
			calls:  []string{"list", "watch"},
		},
		"DeletedAndBookmarkAreNotResources": {
			reason: "A deletion or a bookmark does not say a resource exists; the modification after them does.",
			steps: []step{{events: []watch.Event{
				{Type: watch.Deleted, Object: obj}, {Type: watch.Bookmark, Object: obj}, {Type: watch.Modified, Object: obj},
			}}},
			found: true,
			calls: []string{"list", "watch"},
		},
		"WatchEnds": {
			reason: "A watch the API server ends is followed by a new list.",
			steps:  []step{{}, {items: 1}},
			found:  true,
			calls:  []string{"list", "watch", "list"},
			pauses: 1,
		},
		"WatchesEndAtOnce": {
			reason: "A server that ends every watch at once gets a list only after each pause, never a loop of lists.",
			steps:  []step{{}, {}, {}, {items: 1}},
			found:  true,
			calls:  []string{"list", "watch", "list", "watch", "list", "watch", "list"},
			pauses: 3,
		},
		"WatchExpired": {
			reason: "A watch that fails (its version too old) is followed by a new list after a pause.",
			steps:  []step{{events: []watch.Event{{Type: watch.Error, Object: gone}}}, {items: 1}},
			found:  true,
			calls:  []string{"list", "watch", "list"},
		},
		"ListFails": {
			reason: "A failed list is tried again after a pause.",
			steps:  []step{{listErr: errBoom}, {listErr: errBoom}, {items: 1}},
			found:  true,
			calls:  []string{"list", "list", "list"},
		},
		"WatchFails": {
			reason: "A refused watch is followed by a new list after a pause.",
			steps:  []step{{watchErr: apierrors.NewForbidden(schema.GroupResource{}, "", errBoom)}, {items: 1}},
			found:  true,
			calls:  []string{"list", "watch", "list"},
		},
		"Stopped": {
			reason: "A provider that stops before the kind has a resource stops waiting, having found none.",
			steps:  []step{{open: true}},
			cancel: 50 * time.Millisecond,
			found:  false,
			calls:  []string{"list", "watch"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := &scriptedWatcher{steps: tc.steps}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if tc.cancel > 0 {
				ctx, cancel = context.WithTimeout(ctx, tc.cancel)
				defer cancel()
			}
			start := time.Now()
			found := waitForFirst(ctx, c, projectGVK, logr.Discard())
			if least := time.Duration(tc.pauses) * firstRetryMin; time.Since(start) < least {
				t.Errorf("%s\nwaitForFirst returned after %s, before its %d pauses of %s", tc.reason, time.Since(start), tc.pauses, firstRetryMin)
			}
			if found != tc.found {
				t.Errorf("%s\nwaitForFirst: got %t, want %t", tc.reason, found, tc.found)
			}
			if diff := cmp.Diff(tc.calls, c.calls()); diff != "" {
				t.Errorf("%s\ncalls: -want, +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// addRecorder is a manager that keeps the runnables added to it.
type addRecorder struct {
	ctrl.Manager

	added []manager.Runnable
}

func (m *addRecorder) Add(r manager.Runnable) error {
	m.added = append(m.added, r)
	return nil
}

func (m *addRecorder) GetLogger() logr.Logger { return logr.Discard() }

func TestFirstResourcesWait(t *testing.T) {
	errBoom := errors.New("boom")
	kind := projectGVK.GroupKind().String()
	cases := map[string]struct {
		reason   string
		steps    []step
		setupErr error
		cancel   bool
		setups   int
		waiting  bool
	}{
		"FirstResource": {
			reason:  "The kind is set up once its first resource appears, and waits no more.",
			steps:   []step{{items: 1}},
			setups:  1,
			waiting: false,
		},
		"SetupFails": {
			reason:   "A kind whose setup failed is not reported as waiting: reading it then fails visibly instead of finding nothing.",
			steps:    []step{{items: 1}},
			setupErr: errBoom,
			setups:   1,
			waiting:  false,
		},
		"NoResource": {
			reason:  "A kind without a resource is not set up and is still waiting when the provider stops.",
			steps:   []step{{open: true}},
			cancel:  true,
			setups:  0,
			waiting: true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := &scriptedWatcher{steps: tc.steps}
			f := NewFirstResources()
			f.newClient = func(ctrl.Manager) (client.WithWatch, error) { return c, nil }
			mgr := &addRecorder{}
			setups := 0
			if err := f.wait(mgr, projectGVK, func(context.Context) error { setups++; return tc.setupErr }); err != nil {
				t.Fatalf("wait: %v", err)
			}
			if !f.Waiting(kind) {
				t.Errorf("%s\nWaiting before the manager started: got false, want true", tc.reason)
			}
			if len(mgr.added) != 1 {
				t.Fatalf("wait added %d runnables to the manager, want 1", len(mgr.added))
			}
			r := mgr.added[0]
			if le, ok := r.(manager.LeaderElectionRunnable); !ok || le.NeedLeaderElection() {
				t.Errorf("the watch must run in every replica, not only the leader")
			}
			ctx, cancel := context.WithCancel(context.Background())
			if tc.cancel {
				time.AfterFunc(50*time.Millisecond, cancel)
			}
			defer cancel()
			if err := r.Start(ctx); err != nil {
				t.Errorf("%s\nStart: %v", tc.reason, err)
			}
			if setups != tc.setups {
				t.Errorf("%s\nsetups: got %d, want %d", tc.reason, setups, tc.setups)
			}
			if got := f.Waiting(kind); got != tc.waiting {
				t.Errorf("%s\nWaiting after Start: got %t, want %t", tc.reason, got, tc.waiting)
			}
		})
	}
}

func TestFirstResourcesNoClient(t *testing.T) {
	errBoom := errors.New("boom")
	f := NewFirstResources()
	f.newClient = func(ctrl.Manager) (client.WithWatch, error) { return nil, errBoom }
	mgr := &addRecorder{}
	if err := f.wait(mgr, projectGVK, func(context.Context) error { return nil }); !errors.Is(err, errBoom) {
		t.Errorf("wait without a client: got %v, want an error wrapping %v", err, errBoom)
	}
	if len(mgr.added) != 0 || f.Waiting(projectGVK.GroupKind().String()) {
		t.Errorf("wait without a client added %d runnables and left the kind waiting: %t", len(mgr.added), f.Waiting(projectGVK.GroupKind().String()))
	}
}

func TestNilFirstResourcesWaitsForNothing(t *testing.T) {
	var f *FirstResources
	if f.Waiting(projectGVK.GroupKind().String()) {
		t.Error("a nil FirstResources says a kind is waiting")
	}
}

// The zeros set for a waiting kind are the series its recorder writes once it runs.
func TestZeroStateMetrics(t *testing.T) {
	s := runtime.NewScheme()
	if err := nsv1alpha1.SchemeBuilder.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	zeroed := statemetrics.NewMRStateMetrics()
	zeroStateMetrics(zeroed, projectGVK)
	recorded := statemetrics.NewMRStateMetrics()
	rec := statemetrics.NewMRStateRecorder(fake.NewClientBuilder().WithScheme(s).Build(), logging.NewNopLogger(), recorded, &nsv1alpha1.ProjectList{}, time.Second)
	if err := rec.Record(context.Background()); err != nil {
		t.Fatal(err)
	}
	for name, pair := range map[string][2]*prometheus.GaugeVec{
		"exists": {zeroed.Exists, recorded.Exists},
		"ready":  {zeroed.Ready, recorded.Ready},
		"synced": {zeroed.Synced, recorded.Synced},
	} {
		want, err := testutil.CollectAndFormat(pair[1], expfmt.TypeTextPlain)
		if err != nil {
			t.Fatal(err)
		}
		got, err := testutil.CollectAndFormat(pair[0], expfmt.TypeTextPlain)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(want), string(got)); diff != "" {
			t.Errorf("%s: -recorded, +zeroed:\n%s", name, diff)
		}
	}
}
