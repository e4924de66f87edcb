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
				h.Update(context.Background(), event.UpdateEvent{ObjectOld: settledP, ObjectNew: project("2", xpv2.Available(), xpv2.ReconcileSuccess())}, q)
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
