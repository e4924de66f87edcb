package shared

import (
	"context"
	"testing"
	"time"

	api "goauthentik.io/api/v3"

	"github.com/crossplane-contrib/provider-identity/internal/clients"
)

func TestLookupFresh(t *testing.T) {
	cases := map[string]struct {
		o    clients.SharedReadOptions
		want time.Duration
	}{
		"HalfAPollInterval":       {o: clients.SharedReadOptions{Fresh: 1500 * time.Millisecond, Window: 30 * time.Second}, want: 15 * time.Second},
		"NeverLessThanFresh":      {o: clients.SharedReadOptions{Fresh: 3 * time.Second, Window: 4 * time.Second}, want: 3 * time.Second},
		"NothingWhenNotSharing":   {o: clients.SharedReadOptions{Window: 30 * time.Second}, want: 0},
		"FreshAloneWithoutWindow": {o: clients.SharedReadOptions{Fresh: time.Second}, want: time.Second},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := lookupFresh(tc.o); got != tc.want {
				t.Errorf("lookupFresh(%+v) = %s, want %s", tc.o, got, tc.want)
			}
		})
	}
}

// TestReadsShareLookupsForHalfAPoll: a flow's lookup is answered again, past the objects'
// freshness, until half a poll interval after it was made; then it is made again.
func TestReadsShareLookupsForHalfAPoll(t *testing.T) {
	now := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	r := NewReads(clients.SharedReadOptions{Fresh: 1500 * time.Millisecond, Window: 30 * time.Second, Now: func() time.Time { return now }})
	c := &api.APIClient{}
	fetches := 0
	fetch := func(context.Context) (string, error) { fetches++; return "pk-1", nil }
	for _, step := range []struct {
		after       time.Duration
		wantFetches int
	}{
		{0, 1},                      // the first lookup asks authentik
		{2 * time.Second, 1},        // past the objects' 1.5 s freshness: still shared
		{12 * time.Second, 1},       // 14 s after the lookup
		{2 * time.Second, 2},        // 16 s after it: made again
		{100 * time.Millisecond, 2}, // and shared again
	} {
		now = now.Add(step.after)
		pk, err := r.flow(context.Background(), c, "default-provider-invalidation-flow", fetch)
		if err != nil || pk != "pk-1" {
			t.Fatalf("flow lookup: %q, %v; want pk-1", pk, err)
		}
		if fetches != step.wantFetches {
			t.Errorf("after %s more: %d lookups made, want %d", step.after, fetches, step.wantFetches)
		}
	}
}
