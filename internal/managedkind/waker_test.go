package managedkind

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	ksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

func TestWaker(t *testing.T) {
	const kind = "Domain.keystone.identity.crossplane.io"
	// A step is a WaitFor of the domain "d" (with the mark taken at the step named by markAt),
	// a deletion (gone), or a creation (created) of a resource.
	type step struct {
		waitFor []string
		markAt  int
		gone    string
		created string
	}
	cases := map[string]struct {
		steps []step
		want  []string // names woken, in order
	}{
		"WokenWhenTheLastIsGone": {
			steps: []step{{waitFor: []string{"Project.x/a", "Project.x/b"}}, {gone: "Project.x/a"}, {gone: "Project.x/b"}},
			want:  []string{"d"},
		},
		"NotWokenWhileOneRemains": {
			steps: []step{{waitFor: []string{"Project.x/a", "Project.x/b"}}, {gone: "Project.x/a"}, {gone: "Project.x/c"}},
		},
		"ALaterCheckReplacesWhatItWaitsFor": {
			steps: []step{{waitFor: []string{"Project.x/a", "Project.x/b"}}, {waitFor: []string{"Project.x/b"}, markAt: 1}, {gone: "Project.x/b"}},
			want:  []string{"d"},
		},
		"WhatALaterCheckDroppedWakesNothing": {
			steps: []step{{waitFor: []string{"Project.x/a", "Project.x/b"}}, {waitFor: []string{"Project.x/b"}, markAt: 1}, {gone: "Project.x/a"}},
		},
		"WokenOnce": {
			steps: []step{{waitFor: []string{"Project.x/a"}}, {gone: "Project.x/a"}, {gone: "Project.x/a"}},
			want:  []string{"d"},
		},
		// The owner was deleted between the check and WaitFor: nothing wakes the domain later.
		"AWaitForWhatWasDeletedAfterTheMarkWakesAtOnce": {
			steps: []step{{gone: "Project.x/a"}, {waitFor: []string{"Project.x/a"}, markAt: 0}},
			want:  []string{"d"},
		},
		"AWaitForOneDeletedAndOneLeftWaitsForTheOther": {
			steps: []step{{gone: "Project.x/a"}, {waitFor: []string{"Project.x/a", "Project.x/b"}, markAt: 0}, {gone: "Project.x/b"}},
			want:  []string{"d"},
		},
		"ADeletionBeforeTheMarkIsNotTakenForTheWaitedOne": {
			steps: []step{{gone: "Project.x/a"}, {created: "Project.x/a"}, {waitFor: []string{"Project.x/a"}, markAt: 2}},
		},
		// Created again after its deletion, a resource is waited for even with an older mark.
		"ARecreatedResourceIsWaitedForAgain": {
			steps: []step{{gone: "Project.x/a"}, {created: "Project.x/a"}, {waitFor: []string{"Project.x/a"}, markAt: 0}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			w := NewWaker()
			q := startedQueue(t, w, kind)
			marks := make([]uint64, len(tc.steps))
			for i, s := range tc.steps {
				marks[i] = w.Changes()
				switch {
				case s.gone != "":
					w.Gone(s.gone)
				case s.created != "":
					kind, ns, n, _ := provenance.SplitResourceName(s.created)
					w.Changed(kind, ns, n)
				default:
					w.WaitFor(kind, "", "d", s.waitFor, marks[s.markAt])
				}
			}
			if diff := cmp.Diff(tc.want, woken(q), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("woken: -want +got:\n%s", diff)
			}
		})
	}
}

// A resource whose external object was just deleted has its backoff forgotten: the check that
// the object is gone comes after the base delay, not after the waits before the delete.
func TestWakerResetBackoff(t *testing.T) {
	const kind = "Domain.keystone.identity.crossplane.io"
	w := NewWaker()
	l := w.RateLimiter(kind, workqueue.NewTypedItemExponentialFailureRateLimiter[reconcile.Request](time.Second, time.Minute))
	d := reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "team-a", Name: "d"}}
	other := reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "team-a", Name: "e"}}
	for range 6 {
		l.When(d)
		l.When(other)
	}
	w.ResetBackoff(kind, "team-a", "d")
	w.ResetBackoff("Project.keystone.identity.crossplane.io", "team-a", "e") // another kind's limiter: none here
	got := map[string]time.Duration{"d": l.When(d), "e": l.When(other)}
	want := map[string]time.Duration{"d": time.Second, "e": time.Minute}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("next delays: -want +got:\n%s", diff)
	}
}

