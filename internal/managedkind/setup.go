package managedkind

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/event"
	"github.com/crossplane/crossplane-runtime/v2/pkg/ratelimiter"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	"github.com/crossplane/crossplane-runtime/v2/pkg/statemetrics"
)

// Setup adds a controller for one managed kind. extra options are applied after the common
// ones (a kind that marks the resources it uses passes managed.WithFinalizer, for example).
func Setup[MR resource.LegacyManaged](mgr ctrl.Manager, o Options, gvk schema.GroupVersionKind, obj MR, c managed.TypedExternalConnector[MR], extra ...managed.ReconcilerOption) error {
	name := managed.ControllerName(gvk.GroupKind().String())
	opts := []managed.ReconcilerOption{
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
		managed.WithReferenceResolver(NewPolicyAwareResolver(mgr.GetClient())),
		managed.WithLogger(o.Logger.WithValues("controller", name)),
		managed.WithRecorder(event.NewAPIRecorder(mgr.GetEventRecorderFor(name))),
		managed.WithPollInterval(o.PollInterval),
		managed.WithManagementPolicies(),
	}
	if o.MetricOptions != nil {
		opts = append(opts, managed.WithMetricRecorder(o.MetricOptions.MRMetrics))
		list, ok := resource.MustCreateObject(gvk.GroupVersion().WithKind(gvk.Kind+"List"), mgr.GetScheme()).(resource.ManagedList)
		if !ok {
			return errors.Errorf("%sList is not a managed resource list", gvk.Kind)
		}
		if err := mgr.Add(statemetrics.NewMRStateRecorder(mgr.GetClient(), o.Logger, o.MetricOptions.MRStateMetrics, list, o.MetricOptions.PollStateMetricInterval)); err != nil {
			return errors.Wrap(err, "cannot register MR state metrics recorder")
		}
	}
	opts = append(opts, extra...)
	// The reconciler writes through a PolicyAwareWriter: without LateInitialize, its updates of
	// the resource (finalizer, annotations) must not persist resolved references or defaults.
	r := managed.NewReconciler(writerManager{Manager: mgr, writer: NewPolicyAwareWriter(mgr.GetClient())}, resource.ManagedKind(gvk), opts...)
	return ctrl.NewControllerManagedBy(mgr).
		Named(name).
		WithOptions(o.ForControllerRuntime()).
		WithEventFilter(resource.DesiredStateChanged()).
		For(obj).
		Complete(ratelimiter.NewReconciler(name, errors.WithSilentRequeueOnConflict(r), o.GlobalRateLimiter))
}

// SetupGated adds the controller once its CRD is installed, when the provider runs with a gate;
// otherwise at once.
func SetupGated(mgr ctrl.Manager, o Options, gvk schema.GroupVersionKind, setup func(ctrl.Manager, Options) error) error {
	if o.Gate == nil {
		return setup(mgr, o)
	}
	o.Gate.Register(func() {
		if err := setup(mgr, o); err != nil {
			mgr.GetLogger().Error(err, "cannot set up controller", "gvk", gvk.String())
		}
	}, gvk)
	return nil
}

// writerManager hands the reconciler a PolicyAwareWriter as the manager's client.
type writerManager struct {
	ctrl.Manager
	writer client.Client
}

func (m writerManager) GetClient() client.Client { return m.writer }
