package authentik

import (
	"encoding/json"
	"maps"
	"reflect"
	"strings"

	extv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// Attribute keys the provider writes itself. They never change: objects written by earlier
// releases must still be recognised.
const (
	// ReservedPrefix starts every key the provider keeps for itself; a spec cannot set one.
	ReservedPrefix = "identity.crossplane.io/"
	// MarkerAttribute is where groups and users carry their provenance marker.
	MarkerAttribute = ReservedPrefix + "provenance"
	// PasswordVersionAttribute is where a user records which version of its password Secret
	// was last set as its password (the Secret's UID, resourceVersion and key: nothing of the
	// password). Kept in authentik, it survives a lost status update or a re-created resource,
	// so a password is sent again only when the Secret changes.
	PasswordVersionAttribute = ReservedPrefix + "password-secret-version"
)

const (
	errDecodeAttribute = "cannot decode attribute %q of the spec"
	errReservedKey     = "spec.forProvider.attributes must not set %q: keys starting with %s are the provider's own (its provenance marker and the password's Secret version); remove it from the spec"
)

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
// Keys starting with ReservedPrefix are refused: CEL cannot see into free-form values, so this
// is where a spec that sets one is caught.
func DecodeAttributes(spec map[string]extv1.JSON) (map[string]any, error) {
	if spec == nil {
		return nil, nil
	}
	out := make(map[string]any, len(spec))
	for k, j := range spec {
		if strings.HasPrefix(k, ReservedPrefix) {
			return nil, errors.Errorf(errReservedKey, k, ReservedPrefix)
		}
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
