package managedkind

import (
	"context"
	"sync"

	"github.com/go-logr/logr"
	toolscache "k8s.io/client-go/tools/cache"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// A kind's controller starts with the kind's first resource. An active kind nobody uses would
// otherwise keep its controller's workers (--max-concurrent-reconciles goroutines), its work
// queue's five and its event listener's two for the provider's life: with every kind of the
// package active, about 1,400 of an idle provider's 2,300 goroutines. Until then the kind
// costs its informer (which the caches of other kinds' references need anyway) and one small
// listener that waits for the first resource. Nothing a user sees changes: the informer is
// the same, and the controller's watch, added to a synced informer, is handed every resource
// the informer holds when it starts.

// heldManager hands the controller the builder adds to it to the manager only once release
// is called; until then the controller exists, with its watches registered, but does not run.
type heldManager struct {
	ctrl.Manager

	mu       sync.Mutex
	held     []manager.Runnable
	released bool
}

// Add holds r until release, or adds it at once after release.
func (m *heldManager) Add(r manager.Runnable) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.released {
		return m.Manager.Add(r)
	}
	m.held = append(m.held, r)
	return nil
}

// release adds what Add held to the manager, once; later calls do nothing.
func (m *heldManager) release() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.released {
		return nil
	}
	m.released = true
	var errs []error
	for _, r := range m.held {
		errs = append(errs, m.Manager.Add(r))
	}
	m.held = nil
	return errors.Join(errs...)
}

// handlerHost is the part of an informer startOnFirst uses.
type handlerHost interface {
	AddEventHandler(handler toolscache.ResourceEventHandler) (toolscache.ResourceEventHandlerRegistration, error)
	RemoveEventHandler(handle toolscache.ResourceEventHandlerRegistration) error
}

// informerOf returns the manager cache's informer of obj's kind without waiting for it to sync:
// before the manager starts it starts with the cache; after, at once.
func informerOf(c cache.Informers, obj client.Object) (handlerHost, error) {
	return c.GetInformer(context.Background(), obj, cache.BlockUntilSynced(false))
}

// startOnFirst calls start, once and in a goroutine of its own, when inf first tells of a
// resource (one that exists when the informer syncs, or the first created after), then stops
// listening. An error of start is logged: there is no reconcile to report it to.
func startOnFirst(inf handlerHost, start func() error, log logr.Logger) error {
	var once sync.Once
	registered := make(chan toolscache.ResourceEventHandlerRegistration, 1)
	first := func() {
		once.Do(func() {
			go func() {
				if err := start(); err != nil {
					log.Error(err, "cannot start the controller of a kind whose first resource appeared")
				}
				if err := inf.RemoveEventHandler(<-registered); err != nil {
					log.Error(err, "cannot stop waiting for the first resource of a kind")
				}
			}()
		})
	}
	reg, err := inf.AddEventHandler(toolscache.ResourceEventHandlerFuncs{
		AddFunc:    func(any) { first() },
		UpdateFunc: func(any, any) { first() },
	})
	if err != nil {
		return errors.Wrap(err, "cannot watch for the first resource of the kind")
	}
	registered <- reg
	return nil
}
