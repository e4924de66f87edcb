//go:build e2e

package e2e

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
)

// countDomains returns how many Keystone domains have the name.
func countDomains(t *testing.T, name string) int {
	t.Helper()
	var l struct {
		Domains []map[string]any `json:"domains"`
	}
	if _, err := keystone.sc.Get(context.Background(), keystone.sc.ServiceURL("domains")+"?name="+url.QueryEscape(name), &l, nil); err != nil {
		t.Fatal(err)
	}
	return len(l.Domains)
}

// Keystone answering 5xx to creates: Synced=False with Keystone's answer, then recovery by
// itself with exactly one domain.
func TestKeystone5xxOnCreate(t *testing.T) {
	// Not parallel: the injected fault fails every domain create, other tests' too.
	counter.inject(t, fault{Method: "POST", Prefix: "/v3/domains", Status: 503, Times: 3})
	mg := newDomain("fault-5xx", "e2e-fault-5xx")
	create(t, mg)
	eventually(t, 30*time.Second, "Synced=False with the 503", func() bool {
		c := condition(get(t, mg), xpv2.TypeSynced)
		return c.Status == corev1.ConditionFalse && strings.Contains(c.Message, `cannot create Keystone domain "e2e-fault-5xx"`) && strings.Contains(c.Message, "503")
	})
	waitReady(t, mg)
	if n := countDomains(t, "e2e-fault-5xx"); n != 1 {
		t.Fatalf("%d domains named e2e-fault-5xx after recovery, want 1", n)
	}
}

// Keystone unreachable while a resource is in sync: Synced=False naming the failure, the
// resource keeps its external name, and it is back in sync once Keystone answers again.
func TestKeystoneUnreachable(t *testing.T) {
	// Not parallel: it injects faults into the transport every test shares.
	mg := newDomain("fault-down", "e2e-fault-down")
	create(t, mg)
	waitReady(t, mg)
	id := meta.GetExternalName(mg)

	// Every read of a domain fails, alone or in a shared list of domains, until lifted.
	lift := counter.inject(t, fault{Method: "GET", Prefix: "/v3/domains", Status: 0, Times: 1 << 30})
	eventually(t, 30*time.Second, "Synced=False while Keystone is unreachable", func() bool {
		c := condition(get(t, mg), xpv2.TypeSynced)
		return c.Status == corev1.ConditionFalse && strings.Contains(c.Message, "connection refused")
	})
	lift()
	eventually(t, 60*time.Second, "Synced=True once Keystone answers", func() bool {
		return condition(get(t, mg), xpv2.TypeSynced).Status == corev1.ConditionTrue
	})
	if got := meta.GetExternalName(get(t, mg)); got != id {
		t.Fatalf("external name changed from %s to %q across the outage", id, got)
	}
	if n := countDomains(t, "e2e-fault-down"); n != 1 {
		t.Fatalf("%d domains named e2e-fault-down, want 1", n)
	}
}
