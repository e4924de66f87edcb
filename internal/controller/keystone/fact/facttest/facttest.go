// Package facttest runs the tables of the fact kinds' driver tests, so that each kind's test
// says only what is its own: its keys, its URLs, its record and its messages. Only tests
// import it.
package facttest

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone/keystonetest"
)

// A Call is one driver call, what Keystone answers it and what should come of it.
type Call[MR adoption.Managed, F any] struct {
	Answers map[string]keystonetest.Answer
	Op      keystonetest.Op[MR, F]
	// Want is the value the call returns (go-cmp, empty equals nil).
	Want any
	// Err is a part of the error the call must fail with; "" for none.
	Err string
	// NotFound: the error is Keystone's 404 (the engine's "gone").
	NotFound bool
	// Calls are the calls made to Keystone, in order.
	Calls []string
}

// Run makes each call with a driver from newDriver over a fresh keystonetest.API.
func Run[MR adoption.Managed, F any](t *testing.T, newDriver func(keystone.API) adoption.Driver[MR, F], cases map[string]Call[MR, F]) {
	t.Helper()
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := keystonetest.Run(tc.Answers, newDriver, tc.Op)
			switch {
			case tc.Err == "" && got.Err != nil:
				t.Errorf("error %v, want none", got.Err)
			case tc.Err != "" && (got.Err == nil || !strings.Contains(got.Err.Error(), tc.Err)):
				t.Errorf("error %v, want one containing %q", got.Err, tc.Err)
			case got.Err != nil && keystone.IsNotFound(got.Err) != tc.NotFound:
				t.Errorf("IsNotFound(%v) = %v, want %v", got.Err, !tc.NotFound, tc.NotFound)
			}
			if diff := cmp.Diff(tc.Want, got.Value, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("value: -want +got:\n%s", diff)
			}
			if diff := cmp.Diff(tc.Calls, got.Calls, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("calls: -want +got:\n%s", diff)
			}
		})
	}
}

// Get returns the fact Get reads for the external name id.
func Get[MR adoption.Managed, F any](mg MR, id string) keystonetest.Op[MR, F] {
	return func(ctx context.Context, d adoption.Driver[MR, F]) (any, error) { return d.Get(ctx, mg, id) }
}

// Observe observes f for mg as owned and returns what status(mg) then is, and whether the
// driver found mg up to date, as {Status, UpToDate}.
func Observe[MR adoption.Managed, F any, S any](mg MR, f F, status func(MR) S) keystonetest.Op[MR, F] {
	return func(_ context.Context, d adoption.Driver[MR, F]) (any, error) {
		obs := d.Observe(mg, f, identityv1alpha1.Owned)
		return Observed[S]{Status: status(mg), UpToDate: obs.UpToDate}, nil
	}
}

// Observed is what Observe returns.
type Observed[S any] struct {
	Status   S
	UpToDate bool
}

// A Key is an external name and the fact it reads as, or a part of the error it is refused
// with.
type Key[F any] struct {
	Key  string
	Want F
	Err  string
}

// Keys parses each key, and renders each fact parsed back as its key.
func Keys[F interface{ Key() string }](t *testing.T, parse func(string) (F, error), cases map[string]Key[F]) {
	t.Helper()
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := parse(tc.Key)
			if tc.Err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.Err) {
					t.Fatalf("parse(%q) = %+v, %v; want an error containing %q", tc.Key, got, err, tc.Err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.Want, got); diff != "" {
				t.Errorf("parse(%q): -want +got:\n%s", tc.Key, diff)
			}
			if got.Key() != tc.Key {
				t.Errorf("Key() = %q, want %q", got.Key(), tc.Key)
			}
		})
	}
}
