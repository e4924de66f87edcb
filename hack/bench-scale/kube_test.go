package main

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/tools/cache"
)

// withConditions is a resource whose status holds conds as (type, status, reason) triples.
func withConditions(name string, conds ...[3]string) *unstructured.Unstructured {
	list := make([]any, 0, len(conds))
	for _, c := range conds {
		list = append(list, map[string]any{"type": c[0], "status": c[1], "reason": c[2]})
	}
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "keystone.identity.m.crossplane.io/v1alpha1", "kind": "Project",
		"metadata": map[string]any{"name": name, "namespace": "bench"},
		"status":   map[string]any{"conditions": list},
	}}
}

func TestNotReady(t *testing.T) {
	ready := [3]string{"Ready", "True", "Available"}
	synced := [3]string{"Synced", "True", "ReconcileSuccess"}
	cases := map[string]struct {
		u    *unstructured.Unstructured
		want string
	}{
		"ReadyAndSynced":     {u: withConditions("p", synced, ready), want: ""},
		"NoStatus":           {u: &unstructured.Unstructured{Object: map[string]any{}}, want: "Ready unset, Synced unset"},
		"SyncedOnly":         {u: withConditions("p", synced), want: "Ready unset"},
		"CreatingNotYet":     {u: withConditions("p", [3]string{"Ready", "False", "Creating"}, synced), want: "Ready=False Creating"},
		"SyncFailed":         {u: withConditions("p", ready, [3]string{"Synced", "False", "ReconcileError"}), want: "Synced=False ReconcileError"},
		"ConditionsNotAList": {u: &unstructured.Unstructured{Object: map[string]any{"status": map[string]any{"conditions": "x"}}}, want: "Ready unset, Synced unset"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, notReady(tc.u)); diff != "" {
				t.Errorf("notReady(): -want, +got:\n%s", diff)
			}
		})
	}
}

func TestKubeCensus(t *testing.T) {
	st := cache.NewStore(cache.MetaNamespaceKeyFunc)
	for i, u := range []*unstructured.Unstructured{
		withConditions("a", [3]string{"Ready", "True", "Available"}, [3]string{"Synced", "True", "ReconcileSuccess"}),
		withConditions("b", [3]string{"Synced", "True", "ReconcileSuccess"}),
		withConditions("c"),
	} {
		if err := st.Add(u); err != nil {
			t.Fatalf("add %d: %v", i, err)
		}
	}
	k := &kube{stores: []cache.Store{st}, kinds: kubeKinds{Resources: []string{"projects"}}}
	got := k.census()
	if got.Total != 3 || got.Ready != 1 || len(got.NotReady) != 2 {
		t.Errorf("census() = %+v, want 3 resources, 1 Ready and 2 named as not Ready", got)
	}
}

// BenchmarkCensus is one look at an N=500 Keystone workload (1,252 resources), which the bench
// takes five times a second while it waits.
func BenchmarkCensus(b *testing.B) {
	st := cache.NewStore(cache.MetaNamespaceKeyFunc)
	for i := range 1252 {
		if err := st.Add(withConditions(fmt.Sprintf("o-%04d", i), [3]string{"Ready", "True", "Available"}, [3]string{"Synced", "True", "ReconcileSuccess"})); err != nil {
			b.Fatal(err)
		}
	}
	k := &kube{stores: []cache.Store{st}, kinds: kubeKinds{Resources: []string{"projects"}}}
	for b.Loop() {
		_ = k.census()
	}
}
