package authentik

import (
	"encoding/json"
	"maps"
	"reflect"

	extv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// MarkerAttribute is the attributes key where groups and users carry their provenance marker.
// It never changes: objects marked by earlier releases must still be recognised.
const MarkerAttribute = "identity.crossplane.io/provenance"

const errDecodeAttribute = "cannot decode attribute %q of the spec"

// AttributeMarker reads the marker of an attributes map. A missing, non-string or unreadable
// marker proves nothing, so all three are nil.
func AttributeMarker(attrs map[string]any) *provenance.Marker {
	s, ok := attrs[MarkerAttribute].(string)
	if !ok || s == "" {
		return nil
	}
	m, err := provenance.Parse(s)
	if err != nil {
		return nil
	}
	return &m
}

// DecodeAttributes decodes the JSON values of a spec's attributes the way the API client
// decodes authentik's answers (numbers as float64), so that they compare with observed ones.
func DecodeAttributes(spec map[string]extv1.JSON) (map[string]any, error) {
	if spec == nil {
		return nil, nil
	}
	out := make(map[string]any, len(spec))
	for k, j := range spec {
		var v any
		if len(j.Raw) > 0 {
			if err := json.Unmarshal(j.Raw, &v); err != nil {
				return nil, errors.Wrapf(err, errDecodeAttribute, k)
			}
		}
		out[k] = v
	}
	return out, nil
}

// ManagedAttributes projects observed attributes onto the keys the spec manages, so that keys
// the spec does not set never differ. A key missing from observed is missing from the result.
func ManagedAttributes(observed, want map[string]any) map[string]any {
	if want == nil {
		return nil
	}
	out := make(map[string]any, len(want))
	for k := range want {
		if v, ok := observed[k]; ok {
			out[k] = v
		}
	}
	return out
}

// MergeAttributes returns the attributes to write: the observed ones (keys set by others are
// kept) with the spec's keys and the marker laid over them, and whether that differs from what
// was observed. A PATCH of attributes replaces the whole map, hence the merge.
func MergeAttributes(observed, want map[string]any, m provenance.Marker) (map[string]any, bool) {
	out := make(map[string]any, len(observed)+len(want)+1)
	maps.Copy(out, observed)
	maps.Copy(out, want)
	out[MarkerAttribute] = m.Encode()
	changed := false
	for k, v := range out {
		if ov, ok := observed[k]; !ok || !reflect.DeepEqual(ov, v) {
			changed = true
			break
		}
	}
	return out, changed
}
