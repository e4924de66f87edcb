// Command provider runs provider-identity: Crossplane managed resources for authentik and
// OpenStack Keystone.
package main

import (
	"os"
	"path/filepath"
	"time"

	"github.com/alecthomas/kingpin/v2"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	"sigs.k8s.io/controller-runtime/pkg/metrics"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	xpcontroller "github.com/crossplane/crossplane-runtime/v2/pkg/controller"
	"github.com/crossplane/crossplane-runtime/v2/pkg/feature"
	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	"github.com/crossplane/crossplane-runtime/v2/pkg/ratelimiter"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/statemetrics"

	"github.com/crossplane-contrib/provider-identity/apis"
	"github.com/crossplane-contrib/provider-identity/internal/controller"
	"github.com/crossplane-contrib/provider-identity/internal/managedkind"
)

func main() {
	var (
		app              = kingpin.New(filepath.Base(os.Args[0]), "Crossplane provider for authentik and OpenStack Keystone.").DefaultEnvars()
		debug            = app.Flag("debug", "Run with debug logging.").Short('d').Bool()
		leaderElection   = app.Flag("leader-election", "Use leader election so that only one replica reconciles.").Short('l').Default("false").Envar("LEADER_ELECTION").Bool()
		syncInterval     = app.Flag("sync", "How often every resource is re-listed from the API server, as a safety net for missed events.").Short('s').Default("1h").Duration()
		pollInterval     = app.Flag("poll", "How often each resource is checked for drift from its desired state.").Default("1m").Duration()
		pollStateMetric  = app.Flag("poll-state-metric", "How often the managed resource state metrics are recorded.").Default("5s").Duration()
		maxReconcileRate = app.Flag("max-reconcile-rate", "The global maximum rate per second at which resources may be reconciled.").Default("10").Int()
		metricsAddr      = app.Flag("metrics-bind-address", "Address the Prometheus metrics endpoint listens on.").Default(":8080").String()
		probeAddr        = app.Flag("health-probe-bind-address", "Address the health and readiness probes listen on.").Default(":8081").String()
	)
	kingpin.MustParse(app.Parse(os.Args[1:]))

	zl := zap.New(zap.UseDevMode(*debug))
	log := logging.NewLogrLogger(zl.WithName("provider-identity"))
	// controller-runtime logs through this logger; without it, its messages are dropped.
	ctrl.SetLogger(zl)

	cfg, err := ctrl.GetConfig()
	kingpin.FatalIfError(err, "Cannot get the API server's configuration")

	mgr, err := ctrl.NewManager(ratelimiter.LimitRESTConfig(cfg, *maxReconcileRate), ctrl.Options{
		Cache:                      cache.Options{SyncPeriod: syncInterval},
		LeaderElection:             *leaderElection,
		LeaderElectionID:           "crossplane-leader-election-provider-identity",
		LeaderElectionResourceLock: "leases",
		LeaseDuration:              ptr(60 * time.Second),
		RenewDeadline:              ptr(50 * time.Second),
		Metrics:                    metricsserver.Options{BindAddress: *metricsAddr},
		HealthProbeBindAddress:     *probeAddr,
	})
	kingpin.FatalIfError(err, "Cannot create the controller manager")
	kingpin.FatalIfError(apis.AddToScheme(mgr.GetScheme()), "Cannot add the provider's APIs to the scheme")

	mrMetrics := managed.NewMRMetricRecorder()
	stateMetrics := statemetrics.NewMRStateMetrics()
	metrics.Registry.MustRegister(mrMetrics, stateMetrics)

	o := managedkind.NewOptions(xpcontroller.Options{
		Logger:                  log,
		MaxConcurrentReconciles: *maxReconcileRate,
		PollInterval:            *pollInterval,
		GlobalRateLimiter:       ratelimiter.NewGlobal(*maxReconcileRate),
		Features:                &feature.Flags{},
		MetricOptions: &xpcontroller.MetricOptions{
			PollStateMetricInterval: *pollStateMetric,
			MRMetrics:               mrMetrics,
			MRStateMetrics:          stateMetrics,
		},
	})
	o.Features.Enable(feature.EnableBetaManagementPolicies)

	kingpin.FatalIfError(controller.Setup(mgr, o), "Cannot set up the provider's controllers")
	kingpin.FatalIfError(mgr.AddHealthzCheck("ping", healthz.Ping), "Cannot add the health check")
	kingpin.FatalIfError(mgr.AddReadyzCheck("ping", healthz.Ping), "Cannot add the readiness check")

	log.Info("Starting provider-identity", "poll", pollInterval.String(), "max-reconcile-rate", *maxReconcileRate)
	// The signal handler cancels the manager's context on SIGTERM or SIGINT: controllers finish
	// their current reconcile and the leader lease is released.
	kingpin.FatalIfError(mgr.Start(ctrl.SetupSignalHandler()), "Cannot start the controller manager")
}

func ptr[T any](v T) *T { return &v }
