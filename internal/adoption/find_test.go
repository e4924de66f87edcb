package adoption

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestFoundByKey(t *testing.T) {
	errOther := errors.New("500")
	cases := map[string]struct {
		err     error
		want    []string
		wantErr error
	}{
		"Found":       {want: []string{"o"}},
		"NotFound":    {err: errNotFound},
		"OtherFailed": {err: errOther, wantErr: errOther},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := FoundByKey("o", tc.err, func(err error) bool { return errors.Is(err, errNotFound) })
			if diff := cmp.Diff(tc.wantErr, err, cmpopts.EquateErrors()); diff != "" {
				t.Errorf("error: -want +got:\n%s", diff)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}
