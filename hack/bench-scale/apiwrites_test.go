package main

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// metricsBefore and metricsAfter are excerpts of kube-apiserver 1.35's /metrics around a phase:
// reads, a write answered with two codes, and a subresource.
const metricsBefore = `# HELP apiserver_request_total [STABLE] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.
# TYPE apiserver_request_total counter
apiserver_request_total{code="200",component="apiserver",dry_run="",group="keystone.identity.m.crossplane.io",resource="projects",scope="namespace",subresource="",verb="PUT",version="v1alpha1"} 10
apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="events",scope="namespace",subresource="",verb="LIST",version="v1"} 3
`

const metricsAfter = `# HELP apiserver_request_total [STABLE] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.
# TYPE apiserver_request_total counter
apiserver_request_total{code="200",component="apiserver",dry_run="",group="keystone.identity.m.crossplane.io",resource="projects",scope="namespace",subresource="",verb="PUT",version="v1alpha1"} 25
apiserver_request_total{code="409",component="apiserver",dry_run="",group="keystone.identity.m.crossplane.io",resource="projects",scope="namespace",subresource="",verb="PUT",version="v1alpha1"} 2
apiserver_request_total{code="200",component="apiserver",dry_run="",group="keystone.identity.m.crossplane.io",resource="projects",scope="namespace",subresource="status",verb="PUT",version="v1alpha1"} 7
apiserver_request_total{code="201",component="apiserver",dry_run="",group="",resource="events",scope="namespace",subresource="",verb="POST",version="v1"} 4
apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="events",scope="namespace",subresource="",verb="LIST",version="v1"} 9
# HELP etcd_requests_total Etcd request counts.
# TYPE etcd_requests_total counter
etcd_requests_total{operation="get",type="projects"} 100
`

func TestAPIWritesPerPhase(t *testing.T) {
	bodies := []string{metricsBefore, metricsAfter}
	a := &apiWrites{metrics: func(context.Context) ([]byte, error) {
		b := bodies[0]
		bodies = bodies[1:]
		return []byte(b), nil
	}}
	then := a.read(t.Context())
	got := apiWritesSince(a.read(t.Context()), then)
	want := map[string]int{
		"PUT projects.keystone.identity.m.crossplane.io":        17,
		"PUT projects.keystone.identity.m.crossplane.io/status": 7,
		"POST events": 4,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("apiWritesSince(...): -want, +got:\n%s", diff)
	}
	if line, want := apiWritesLine(got), "28: 17 PUT projects, 7 PUT projects/status, 4 POST events"; line != want {
		t.Errorf("apiWritesLine(...) = %q, want %q", line, want)
	}
}

func TestAPIWritesUnreadable(t *testing.T) {
	cases := map[string]func(context.Context) ([]byte, error){
		"MetricsRefused": func(context.Context) ([]byte, error) { return nil, errors.New("forbidden") },
		"NotPrometheus":  func(context.Context) ([]byte, error) { return []byte("{\"kind\":\"Status\"}\n"), nil },
	}
	for name, metrics := range cases {
		t.Run(name, func(t *testing.T) {
			a := &apiWrites{metrics: metrics}
			if got := a.read(t.Context()); got != nil {
				t.Errorf("read() = %v, want nil", got)
			}
			if line := apiWritesLine(apiWritesSince(a.read(t.Context()), nil)); line != "not measured" {
				t.Errorf("apiWritesLine of an unread phase = %q, want \"not measured\"", line)
			}
		})
	}
	var none *apiWrites
	if got := none.read(t.Context()); got != nil {
		t.Errorf("a nil apiWrites read %v, want nil", got)
	}
}
