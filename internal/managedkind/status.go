package managedkind

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
)

// unchangedStatusSkipper is the client the managed reconciler writes with. crossplane-runtime
// ends every reconcile with a status update, also the poll of a resource whose external object
// and conditions did not change. The API server finds such an update changes nothing and keeps
// the stored object, but only after decoding, validating and comparing it: at 1,252 resources
// polled every 30 s that was about a third of a core of the control plane's CPU with nothing
// happening, on machines where the control plane shares its cores with the provider and with
// what it manages. An update whose status equals that of the same version of the resource in
// the manager's cache is therefore not sent: the API server would have kept that very object.
//
// Nor is a status that lasts a moment (see PassingStatuses).
type unchangedStatusSkipper struct {
	client.Client
	// passing may be nil: every such status is then sent.
	passing *PassingStatuses
}

// Status returns the status writer that skips updates that change nothing.
func (c unchangedStatusSkipper) Status() client.SubResourceWriter {
	return statusSkipper{SubResourceWriter: c.Client.Status(), cache: c.Client, passing: c.passing}
}

type statusSkipper struct {
	client.SubResourceWriter
	cache   client.Reader
	passing *PassingStatuses
}

// Update sends the status update unless it is a plain update (no options: not a dry run, no
// other field manager) of a passing status, or of the version the cache holds with the status
// the cache holds.
func (s statusSkipper) Update(ctx context.Context, obj client.Object, opts ...client.SubResourceUpdateOption) error {
	passing := s.passing.take(obj)
	if len(opts) == 0 && (passing || s.unchanged(ctx, obj)) {
		return nil
	}
	return s.SubResourceWriter.Update(ctx, obj, opts...)
}

// unchanged is whether the cache holds obj's resource at obj's resourceVersion with an equal
// status. Any doubt (not cached, another version, no status field) is a change.
func (s statusSkipper) unchanged(ctx context.Context, obj client.Object) bool {
	cached, ok := cachedVersion(ctx, s.cache, obj)
	if !ok {
		return false
	}
	a, b := statusField(obj), statusField(cached)
	return a.IsValid() && b.IsValid() && equality.Semantic.DeepEqual(a.Interface(), b.Interface())
}

// cachedVersion is the cache's copy of obj's resource when it is at obj's resourceVersion.
func cachedVersion(ctx context.Context, cache client.Reader, obj client.Object) (client.Object, bool) {
	cached, ok := obj.DeepCopyObject().(client.Object)
	if !ok || obj.GetResourceVersion() == "" {
		return nil, false
	}
	if err := cache.Get(ctx, client.ObjectKeyFromObject(obj), cached); err != nil {
		return nil, false
	}
	return cached, cached.GetResourceVersion() == obj.GetResourceVersion()
}

// statusField is the Status field of the struct obj points to; invalid when it has none.
func statusField(obj client.Object) reflect.Value {
	v := reflect.ValueOf(obj)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return reflect.Value{}
	}
	return v.Elem().FieldByName("Status")
}

// PassingStatuses are the resources, in the reconciles under way, whose status lasts a moment
// and is not worth an API server write:
//
//   - The external object was just created or deleted. crossplane-runtime ends such a reconcile
//     with a status update (Creating or Deleting, with ReconcileSuccess) and a requeue, and the
//     reconcile that follows at once observes the object: it writes the status that stays
//     (Available), or removes the finalizer and the resource is gone. Keystone's and authentik's
//     objects exist as soon as their create returns and are gone when their delete does, so
//     the status in between tells nothing the next one does not. A reconcile that fails after
//     its create or delete (its critical annotations not written, say) writes its error.
//   - The deletion began less than quietHold ago and waits only for objects that resources of
//     ours are deleting (adoption.DeletionBlockedError.Waiting): deleting a folder at once holds
//     each project and group for the seconds their role assignments take. Neither its status
//     nor its warning event is written, as crossplane-runtime itself waits in silence for a
//     resource's other finalizers; the Waker wakes it when they are gone, and retries it a
//     minute later if they are not. A deletion held past quietHold reports what holds it, and
//     one held by anything else reports at once: an object no resource of ours manages, or a
//     resource of ours that is not being deleted (nothing would end that wait, so the user is
//     told at once, as Crossplane's Usage refuses such a deletion at once).
//
// At N=500 that is one write fewer for each of the 1,252 creates and deletes, and two for each
// of the 750 projects and groups whose deletions wait for their role assignments.
//
// Entries are keyed by the reconcile's own object and live from the create or delete to the
// status update or the end of the reconcile (Disconnect).
type PassingStatuses struct {
	mu  sync.Mutex
	set map[client.Object]passing
}

// passing is what a status must say to go unwritten, and whether warnings go unrecorded too.
type passing struct {
	synced        xpv2.ConditionReason
	quietWarnings bool
}

// A heldError is a deletion's failure that says whether it only waits for objects that
// resources of ours are deleting (adoption.DeletionBlockedError).
type heldError interface {
	error
	Waiting() bool
}

// quietHold is how long a deletion may wait for resources of ours before its status and
// events say so: the Waker retries a held deletion once a minute.
const quietHold = time.Minute

// NewPassingStatuses returns an empty set.
func NewPassingStatuses() *PassingStatuses {
	return &PassingStatuses{set: map[client.Object]passing{}}
}

// noteDone records that obj's external object was just created or deleted. A nil set notes
// nothing.
func (p *PassingStatuses) noteDone(obj client.Object) {
	p.note(obj, passing{synced: xpv2.ReasonReconcileSuccess})
}

// noteHeld records that obj's deletion failed with err, when that is a brief wait for
// resources of ours being deleted.
func (p *PassingStatuses) noteHeld(obj client.Object, err error) {
	var h heldError
	dt := obj.GetDeletionTimestamp()
	if !errors.As(err, &h) || !h.Waiting() || dt == nil || time.Since(dt.Time) >= quietHold {
		return
	}
	p.note(obj, passing{synced: xpv2.ReasonReconcileError, quietWarnings: true})
}

func (p *PassingStatuses) note(obj client.Object, why passing) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.set[obj] = why
}

// take reports whether obj's status is a passing one, and forgets obj: it is, when obj was
// noted and its Synced condition has the reason noted.
func (p *PassingStatuses) take(obj client.Object) bool {
	if p == nil {
		return false
	}
	p.mu.Lock()
	why, ok := p.set[obj]
	delete(p.set, obj)
	p.mu.Unlock()
	c, conditioned := obj.(resource.Conditioned)
	return ok && conditioned && c.GetCondition(xpv2.TypeSynced).Reason == why.synced
}

// quiet reports whether obj's warnings go unrecorded.
func (p *PassingStatuses) quiet(obj runtime.Object) bool {
	o, ok := obj.(client.Object)
	if p == nil || !ok {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.set[o].quietWarnings
}

// Len is how many reconciles under way hold an entry.
func (p *PassingStatuses) Len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.set)
}
