//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	ksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
)

// BenchmarkDomains creates N Domains (BENCH_N, default 200) against the real Keystone and
// reports how long they take to become Ready, how many requests each cost to create, and the
// requests per resource per poll once they are in sync. Run it with `make bench`.
func BenchmarkDomains(b *testing.B) {
	n := 200
	if v, err := strconv.Atoi(os.Getenv("BENCH_N")); err == nil && v > 0 {
		n = v
	}
	ctx := context.Background()
	for range b.N {
		before := counter.snapshot()
		start := time.Now()
		mgs := make([]*ksv1alpha1.Domain, n)
		for i := range n {
			mgs[i] = newDomain(fmt.Sprintf("bench-%d", i), fmt.Sprintf("e2e-bench-%d", i))
			if err := kube.Create(ctx, mgs[i]); err != nil {
				b.Fatal(err)
			}
		}
		waitAll(b, mgs, 10*time.Minute, func(d *ksv1alpha1.Domain) bool {
			return d.GetCondition(xpv2.TypeReady).Status == corev1.ConditionTrue
		})
		toReady := time.Since(start)
		ready := counter.snapshot()
		creation := delta(before, ready)

		// Steady state: every resource is polled once per pollInterval.
		time.Sleep(pollInterval)
		s0 := counter.snapshot()
		window := 5 * pollInterval
		time.Sleep(window)
		s1 := counter.snapshot()
		steady := delta(s0, s1)

		reads, writes := 0, 0
		for k, v := range steady {
			if strings.HasPrefix(k, "GET ") {
				reads += v
			} else {
				writes += v
			}
		}
		b.ReportMetric(toReady.Seconds(), "s-to-ready")
		b.ReportMetric(float64(sum(creation))/float64(n), "requests/resource-to-ready")
		b.ReportMetric(float64(reads)/float64(n)/(float64(window)/float64(pollInterval)), "reads/resource/poll")
		b.ReportMetric(float64(writes), "writes-in-sync")
		b.Logf("N=%d: Ready after %s; creation requests %v; steady state over %s: %d reads, %d other requests %v",
			n, toReady.Round(time.Millisecond), summarize(creation), window, reads, writes, steady)
		if writes != 0 {
			b.Errorf("%d writes while in sync", writes)
		}

		for _, mg := range mgs {
			if err := kube.Delete(ctx, mg); err != nil && !kerrors.IsNotFound(err) {
				b.Fatal(err)
			}
		}
		waitAll(b, mgs, 10*time.Minute, nil)
	}
}

// waitAll waits until ready holds for every resource, or (ready nil) until all are gone.
func waitAll(b *testing.B, mgs []*ksv1alpha1.Domain, timeout time.Duration, ready func(*ksv1alpha1.Domain) bool) {
	b.Helper()
	deadline := time.Now().Add(timeout)
	pending := append([]*ksv1alpha1.Domain(nil), mgs...)
	for len(pending) > 0 {
		if time.Now().After(deadline) {
			b.Fatalf("%d of %d resources not done after %s", len(pending), len(mgs), timeout)
		}
		var still []*ksv1alpha1.Domain
		for _, mg := range pending {
			err := kube.Get(context.Background(), keyOf(mg), mg)
			switch {
			case ready == nil && kerrors.IsNotFound(err):
			case err != nil && ready != nil:
				b.Fatal(err)
			case ready == nil || !ready(mg):
				still = append(still, mg)
			}
		}
		pending = still
		time.Sleep(250 * time.Millisecond)
	}
}

func sum(m map[string]int) int {
	t := 0
	for _, v := range m {
		t += v
	}
	return t
}

// summarize folds per-ID paths into per-method counts.
func summarize(m map[string]int) map[string]int {
	out := map[string]int{}
	for k, v := range m {
		out[idSegment.ReplaceAllString(k, "/{id}$1")] += v
	}
	return out
}
