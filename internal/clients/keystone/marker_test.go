package keystone

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

func TestMarkerAttr(t *testing.T) {
	ours := provenance.Marker{Installation: "i", Resource: "Domain.keystone.identity.crossplane.io/d", Origin: provenance.OriginCreated}
	type object struct {
		Name   string     `json:"name"`
		Marker MarkerAttr `json:"crossplane_provenance,omitempty"`
	}
	cases := map[string]struct {
		body   string
		want   object
		marker *provenance.Marker
	}{
		"Marker":  {body: `{"name":"a","crossplane_provenance":"` + ours.Encode() + `"}`, want: object{Name: "a", Marker: MarkerAttr(ours.Encode())}, marker: &ours},
		"Absent":  {body: `{"name":"a"}`, want: object{Name: "a"}},
		"Garbage": {body: `{"name":"a","crossplane_provenance":"%%%"}`, want: object{Name: "a", Marker: "%%%"}},
		"Number":  {body: `{"name":"a","crossplane_provenance":5}`, want: object{Name: "a"}},
		"Object":  {body: `{"name":"a","crossplane_provenance":{"v":"v1"}}`, want: object{Name: "a"}},
		"List":    {body: `{"name":"a","crossplane_provenance":["` + ours.Encode() + `"]}`, want: object{Name: "a"}},
		"Bool":    {body: `{"name":"a","crossplane_provenance":true}`, want: object{Name: "a"}},
		"Null":    {body: `{"name":"a","crossplane_provenance":null}`, want: object{Name: "a"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var got object
			if err := json.Unmarshal([]byte(tc.body), &got); err != nil {
				t.Fatalf("decoding %s: %v", tc.body, err)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("-want +got:\n%s", d)
			}
			if d := cmp.Diff(tc.marker, ParseMarker(got.Marker)); d != "" {
				t.Errorf("ParseMarker -want +got:\n%s", d)
			}
		})
	}
	// The write side still writes a string.
	b, err := json.Marshal(object{Name: "a", Marker: "m"})
	if err != nil || string(b) != `{"name":"a","crossplane_provenance":"m"}` {
		t.Errorf("marshal: %s, %v", b, err)
	}
}
