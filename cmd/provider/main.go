// Command provider runs provider-identity: Crossplane managed resources for authentik and
// OpenStack Keystone.
package main

import (
	"os"
	"time"

	"github.com/alecthomas/kingpin/v2"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	"sigs.k8s.io/controller-runtime/pkg/metrics"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	"github.com/crossplane/crossplane-runtime/v2/pkg/ratelimiter"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/statemetrics"

	"github.com/crossplane-contrib/provider-identity/internal/controller"
)

func main() {
	c, err := parseFlags(os.Args[0], os.Args[1:])
	kingpin.FatalIfError(err, "Cannot parse the command line")

	zl := zap.New(zap.UseDevMode(c.Debug))
	log := logging.NewLogrLogger(zl.WithName("provider-identity"))
	// controller-runtime logs through this logger; without it, its messages are dropped.
	ctrl.SetLogger(zl)
	if l := setMemoryLimit(c); l > 0 {
		log.Info("Go runtime soft memory limit set from the container's memory limit", "bytes", l, "memory-limit-percentage", c.MemoryLimitPercentage)
	}
	if p := setGCPercent(c); p > 0 {
		log.Info("Go runtime GC target set", "gc-percent", p)
	}

	cfg, err := ctrl.GetConfig()
	kingpin.FatalIfError(err, "Cannot get the API server's configuration")

	scheme := runtime.NewScheme()
	kingpin.FatalIfError(controller.AddToScheme(scheme), "Cannot build the provider's scheme")
	mgr, err := ctrl.NewManager(ratelimiter.LimitRESTConfig(cfg, c.MaxReconcileRate), ctrl.Options{
		Scheme:                     scheme,
		Cache:                      controller.CacheOptions(&c.SyncInterval),
		NewClient:                  controller.NewClient,
		LeaderElection:             c.LeaderElection,
		LeaderElectionID:           "crossplane-leader-election-provider-identity",
		LeaderElectionResourceLock: "leases",
		LeaseDuration:              ptr(60 * time.Second),
		RenewDeadline:              ptr(50 * time.Second),
		Metrics:                    metricsserver.Options{BindAddress: c.MetricsAddr},
		HealthProbeBindAddress:     c.ProbeAddr,
		PprofBindAddress:           c.PprofAddr,
	})
	kingpin.FatalIfError(err, "Cannot create the controller manager")

	mrMetrics := managed.NewMRMetricRecorder()
	stateMetrics := statemetrics.NewMRStateMetrics()
	metrics.Registry.MustRegister(mrMetrics, stateMetrics)

	o, err := newOptions(c, log, mrMetrics, stateMetrics)
	kingpin.FatalIfError(err, "Cannot configure the provider's controllers")
	kingpin.FatalIfError(controller.SetupSafeStart(mgr, o), "Cannot set up the provider's controllers")
	kingpin.FatalIfError(mgr.AddHealthzCheck("ping", healthz.Ping), "Cannot add the health check")
	kingpin.FatalIfError(mgr.AddReadyzCheck("ping", healthz.Ping), "Cannot add the readiness check")

	log.Info("Starting provider-identity", "poll", c.PollInterval.String(), "poll-jitter", o.PollJitter.String(), "max-reconcile-rate", c.MaxReconcileRate, "max-concurrent-reconciles", c.MaxConcurrentReconciles, "max-requests-per-endpoint", c.MaxRequestsPerEndpoint)
	// The signal handler cancels the manager's context on SIGTERM or SIGINT: controllers finish
	// their current reconcile and the leader lease is released.
	kingpin.FatalIfError(mgr.Start(ctrl.SetupSignalHandler()), "Cannot start the controller manager")
}

func ptr[T any](v T) *T { return &v }
