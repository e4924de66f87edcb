package managedkind

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/ratelimiter"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	"github.com/crossplane/crossplane-runtime/v2/pkg/statemetrics"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
	"github.com/crossplane-contrib/provider-identity/internal/usage"
)

// A Kind is what SetupKind needs to know about one scope of one managed kind of one system.
type Kind[MR adoption.Managed, C any, O any] struct {
	// GVK names the kind, e.g. v1alpha1.DomainGroupVersionKind.
	GVK schema.GroupVersionKind
	// Object is an empty resource of the kind, e.g. &v1alpha1.Domain{}.
	Object MR
	// System is the system the kind's objects live in.
	System clients.System
	// ClientFor returns the typed client of a ProviderConfig (cached by the system's factory).
	ClientFor func(ctx context.Context, kube client.Reader, pc *identityv1alpha1.ProviderConfig) (C, error)
	// NewDriver returns the kind's driver over a typed client.
	NewDriver func(c C) adoption.Driver[MR, O]
	// Extra reconciler options, applied after the common ones (MarksUsed, for example).
	Extra []managed.ReconcilerOption
}

// SetupKind adds the controller of one managed kind: a Connector that gets a typed client
// from k.ClientFor and drives the kind's objects with k.NewDriver, wired into Setup. It is the
// whole of a kind's Setup, so that the connector and the reconciler are always named and
// recorded the same way.
func SetupKind[MR adoption.Managed, C any, O any](mgr ctrl.Manager, o Options, k Kind[MR, C, O]) error {
	gk := k.GVK.GroupKind().String()
	c := NewConnector(ConnectorOptions[MR, C, O]{
		Kube:          mgr.GetClient(),
		Recorder:      Recorder(mgr, managed.ControllerName(gk)),
		Installations: o.Installations,
		GroupKind:     gk,
		Kind:          k,
	})
	c.Owners = NewOwners(mgr, o)
	c.Deletions = o.Deletions
	c.Creates = o.Creates
	c.Passing = o.Passing
	return Setup(mgr, o, k.GVK, k.Object, c, k.Extra...)
}

// NewOwners returns the Owners of the manager's resources, with o's Waker and FirstResources.
func NewOwners(mgr ctrl.Manager, o Options) Owners {
	return Owners{Kube: mgr.GetClient(), Scheme: mgr.GetScheme(), Waker: o.Waker, FirstResources: o.FirstResources}
}

// SetupKeystone is SetupKind for a Keystone kind, whose driver works over the ProviderConfig's
// identity v3 service client as a keystone.API: it fills in k.System and k.ClientFor.
func SetupKeystone[MR adoption.Managed, O any](mgr ctrl.Manager, o Options, k Kind[MR, keystone.API, O]) error {
	k.System = clients.Keystone
	k.ClientFor = func(ctx context.Context, kube client.Reader, pc *identityv1alpha1.ProviderConfig) (keystone.API, error) {
		sc, err := o.Keystone.Client(ctx, kube, pc)
		if err != nil {
			// Never a nil *ServiceClient inside a non-nil API.
			return nil, err
		}
		return sc, nil
	}
	return SetupKind(mgr, o, k)
}

// MarksUsed is the reconciler option of a kind whose resources mark the resources they use
// (see internal/usage), so that those are deleted after them. The resource's own finalizer is
// written through a PolicyAwareWriter, like every other update of the reconciler.
func MarksUsed[MR resource.Managed](mgr ctrl.Manager, o Options, kind string, targets ...usage.Target[MR]) managed.ReconcilerOption {
	kube := mgr.GetClient()
	return managed.WithFinalizer(&usage.Finalizer[MR]{
		Kube: kube, Reader: mgr.GetAPIReader(), Own: ownFinalizer(NewPolicyAwareWriter(kube), o),
		Kind: kind, Targets: targets,
	})
}

// ownFinalizer is a resource's own finalizer, written with w, or with the update that records
// its create as pending when the resource is about to be created (CreatesAhead).
func ownFinalizer(w client.Client, o Options) resource.Finalizer {
	return aheadFinalizer{Finalizer: resource.NewAPIFinalizer(w, managed.FinalizerName), creates: o.Creates}
}

