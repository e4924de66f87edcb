package v1alpha1

// AdoptionPolicy decides what happens when an external object with the resource's natural key
// (name, slug, username...) already exists and carries no provenance marker of this resource.
// +kubebuilder:validation:Enum=FailOnConflict;AdoptExisting
type AdoptionPolicy string

const (
	// FailOnConflict leaves such an object untouched and reports AdoptionRequired. The default.
	FailOnConflict AdoptionPolicy = "FailOnConflict"

	// AdoptExisting takes such an object over: the provider stamps its marker and reconciles the
	// object to the spec. An object marked by another installation is never adopted.
	AdoptExisting AdoptionPolicy = "AdoptExisting"
)

// Provenance tells how this resource came to manage its external object.
// +kubebuilder:validation:Enum=Owned;Adopted;Observed
type Provenance string

const (
	// Owned objects were created by this resource.
	Owned Provenance = "Owned"
	// Adopted objects existed before and were taken over under AdoptExisting.
	Adopted Provenance = "Adopted"
	// Observed objects are only read (managementPolicies: ["Observe"]); never written or deleted.
	Observed Provenance = "Observed"
)

// AdoptionSpec is embedded inline in the spec of every managed kind.
type AdoptionSpec struct {
	// AdoptionPolicy decides what happens when an external object with this resource's natural
	// key already exists but carries no provenance marker of this resource. FailOnConflict
	// leaves it untouched and reports Ready=False with reason AdoptionRequired; AdoptExisting
	// takes it over. It governs acquisition only: once adopted, an object stays managed.
	// +optional
	// +kubebuilder:default=FailOnConflict
	AdoptionPolicy AdoptionPolicy `json:"adoptionPolicy,omitempty"`
}

// GetAdoptionPolicy returns the policy, defaulting to FailOnConflict. A pointer receiver, as the
// generated DeepCopy methods have.
func (s *AdoptionSpec) GetAdoptionPolicy() AdoptionPolicy {
	if s.AdoptionPolicy == "" {
		return FailOnConflict
	}
	return s.AdoptionPolicy
}
