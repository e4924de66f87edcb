package managedkind

import (
	"context"
	"reflect"
	"sync"

	"k8s.io/apimachinery/pkg/api/equality"
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
// Nor is the status of a reconcile that just created or deleted its object (see PassingStatuses).
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
	cached, ok := obj.DeepCopyObject().(client.Object)
	if !ok || obj.GetResourceVersion() == "" {
		return false
	}
	if err := s.cache.Get(ctx, client.ObjectKeyFromObject(obj), cached); err != nil {
		return false
	}
	if cached.GetResourceVersion() != obj.GetResourceVersion() {
		return false
	}
	a, b := statusField(obj), statusField(cached)
	return a.IsValid() && b.IsValid() && equality.Semantic.DeepEqual(a.Interface(), b.Interface())
}

// statusField is the Status field of the struct obj points to; invalid when it has none.
func statusField(obj client.Object) reflect.Value {
	v := reflect.ValueOf(obj)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return reflect.Value{}
	}
	return v.Elem().FieldByName("Status")
}

// PassingStatuses are the resources, in the reconciles under way, whose external object was
// just created or deleted. crossplane-runtime ends such a reconcile with a status update
// (Creating or Deleting, with ReconcileSuccess) and a requeue, and the reconcile that follows
// at once observes the object: it writes the status that stays (Available), or removes the
// finalizer and the resource is gone. Keystone's and authentik's objects exist as soon as
// their create returns and are gone when their delete does, so the status in between, which
// lasts about a second, tells nothing the next one does not: it is not written, one API server
// write fewer for every create and every delete. A reconcile that fails after its create or
// delete (its critical annotations not written, say) writes its error as always.
//
// A deletion held by dependents writes its status and warning as before, also when only
// resources of ours hold it (kubectl delete -f of a folder holds each project until the role
// assignments listed after it are gone): those say at once why the deletion does not go ahead.
//
// Entries are keyed by the reconcile's own object and live from the create or delete to the
// status update or the end of the reconcile (Disconnect).
type PassingStatuses struct {
	mu  sync.Mutex
	set map[client.Object]struct{}
}

// NewPassingStatuses returns an empty set.
func NewPassingStatuses() *PassingStatuses {
	return &PassingStatuses{set: map[client.Object]struct{}{}}
}

// note records that obj's external object was just created or deleted. A nil set notes nothing.
func (p *PassingStatuses) note(obj client.Object) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.set[obj] = struct{}{}
}

// take reports whether obj's status is a passing one, and forgets obj: it is, when its create
// or delete was noted and its Synced condition says the reconcile succeeded.
func (p *PassingStatuses) take(obj client.Object) bool {
	if p == nil {
		return false
	}
	p.mu.Lock()
	_, ok := p.set[obj]
	delete(p.set, obj)
	p.mu.Unlock()
	c, conditioned := obj.(resource.Conditioned)
	return ok && conditioned && c.GetCondition(xpv2.TypeSynced).Reason == xpv2.ReasonReconcileSuccess
}

// Len is how many reconciles under way hold an entry.
func (p *PassingStatuses) Len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.set)
}
