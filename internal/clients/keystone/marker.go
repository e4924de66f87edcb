package keystone

import (
	"encoding/json"

	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// ParseMarker reads the marker attribute of a Keystone object. A missing or unreadable marker
// proves nothing, so both are nil.
func ParseMarker[S ~string](s S) *provenance.Marker {
	if s == "" {
		return nil
	}
	m, err := provenance.Parse(string(s))
	if err != nil {
		return nil
	}
	return &m
}

// A MarkerAttr is the marker attribute (MarkerAttribute) of a Keystone object as read. Keystone
// stores any JSON value in an extra attribute, and someone may set ours to a number, an object
// or null by hand: that must not fail the decoding of the whole object (the resource could then
// neither observe nor let go of it). A string is kept; anything else reads as "" (no readable
// marker: the object is not provably ours). The provider always writes a string.
type MarkerAttr string

// UnmarshalJSON keeps a JSON string and reads any other value as "".
func (m *MarkerAttr) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) != nil {
		s = ""
	}
	*m = MarkerAttr(s)
	return nil
}
