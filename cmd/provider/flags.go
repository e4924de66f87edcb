package main

import (
	"path/filepath"
	"time"

	"github.com/alecthomas/kingpin/v2"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

const errFmtPollJitter = "--poll-jitter-percentage %d is not below 100: a jitter of the whole poll interval or more could poll each resource continuously; use a value from 0 (no jitter) to 99"

// config is what the command line (or its environment variables) asks the provider for.
type config struct {
	Debug                    bool
	LeaderElection           bool
	SyncInterval             time.Duration
	PollInterval             time.Duration
	PollJitterPercentage     uint
	PollStateMetricInterval  time.Duration
	MaxReconcileRate         int
	MaxConcurrentReconciles  int
	MaxRequestsPerEndpoint   int
	MetricsAddr              string
	ProbeAddr                string
	PprofAddr                string
	MemoryLimitPercentage    int
	GCPercent                int
	EnableManagementPolicies bool
	EnableChangeLogs         bool
	ChangeLogsSocketPath     string
}

// PollJitter is how far each resource's next poll may come before the poll interval (never
// after it), so that resources created together (a whole folder applied at once) do not poll
// Keystone and authentik in bursts forever.
func (c config) PollJitter() time.Duration {
	return time.Duration(float64(c.PollInterval) * float64(c.PollJitterPercentage) / 100)
}

// parseFlags reads the provider's configuration from args. Every flag can also be set by an
// environment variable (PROVIDER_<FLAG>, or the one named in its help as the Crossplane
// providers name it).
func parseFlags(name string, args []string) (config, error) {
	var c config
	app := kingpin.New(filepath.Base(name), "Crossplane provider for authentik and OpenStack Keystone.").DefaultEnvars()
	app.Flag("debug", "Run with debug logging.").Short('d').BoolVar(&c.Debug)
	app.Flag("leader-election", "Use leader election so that only one replica reconciles.").Short('l').Default("false").Envar("LEADER_ELECTION").BoolVar(&c.LeaderElection)
	app.Flag("sync", "How often every resource is re-listed from the API server, as a safety net for missed events.").Short('s').Default("1h").DurationVar(&c.SyncInterval)
	app.Flag("poll", "How often each resource is checked for drift from its desired state.").Default("1m").DurationVar(&c.PollInterval)
	app.Flag("poll-jitter-percentage", "How far, in percent of --poll, each resource's next check may come early at random (0 to 99); none comes later than --poll.").Default("10").UintVar(&c.PollJitterPercentage)
	app.Flag("poll-state-metric", "How often the managed resource state metrics are recorded.").Default("5s").DurationVar(&c.PollStateMetricInterval)
	// Keystone and authentik are protected by --max-requests-per-endpoint, not by this rate: a
	// global rate of reconciles that polls alone saturate (a minute's poll of 1,250 resources
	// is 21 reconciles/s) would hold every change back behind them.
	app.Flag("max-reconcile-rate", "The global maximum rate per second at which resources may be reconciled; it also sets the API server client's rate (5 times this). A guard against runaway reconciles: the load on Keystone and authentik is bounded by --max-requests-per-endpoint.").Default("100").IntVar(&c.MaxReconcileRate)
	// Each worker is a goroutine for the provider's whole life, per kind and scope (32
	// controllers): a hundred each cost tens of MiB for nothing, since the endpoint limit
	// holds the reconciles that talk to one endpoint to a few at a time anyway.
	app.Flag("max-concurrent-reconciles", "How many resources each kind's controller reconciles at once.").Default("10").IntVar(&c.MaxConcurrentReconciles)
	app.Flag("max-requests-per-endpoint", "The most requests in flight to one Keystone or authentik endpoint at once, across every ProviderConfig (0: no limit). After a 429, a 503 or a connection error the endpoint gets no request for its Retry-After, or a pause from 1 s doubling up to 30 s.").Default("10").IntVar(&c.MaxRequestsPerEndpoint)
	app.Flag("metrics-bind-address", "Address the Prometheus metrics endpoint listens on.").Default(":8080").StringVar(&c.MetricsAddr)
	app.Flag("health-probe-bind-address", "Address the health and readiness probes listen on.").Default(":8081").StringVar(&c.ProbeAddr)
	// Off by default: the profiles show the provider's internals (and, in a heap profile,
	// fragments of what it holds), so they are served only when asked for, on loopback best.
	app.Flag("pprof-bind-address", "Address Go's pprof endpoints (/debug/pprof/) listen on, e.g. 127.0.0.1:6060; empty (the default) serves none.").Default("").StringVar(&c.PprofAddr)
	app.Flag("memory-limit-percentage", "Unless GOMEMLIMIT is set, give the Go runtime a soft memory limit of this percentage of the container's memory limit, when it has one (0: none).").Default("90").IntVar(&c.MemoryLimitPercentage)
	app.Flag("gc-percent", "Unless GOGC is set, the Go runtime's GC target: the heap may grow by this percentage of what is live before a collection (Go's default is 100).").Default("50").IntVar(&c.GCPercent)
	app.Flag("enable-management-policies", "Honour spec.managementPolicies (Observe-only resources, no Delete). Without it a resource with policies other than [\"*\"] is refused.").Default("true").Envar("ENABLE_MANAGEMENT_POLICIES").BoolVar(&c.EnableManagementPolicies)
	app.Flag("enable-changelogs", "Send a change log entry for every create, update and delete to the change logs sidecar.").Default("false").Envar("ENABLE_CHANGE_LOGS").BoolVar(&c.EnableChangeLogs)
	app.Flag("changelogs-socket-path", "Unix socket of the change logs sidecar (with --enable-changelogs).").Default("/var/run/changelogs/changelogs.sock").Envar("CHANGELOGS_SOCKET_PATH").StringVar(&c.ChangeLogsSocketPath)
	if _, err := app.Parse(args); err != nil {
		return config{}, err
	}
	if c.PollJitterPercentage >= 100 {
		return config{}, errors.Errorf(errFmtPollJitter, c.PollJitterPercentage)
	}
	if err := checkMemoryLimitPercentage(c.MemoryLimitPercentage); err != nil {
		return config{}, err
	}
	if err := checkGCPercent(c.GCPercent); err != nil {
		return config{}, err
	}
	return c, nil
}
