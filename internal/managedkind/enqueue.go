package managedkind

import (
	"context"
	"maps"
	"slices"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/priorityqueue"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// managedEvents enqueues the resource of each event of kind gk and tells the Waker about it:
// deletions waiting for resources of the kind wake up when those are gone, and resources whose
// references to the kind did not resolve when one is created or changes (gets its external
// name).
//
// controller-runtime's priority queue (its default) queues the resources of an informer's
// initial list at low priority, behind every change, and keeps that priority across their
// requeues: on a restart, a resource just applied goes ahead of the resync of thousands. A kind
// is set up with its first resource, though (FirstResources), so its initial list holds the
// first resources applied, never reconciled; at low priority they waited behind each of the
// kind's other resources (make bench-scale N=500: the first RoleAssignments were created 48 s
// after kubectl applied them, and the apply ended 18 s after all others were Ready). Only a
// resource already Ready and Synced is queued at low priority from the initial list.
type managedEvents struct {
	gk string
	w  *Waker
}

var _ handler.EventHandler = managedEvents{}

// Create queues a new resource, or one of the initial list.
func (h managedEvents) Create(_ context.Context, e event.CreateEvent, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
	if e.Object == nil {
		return
	}
	add(q, requestFor(e.Object), e.IsInInitialList && settled(e.Object))
	h.w.Changed(h.gk, e.Object.GetNamespace(), e.Object.GetName())
}

// Update queues a changed resource; a resync (the same version) at low priority. A change of
// the status alone is not queued (the Waker still hears of it).
func (h managedEvents) Update(_ context.Context, e event.UpdateEvent, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
	if e.ObjectNew == nil {
		return
	}
	// Only the provider writes a managed resource's status, so a change of it alone only
	// started one more observation; when that came more than a freshness period after a
	// create, it read Keystone again (make bench-scale N=500: 16 project and 25 group GETs in
	// the apply before, none after). crossplane-runtime's providers filter the same way
	// (resource.DesiredStateChanged). A resource being deleted is always queued: the steps of
	// its deletion follow one another through these events.
	resync := e.ObjectOld != nil && e.ObjectOld.GetResourceVersion() == e.ObjectNew.GetResourceVersion()
	if resync || e.ObjectNew.GetDeletionTimestamp() != nil || !StatusOnly(e.ObjectOld, e.ObjectNew) {
		add(q, requestFor(e.ObjectNew), resync)
	}
	h.w.Changed(h.gk, e.ObjectNew.GetNamespace(), e.ObjectNew.GetName())
}

// StatusOnly reports whether cur differs from old in its status alone (and its version): the
// same generation, deletion timestamp, labels, annotations, finalizers and owners. Such an
// update is usually the provider's own status write, which the reconcile that made it has
// already acted on; controllers leave it out of their queues.
func StatusOnly(old, cur client.Object) bool {
	if old == nil || cur == nil {
		return false
	}
	return old.GetGeneration() == cur.GetGeneration() &&
		equality.Semantic.DeepEqual(old.GetDeletionTimestamp(), cur.GetDeletionTimestamp()) &&
		maps.Equal(old.GetLabels(), cur.GetLabels()) &&
		maps.Equal(old.GetAnnotations(), cur.GetAnnotations()) &&
		slices.Equal(old.GetFinalizers(), cur.GetFinalizers()) &&
		equality.Semantic.DeepEqual(old.GetOwnerReferences(), cur.GetOwnerReferences())
}

// Delete queues a resource gone, and forgets what the Waker kept of it.
func (h managedEvents) Delete(_ context.Context, e event.DeleteEvent, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
	if e.Object == nil {
		return
	}
	q.Add(requestFor(e.Object))
	ns, name := e.Object.GetNamespace(), e.Object.GetName()
	h.w.Gone(provenance.ResourceName(h.gk, ns, name))
	h.w.ReferencesResolved(h.gk, ns, name)
	h.w.Deleted(h.gk, ns, name)
}

// Generic queues the resource.
func (h managedEvents) Generic(_ context.Context, e event.GenericEvent, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
	if e.Object != nil {
		q.Add(requestFor(e.Object))
	}
}

func requestFor(obj client.Object) reconcile.Request {
	return reconcile.Request{NamespacedName: client.ObjectKeyFromObject(obj)}
}

// add queues r, at low priority when low and q is a priority queue.
func add(q workqueue.TypedRateLimitingInterface[reconcile.Request], r reconcile.Request, low bool) {
	if pq, ok := q.(priorityqueue.PriorityQueue[reconcile.Request]); ok && low {
		priority := handler.LowPriority
		pq.AddWithOpts(priorityqueue.AddOpts{Priority: &priority}, r)
		return
	}
	q.Add(r)
}

// settled reports whether obj is a managed resource that is Ready and Synced: reconciled before,
// by this provider or an earlier one.
func settled(obj client.Object) bool {
	c, ok := obj.(resource.Conditioned)
	return ok && c.GetCondition(xpv2.TypeReady).Status == corev1.ConditionTrue && c.GetCondition(xpv2.TypeSynced).Status == corev1.ConditionTrue
}
