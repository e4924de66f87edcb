package keystone

import (
	"errors"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/gophercloud/gophercloud/v2"
)

func TestWrap(t *testing.T) {
	answered := gophercloud.ErrUnexpectedResponseCode{
		Method: http.MethodPost, URL: "http://keystone/v3/users", Actual: http.StatusConflict,
		Body: []byte(`{"error": {"message": "Conflict occurred attempting to store user"}}`),
	}
	cases := map[string]struct {
		err  error
		want string
	}{
		"NilIsNil": {},
		// What Keystone answered, never what was sent: the request can hold a password.
		"KeystoneAnswer": {
			err:  answered,
			want: `cannot create Keystone user "u": POST http://keystone/v3/users: Keystone answered Conflict (409): Conflict occurred attempting to store user`,
		},
		"OtherError": {err: errors.New("connection refused"), want: `cannot create Keystone user "u": connection refused`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := ""
			if err := Wrap(tc.err, "cannot create Keystone user %q", "u"); err != nil {
				got = err.Error()
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}

func TestIgnoreNotFound(t *testing.T) {
	notFound := gophercloud.ErrUnexpectedResponseCode{Method: http.MethodDelete, URL: "http://keystone/v3/groups/g", Actual: http.StatusNotFound}
	refused := errors.New("connection refused")
	cases := map[string]struct {
		err, want error
	}{
		"NilIsNil":         {},
		"NotFoundIsNil":    {err: notFound},
		"OtherErrorIsKept": {err: refused, want: refused},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, IgnoreNotFound(tc.err), cmpopts.EquateErrors()); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}
