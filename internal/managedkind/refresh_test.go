package managedkind

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"

	clusterv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	nsv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients"
)

// A refreshed resource is woken at once, and its next reconcile, one only, reads afresh; a
// resource gone is forgotten.
func TestWakerRefresh(t *testing.T) {
	const kind = "Project.keystone.identity.m.crossplane.io"
	w := NewWaker()
	q := startedQueue(t, w, kind)
	w.Refresh(kind, "team-a", "p")
	if diff := cmp.Diff([]string{"p"}, woken(q)); diff != "" {
		t.Errorf("woken (-want +got):\n%s", diff)
	}
	refreshed := w.refreshed(kind)
	key := client.ObjectKey{Namespace: "team-a", Name: "p"}
	if !refreshed(key) {
		t.Error("the reconcile after a refresh does not read afresh")
	}
	if refreshed(key) {
		t.Error("a second reconcile reads afresh: only the one after the refresh does")
	}
	w.Refresh(kind, "team-a", "p")
	w.Deleted(kind, "team-a", "p")
	if refreshed(key) || len(w.refresh) != 0 {
		t.Errorf("a deleted resource's refresh is kept: %v", w.refresh)
	}
}

// The reconcile of a refreshed resource reads its object alone; its lookups are still shared.
func TestFreshCacheRefreshedReadsAlone(t *testing.T) {
	for _, refresh := range []bool{false, true} {
		var alone, lookupsAlone bool
		inner := reconcile.Func(func(ctx context.Context, _ reconcile.Request) (reconcile.Result, error) {
			alone, lookupsAlone = readsObjectAlone(ctx), clients.ReadsAlone(ctx)
			return reconcile.Result{}, nil
		})
		f := FreshCache{Reconciler: inner, Versions: NewWrittenVersions(), Kind: &clusterv1alpha1.Domain{},
			Refreshed: func(client.ObjectKey) bool { return refresh }}
		if _, err := f.Reconcile(context.Background(), reconcile.Request{NamespacedName: freshKey}); err != nil {
			t.Fatal(err)
		}
		if alone != refresh || lookupsAlone {
			t.Errorf("refreshed %v: the reconcile reads its object alone: %v, its lookups alone: %v", refresh, alone, lookupsAlone)
		}
	}
}

// The resources of a kind, and of its twin in the other scope, whose external name is the one
// named are refreshed; the others are not.
func TestOwnersRefreshByExternalName(t *testing.T) {
	const (
		clusterKind = "Project.keystone.identity.crossplane.io"
		nsKind      = "Project.keystone.identity.m.crossplane.io"
	)
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{clusterv1alpha1.SchemeBuilder.AddToScheme, nsv1alpha1.SchemeBuilder.AddToScheme} {
		if err := add(s); err != nil {
			t.Fatal(err)
		}
	}
	named := func(obj client.Object, ext string) client.Object {
		meta.SetExternalName(obj, ext)
		return obj
	}
	kube := fake.NewClientBuilder().WithScheme(s).WithObjects(
		named(&clusterv1alpha1.Project{ObjectMeta: metav1.ObjectMeta{Name: "c"}}, "42"),
		named(&nsv1alpha1.Project{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "n"}}, "42"),
		named(&nsv1alpha1.Project{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "other"}}, "7"),
	).WithIndex(&clusterv1alpha1.Project{}, IndexExternalName, externalNameIndex).
		WithIndex(&nsv1alpha1.Project{}, IndexExternalName, externalNameIndex).Build()
	w := NewWaker()
	if err := (Owners{Kube: kube, Scheme: s, Waker: w}).RefreshByExternalName(context.Background(), clusterKind, "42"); err != nil {
		t.Fatal(err)
	}
	want := map[waiter]bool{{clusterKind, "", "c"}: true, {nsKind, "team-a", "n"}: true}
	if diff := cmp.Diff(want, w.refresh, cmp.AllowUnexported(waiter{})); diff != "" {
		t.Errorf("refreshed (-want +got):\n%s", diff)
	}
	if err := (Owners{Kube: kube, Scheme: s}).RefreshByExternalName(context.Background(), clusterKind, "42"); err != nil {
		t.Errorf("without a Waker: %v", err)
	}
}

// readsObjectAlone reports whether a shared read of an object through ctx goes to the system.
func readsObjectAlone(ctx context.Context) bool {
	r := clients.NewSharedReads[string](clients.SharedReadOptions{Fresh: time.Minute, Window: time.Minute})
	s := clients.Scope{Client: "c", List: "objects"}
	alone := true
	src := clients.Source[string]{
		List: func(context.Context) ([]string, error) { alone = false; return []string{"x"}, nil },
		Get:  func(context.Context) (string, error) { return "x", nil },
		ID:   func(v string) string { return v },
	}
	// A write's answer answers the next read of the object unless the read goes to the system.
	r.Wrote(s, "x", "written")
	v, _ := r.Get(ctx, s, "x", src)
	return alone && v != "written"
}
