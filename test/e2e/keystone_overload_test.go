//go:build e2e

package e2e

import (
	"net/url"
	"os"
	"testing"
	"time"
)

// Keystone answering a create with 429 and a Retry-After: the provider sends Keystone nothing
// at all until that time has passed (neither the failed create's own retry, which its backoff
// would make a second later, nor any other request), then creates the domain once.
func TestKeystoneRetryAfterPausesEveryRequest(t *testing.T) {
	// Not parallel: the pause holds back every test's requests to Keystone.
	const retryAfter = 4 * time.Second
	ks, err := url.Parse(os.Getenv("KEYSTONE_URL"))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	counter.inject(t, fault{Method: "POST", Prefix: "/v3/domains", Status: 429, Times: 1, RetryAfter: "4"})
	mg := newDomain("fault-429", "e2e-fault-429")
	create(t, mg)
	waitReady(t, mg)

	var sent []sentRequest
	for _, s := range counter.sentSince(start) {
		if s.Host == ks.Host {
			sent = append(sent, s)
		}
	}
	answered := -1
	for i, s := range sent {
		if s.Fault != nil && s.Fault.Status == 429 {
			answered = i
			break
		}
	}
	switch {
	case answered < 0:
		t.Fatalf("no create was answered 429; Keystone was sent %d requests", len(sent))
	case answered == len(sent)-1:
		t.Fatalf("nothing was sent to Keystone after the 429, yet the domain is Ready")
	}
	next := sent[answered+1]
	if gap := next.At.Sub(sent[answered].At); gap < retryAfter-100*time.Millisecond {
		t.Errorf("%s %s was sent %s after the 429, want nothing before its Retry-After of %s", next.Method, next.Path, gap.Round(time.Millisecond), retryAfter)
	}
	if n := countDomains(t, "e2e-fault-429"); n != 1 {
		t.Errorf("%d domains named e2e-fault-429, want 1", n)
	}
}