// A deletion that waits for other resources retries no sooner than waitingRetry without a
// wake-up; once woken, its next retry comes at the limiter's base delay again.
func TestWakerWaitingDeletionRetriesLate(t *testing.T) {
	const kind, ra = "Project.keystone.identity.crossplane.io", "RoleAssignment.keystone.identity.crossplane.io/team-a/ra"
	w := NewWaker()
	l := w.RateLimiter(kind, workqueue.NewTypedItemExponentialFailureRateLimiter[reconcile.Request](time.Second, time.Minute))
	p := reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "team-a", Name: "p"}}
	other := reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "team-a", Name: "q"}}

	w.WaitFor(kind, "team-a", "p", []string{ra}, w.Changes())
	got := map[string]time.Duration{"waiting": l.When(p), "other": l.When(other)}
	w.Gone(ra)
	got["woken"] = l.When(p)
	want := map[string]time.Duration{"waiting": waitingRetry, "other": time.Second, "woken": time.Second}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("delays: -want +got:\n%s", diff)
	}
}

// A waiting deletion whose resource is gone all the same (its blocker removed by hand, say)
// leaves nothing behind: a resource created again under its name retries at its own pace.
func TestWakerForgetsTheWaitOfADeletedResource(t *testing.T) {
	const kind, ra = "Project.keystone.identity.crossplane.io", "RoleAssignment.keystone.identity.crossplane.io/team-a/ra"
	w := NewWaker()
	l := w.RateLimiter(kind, workqueue.NewTypedItemExponentialFailureRateLimiter[reconcile.Request](time.Second, time.Minute))
	p := reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "team-a", Name: "p"}}

	w.WaitFor(kind, "team-a", "p", []string{ra}, w.Changes())
	w.Deleted(kind, "team-a", "p")
	if got := l.When(p); got != time.Second {
		t.Errorf("retry of a resource created again under a deleted waiter's name: got %v, want %v", got, time.Second)
	}
	if w.waits(waiter{kind, "team-a", "p"}) || len(w.waiters[ra]) != 0 {
		t.Errorf("the deleted resource's wait is still recorded: pending %v, waiters %v", w.pending, w.waiters)
	}
}

// The one watch of a kind enqueues each resource as For would and tells the Waker: a deletion
// wakes what waited for the resource, a creation counts as a change.
func TestManagedEventsTellTheWaker(t *testing.T) {
	const domains, projects = "Domain.keystone.identity.crossplane.io", "Project.keystone.identity.crossplane.io"
	w := NewWaker()
	woke := startedQueue(t, w, domains)
	w.WaitFor(domains, "", "d", []string{projects + "/team-a/p"}, w.Changes())
	h := managedEvents{gk: projects, w: w}
	q := workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[reconcile.Request]())
	defer q.ShutDown()
	p := &ksv1alpha1.Project{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "p"}}

	before := w.Changes()
	h.Create(context.Background(), event.CreateEvent{Object: p}, q)
	if w.Changes() == before {
		t.Error("a created resource is not a change to the Waker")
	}
	h.Delete(context.Background(), event.DeleteEvent{Object: p}, q)
	want := reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "team-a", Name: "p"}}
	if got, _ := q.Get(); got != want || q.Len() != 0 {
		t.Errorf("queued: got %v and %d more, want only %v", got, q.Len(), want)
	}
	if got := woken(woke); !cmp.Equal(got, []string{"d"}) {
		t.Errorf("the deletion woke %v, want the domain d that waited for the project", got)
	}
}

// A wake-up reaches the kind's controller through the work queue its source was started with;
// one before the controller started is dropped (starting, the controller reconciles every
// resource of its kind anyway).
func TestWakerWakesThroughTheStartedQueue(t *testing.T) {
	const kind = "Domain.keystone.identity.crossplane.io"
	w := NewWaker()
	w.WaitFor(kind, "", "early", nil, w.Changes())
	q := startedQueue(t, w, kind)
	if got := woken(q); len(got) != 0 {
		t.Errorf("a wake-up before the start reached the queue: %v", got)
	}
	w.WaitFor(kind, "", "d", nil, w.Changes())
	if got := woken(q); !cmp.Equal(got, []string{"d"}) {
		t.Errorf("woken: got %v, want [d]", got)
	}
}

// startedQueue starts the Waker's source of kind with a fresh work queue, as the kind's
// controller does, and returns the queue.
func startedQueue(t *testing.T, w *Waker, kind string) workqueue.TypedRateLimitingInterface[reconcile.Request] {
	t.Helper()
	q := workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[reconcile.Request]())
	t.Cleanup(q.ShutDown)
	if err := w.source(kind).Start(context.Background(), q); err != nil {
		t.Fatalf("starting the Waker's source of %s: %v", kind, err)
	}
	return q
}

// woken takes everything out of q and returns the names of the resources it held.
func woken(q workqueue.TypedRateLimitingInterface[reconcile.Request]) []string {
	var got []string
	for q.Len() > 0 {
		r, _ := q.Get()
		q.Done(r)
		got = append(got, r.Name)
	}
	return got
}
