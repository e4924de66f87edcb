package keystone

import "github.com/crossplane-contrib/provider-identity/internal/provenance"

// ParseMarker reads the marker attribute of a Keystone object. A missing or unreadable marker
// proves nothing, so both are nil.
func ParseMarker(s string) *provenance.Marker {
	if s == "" {
		return nil
	}
	m, err := provenance.Parse(s)
	if err != nil {
		return nil
	}
	return &m
}
