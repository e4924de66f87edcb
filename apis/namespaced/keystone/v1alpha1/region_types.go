package v1alpha1

import (
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// RegionParameters are the configurable fields of a Keystone region of the service catalog.
// +kubebuilder:validation:XValidation:rule="!has(self.parentRegionId) || self.parentRegionId != self.id",message="a region cannot be its own parent: set parentRegionId to another region's ID"
type RegionParameters struct {
	// ID of the region in Keystone, chosen by you (for example RegionOne). Regions have no name:
	// the ID is how an existing region is found, and it becomes the external name. Endpoints and
	// unified limits name their region by it.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^[A-Za-z0-9._-]+$`
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="id cannot change: it is the region's identity in Keystone; create another Region instead"
	// +kubebuilder:validation:XValidation:rule="self != '.' && self != '..'",message="id must not be . or ..: it becomes part of Keystone's URLs"
	ID string `json:"id"`

	// ParentRegionID is the ID of the region this one is part of. Usually filled in from
	// ParentRegionRef or ParentRegionSelector. Keystone refuses a parent that does not exist or
	// that would make a cycle.
	// +optional
	// +identity:reference:type=Region
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^[A-Za-z0-9._-]+$`
	ParentRegionID *string `json:"parentRegionId,omitempty"`

	// ParentRegionRef references the Region whose ID fills ParentRegionID: a Region in this
	// Region's namespace (for a cluster-scoped Region, a cluster-scoped Region).
	// +optional
	ParentRegionRef *xpv2.Reference `json:"parentRegionRef,omitempty"`

	// ParentRegionSelector selects the Region whose ID fills ParentRegionID, among the Regions of
	// this Region's namespace (a cluster-scoped Region: among the cluster-scoped Regions).
	// +optional
	ParentRegionSelector *xpv2.Selector `json:"parentRegionSelector,omitempty"`

	// Description of the region.
	// +optional
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f]')",message="description must not contain control characters other than tabs and line breaks: Keystone would store them in the region description as given"
	Description *string `json:"description,omitempty"`
}

// RegionObservation is the observed state of a Keystone region.
type RegionObservation struct {
	// ID is Keystone's ID of the region (also the external name).
	ID string `json:"id,omitempty"`

	ParentRegionID string `json:"parentRegionId,omitempty"`
	Description    string `json:"description,omitempty"`

	// Provenance tells whether the region was created, adopted or only observed.
	Provenance identityv1alpha1.Provenance `json:"provenance,omitempty"`
}
