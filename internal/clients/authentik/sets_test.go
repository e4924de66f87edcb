package authentik

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSortedSet(t *testing.T) {
	cases := map[string]struct {
		in, want []string
	}{
		"NilStaysNil":       {},
		"EmptyStaysEmpty":   {in: []string{}, want: []string{}},
		"SortedWithoutDups": {in: []string{"b", "a", "b"}, want: []string{"a", "b"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, SortedSet(tc.in)); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
			if diff := cmp.Diff(tc.want == nil, SortedSet(tc.in) == nil); diff != "" {
				t.Errorf("nil: -want +got:\n%s", diff)
			}
		})
	}
}

func TestNonNil(t *testing.T) {
	if got := NonNil(nil); got == nil || len(got) != 0 {
		t.Errorf("NonNil(nil) = %#v, want an empty list", got)
	}
	if diff := cmp.Diff([]string{"a"}, NonNil([]string{"a"})); diff != "" {
		t.Errorf("-want +got:\n%s", diff)
	}
}
