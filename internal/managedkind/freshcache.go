package managedkind

import (
	"context"
	"sync"
	"time"

	kerrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/crossplane-contrib/provider-identity/internal/clients"
)

const (
	// cacheCatchUp bounds how long a reconcile waits for the cache to show the resource as the
	// reconciler last wrote it. The watch event of a write usually arrives within milliseconds;
	// past the bound the reconcile reads what the cache holds, as it would without the wait.
	cacheCatchUp = 250 * time.Millisecond
	// cacheCatchUpPoll is how often the cache is read again while waiting.
	cacheCatchUpPoll = 5 * time.Millisecond
	// writtenMemory is how long a write's version is remembered: a reconcile that starts later
	// than this after it reads the cache as it is.
	writtenMemory = 10 * time.Second
)

// WrittenVersions are the resourceVersions the reconciler of one kind last wrote, by resource,
// for a while. A reconcile that a write's own watch event (or any other) queued while the
// reconcile that wrote was still running starts as soon as that one ends, often before the
// cache holds its last write: it then reads the resource as it was before it (a create pending,
// with neither its result nor its external name), and crossplane-runtime, unable to tell
// whether the create happened, goes on to look the object up by its natural key, finds it with
// the resource's own marker, reports it as recovered and writes the resource again, only to
// conflict with the version it did not see. FreshCache makes such a reconcile wait, briefly,
// for the version written.
type WrittenVersions struct {
	mu       sync.Mutex
	versions map[types.NamespacedName]writtenVersion
	swept    time.Time
	now      func() time.Time
}

type writtenVersion struct {
	rv string
	at time.Time
}

// NewWrittenVersions returns an empty WrittenVersions.
func NewWrittenVersions() *WrittenVersions {
	return &WrittenVersions{versions: map[types.NamespacedName]writtenVersion{}, now: time.Now}
}

// wrote records the version obj has after a write of it; a write that failed records nothing.
func (v *WrittenVersions) wrote(obj client.Object, err error) {
	if err != nil || obj.GetResourceVersion() == "" {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	now := v.now()
	if now.Sub(v.swept) > writtenMemory {
		v.swept = now
		for k, w := range v.versions {
			if now.Sub(w.at) > writtenMemory {
				delete(v.versions, k)
			}
		}
	}
	v.versions[client.ObjectKeyFromObject(obj)] = writtenVersion{rv: obj.GetResourceVersion(), at: now}
}

// take returns the version last written of the resource, if that was within writtenMemory,
// and forgets it: one reconcile waits for it.
func (v *WrittenVersions) take(key types.NamespacedName) (string, bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	w, ok := v.versions[key]
	delete(v.versions, key)
	return w.rv, ok && v.now().Sub(w.at) <= writtenMemory
}

// versionRecorder is the reconciler's client: it records the version of every resource it
// writes.
type versionRecorder struct {
	client.Client
	versions *WrittenVersions
}

func (c versionRecorder) Update(ctx context.Context, obj client.Object, opts ...client.UpdateOption) error {
	err := c.Client.Update(ctx, obj, opts...)
	c.versions.wrote(obj, err)
	return err
}

func (c versionRecorder) Patch(ctx context.Context, obj client.Object, patch client.Patch, opts ...client.PatchOption) error {
	err := c.Client.Patch(ctx, obj, patch, opts...)
	c.versions.wrote(obj, err)
	return err
}

func (c versionRecorder) Status() client.SubResourceWriter {
	return statusVersionRecorder{SubResourceWriter: c.Client.Status(), versions: c.versions}
}

type statusVersionRecorder struct {
	client.SubResourceWriter
	versions *WrittenVersions
}

func (s statusVersionRecorder) Update(ctx context.Context, obj client.Object, opts ...client.SubResourceUpdateOption) error {
	err := s.SubResourceWriter.Update(ctx, obj, opts...)
	s.versions.wrote(obj, err)
	return err
}

func (s statusVersionRecorder) Patch(ctx context.Context, obj client.Object, patch client.Patch, opts ...client.SubResourcePatchOption) error {
	err := s.SubResourceWriter.Patch(ctx, obj, patch, opts...)
	s.versions.wrote(obj, err)
	return err
}

// FreshCache runs a reconcile once the cache holds the resource at the version the reconciler
// last wrote, or after cacheCatchUp, whichever comes first.
type FreshCache struct {
	reconcile.Reconciler
	Cache    client.Reader
	Versions *WrittenVersions
	// Kind is an object of the kind, copied to read the cache into.
	Kind client.Object
	// Refreshed, when set, tells the resources whose reconcile must also read their external
	// object afresh (Waker.Refresh): their reconcile's reads of objects go to the system
	// (clients.ReadObjectsAlone).
	Refreshed func(key client.ObjectKey) bool
}

// Reconcile waits for the cache, then reconciles.
func (f FreshCache) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	if rv, ok := f.Versions.take(req.NamespacedName); ok {
		f.waitFor(ctx, req.NamespacedName, rv)
	}
	if f.Refreshed != nil && f.Refreshed(req.NamespacedName) {
		ctx = clients.ReadObjectsAlone(ctx)
	}
	return f.Reconciler.Reconcile(ctx, req)
}

// waitFor returns once the cache holds the resource at rv, no longer holds it, or cacheCatchUp
// has passed. A version other than rv may also be a newer one someone else wrote: the wait is
// bounded for that case.
func (f FreshCache) waitFor(ctx context.Context, key types.NamespacedName, rv string) {
	deadline := time.Now().Add(cacheCatchUp)
	for {
		obj, ok := f.Kind.DeepCopyObject().(client.Object)
		if !ok {
			return
		}
		err := f.Cache.Get(ctx, key, obj)
		if kerrors.IsNotFound(err) || (err == nil && obj.GetResourceVersion() == rv) || !time.Now().Before(deadline) {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(cacheCatchUpPoll):
		}
	}
}
