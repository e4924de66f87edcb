package v1alpha1

import (
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// RegisteredLimitParameters are the configurable fields of a Keystone registered limit: the
// default limit of one resource of a service, everywhere or in one region. Keystone allows one
// registered limit per service, region and resource name; the three are how an existing one is
// found when the resource has no external name yet.
// +kubebuilder:validation:XValidation:rule="has(self.serviceId) || has(self.serviceRef) || has(self.serviceSelector)",message="a registered limit is of a service: set one of serviceId, serviceRef or serviceSelector"
// +kubebuilder:validation:XValidation:rule="has(oldSelf.regionId) || has(oldSelf.regionRef) || has(oldSelf.regionSelector) || !(has(self.regionId) || has(self.regionRef) || has(self.regionSelector))",message="a region cannot be set after creation (regionId, regionRef or regionSelector): service, region and resource name identify a registered limit; create a new RegisteredLimit instead"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.regionId) || has(self.regionId)",message="regionId cannot be unset after creation: service, region and resource name identify a registered limit; create a new RegisteredLimit instead"
type RegisteredLimitParameters struct {
	// ServiceID is the Keystone ID of the service (in the catalog) whose resource is limited.
	// Usually filled in from ServiceRef or ServiceSelector.
	// +optional
	// +identity:reference:type=Service
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:XValidation:rule="self.matches('^[A-Za-z0-9-]+$')",message="serviceId must be a Keystone service ID: letters, digits and hyphens only, as Keystone itself requires (for example 4c0f8d3b9e2a4f5c8a7b6d5e4f3a2b1c)"
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="serviceId cannot be changed: service, region and resource name identify a registered limit; create a new RegisteredLimit instead"
	ServiceID *string `json:"serviceId,omitempty"`

	// ServiceRef references the Service whose ID fills ServiceID: a Service in this
	// RegisteredLimit's namespace (for a cluster-scoped RegisteredLimit, a cluster-scoped Service).
	// +optional
	ServiceRef *xpv2.Reference `json:"serviceRef,omitempty"`

	// ServiceSelector selects the Service whose ID fills ServiceID, among the Services of
	// this RegisteredLimit's namespace (a cluster-scoped RegisteredLimit: among the cluster-scoped
	// Services).
	// +optional
	ServiceSelector *xpv2.Selector `json:"serviceSelector,omitempty"`

	// RegionID limits the registered limit to one region of the catalog (its ID, such as
	// RegionOne); usually filled in from RegionRef or RegionSelector. Unset, it applies in
	// every region.
	// +optional
	// +identity:reference:type=Region
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\x00-\\x1f\\x7f]')",message="regionId must not contain control characters"
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="regionId cannot be changed: service, region and resource name identify a registered limit; create a new RegisteredLimit instead"
	RegionID *string `json:"regionId,omitempty"`

	// RegionRef references the Region whose ID fills RegionID: a Region in this
	// RegisteredLimit's namespace (for a cluster-scoped RegisteredLimit, a cluster-scoped Region).
	// +optional
	RegionRef *xpv2.Reference `json:"regionRef,omitempty"`

	// RegionSelector selects the Region whose ID fills RegionID, among the Regions of
	// this RegisteredLimit's namespace (a cluster-scoped RegisteredLimit: among the cluster-scoped
	// Regions).
	// +optional
	RegionSelector *xpv2.Selector `json:"regionSelector,omitempty"`

	// ResourceName names the limited resource as the service counts it (for example cores,
	// instances or ram_mb for Nova).
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:Pattern=`\S`
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\x00-\\x1f\\x7f]')",message="resourceName must not contain control characters"
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="resourceName cannot be changed: service, region and resource name identify a registered limit; create a new RegisteredLimit instead"
	ResourceName string `json:"resourceName"`

	// DefaultLimit is the limit of every project without a Limit of its own; -1 is unlimited.
	// Keystone refuses to change it while project or domain limits of the same service, region
	// and resource exist (delete those first).
	// +kubebuilder:validation:Minimum=-1
	// +kubebuilder:validation:Maximum=2147483647
	DefaultLimit int64 `json:"defaultLimit"`

	// Description of the registered limit. The provider appends its provenance marker on a
	// line of its own (Keystone keeps no attribute it does not know); status.atProvider
	// reports the description without it. Unset, the description Keystone holds is kept.
	// +optional
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f]')",message="description must not contain control characters other than tabs and line breaks"
	Description *string `json:"description,omitempty"`
}

// RegisteredLimitObservation is the observed state of a Keystone registered limit.
type RegisteredLimitObservation struct {
	// ID is Keystone's ID of the registered limit (also the external name).
	ID string `json:"id,omitempty"`

	ServiceID    string `json:"serviceId,omitempty"`
	RegionID     string `json:"regionId,omitempty"`
	ResourceName string `json:"resourceName,omitempty"`
	DefaultLimit int64  `json:"defaultLimit,omitempty"`
	// Description is Keystone's description without the provenance marker line.
	Description string `json:"description,omitempty"`

	// Provenance tells whether the registered limit was created, adopted or only observed.
	Provenance identityv1alpha1.Provenance `json:"provenance,omitempty"`
}