// Setup adds a controller for one managed kind. extra options are applied after the common
// ones (a kind that marks the resources it uses passes MarksUsed, for example). With
// o.FirstResources the kind is set up once its first resource appears (firststart.go); its
// state metrics say 0 until then.
func Setup[MR resource.Managed](mgr ctrl.Manager, o Options, gvk schema.GroupVersionKind, obj MR, c managed.TypedExternalConnector[MR], extra ...managed.ReconcilerOption) error {
	if _, ok := resource.MustCreateObject(gvk.GroupVersion().WithKind(gvk.Kind+"List"), mgr.GetScheme()).(resource.ManagedList); !ok {
		return errors.Errorf("%sList is not a managed resource list", gvk.Kind)
	}
	if o.FirstResources == nil {
		return setupNow(context.Background(), mgr, o, gvk, obj, c, extra...)
	}
	if o.MetricOptions != nil {
		zeroStateMetrics(o.MetricOptions.MRStateMetrics, gvk)
	}
	return o.FirstResources.wait(mgr, gvk, func(ctx context.Context) error {
		return setupNow(ctx, mgr, o, gvk, obj, c, extra...)
	})
}

// setupNow is Setup without waiting for a first resource.
func setupNow[MR resource.Managed](ctx context.Context, mgr ctrl.Manager, o Options, gvk schema.GroupVersionKind, obj MR, c managed.TypedExternalConnector[MR], extra ...managed.ReconcilerOption) error {
	name := managed.ControllerName(gvk.GroupKind().String())
	// The reconciler writes through a PolicyAwareWriter: without LateInitialize, its updates of
	// the resource (finalizer, annotations) must not persist resolved references or defaults.
	// Its status updates that would change nothing are not sent, nor those of a reconcile that
	// just created or deleted its object (unchangedStatusSkipper).
	// The versions it writes are recorded, so that the next reconcile of a resource waits for
	// the cache to hold its last write (FreshCache).
	versions := NewWrittenVersions()
	w := unchangedStatusSkipper{Client: versionRecorder{Client: NewPolicyAwareWriter(mgr.GetClient()), versions: versions}, passing: o.Passing}
	resolver := NewPolicyAwareResolver(mgr.GetClient(), gvk.GroupKind().String(), o.Waker)
	if o.Creates != nil {
		// c is SetupKind's Connector, with the same o.Creates: it writes what this resolver
		// leaves unwritten.
		resolver.WritingAhead(o.Creates)
	}
	opts := []managed.ReconcilerOption{
		managed.WithFinalizer(ownFinalizer(w, o)),
		managed.WithTypedExternalConnector[MR](c),
		// No initializer: the default one copies metadata.name into the external name, which
		// would make a same-named object look like ours. An empty external name makes the
		// adoption engine look the object up by natural key and judge its marker.
		managed.WithInitializers(),
		// A create whose result was lost is recovered by natural key and marker (the object
		// carries this resource's marker from birth), so proceeding never duplicates it.
		managed.WithDeterministicExternalName(true),
		// Keystone and authentik read and write one database: an object exists as soon as its
		// create returns, so there is no grace period to wait out before trusting a 404.
		managed.WithCreationGracePeriod(0),
		managed.WithReferenceResolver(resolver),
		managed.WithLogger(o.Logger.WithValues("controller", name)),
		managed.WithRecorder(quietRecorder{Recorder: Recorder(mgr, name), passing: o.Passing}),
		managed.WithPollInterval(o.PollInterval),
	}
	opts = append(opts, o.reconcilerOptions()...)
	if o.MetricOptions != nil {
		opts = append(opts, managed.WithMetricRecorder(o.MetricOptions.MRMetrics))
		list, ok := resource.MustCreateObject(gvk.GroupVersion().WithKind(gvk.Kind+"List"), mgr.GetScheme()).(resource.ManagedList)
		if !ok {
			return errors.Errorf("%sList is not a managed resource list", gvk.Kind)
		}
		if err := mgr.Add(statemetrics.NewMRStateRecorder(uncopiedLists{mgr.GetClient()}, o.Logger, o.MetricOptions.MRStateMetrics, list, o.MetricOptions.PollStateMetricInterval)); err != nil {
			return errors.Wrap(err, "cannot register MR state metrics recorder")
		}
	}
	opts = append(opts, extra...)
	if err := mgr.GetFieldIndexer().IndexField(ctx, obj, IndexExternalName, externalNameIndex); err != nil {
		return errors.Wrapf(err, "cannot index %s by external name", gvk.Kind)
	}
	if err := mgr.GetFieldIndexer().IndexField(ctx, obj, IndexExternalNameParts, externalNamePartsIndex); err != nil {
		return errors.Wrapf(err, "cannot index %s by the parts of its external name", gvk.Kind)
	}
	r := managed.NewReconciler(writerManager{Manager: mgr, writer: w}, resource.ManagedKind(gvk), opts...)
	b := ctrl.NewControllerManagedBy(mgr).
		Named(name).
		WithOptions(controllerOptions(o, gvk.GroupKind().String())).
		WithEventFilter(resource.DesiredStateChanged())
	if o.Waker == nil {
		b = b.For(obj)
	} else {
		// One watch of the kind both enqueues its resources, as For would, and tells the Waker
		// about them (a second watch of the same informer would cost each kind another event
		// listener: two goroutines and a buffer); waiting resources of this kind are woken
		// through the Waker's source.
		gk := gvk.GroupKind().String()
		b = b.Watches(obj, managedEvents{gk: gk, w: o.Waker}).WatchesRawSource(o.Waker.source(gk))
	}
	fresh := FreshCache{Reconciler: r, Cache: mgr.GetClient(), Versions: versions, Kind: obj}
	if o.Waker != nil {
		fresh.Refreshed = o.Waker.refreshed(gvk.GroupKind().String())
	}
	return b.Complete(ratelimiter.NewReconciler(name, errors.WithSilentRequeueOnConflict(fresh), o.GlobalRateLimiter))
}

