package main

import (
	"runtime/debug"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	changelogsv1alpha1 "github.com/crossplane/crossplane-runtime/v2/apis/changelogs/proto/v1alpha1"
	xpcontroller "github.com/crossplane/crossplane-runtime/v2/pkg/controller"
	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/feature"
	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	"github.com/crossplane/crossplane-runtime/v2/pkg/ratelimiter"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/statemetrics"

	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/managedkind"
)

const errFmtChangeLogs = "cannot set up the change logs client on socket %q: check --changelogs-socket-path, or run without --enable-changelogs"

// newOptions builds the options every controller is set up with from the command line.
func newOptions(c config, log logging.Logger, mrMetrics managed.MetricRecorder, stateMetrics *statemetrics.MRStateMetrics) (managedkind.Options, error) {
	o := managedkind.NewOptions(xpcontroller.Options{
		Logger:                  log,
		MaxConcurrentReconciles: c.MaxConcurrentReconciles,
		PollInterval:            c.PollInterval,
		GlobalRateLimiter:       ratelimiter.NewGlobal(c.MaxReconcileRate),
		Features:                &feature.Flags{},
		MetricOptions: &xpcontroller.MetricOptions{
			PollStateMetricInterval: c.PollStateMetricInterval,
			MRMetrics:               mrMetrics,
			MRStateMetrics:          stateMetrics,
		},
	})
	o.PollJitter = c.PollJitter()
	o.SharedReads = sharedReads(c)
	limits := clients.DefaultEndpointLimits
	limits.MaxInFlight = c.MaxRequestsPerEndpoint
	o.SetEndpointLimits(limits)
	if c.EnableManagementPolicies {
		o.Features.Enable(feature.EnableBetaManagementPolicies)
		log.Info("Beta feature enabled", "flag", feature.EnableBetaManagementPolicies)
	}
	if c.EnableChangeLogs {
		// The connection is made lazily: a sidecar that starts after the provider is fine, and
		// each entry waits for it (up to the change logger's send timeout).
		conn, err := grpc.NewClient("unix://"+c.ChangeLogsSocketPath, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			return managedkind.Options{}, errors.Wrapf(err, errFmtChangeLogs, c.ChangeLogsSocketPath)
		}
		o.Features.Enable(feature.EnableAlphaChangeLogs)
		o.ChangeLogOptions = &xpcontroller.ChangeLogOptions{
			ChangeLogger: managed.NewGRPCChangeLogger(changelogsv1alpha1.NewChangeLogServiceClient(conn),
				managed.WithProviderVersion("provider-identity:"+version())),
		}
		log.Info("Alpha feature enabled", "flag", feature.EnableAlphaChangeLogs, "socket", c.ChangeLogsSocketPath)
	}
	return o, nil
}

// version is the provider's module version as the Go toolchain stamped it into the binary
// (from the VCS when built from a checkout), so that change log entries say which build made a
// change.
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

// sharedReads lets the resources that poll at about the same time share one list of their
// scope: a list answers reads for half the poll jitter, so that a change made by hand is
// still noticed within a poll interval plus half the jitter (the first poll more than that
// after the change reads a list taken after it, and polls are never more than an interval
// apart). Without jitter nothing is shared.
func sharedReads(c config) clients.SharedReadOptions {
	return clients.SharedReadOptions{Fresh: c.PollJitter() / 2, Window: c.PollInterval}
}
