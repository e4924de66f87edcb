package importer

import (
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// An Object is one external object as listed, ready to become a manifest.
type Object struct {
	// Kind is the managed resource kind, e.g. "Project".
	Kind string
	// APIVersion is the kind's group and version (the namespaced scope).
	APIVersion string
	// GroupKind is Kind.group, as provenance markers name resources.
	GroupKind string
	// ID is the external name.
	ID string
	// Name is what the resource name is made from (the object's name; for an assignment, its
	// parts' names).
	Name string
	// Describe names the object for a person: type, name and ID.
	Describe string
	// Marker is the object's provenance marker; nil when it has none (or none readable).
	Marker *provenance.Marker
	// Markerless kinds keep no marker in the external system (role assignments): only a
	// resource in the cluster can say that one is managed.
	Markerless bool
	// Related are the markers of the objects a markerless object serves or joins (the
	// application that uses an authentik provider, ADR 0002; a membership's group and user;
	// an implied-role rule's roles). Another installation's proves that installation may
	// manage the object, which is then refused; this installation's proves nothing.
	Related []RelatedMarker
	// Unsupported, when set, says why no resource can stand for the object (a system-scoped
	// assignment, a user mapped from a directory): it is reported, never written.
	Unsupported string
	// Build returns spec.forProvider, with references resolved through refs.
	Build func(refs Refs) any
	// Notes are what the manifest leaves out and how to supply it (a password).
	Notes []string

	// ResourceName is the generated resource's name (assignNames).
	ResourceName string
}

// A RelatedMarker is the marker of an object another object serves or joins.
type RelatedMarker struct {
	// Of names the object that carries it for a person, e.g. `its application "wiki"`.
	Of     string
	Marker provenance.Marker
}

// related returns the related marker of the object named of, when it has one.
func related(of string, m *provenance.Marker) []RelatedMarker {
	if m == nil {
		return nil
	}
	return []RelatedMarker{{Of: of, Marker: *m}}
}

// Refs resolve a reference to another object, by kind and ID, to the resource that stands
// for it in the target namespace.
type Refs interface {
	// Name returns the resource's name, and false when no resource stands for it there.
	Name(kind, id string) (string, bool)
}

// ref returns a reference to the object of kind and ID when a resource stands for it, else
// its ID: a reference that no resource of the namespace answers would never resolve.
func ref(refs Refs, kind, id string) (*xpv2.Reference, *string) {
	if id == "" {
		return nil, nil
	}
	if n, ok := refs.Name(kind, id); ok {
		return &xpv2.Reference{Name: n}, nil
	}
	return nil, &id
}

// nonEmpty is s, or nil for "": an empty optional field is left out of the spec, so that
// adopting the object never writes "" where Keystone has nothing.
func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
