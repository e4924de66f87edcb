package main

import (
	"context"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	changelogsv1alpha1 "github.com/crossplane/crossplane-runtime/v2/apis/changelogs/proto/v1alpha1"
	"github.com/crossplane/crossplane-runtime/v2/pkg/feature"
	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"

	ksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
)

func TestNewOptions(t *testing.T) {
	cases := map[string]struct {
		c              config
		wantPolicies   bool
		wantChangeLogs bool
		wantJitter     time.Duration
		wantInFlight   int
	}{
		"Defaults": {
			c:            defaults,
			wantPolicies: true,
			wantJitter:   6 * time.Second,
			wantInFlight: 10,
		},
		"EndpointLimit": {
			c:            with(func(c *config) { c.MaxRequestsPerEndpoint = 3 }),
			wantPolicies: true,
			wantJitter:   6 * time.Second,
			wantInFlight: 3,
		},
		"ManagementPoliciesOff": {
			c:            with(func(c *config) { c.EnableManagementPolicies = false }),
			wantJitter:   6 * time.Second,
			wantInFlight: 10,
		},
		"ChangeLogsNoJitter": {
			c:              with(func(c *config) { c.EnableChangeLogs, c.PollJitterPercentage = true, 0 }),
			wantPolicies:   true,
			wantChangeLogs: true,
			wantInFlight:   10,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			o, err := newOptions(tc.c, logging.NewNopLogger(), nil, nil)
			if err != nil {
				t.Fatalf("newOptions: %v", err)
			}
			if got := o.Features.Enabled(feature.EnableBetaManagementPolicies); got != tc.wantPolicies {
				t.Errorf("management policies enabled: want %t, got %t", tc.wantPolicies, got)
			}
			if got := o.Features.Enabled(feature.EnableAlphaChangeLogs); got != tc.wantChangeLogs {
				t.Errorf("change logs enabled: want %t, got %t", tc.wantChangeLogs, got)
			}
			if got := o.ChangeLogOptions != nil; got != tc.wantChangeLogs {
				t.Errorf("change logger set: want %t, got %t", tc.wantChangeLogs, got)
			}
			if o.PollJitter != tc.wantJitter {
				t.Errorf("PollJitter: want %s, got %s", tc.wantJitter, o.PollJitter)
			}
			// One Endpoints for both systems, so that the limit is per endpoint and not per system.
			if o.Keystone.Endpoints == nil || o.Keystone.Endpoints != o.Authentik.Endpoints {
				t.Errorf("Keystone and authentik clients do not share one Endpoints")
			} else if got := o.Keystone.Endpoints.Limits().MaxInFlight; got != tc.wantInFlight {
				t.Errorf("requests in flight per endpoint: want %d, got %d", tc.wantInFlight, got)
			}
			if o.PollInterval != tc.c.PollInterval || o.MetricOptions.PollStateMetricInterval != tc.c.PollStateMetricInterval {
				t.Errorf("intervals: want poll %s and state metrics %s, got %s and %s", tc.c.PollInterval,
					tc.c.PollStateMetricInterval, o.PollInterval, o.MetricOptions.PollStateMetricInterval)
			}
		})
	}
}

// changeLogServer records the entries it is sent, as the change logs sidecar would.
type changeLogServer struct {
	changelogsv1alpha1.UnimplementedChangeLogServiceServer
	entries chan *changelogsv1alpha1.ChangeLogEntry
}

func (s *changeLogServer) SendChangeLog(_ context.Context, r *changelogsv1alpha1.SendChangeLogRequest) (*changelogsv1alpha1.SendChangeLogResponse, error) {
	s.entries <- r.GetEntry()
	return &changelogsv1alpha1.SendChangeLogResponse{}, nil
}

// With --enable-changelogs the change logger reaches the sidecar on the configured socket and
// names the provider in each entry.
func TestNewOptionsChangeLogsReachTheSocket(t *testing.T) {
	socket := filepath.Join(t.TempDir(), "changelogs.sock")
	l, err := (&net.ListenConfig{}).Listen(t.Context(), "unix", socket)
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	cls := &changeLogServer{entries: make(chan *changelogsv1alpha1.ChangeLogEntry, 1)}
	changelogsv1alpha1.RegisterChangeLogServiceServer(srv, cls)
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(srv.Stop)

	o, err := newOptions(with(func(c *config) { c.EnableChangeLogs, c.ChangeLogsSocketPath = true, socket }), logging.NewNopLogger(), nil, nil)
	if err != nil {
		t.Fatalf("newOptions: %v", err)
	}
	d := &ksv1alpha1.Domain{TypeMeta: metav1.TypeMeta{APIVersion: ksv1alpha1.SchemeGroupVersion.String(), Kind: ksv1alpha1.DomainKind},
		ObjectMeta: metav1.ObjectMeta{Name: "team-a"}}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := o.ChangeLogOptions.ChangeLogger.Log(ctx, d, changelogsv1alpha1.OperationType_OPERATION_TYPE_CREATE, nil, nil); err != nil {
		t.Fatalf("Log: %v", err)
	}
	e := <-cls.entries
	if !strings.HasPrefix(e.GetProvider(), "provider-identity:") {
		t.Errorf("entry's provider: want provider-identity:<version>, got %q", e.GetProvider())
	}
	got := []string{e.GetApiVersion(), e.GetKind(), e.GetName(), e.GetOperation().String()}
	want := []string{"keystone.identity.crossplane.io/v1alpha1", "Domain", "team-a", "OPERATION_TYPE_CREATE"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("entry: -want, +got:\n%s", diff)
	}
}
