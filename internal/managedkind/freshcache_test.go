package managedkind

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
)

var freshKey = types.NamespacedName{Name: "d"}

func domainAt(rv string) *v1alpha1.Domain {
	return &v1alpha1.Domain{ObjectMeta: metav1.ObjectMeta{Name: freshKey.Name, ResourceVersion: rv}}
}

func TestWrittenVersions(t *testing.T) {
	now := time.Date(2026, 12, 6, 23, 0, 0, 0, time.UTC)
	v := NewWrittenVersions()
	v.now = func() time.Time { return now }

	v.wrote(domainAt("7"), errors.New("conflict"))
	if _, ok := v.take(freshKey); ok {
		t.Error("a failed write recorded a version")
	}
	v.wrote(domainAt("7"), nil)
	v.wrote(domainAt("8"), nil)
	if rv, ok := v.take(freshKey); !ok || rv != "8" {
		t.Errorf("take after two writes: got %q, %v; want the last, 8", rv, ok)
	}
	if _, ok := v.take(freshKey); ok {
		t.Error("a version was taken twice: only the reconcile after the write waits for it")
	}
	v.wrote(domainAt("9"), nil)
	now = now.Add(writtenMemory + time.Second)
	if _, ok := v.take(freshKey); ok {
		t.Errorf("a version written more than %s ago was taken", writtenMemory)
	}
	v.wrote(&v1alpha1.Domain{ObjectMeta: metav1.ObjectMeta{Name: "old", ResourceVersion: "1"}}, nil)
	now = now.Add(writtenMemory + time.Second)
	v.wrote(domainAt("10"), nil)
	if len(v.versions) != 1 {
		t.Errorf("versions kept after a sweep: %d, want 1 (the write just made)", len(v.versions))
	}
}

// TestVersionRecorder: every write the reconciler makes through its client records the version
// it left, status writes included.
func TestVersionRecorder(t *testing.T) {
	s := runtime.NewScheme()
	if err := v1alpha1.SchemeBuilder.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	writes := map[string]func(c client.Client, d *v1alpha1.Domain) error{
		"Update": func(c client.Client, d *v1alpha1.Domain) error { return c.Update(context.Background(), d) },
		"Patch": func(c client.Client, d *v1alpha1.Domain) error {
			return c.Patch(context.Background(), d, client.RawPatch(types.MergePatchType, []byte(`{"metadata":{"labels":{"a":"b"}}}`)))
		},
		"StatusUpdate": func(c client.Client, d *v1alpha1.Domain) error { return c.Status().Update(context.Background(), d) },
		"StatusPatch": func(c client.Client, d *v1alpha1.Domain) error {
			return c.Status().Patch(context.Background(), d, client.RawPatch(types.MergePatchType, []byte(`{"status":{"atProvider":{"id":"x"}}}`)))
		},
	}
	for name, write := range writes {
		t.Run(name, func(t *testing.T) {
			kube := fake.NewClientBuilder().WithScheme(s).WithObjects(&v1alpha1.Domain{ObjectMeta: metav1.ObjectMeta{Name: freshKey.Name}}).
				WithStatusSubresource(&v1alpha1.Domain{}).Build()
			d := &v1alpha1.Domain{}
			if err := kube.Get(context.Background(), freshKey, d); err != nil {
				t.Fatal(err)
			}
			before := d.GetResourceVersion()
			v := NewWrittenVersions()
			if err := write(versionRecorder{Client: kube, versions: v}, d); err != nil {
				t.Fatal(err)
			}
			rv, ok := v.take(freshKey)
			if !ok || rv != d.GetResourceVersion() || rv == before {
				t.Errorf("recorded %q, %v; want the version after the write, %q (before it: %q)", rv, ok, d.GetResourceVersion(), before)
			}
		})
	}
}

// staleCache answers Get with the versions in rvs, one per call, the last one from then on,
// and notes what it answered.
type staleCache struct {
	client.Reader
	mu       sync.Mutex
	rvs      []string
	err      error
	answered []string
}

func (c *staleCache) Get(_ context.Context, _ client.ObjectKey, obj client.Object, _ ...client.GetOption) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return c.err
	}
	rv := c.rvs[0]
	if len(c.rvs) > 1 {
		c.rvs = c.rvs[1:]
	}
	c.answered = append(c.answered, rv)
	obj.SetResourceVersion(rv)
	return nil
}

func (c *staleCache) seen() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.answered...)
}

func TestFreshCache(t *testing.T) {
	notFound := kerrors.NewNotFound(schema.GroupResource{Resource: "domains"}, freshKey.Name)
	cases := map[string]struct {
		written  string // the version the reconciler wrote last; "" for none
		rvs      []string
		err      error
		wantSeen []string // what the cache answered before the reconcile ran
		wantWait time.Duration
	}{
		"WaitsForTheVersionWritten":       {written: "8", rvs: []string{"7", "7", "8"}, wantSeen: []string{"7", "7", "8"}},
		"ReadsNothingWithoutAWrite":       {rvs: []string{"7"}, wantSeen: nil},
		"CacheAlreadyFresh":               {written: "8", rvs: []string{"8"}, wantSeen: []string{"8"}},
		"GoneFromTheCacheWaitsNoLonger":   {written: "8", err: notFound, wantSeen: nil},
		"AnotherVersionWaitsAtMostABound": {written: "8", rvs: []string{"9"}, wantWait: cacheCatchUp},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cache := &staleCache{rvs: tc.rvs, err: tc.err}
			v := NewWrittenVersions()
			if tc.written != "" {
				v.wrote(domainAt(tc.written), nil)
			}
			var seenAtReconcile []string
			inner := reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) {
				seenAtReconcile = cache.seen()
				return reconcile.Result{}, nil
			})
			start := time.Now()
			if _, err := (FreshCache{Reconciler: inner, Cache: cache, Versions: v, Kind: &v1alpha1.Domain{}}).Reconcile(context.Background(), reconcile.Request{NamespacedName: freshKey}); err != nil {
				t.Fatal(err)
			}
			if tc.wantWait > 0 {
				if waited := time.Since(start); waited < tc.wantWait {
					t.Errorf("reconciled after %s, want the wait's bound, %s", waited, tc.wantWait)
				}
				return
			}
			if waited := time.Since(start); waited >= cacheCatchUp {
				t.Errorf("reconciled after %s: only a version other than the one written waits that long", waited)
			}
			if diff := cmp.Diff(tc.wantSeen, seenAtReconcile); diff != "" {
				t.Errorf("versions the cache answered before the reconcile (-want +got):\n%s", diff)
			}
		})
	}
}
