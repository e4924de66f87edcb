package keystonetest

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// LateInitializedOnCreate checks that a kind's Create fills the spec's unset enabled from
// Keystone's answer and keeps a value the spec sets. create runs the kind's Create with the
// spec's enabled set to enabled, against an answer that says enabled is false, and returns the
// spec's enabled after it.
func LateInitializedOnCreate(t *testing.T, create func(t *testing.T, enabled *bool) *bool) {
	t.Helper()
	cases := map[string]struct {
		enabled, want *bool
	}{
		"UnsetTakesTheAnswer": {want: new(false)},
		"SetStays":            {enabled: new(true), want: new(true)},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, create(t, tc.enabled)); diff != "" {
				t.Errorf("spec.forProvider.enabled after Create: -want, +got:\n%s", diff)
			}
		})
	}
}