// zeroStateMetrics sets the state metrics of gvk, a kind whose recorder has not started, to 0,
// with the labels the recorder gives them.
func zeroStateMetrics(m *statemetrics.MRStateMetrics, gvk schema.GroupVersionKind) {
	if m == nil {
		return
	}
	labels := prometheus.Labels{"gvk": gvk.String()}
	m.Exists.With(labels).Set(0)
	m.Ready.With(labels).Set(0)
	m.Synced.With(labels).Set(0)
}

// SetupGated adds the controller once its CRD is installed, when the provider runs with a gate;
// otherwise at once.
func SetupGated(mgr ctrl.Manager, o Options, gvk schema.GroupVersionKind, setup func(ctrl.Manager, Options) error) error {
	if o.Gate == nil {
		return setup(mgr, o)
	}
	o.Gate.Register(func() {
		if err := waitForMapping(mgr.GetRESTMapper(), gvk, mappingTimeout); err != nil {
			mgr.GetLogger().Error(err, "cannot set up controller: its CRD is established but the API server does not serve the kind", "gvk", gvk.String())
			return
		}
		if err := setup(mgr, o); err != nil {
			mgr.GetLogger().Error(err, "cannot set up controller", "gvk", gvk.String())
		}
	}, gvk)
	return nil
}

// mappingTimeout bounds how long a gated controller waits for discovery to serve its kind.
const mappingTimeout = 2 * time.Minute

// waitForMapping returns once the REST mapper maps gvk. The gate opens when the CRD is
// Established, but the API server's discovery can serve the new group a moment later; setting up
// in that moment fails with "no matches for kind" and would leave the kind without a controller.
// The mapper rediscovers a group it does not know on every lookup, so polling it is enough.
func waitForMapping(m meta.RESTMapper, gvk schema.GroupVersionKind, timeout time.Duration) error {
	var last error
	err := wait.PollUntilContextTimeout(context.Background(), 250*time.Millisecond, timeout, true, func(context.Context) (bool, error) {
		_, last = m.RESTMapping(gvk.GroupKind(), gvk.Version)
		return last == nil, nil
	})
	if err != nil && last != nil {
		return last
	}
	return err
}

// writerManager hands the reconciler its writer as the manager's client.
type writerManager struct {
	ctrl.Manager
	writer client.Client
}

func (m writerManager) GetClient() client.Client { return m.writer }

// controllerOptions are o's controller-runtime options, with the rate limiter known to the
// Waker (when there is one), so that a woken resource's backoff starts afresh.
func controllerOptions(o Options, kind string) controller.Options {
	co := o.ForControllerRuntime()
	if o.Waker != nil {
		co.RateLimiter = o.Waker.RateLimiter(kind, co.RateLimiter)
	}
	return co
}
