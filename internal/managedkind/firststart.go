package managedkind

import (
	"context"
	"sync"
	"time"

	"github.com/go-logr/logr"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// A kind is set up with its first resource. An active kind nobody uses would otherwise keep,
// for the provider's life, its controller's workers (--max-concurrent-reconciles goroutines),
// its work queue's five goroutines, an informer's eight with its cache, indexes and event
// listener, and a state-metrics recorder: with every kind of the package active, about 1,900
// of an idle provider's 2,300 goroutines (about 430 are left). Until its first resource a kind costs one metadata
// watch of it. Nothing a user sees changes: once set up, the kind's informer lists what
// exists and its controller is handed every resource, the first one included.

// FirstResources sets kinds up when their first resource appears, and knows which kinds are
// still waiting for one.
type FirstResources struct {
	mu      sync.Mutex
	waiting map[string]bool

	// newClient builds the client that lists and watches the waiting kinds; tests replace it.
	newClient func(mgr ctrl.Manager) (client.WithWatch, error)
	once      sync.Once
	client    client.WithWatch
	clientErr error
}

// NewFirstResources returns FirstResources that watch through a client of the manager's
// configuration.
func NewFirstResources() *FirstResources {
	return &FirstResources{waiting: map[string]bool{}, newClient: func(mgr ctrl.Manager) (client.WithWatch, error) {
		return client.NewWithWatch(mgr.GetConfig(), client.Options{Scheme: mgr.GetScheme(), Mapper: mgr.GetRESTMapper()})
	}}
}

// Waiting reports whether the group-qualified kind (Kind.group) is set to start with its
// first resource and has not seen one yet: it has no resource to read. A nil FirstResources
// waits for nothing.
func (f *FirstResources) Waiting(kind string) bool {
	if f == nil {
		return false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.waiting[kind]
}

// firstResourceWatch is the manager runnable that waits for a kind's first resource.
type firstResourceWatch struct {
	f     *FirstResources
	c     client.WithWatch
	gvk   schema.GroupVersionKind
	setup func(ctx context.Context) error
	log   logr.Logger
}

// NeedLeaderElection is false: every replica sets a kind up (its informer and indexes serve
// reads), as every replica sets up the kinds that have resources when it starts; the
// controller itself still runs only in the leader.
func (firstResourceWatch) NeedLeaderElection() bool { return false }

// Start waits for the kind's first resource, sets the kind up and returns. An error of the
// setup is logged: there is no resource to report it on yet.
func (w firstResourceWatch) Start(ctx context.Context) error {
	if !waitForFirst(ctx, w.c, w.gvk, w.log) {
		return nil
	}
	err := w.setup(ctx)
	w.f.mu.Lock()
	delete(w.f.waiting, w.gvk.GroupKind().String())
	w.f.mu.Unlock()
	if err != nil {
		w.log.Error(err, "cannot set up the controller of a kind whose first resource appeared")
	}
	return nil
}

// wait has setup called, once the manager runs, when a resource of gvk exists.
func (f *FirstResources) wait(mgr ctrl.Manager, gvk schema.GroupVersionKind, setup func(ctx context.Context) error) error {
	f.once.Do(func() { f.client, f.clientErr = f.newClient(mgr) })
	if f.clientErr != nil {
		return errors.Wrap(f.clientErr, "cannot build the client that watches for kinds' first resources")
	}
	f.mu.Lock()
	f.waiting[gvk.GroupKind().String()] = true
	f.mu.Unlock()
	return mgr.Add(firstResourceWatch{f: f, c: f.client, gvk: gvk, setup: setup, log: mgr.GetLogger().WithValues("kind", gvk.String())})
}

// var for tests.
var (
	firstRetryMin = time.Second
	firstRetryMax = time.Minute
)

// waitForFirst returns true once a resource of gvk exists, false when ctx is done first. It
// lists one resource's metadata and, while there is none, watches from that list until one is
// added; when the watch ends (the API server ends every watch after a while) or fails, it
// lists again after a pause, one that doubles while lists or watches keep failing.
func waitForFirst(ctx context.Context, c client.WithWatch, gvk schema.GroupVersionKind, log logr.Logger) bool {
	pause := firstRetryMin
	for ctx.Err() == nil {
		found, err := firstOnce(ctx, c, gvk)
		if found {
			return true
		}
		// A watch the API server ended is listed again after the shortest pause, so that a
		// server ending watches at once cannot make this a loop of lists; the list finds what
		// was made meanwhile.
		wait := firstRetryMin
		if err != nil {
			wait, pause = pause, min(2*pause, firstRetryMax)
			log.V(1).Info("cannot watch for the kind's first resource; trying again", "error", err.Error(), "after", wait.String())
		} else {
			pause = firstRetryMin
		}
		select {
		case <-ctx.Done():
		case <-time.After(wait):
		}
	}
	return false
}

// firstOnce lists one resource of gvk and, when there is none, watches from there until one is
// added or changed (true), the watch ends (false) or fails (its error).
func firstOnce(ctx context.Context, c client.WithWatch, gvk schema.GroupVersionKind) (bool, error) {
	list := &metav1.PartialObjectMetadataList{}
	list.SetGroupVersionKind(gvk.GroupVersion().WithKind(gvk.Kind + "List"))
	if err := c.List(ctx, list, client.Limit(1)); err != nil {
		return false, errors.Wrapf(err, "cannot list %s", gvk.Kind)
	}
	if len(list.Items) > 0 {
		return true, nil
	}
	w, err := c.Watch(ctx, list, &client.ListOptions{Raw: &metav1.ListOptions{ResourceVersion: list.GetResourceVersion(), AllowWatchBookmarks: true}})
	if err != nil {
		return false, errors.Wrapf(err, "cannot watch %s", gvk.Kind)
	}
	defer w.Stop()
	for {
		select {
		case <-ctx.Done():
			return false, nil
		case ev, ok := <-w.ResultChan():
			if !ok {
				return false, nil
			}
			switch ev.Type { //nolint:exhaustive // a deletion or a bookmark tells of no resource
			case watch.Added, watch.Modified:
				return true, nil
			case watch.Error:
				return false, errors.Wrapf(apierrors.FromObject(ev.Object), "watch of %s", gvk.Kind)
			}
		}
	}
}

var _ manager.LeaderElectionRunnable = firstResourceWatch{}
