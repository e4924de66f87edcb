package main

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/crossplane-contrib/provider-identity/internal/clients"
)

// defaults is the configuration of a provider started without flags.
var defaults = config{
	SyncInterval:             time.Hour,
	PollInterval:             time.Minute,
	PollJitterPercentage:     10,
	PollStateMetricInterval:  5 * time.Second,
	MaxReconcileRate:         100,
	MaxConcurrentReconciles:  10,
	MaxRequestsPerEndpoint:   10,
	MemoryLimitPercentage:    90,
	GCPercent:                50,
	MetricsAddr:              ":8080",
	ProbeAddr:                ":8081",
	EnableManagementPolicies: true,
	ChangeLogsSocketPath:     "/var/run/changelogs/changelogs.sock",
}

func with(mutate func(*config)) config {
	c := defaults
	mutate(&c)
	return c
}

func TestParseFlags(t *testing.T) {
	cases := map[string]struct {
		args       []string
		env        map[string]string
		want       config
		wantJitter time.Duration
		wantErr    string
	}{
		"Defaults": {
			want:       defaults,
			wantJitter: 6 * time.Second,
		},
		"JitterFollowsThePollInterval": {
			args:       []string{"--poll=10m", "--poll-jitter-percentage=5"},
			want:       with(func(c *config) { c.PollInterval, c.PollJitterPercentage = 10*time.Minute, 5 }),
			wantJitter: 30 * time.Second,
		},
		"NoJitter": {
			args: []string{"--poll-jitter-percentage=0"},
			want: with(func(c *config) { c.PollJitterPercentage = 0 }),
		},
		"LargestJitter": {
			args:       []string{"--poll-jitter-percentage=99"},
			want:       with(func(c *config) { c.PollJitterPercentage = 99 }),
			wantJitter: 59400 * time.Millisecond,
		},
		"JitterOfTheWholeIntervalRefused": {
			args:    []string{"--poll-jitter-percentage=100"},
			wantErr: fmt.Sprintf(errFmtPollJitter, 100),
		},
		"ManagementPoliciesTurnedOff": {
			args:       []string{"--no-enable-management-policies"},
			want:       with(func(c *config) { c.EnableManagementPolicies = false }),
			wantJitter: 6 * time.Second,
		},
		"ChangeLogs": {
			args:       []string{"--enable-changelogs", "--changelogs-socket-path=/tmp/cl.sock"},
			want:       with(func(c *config) { c.EnableChangeLogs, c.ChangeLogsSocketPath = true, "/tmp/cl.sock" }),
			wantJitter: 6 * time.Second,
		},
		// The names Crossplane's DeploymentRuntimeConfigs and the other providers use.
		"FromCrossplaneEnvironmentVariables": {
			env: map[string]string{"ENABLE_MANAGEMENT_POLICIES": "false", "ENABLE_CHANGE_LOGS": "true",
				"CHANGELOGS_SOCKET_PATH": "/run/cl.sock", "LEADER_ELECTION": "true"},
			want: with(func(c *config) {
				c.EnableManagementPolicies, c.EnableChangeLogs, c.ChangeLogsSocketPath, c.LeaderElection = false, true, "/run/cl.sock", true
			}),
			wantJitter: 6 * time.Second,
		},
		"FromProviderEnvironmentVariables": {
			env:        map[string]string{"PROVIDER_POLL": "2m", "PROVIDER_POLL_JITTER_PERCENTAGE": "50"},
			want:       with(func(c *config) { c.PollInterval, c.PollJitterPercentage = 2*time.Minute, 50 }),
			wantJitter: time.Minute,
		},
		"EndpointLimitAndReconcileRate": {
			args: []string{"--max-requests-per-endpoint=4", "--max-reconcile-rate=20", "--max-concurrent-reconciles=5"},
			want: with(func(c *config) {
				c.MaxRequestsPerEndpoint, c.MaxReconcileRate, c.MaxConcurrentReconciles = 4, 20, 5
			}),
			wantJitter: 6 * time.Second,
		},
		"Pprof": {
			args:       []string{"--pprof-bind-address=127.0.0.1:6060"},
			want:       with(func(c *config) { c.PprofAddr = "127.0.0.1:6060" }),
			wantJitter: 6 * time.Second,
		},
		"PprofFromEnvironment": {
			env:        map[string]string{"PROVIDER_PPROF_BIND_ADDRESS": "127.0.0.1:6061"},
			want:       with(func(c *config) { c.PprofAddr = "127.0.0.1:6061" }),
			wantJitter: 6 * time.Second,
		},
		"MemoryLimitOff": {
			args:       []string{"--memory-limit-percentage=0"},
			want:       with(func(c *config) { c.MemoryLimitPercentage = 0 }),
			wantJitter: 6 * time.Second,
		},
		"MemoryLimitOfTheWholeContainer": {
			args:       []string{"--memory-limit-percentage=100"},
			want:       with(func(c *config) { c.MemoryLimitPercentage = 100 }),
			wantJitter: 6 * time.Second,
		},
		"MemoryLimitAboveTheContainerRefused": {
			args:    []string{"--memory-limit-percentage=101"},
			wantErr: fmt.Sprintf(errFmtMemoryLimitPercentage, 101),
		},
		"NegativeMemoryLimitRefused": {
			args:    []string{"--memory-limit-percentage=-1"},
			wantErr: fmt.Sprintf(errFmtMemoryLimitPercentage, -1),
		},
		"GoDefaultGC": {
			args:       []string{"--gc-percent=100"},
			want:       with(func(c *config) { c.GCPercent = 100 }),
			wantJitter: 6 * time.Second,
		},
		"ContinuousGCRefused": {
			args:    []string{"--gc-percent=0"},
			wantErr: fmt.Sprintf(errFmtGCPercent, 0),
		},
		"UnknownFlag": {
			args:    []string{"--poll-jitter=5s"},
			wantErr: "unknown long flag '--poll-jitter'",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			got, err := parseFlags("/usr/local/bin/provider", tc.args)
			if diff := cmp.Diff(tc.wantErr, errString(err)); diff != "" {
				t.Fatalf("parseFlags(%v) error: -want, +got:\n%s", tc.args, diff)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("parseFlags(%v): -want, +got:\n%s", tc.args, diff)
			}
			if got := got.PollJitter(); got != tc.wantJitter {
				t.Errorf("PollJitter(): want %s, got %s", tc.wantJitter, got)
			}
		})
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// A shared list answers reads for half the poll jitter, over one poll interval; without jitter
// nothing is shared.
func TestSharedReads(t *testing.T) {
	cases := map[string]struct {
		args []string
		want clients.SharedReadOptions
	}{
		"Defaults":   {want: clients.SharedReadOptions{Fresh: 3 * time.Second, Window: time.Minute}},
		"LongerPoll": {args: []string{"--poll=10m", "--poll-jitter-percentage=5"}, want: clients.SharedReadOptions{Fresh: 15 * time.Second, Window: 10 * time.Minute}},
		"NoJitter":   {args: []string{"--poll-jitter-percentage=0"}, want: clients.SharedReadOptions{Window: time.Minute}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c, err := parseFlags("/usr/local/bin/provider", tc.args)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, sharedReads(c), cmpopts.IgnoreFields(clients.SharedReadOptions{}, "Now")); diff != "" {
				t.Errorf("sharedReads(%v): -want, +got:\n%s", tc.args, diff)
			}
		})
	}
}
