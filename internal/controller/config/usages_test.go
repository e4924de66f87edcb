package config

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	nsidentityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/v1alpha1"
)

// queued is what a queue was asked to do: each request with the delay it was added after (0 for
// an immediate Add).
type queued map[reconcile.Request]time.Duration

// recordingQueue records Add and AddAfter; nothing else of the queue is called.
type recordingQueue struct {
	resource.RateLimitingInterface
	got queued
}

func (q *recordingQueue) Add(r reconcile.Request)                       { q.got[r] = 0 }
func (q *recordingQueue) AddAfter(r reconcile.Request, d time.Duration) { q.got[r] = d }

// A usage's ProviderConfig is enqueued after the batch delay, whatever happened to the usage,
// and only by the controller of the kind the usage names.
func TestBatchedUsages(t *testing.T) {
	usage := func(kind, name string) *nsidentityv1alpha1.ProviderConfigUsage {
		return &nsidentityv1alpha1.ProviderConfigUsage{
			ObjectMeta:               metav1.ObjectMeta{Namespace: "team-a", Name: "u"},
			TypedProviderConfigUsage: xpv2.TypedProviderConfigUsage{ProviderConfigReference: xpv2.ProviderConfigReference{Kind: kind, Name: name}},
		}
	}
	pc := reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "team-a", Name: "keystone"}}
	cpc := reconcile.Request{NamespacedName: types.NamespacedName{Name: "keystone"}}
	cases := map[string]struct {
		kind  string
		event any
		want  queued
	}{
		"CreatedUsageOfAProviderConfig": {kind: nsidentityv1alpha1.ProviderConfigKind,
			event: event.CreateEvent{Object: usage("ProviderConfig", "keystone")}, want: queued{pc: usageBatch}},
		"DeletedUsageOfAClusterProviderConfig": {kind: nsidentityv1alpha1.ClusterProviderConfigKind,
			event: event.DeleteEvent{Object: usage("ClusterProviderConfig", "keystone")}, want: queued{cpc: usageBatch}},
		"UsageMovedBetweenProviderConfigs": {kind: nsidentityv1alpha1.ProviderConfigKind,
			event: event.UpdateEvent{ObjectOld: usage("ProviderConfig", "old"), ObjectNew: usage("ProviderConfig", "keystone")},
			want:  queued{pc: usageBatch, {NamespacedName: types.NamespacedName{Namespace: "team-a", Name: "old"}}: usageBatch}},
		"GenericEvent": {kind: nsidentityv1alpha1.ProviderConfigKind,
			event: event.GenericEvent{Object: usage("ProviderConfig", "keystone")}, want: queued{pc: usageBatch}},
		"UsageOfAnotherKind": {kind: nsidentityv1alpha1.ProviderConfigKind,
			event: event.CreateEvent{Object: usage("ClusterProviderConfig", "keystone")}, want: queued{}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			q := &recordingQueue{got: queued{}}
			deliver(batchedUsages{enqueue: resource.EnqueueRequestForProviderConfig{Kind: tc.kind}, after: usageBatch}, tc.event, q)
			if diff := cmp.Diff(tc.want, q.got); diff != "" {
				t.Errorf("queued: -want, +got:\n%s", diff)
			}
		})
	}
}

// deliver hands e to the handler method of its type.
func deliver(h batchedUsages, e any, q resource.RateLimitingInterface) {
	ctx := context.Background()
	switch e := e.(type) {
	case event.CreateEvent:
		h.Create(ctx, e, q)
	case event.UpdateEvent:
		h.Update(ctx, e, q)
	case event.DeleteEvent:
		h.Delete(ctx, e, q)
	case event.GenericEvent:
		h.Generic(ctx, e, q)
	}
}

// The count's own status update starts no count; what the count reads does.
func TestNotOwnCount(t *testing.T) {
	counted := func() *nsidentityv1alpha1.ProviderConfig {
		pc := &nsidentityv1alpha1.ProviderConfig{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "keystone",
			Generation: 2, Finalizers: []string{"in-use.crossplane.io"}}}
		pc.SetUsers(3)
		return pc
	}
	now := metav1.Now()
	cases := map[string]struct {
		change func(*nsidentityv1alpha1.ProviderConfig)
		want   bool
	}{
		"ItsCountIsNotPassed":      {change: func(pc *nsidentityv1alpha1.ProviderConfig) { pc.SetUsers(4) }, want: false},
		"ASpecChangeIsPassed":      {change: func(pc *nsidentityv1alpha1.ProviderConfig) { pc.SetGeneration(3) }, want: true},
		"ItsDeletionIsPassed":      {change: func(pc *nsidentityv1alpha1.ProviderConfig) { pc.SetDeletionTimestamp(&now) }, want: true},
		"ALostFinalizerIsPassed":   {change: func(pc *nsidentityv1alpha1.ProviderConfig) { pc.SetFinalizers(nil) }, want: true},
		"AnAddedFinalizerIsPassed": {change: func(pc *nsidentityv1alpha1.ProviderConfig) { pc.SetFinalizers(append(pc.GetFinalizers(), "x")) }, want: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cur := counted()
			tc.change(cur)
			if got := notOwnCount.Update(event.UpdateEvent{ObjectOld: counted(), ObjectNew: cur}); got != tc.want {
				t.Errorf("Update passed: %t, want %t", got, tc.want)
			}
		})
	}
	if !notOwnCount.Create(event.CreateEvent{Object: counted()}) || !notOwnCount.Delete(event.DeleteEvent{Object: counted()}) {
		t.Error("a create or delete of the ProviderConfig is not passed, want passed")
	}
}
