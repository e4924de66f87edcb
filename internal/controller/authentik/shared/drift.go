package shared

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/google/go-cmp/cmp"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// Fields is an authentik object in its wire format (JSON field names, JSON-decoded values).
// Drivers build the fields a spec manages as a typed Patched*Request of the API client (so the
// names are authentik's own), turn them into Fields, compare them with the observed object's
// Fields and PATCH exactly the fields that differ.
type Fields map[string]any

// ToFields renders an API model (or anything JSON-marshalable) as Fields.
func ToFields(v any) (Fields, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, errors.Wrap(err, "cannot encode authentik object")
	}
	f := Fields{}
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, errors.Wrap(err, "cannot decode authentik object")
	}
	return f, nil
}

// Decode turns Fields into an API request model.
func Decode[T any](f Fields) (T, error) {
	var out T
	b, err := json.Marshal(f)
	if err != nil {
		return out, errors.Wrap(err, "cannot encode authentik request")
	}
	if err := json.Unmarshal(b, &out); err != nil {
		return out, errors.Wrap(err, "cannot build authentik request")
	}
	return out, nil
}

// A Normalizer maps a field's value to the form it is compared in.
type Normalizer func(any) any

// Set compares a list as a set: order and duplicates do not matter.
func Set(v any) any {
	l, ok := v.([]any)
	if !ok {
		if v == nil {
			return []string{}
		}
		return v
	}
	seen := map[string]bool{}
	out := []string{}
	for _, x := range l {
		s := fmt.Sprint(x)
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// Redacted marks fields whose values never appear in a diff (client secrets).
const redacted = "(redacted)"

// A Comparison is the result of Compare.
type Comparison struct {
	// Changed holds the wanted value of every field that differs: the body of a PATCH.
	Changed Fields
	// Diff is human-readable (-want +have), with secret values redacted.
	Diff string
}

// UpToDate reports whether no managed field differs.
func (c Comparison) UpToDate() bool { return len(c.Changed) == 0 }

// Compare compares the fields want manages with the same fields of have. Fields want does not
// set are never compared. norm holds per-field normalizers; secret names fields whose values
// must not be shown.
func Compare(want, have Fields, norm map[string]Normalizer, secret ...string) Comparison {
	c := Comparison{Changed: Fields{}}
	w, h := map[string]any{}, map[string]any{}
	for k, wv := range want {
		hv := have[k]
		nw, nh := wv, hv
		if n := norm[k]; n != nil {
			nw, nh = n(wv), n(hv)
		}
		if reflect.DeepEqual(nw, nh) {
			continue
		}
		c.Changed[k] = wv
		if contains(secret, k) {
			nw, nh = redacted+" wanted", redacted+" differs"
		}
		w[k], h[k] = nw, nh
	}
	if len(c.Changed) > 0 {
		c.Diff = cmp.Diff(w, h)
	}
	return c
}

// Keys lists the keys of f, sorted, for messages.
func (f Fields) Keys() string {
	keys := make([]string, 0, len(f))
	for k := range f {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return strings.Join(keys, ", ")
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// Str sets a string field the spec sets; nil leaves it out (unmanaged).
func (f Fields) Str(k string, v *string) {
	if v != nil {
		f[k] = *v
	}
}

// Bool sets a boolean field the spec sets; nil leaves it out (unmanaged).
func (f Fields) Bool(k string, v *bool) {
	if v != nil {
		f[k] = *v
	}
}

// Int sets a number field the spec sets as decoded JSON holds it (float64), so that it
// compares; nil leaves it out (unmanaged).
func (f Fields) Int(k string, v *int32) {
	if v != nil {
		f[k] = float64(*v)
	}
}

// NullableStr sets a nullable string field: nil leaves it out, the empty string clears it
// (null).
func (f Fields) NullableStr(k string, v *string) {
	switch {
	case v == nil:
	case *v == "":
		f[k] = nil
	default:
		f[k] = *v
	}
}
