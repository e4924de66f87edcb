package authentik

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	api "goauthentik.io/api/v3"
	extv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

var marker = provenance.Marker{Installation: "inst", Resource: "Group.authentik.identity.crossplane.io/g", Origin: provenance.OriginCreated}

func TestDecodeAttributes(t *testing.T) {
	got, err := DecodeAttributes(map[string]extv1.JSON{"n": {Raw: []byte(`3`)}, "o": {Raw: []byte(`{"a": [true, null]}`)}, "s": {Raw: []byte(`"x"`)}, "empty": {}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"n": float64(3), "o": map[string]any{"a": []any{true, nil}}, "s": "x", "empty": nil}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("DecodeAttributes(...): -want, +got:\n%s", diff)
	}
	if got, err := DecodeAttributes(nil); got != nil || err != nil {
		t.Errorf("DecodeAttributes(nil): got %v, %v", got, err)
	}
	if _, err := DecodeAttributes(map[string]extv1.JSON{"bad": {Raw: []byte(`{`)}}); err == nil {
		t.Errorf("DecodeAttributes(bad JSON): want an error")
	}
	for _, k := range []string{MarkerAttribute, PasswordVersionAttribute, ReservedPrefix + "future"} {
		if _, err := DecodeAttributes(map[string]extv1.JSON{k: {Raw: []byte(`"v=v1"`)}}); err == nil || !strings.Contains(err.Error(), "must not set") {
			t.Errorf("DecodeAttributes(%s): want the reserved key refused, got %v", k, err)
		}
	}
}

func TestManagedAttributes(t *testing.T) {
	observed := map[string]any{"a": "1", "b": "2", MarkerAttribute: marker.Encode()}
	cases := map[string]struct {
		want map[string]any
		out  map[string]any
	}{
		"Unmanaged":   {want: nil, out: nil},
		"NoKeys":      {want: map[string]any{}, out: map[string]any{}},
		"OneKey":      {want: map[string]any{"a": "x"}, out: map[string]any{"a": "1"}},
		"MissingKey":  {want: map[string]any{"c": "x"}, out: map[string]any{}},
		"TwoKeysKept": {want: map[string]any{"a": "x", "b": nil}, out: map[string]any{"a": "1", "b": "2"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.out, ManagedAttributes(observed, tc.want)); diff != "" {
				t.Errorf("ManagedAttributes(...): -want, +got:\n%s", diff)
			}
		})
	}
}

func TestMergeAttributes(t *testing.T) {
	cases := map[string]struct {
		observed, want map[string]any
		out            map[string]any
		changed        bool
	}{
		"CreateCarriesTheMarker": {
			want:    map[string]any{"a": "1"},
			out:     map[string]any{"a": "1", MarkerAttribute: marker.Encode()},
			changed: true,
		},
		"UpToDate": {
			observed: map[string]any{"a": "1", "other": true, MarkerAttribute: marker.Encode()},
			want:     map[string]any{"a": "1"},
			out:      map[string]any{"a": "1", "other": true, MarkerAttribute: marker.Encode()},
		},
		"ValueChangedOthersKept": {
			observed: map[string]any{"a": "1", "other": true, MarkerAttribute: marker.Encode()},
			want:     map[string]any{"a": "2"},
			out:      map[string]any{"a": "2", "other": true, MarkerAttribute: marker.Encode()},
			changed:  true,
		},
		"MarkerStamped": {
			observed: map[string]any{"other": true},
			out:      map[string]any{"other": true, MarkerAttribute: marker.Encode()},
			changed:  true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			out, changed := MergeAttributes(tc.observed, tc.want, marker)
			if diff := cmp.Diff(tc.out, out); diff != "" {
				t.Errorf("MergeAttributes(...): -want, +got:\n%s", diff)
			}
			if changed != tc.changed {
				t.Errorf("MergeAttributes(...): changed %t, want %t", changed, tc.changed)
			}
		})
	}
}

func TestAttributeMarker(t *testing.T) {
	if diff := cmp.Diff(&marker, AttributeMarker(map[string]any{MarkerAttribute: marker.Encode()})); diff != "" {
		t.Errorf("AttributeMarker(marked): -want, +got:\n%s", diff)
	}
	for name, attrs := range map[string]map[string]any{
		"nil": nil, "absent": {"a": 1}, "number": {MarkerAttribute: 1.0}, "garbage": {MarkerAttribute: "%%%"},
		"object": {MarkerAttribute: map[string]any{"v": "v1"}}, "list": {MarkerAttribute: []any{marker.Encode()}},
		"null": {MarkerAttribute: nil}, "bool": {MarkerAttribute: true}, "empty": {MarkerAttribute: ""},
	} {
		if m := AttributeMarker(attrs); m != nil {
			t.Errorf("AttributeMarker(%s): want nil, got %+v", name, m)
		}
	}
}

// Odd values under the marker key, or under any other key, decode with authentik's models (a
// group or user that failed to decode could neither be observed nor let go of), read as no
// marker, and are kept apart from the marker when attributes are written.
func TestOddAttributeValues(t *testing.T) {
	odd := map[string]string{
		"number": `5`, "object": `{"v":"v1"}`, "list": `["` + marker.Encode() + `"]`, "null": `null`, "bool": `true`,
	}
	for name, v := range odd {
		t.Run(name, func(t *testing.T) {
			attrs := `{"` + MarkerAttribute + `":` + v + `,"other":{"a":[1,null]},"n":null}`
			var g api.Group
			group := `{"pk":"p","num_pk":1,"name":"g","parents_obj":[],"users_obj":[],"roles_obj":[],"inherited_roles_obj":[],"children":[],"children_obj":[],"attributes":` + attrs + `}`
			if err := json.Unmarshal([]byte(group), &g); err != nil {
				t.Fatalf("decoding a group: %v", err)
			}
			var u api.User
			user := `{"pk":1,"username":"u","name":"u","date_joined":"2026-01-01T00:00:00Z","is_superuser":false,"groups_obj":[],"roles_obj":[],` +
				`"avatar":"","uid":"x","uuid":"00000000-0000-0000-0000-000000000000","password_change_date":"2026-01-01T00:00:00Z","last_updated":"2026-01-01T00:00:00Z","attributes":` + attrs + `}`
			if err := json.Unmarshal([]byte(user), &u); err != nil {
				t.Fatalf("decoding a user: %v", err)
			}
			for kind, a := range map[string]map[string]any{"group": g.Attributes, "user": u.Attributes} {
				if m := AttributeMarker(a); m != nil {
					t.Errorf("%s: a %s marker read as %+v, want none", kind, name, m)
				}
				out, changed := MergeAttributes(a, nil, marker)
				if !changed || out[MarkerAttribute] != marker.Encode() || !cmp.Equal(out["other"], a["other"]) {
					t.Errorf("%s: MergeAttributes = %v, %v; want the marker string over the %s value, the rest kept", kind, out, changed, name)
				}
			}
		})
	}
}

func TestErrors(t *testing.T) {
	if AsError(nil, nil) != nil {
		t.Errorf("AsError(nil): want nil")
	}
	nf := AsError(errors.New("404 Not Found"), &http.Response{StatusCode: http.StatusNotFound})
	if !IsNotFound(nf) || IsNotFound(AsError(errors.New("boom"), &http.Response{StatusCode: 500})) || IsNotFound(errors.New("x")) {
		t.Errorf("IsNotFound: wrong answer")
	}
	if !IsNotFound(NotFound(`authentik group "x"`)) {
		t.Errorf("IsNotFound(NotFound(...)): want true")
	}
}
