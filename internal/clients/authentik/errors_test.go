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

// IsTaken tells a uniqueness refusal on one field from the other answers a create can get.
func TestIsTaken(t *testing.T) {
	taken := func(body string) error {
		return errors.Wrap(&Error{Status: http.StatusBadRequest, Message: "400", Fields: fieldErrors([]byte(body))}, "cannot create x")
	}
	cases := map[string]struct {
		err   error
		field string
		want  bool
	}{
		"ModelUnique":       {err: taken(`{"slug": ["Application with this slug already exists."]}`), field: "slug", want: true},
		"SerializerUnique":  {err: taken(`{"name": ["This field must be unique."]}`), field: "name", want: true},
		"OtherFieldTaken":   {err: taken(`{"provider": ["Application with this provider already exists."]}`), field: "slug"},
		"InvalidValue":      {err: taken(`{"slug": ["Enter a valid \"slug\"."]}`), field: "slug"},
		"NotAFieldsObject":  {err: taken(`["oops"]`), field: "slug"},
		"MixedValues":       {err: taken(`{"detail": "nope", "name": ["This field must be unique."]}`), field: "name", want: true},
		"NotABadRequest":    {err: &Error{Status: http.StatusConflict, Fields: map[string][]string{"name": {"This field must be unique."}}}, field: "name"},
		"NotAnAuthentikErr": {err: errors.New("This field must be unique."), field: "name"},
		"Nil":               {field: "name"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := IsTaken(tc.err, tc.field); got != tc.want {
				t.Errorf("IsTaken(%v, %q): want %v, got %v", tc.err, tc.field, tc.want, got)
			}
		})
	}
}
