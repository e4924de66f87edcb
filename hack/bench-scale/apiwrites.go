package main

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/rest"
)

// On this machine the API server and etcd take as much CPU in the apply as Keystone does, and
// nearly all of it is writes: each costs the control plane several milliseconds, a read from
// its cache almost nothing. So each phase also says which writes the API server served, from
// its own counter (apiserver_request_total), whoever sent them: kubectl, the provider, the
// controller manager's garbage collector. A phase that ends after the run's context is done
// (a run stopped early) prints "not measured".

// apiWriteVerbs are the verbs of apiserver_request_total that change something: the API
// server labels a request with its HTTP method (APPLY for a server-side apply's PATCH), not
// with the create and update of its audit log and RBAC.
var apiWriteVerbs = map[string]bool{"POST": true, "PUT": true, "PATCH": true, "APPLY": true, "DELETE": true, "DELETECOLLECTION": true}

// apiWrites reads the API server's counts of the writes it served.
type apiWrites struct {
	metrics func(ctx context.Context) ([]byte, error)
}

func newAPIWrites(cfg *rest.Config) (*apiWrites, error) {
	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return nil, err
	}
	return &apiWrites{metrics: func(ctx context.Context) ([]byte, error) {
		return dc.RESTClient().Get().AbsPath("/metrics").DoRaw(ctx)
	}}, nil
}

// read returns the writes served so far by "VERB resource[/subresource]", the resource with
// its API group. An error returns nil: the phase then prints "not measured" rather than
// failing the run.
func (a *apiWrites) read(ctx context.Context) map[string]float64 {
	if a == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	body, err := a.metrics(ctx)
	if err != nil {
		return nil
	}
	out, err := parseAPIWrites(body)
	if err != nil {
		return nil
	}
	return out
}

// parseAPIWrites sums apiserver_request_total's write verbs by verb, resource (with its group)
// and subresource, over response codes and scopes.
func parseAPIWrites(body []byte) (map[string]float64, error) {
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	out := map[string]float64{}
	fam, ok := fams["apiserver_request_total"]
	if !ok {
		return out, nil
	}
	for _, m := range fam.GetMetric() {
		l := labels(m)
		if !apiWriteVerbs[l["verb"]] || m.GetCounter() == nil {
			continue
		}
		out[apiWriteKey(l)] += m.GetCounter().GetValue()
	}
	return out, nil
}

// apiWriteKey is "PUT projects.keystone.identity.m.crossplane.io/status".
func apiWriteKey(l map[string]string) string {
	res := l["resource"]
	if l["group"] != "" {
		res += "." + l["group"]
	}
	if l["subresource"] != "" {
		res += "/" + l["subresource"]
	}
	return fmt.Sprintf("%s %s", l["verb"], res)
}

func labels(m *dto.Metric) map[string]string {
	out := map[string]string{}
	for _, lp := range m.GetLabel() {
		out[lp.GetName()] = lp.GetValue()
	}
	return out
}

// apiWritesSince is what each count grew by since then, counts that did not grow left out.
func apiWritesSince(now, then map[string]float64) map[string]int {
	if now == nil {
		return nil
	}
	out := map[string]int{}
	for k, v := range now {
		if d := int(v - then[k] + 0.5); d > 0 {
			out[k] = d
		}
	}
	return out
}

// apiWritesLine is the total of a phase's writes and the biggest counts, "6240: 1252 POST
// events, ...", with the group left out of each resource for brevity.
func apiWritesLine(m map[string]int) string {
	if m == nil {
		return "not measured"
	}
	total := 0
	parts := make([]string, 0, len(m))
	for _, k := range byCount(m) {
		total += m[k]
		verb, res, _ := strings.Cut(k, " ")
		name, sub, hasSub := strings.Cut(res, "/")
		name, _, _ = strings.Cut(name, ".")
		if hasSub {
			name += "/" + sub
		}
		parts = append(parts, fmt.Sprintf("%d %s %s", m[k], verb, name))
	}
	if total == 0 {
		return "none"
	}
	return fmt.Sprintf("%d: %s", total, strings.Join(parts, ", "))
}
