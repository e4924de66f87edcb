package keystone

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
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

// A list that Keystone cut short under list_limit is never taken for the whole list; pages that
// Keystone links are followed.
func TestListTruncated(t *testing.T) {
	groups := Collection[namedObject]{Path: "groups", Singular: "group", Plural: "groups"}
	cases := map[string]struct {
		answers   map[string]string
		want      []string
		truncated bool
	}{
		"Whole": {
			answers: map[string]string{"/v3/groups?name=g": `{"groups": [{"id": "1"}], "links": {"next": null}}`},
			want:    []string{"1"},
		},
		"Truncated": {
			answers:   map[string]string{"/v3/groups?name=g": `{"groups": [{"id": "1"}, {"id": "2"}], "truncated": true, "links": {"next": null}}`},
			want:      []string{"1", "2"},
			truncated: true,
		},
		"PagedAndFollowed": {
			answers: map[string]string{
				"/v3/groups?name=g":          `{"groups": [{"id": "1"}], "truncated": true, "links": {"next": "NEXT/v3/groups?name=g&marker=1"}}`,
				"/v3/groups?name=g&marker=1": `{"groups": [{"id": "2"}], "links": {"next": null}}`,
			},
			want: []string{"1", "2"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			sc := cannedKeystone(t, tc.answers)
			for k, v := range tc.answers {
				tc.answers[k] = strings.ReplaceAll(v, "NEXT", strings.TrimSuffix(sc.Endpoint, "/v3/"))
			}
			got, err := groups.List(context.Background(), sc, url.Values{"name": {"g"}})
			if IsTruncated(err) != tc.truncated || (err != nil && !tc.truncated) {
				t.Fatalf("List(): error %v, want truncated %v", err, tc.truncated)
			}
			if tc.truncated && !strings.Contains(err.Error(), "list_limit") {
				t.Errorf("truncation error %q does not say what to raise", err)
			}
			ids := make([]string, 0, len(got))
			for _, g := range got {
				ids = append(ids, g.ID)
			}
			if diff := cmp.Diff(tc.want, ids); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}

func TestMayHaveCommitted(t *testing.T) {
	answered := func(code int) error {
		return gophercloud.ErrUnexpectedResponseCode{Method: http.MethodPut, URL: "http://keystone/v3/x", Actual: code}
	}
	cases := map[string]struct {
		err  error
		want bool
	}{
		"Nil":                {},
		"Answered503":        {err: answered(http.StatusServiceUnavailable), want: true},
		"Wrapped503":         {err: Wrap(answered(http.StatusBadGateway), "cannot assign %s", "r"), want: true},
		"Refused409":         {err: answered(http.StatusConflict)},
		"Wrapped404":         {err: Wrap(answered(http.StatusNotFound), "cannot assign %s", "r")},
		"NoAnswer":           {err: &url.Error{Op: "Put", URL: "http://keystone/v3/x", Err: errors.New("connection reset")}, want: true},
		"DeadlineExceeded":   {err: Wrap(context.DeadlineExceeded, "cannot assign %s", "r"), want: true},
		"NothingWasSentSoNo": {err: errors.New("spec.forProvider.name is invalid")},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := MayHaveCommitted(tc.err); got != tc.want {
				t.Errorf("MayHaveCommitted(%v): got %v, want %v", tc.err, got, tc.want)
			}
		})
	}
}
