package clients

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCacheGet(t *testing.T) {
	errBuild := errors.New("cannot connect")
	type call struct {
		key      string
		buildErr error
	}
	type result struct {
		Value  string
		Err    string
		Builds int
	}
	cases := map[string]struct {
		calls []call
		want  []result
	}{
		"BuiltOncePerKey": {
			calls: []call{{key: "a"}, {key: "a"}, {key: "b"}},
			want:  []result{{Value: "a1", Builds: 1}, {Value: "a1", Builds: 1}, {Value: "b2", Builds: 2}},
		},
		"FailedBuildIsNotKept": {
			calls: []call{{key: "a", buildErr: errBuild}, {key: "a"}},
			want:  []result{{Err: errBuild.Error(), Builds: 1}, {Value: "a2", Builds: 2}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var c Cache[string]
			builds := 0
			var got []result
			for _, call := range tc.calls {
				v, err := c.Get(call.key, func() (string, error) {
					builds++
					if call.buildErr != nil {
						return "unused", call.buildErr
					}
					return call.key + string(rune('0'+builds)), nil
				})
				r := result{Value: v, Builds: builds}
				if err != nil {
					r.Err = err.Error()
				}
				got = append(got, r)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}
