package authentik

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// Wrap keeps authentik's status through the context it adds, so IsNotFound, IgnoreNotFound
// and MayHaveCommitted answer for the wrapped error as for authentik's answer itself.
func TestWrap(t *testing.T) {
	type want struct {
		msg                 string
		notFound, committed bool
		ignored             bool
	}
	answer := func(code int) *http.Response {
		return &http.Response{StatusCode: code, Status: http.StatusText(code)}
	}
	cases := map[string]struct {
		err  error
		resp *http.Response
		want want
	}{
		"Nil":         {want: want{ignored: true}},
		"NotFound":    {err: errors.New("404"), resp: answer(http.StatusNotFound), want: want{msg: "cannot read x: 404", notFound: true, ignored: true}},
		"ServerError": {err: errors.New("500"), resp: answer(http.StatusInternalServerError), want: want{msg: "cannot read x: 500", committed: true}},
		"NoAnswer":    {err: errors.New("connection refused"), want: want{msg: "cannot read x: connection refused", committed: true}},
		"BadRequest":  {err: errors.New("400"), resp: answer(http.StatusBadRequest), want: want{msg: "cannot read x: 400"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			err := Wrap(tc.err, tc.resp, "cannot read %s", "x")
			got := want{notFound: IsNotFound(err), committed: MayHaveCommitted(err), ignored: IgnoreNotFound(err) == nil}
			if err != nil {
				got.msg = err.Error()
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}
