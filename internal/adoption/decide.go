package adoption

import (
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// A Description is how a kind's driver presents an external object to the engine.
type Description struct {
	// ID is the external system's identifier (the external name).
	ID string
	// Type is a human name of the object's type, for example "Keystone domain".
	Type string
	// Key is the natural key shown to users, for example the domain's name.
	Key string
	// Marker is the provenance marker the object carries, nil when it has none (or an
	// unreadable one, which proves nothing).
	Marker *provenance.Marker
	// Markerless is true for kinds that have no field to carry a marker (role assignments,
	// federation mappings and protocols). Their marker is kept on the managed resource instead,
	// in the AnnotationMarker annotation; see docs/adr/0001-provenance-markers.md.
	Markerless bool
}

// A request describes the resource that found an external object.
type request struct {
	// Self is the marker this resource writes: installation and resource.
	Self provenance.Marker
	// Policy is the resource's spec.adoptionPolicy.
	Policy identityv1alpha1.AdoptionPolicy
	// ObserveOnly is true when managementPolicies is exactly [Observe].
	ObserveOnly bool
}

// A verdict is what the engine concluded about an external object.
type verdict struct {
	Provenance identityv1alpha1.Provenance
	// Stamp is true when the object must be (re)marked by the next Update: an adoption.
	Stamp bool
}

// decide applies ADR-0002 to one external object. It is the only place where the rules live:
//   - an observe-only resource reads anything and writes nothing, so it never conflicts;
//   - our own marker for this resource is ours, whatever the policy;
//   - another installation's marker is a conflict, even under AdoptExisting;
//   - this installation's marker for another resource is a conflict (two resources, one object);
//   - no marker is a conflict under FailOnConflict and an adoption under AdoptExisting.
func decide(r request, d Description) (verdict, error) {
	if r.ObserveOnly {
		return verdict{Provenance: identityv1alpha1.Observed}, nil
	}
	m := d.Marker
	switch {
	case m == nil && r.Policy == identityv1alpha1.AdoptExisting:
		return verdict{Provenance: identityv1alpha1.Adopted, Stamp: true}, nil
	case m == nil:
		return verdict{}, &ConflictError{Object: d}
	case m.Installation != r.Self.Installation:
		return verdict{}, &ConflictError{Object: d, ForeignInstallation: m.Installation}
	case m.Resource != r.Self.Resource:
		return verdict{}, &ConflictError{Object: d, OtherResource: m.Resource}
	case m.Origin == provenance.OriginAdopted:
		return verdict{Provenance: identityv1alpha1.Adopted}, nil
	default:
		return verdict{Provenance: identityv1alpha1.Owned}, nil
	}
}
