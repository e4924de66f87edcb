// Package provenance defines the marker provider-identity writes into every external object it
// creates or adopts, so that "this object is ours" is a positive check and never a guess from a
// matching name. See docs/adr/0001-provenance-markers.md for where each kind carries it.
package provenance

import (
	"net/url"
	"strings"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// Origin records how the marked object came under management.
type Origin string

const (
	// OriginCreated marks objects the provider created.
	OriginCreated Origin = "created"
	// OriginAdopted marks pre-existing objects taken over under spec.adoptionPolicy: AdoptExisting.
	OriginAdopted Origin = "adopted"
)

// version is the marker format version; it leads every encoded marker.
const version = "v1"

// Marker names the installation and the managed resource an external object belongs to.
type Marker struct {
	// Installation is the ProviderConfig's installationID.
	Installation string
	// Resource is the managed resource, as Kind.group/name (cluster-scoped) or
	// Kind.group/namespace/name (namespaced).
	Resource string
	// Origin tells whether the object was created or adopted.
	Origin Origin
}

// ResourceName returns the Resource field for a managed resource of the given group-qualified
// kind (for example Domain.keystone.identity.crossplane.io), namespace (empty for a
// cluster-scoped resource) and name. The namespace is part of it so that two namespaces'
// same-named resources are two owners: neither takes the other's object for its own. The
// group tells the scopes apart (a namespaced kind's group has ".m."), so a cluster-scoped and
// a namespaced resource are two owners as well.
func ResourceName(groupKind, namespace, name string) string {
	if namespace == "" {
		return groupKind + "/" + name
	}
	return groupKind + "/" + namespace + "/" + name
}

// SplitResourceName is the inverse of ResourceName: names never contain "/", so the parts
// are unambiguous. ok is false for a value ResourceName cannot have written.
func SplitResourceName(res string) (groupKind, namespace, name string, ok bool) {
	parts := strings.Split(res, "/")
	switch {
	case len(parts) == 2 && parts[0] != "" && parts[1] != "":
		return parts[0], "", parts[1], true
	case len(parts) == 3 && parts[0] != "" && parts[1] != "" && parts[2] != "":
		return parts[0], parts[1], parts[2], true
	}
	return "", "", "", false
}

// Encode renders the marker as a single line of URL query syntax, for example
// "v=v1&installation=a1b2&resource=Domain.keystone.identity.crossplane.io%2Fteam-a&origin=created".
// Query syntax keeps the value printable in every field that holds text and needs no parser
// of our own.
func (m Marker) Encode() string {
	v := url.Values{}
	v.Set("v", version)
	v.Set("installation", m.Installation)
	v.Set("resource", m.Resource)
	v.Set("origin", string(m.Origin))
	return v.Encode()
}

// Parse reads a marker written by Encode.
func Parse(s string) (Marker, error) {
	v, err := url.ParseQuery(strings.TrimSpace(s))
	if err != nil {
		return Marker{}, errors.Wrap(err, "cannot parse provenance marker")
	}
	if v.Get("v") != version {
		return Marker{}, errors.Errorf("unsupported provenance marker version %q", v.Get("v"))
	}
	m := Marker{Installation: v.Get("installation"), Resource: v.Get("resource"), Origin: Origin(v.Get("origin"))}
	if m.Installation == "" || m.Resource == "" {
		return Marker{}, errors.New("provenance marker lacks installation or resource")
	}
	if m.Origin != OriginCreated && m.Origin != OriginAdopted {
		return Marker{}, errors.Errorf("provenance marker has unknown origin %q", m.Origin)
	}
	return m, nil
}

// SameOwner reports whether two markers name the same installation and resource, whatever the
// origin.
func (m Marker) SameOwner(o Marker) bool {
	return m.Installation == o.Installation && m.Resource == o.Resource
}
