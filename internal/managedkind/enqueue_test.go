package managedkind

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/priorityqueue"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	ksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
)

// Only a resource already Ready and Synced goes to the back of the queue from an informer's
// initial list, and a resync with it; a resource never reconciled, one that fails, and every
// change go at the usual priority.
func TestManagedEventsPriorities(t *testing.T) {
	project := func(rv string, conds ...xpv2.Condition) *ksv1alpha1.Project {
		p := &ksv1alpha1.Project{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "p", ResourceVersion: rv}}
		p.SetConditions(conds...)
		return p
	}
	settledP := project("1", xpv2.Available(), xpv2.ReconcileSuccess())
	cases := map[string]struct {
		send func(h managedEvents, q priorityqueue.PriorityQueue[reconcile.Request])
		want int
	}{
		"InitialListNeverReconciled": {
			send: func(h managedEvents, q priorityqueue.PriorityQueue[reconcile.Request]) {
				h.Create(context.Background(), event.CreateEvent{Object: project("1"), IsInInitialList: true}, q)
			},
			want: 0,
		},
		"InitialListFailing": {
			send: func(h managedEvents, q priorityqueue.PriorityQueue[reconcile.Request]) {
				h.Create(context.Background(), event.CreateEvent{Object: project("1", xpv2.Available(), xpv2.ReconcileError(context.Canceled)), IsInInitialList: true}, q)
			},
			want: 0,
		},
		"InitialListReadyAndSynced": {
			send: func(h managedEvents, q priorityqueue.PriorityQueue[reconcile.Request]) {
				h.Create(context.Background(), event.CreateEvent{Object: settledP, IsInInitialList: true}, q)
			},
			want: handler.LowPriority,
		},
		"CreatedReadyAndSynced": {
			send: func(h managedEvents, q priorityqueue.PriorityQueue[reconcile.Request]) {
				h.Create(context.Background(), event.CreateEvent{Object: settledP}, q)
			},
			want: 0,
		},
		"Resync": {
			send: func(h managedEvents, q priorityqueue.PriorityQueue[reconcile.Request]) {
				h.Update(context.Background(), event.UpdateEvent{ObjectOld: settledP, ObjectNew: settledP}, q)
			},
			want: handler.LowPriority,
		},
		"Change": {
			send: func(h managedEvents, q priorityqueue.PriorityQueue[reconcile.Request]) {
				changed := project("2", xpv2.Available(), xpv2.ReconcileSuccess())
				changed.SetGeneration(2)
				h.Update(context.Background(), event.UpdateEvent{ObjectOld: settledP, ObjectNew: changed}, q)
			},
			want: 0,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			q := priorityqueue.New[reconcile.Request]("test")
			defer q.ShutDown()
			tc.send(managedEvents{gk: "Project.keystone.identity.m.crossplane.io", w: NewWaker()}, q)
			item, priority, _ := q.GetWithPriority()
			if diff := cmp.Diff(reconcile.Request{NamespacedName: client.ObjectKeyFromObject(settledP)}, item); diff != "" {
				t.Errorf("queued (-want +got):\n%s", diff)
			}
			if priority != tc.want {
				t.Errorf("priority: got %d, want %d", priority, tc.want)
			}
		})
	}
}

// A change of the status alone is not queued, unless the resource is being deleted; any change
// of what a reconcile acts on is, and the Waker hears of each.
func TestManagedEventsStatusOnly(t *testing.T) {
	project := func(mutate ...func(*ksv1alpha1.Project)) *ksv1alpha1.Project {
		p := &ksv1alpha1.Project{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "p", ResourceVersion: "1", Generation: 1,
			Labels: map[string]string{"team": "a"}, Annotations: map[string]string{"crossplane.io/external-name": "id"}, Finalizers: []string{"f"}}}
		for _, m := range mutate {
			m(p)
		}
		return p
	}
	newVersion := func(p *ksv1alpha1.Project) { p.ResourceVersion = "2" }
	deleting := func(p *ksv1alpha1.Project) { p.DeletionTimestamp = &metav1.Time{} }
	ready := func(p *ksv1alpha1.Project) { p.SetConditions(xpv2.Available()) }
	cases := map[string]struct {
		old, cur   *ksv1alpha1.Project
		wantQueued bool
	}{
		"StatusOnly":            {old: project(), cur: project(newVersion, ready), wantQueued: false},
		"StatusWhileDeleting":   {old: project(deleting), cur: project(newVersion, deleting, ready), wantQueued: true},
		"DeletionStarts":        {old: project(), cur: project(newVersion, deleting), wantQueued: true},
		"Generation":            {old: project(), cur: project(newVersion, func(p *ksv1alpha1.Project) { p.Generation = 2 }), wantQueued: true},
		"Annotation":            {old: project(), cur: project(newVersion, func(p *ksv1alpha1.Project) { p.Annotations["crossplane.io/paused"] = "true" }), wantQueued: true},
		"Label":                 {old: project(), cur: project(newVersion, func(p *ksv1alpha1.Project) { p.Labels["team"] = "b" }), wantQueued: true},
		"Finalizer":             {old: project(), cur: project(newVersion, func(p *ksv1alpha1.Project) { p.Finalizers = nil }), wantQueued: true},
		"OwnerReference":        {old: project(), cur: project(newVersion, func(p *ksv1alpha1.Project) { p.OwnerReferences = []metav1.OwnerReference{{Name: "x"}} }), wantQueued: true},
		"ResyncOfTheSameStatus": {old: project(ready), cur: project(ready), wantQueued: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			q := priorityqueue.New[reconcile.Request]("test")
			defer q.ShutDown()
			w := NewWaker()
			managedEvents{gk: "Project.keystone.identity.m.crossplane.io", w: w}.Update(context.Background(), event.UpdateEvent{ObjectOld: tc.old, ObjectNew: tc.cur}, q)
			if got := q.Len() == 1; got != tc.wantQueued {
				t.Errorf("queued: got %v, want %v", got, tc.wantQueued)
			}
			// Resources waiting for this one hear of every change, its status's too.
			if w.Changes() != 1 {
				t.Errorf("the Waker heard of %d changes, want 1", w.Changes())
			}
		})
	}
}
