package v1alpha1

import (
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// LimitParameters are the configurable fields of a Keystone limit: a project's (or a domain's)
// own limit of a resource, overriding the registered limit of the same service, region and
// resource, which must exist. Keystone allows one limit per project (or domain), service,
// region and resource name; they are how an existing one is found when the resource has no
// external name yet.
// +kubebuilder:validation:XValidation:rule="(has(self.projectId) || has(self.projectRef) || has(self.projectSelector)) != (has(self.domainId) || has(self.domainRef) || has(self.domainSelector))",message="a limit is for a project or for a domain: set one of projectId, projectRef or projectSelector, or one of domainId, domainRef or domainSelector, not both"
// +kubebuilder:validation:XValidation:rule="has(self.serviceId) || has(self.serviceRef) || has(self.serviceSelector)",message="a limit is of a service: set one of serviceId, serviceRef or serviceSelector"
// +kubebuilder:validation:XValidation:rule="has(oldSelf.regionId) || has(oldSelf.regionRef) || has(oldSelf.regionSelector) || !(has(self.regionId) || has(self.regionRef) || has(self.regionSelector))",message="a region cannot be set after creation (regionId, regionRef or regionSelector): Keystone cannot move a limit; create a new Limit instead"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.regionId) || has(self.regionId)",message="regionId cannot be unset after creation: Keystone cannot move a limit; create a new Limit instead"
// +kubebuilder:validation:XValidation:rule="has(self.projectId) == has(oldSelf.projectId) && has(self.domainId) == has(oldSelf.domainId) || !has(oldSelf.projectId) && !has(oldSelf.domainId)",message="a limit cannot move between a project and a domain: create a new Limit instead"
type LimitParameters struct {
	// ProjectID is the Keystone ID of the project the limit is for. Usually filled in from
	// ProjectRef or ProjectSelector. Deleting the project deletes its limits.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +identity:reference:type=Project
	// +kubebuilder:validation:XValidation:rule="self.matches('^[A-Za-z0-9-]+$')",message="projectId must be a Keystone project ID: letters, digits and hyphens only, as Keystone itself requires (for example 4c0f8d3b9e2a4f5c8a7b6d5e4f3a2b1c)"
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="projectId cannot be changed: Keystone cannot move a limit to another project; create a new Limit instead"
	ProjectID *string `json:"projectId,omitempty"`

	// ProjectRef references the Project whose ID fills ProjectID, in this Limit's namespace.
	// +optional
	ProjectRef *xpv2.Reference `json:"projectRef,omitempty"`

	// ProjectSelector selects the Project whose ID fills ProjectID, in this Limit's namespace.
	// +optional
	ProjectSelector *xpv2.Selector `json:"projectSelector,omitempty"`

	// DomainID is the Keystone ID of the domain the limit is for (a domain-level limit).
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +identity:reference:type=Domain
	// +kubebuilder:validation:XValidation:rule="self.matches('^[A-Za-z0-9-]+$')",message="domainId must be a Keystone domain ID: letters, digits and hyphens only, as Keystone itself requires (for example 4c0f8d3b9e2a4f5c8a7b6d5e4f3a2b1c, or default for the Default domain)"
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="domainId cannot be changed: Keystone cannot move a limit to another domain; create a new Limit instead"
	DomainID *string `json:"domainId,omitempty"`

	// DomainRef references the Domain whose ID fills DomainID, in this Limit's namespace.
	// +optional
	DomainRef *xpv2.Reference `json:"domainRef,omitempty"`

	// DomainSelector selects the Domain whose ID fills DomainID, in this Limit's namespace.
	// +optional
	DomainSelector *xpv2.Selector `json:"domainSelector,omitempty"`

	// ServiceID is the Keystone ID of the service (in the catalog) whose resource is limited.
	// Usually filled in from ServiceRef or ServiceSelector.
	// +optional
	// +identity:reference:type=Service
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:XValidation:rule="self.matches('^[A-Za-z0-9-]+$')",message="serviceId must be a Keystone service ID: letters, digits and hyphens only, as Keystone itself requires (for example 4c0f8d3b9e2a4f5c8a7b6d5e4f3a2b1c)"
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="serviceId cannot be changed: Keystone cannot move a limit; create a new Limit instead"
	ServiceID *string `json:"serviceId,omitempty"`

	// ServiceRef references the Service whose ID fills ServiceID: a Service in this
	// Limit's namespace (for a cluster-scoped Limit, a cluster-scoped Service).
	// +optional
	ServiceRef *xpv2.Reference `json:"serviceRef,omitempty"`

	// ServiceSelector selects the Service whose ID fills ServiceID, among the Services of
	// this Limit's namespace (a cluster-scoped Limit: among the cluster-scoped
	// Services).
	// +optional
	ServiceSelector *xpv2.Selector `json:"serviceSelector,omitempty"`

	// RegionID is the region of the registered limit this limit overrides (usually filled in
	// from RegionRef or RegionSelector); unset for one that applies in every region.
	// +optional
	// +identity:reference:type=Region
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\x00-\\x1f\\x7f]')",message="regionId must not contain control characters"
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="regionId cannot be changed: Keystone cannot move a limit; create a new Limit instead"
	RegionID *string `json:"regionId,omitempty"`

	// RegionRef references the Region whose ID fills RegionID: a Region in this
	// Limit's namespace (for a cluster-scoped Limit, a cluster-scoped Region).
	// +optional
	RegionRef *xpv2.Reference `json:"regionRef,omitempty"`

	// RegionSelector selects the Region whose ID fills RegionID, among the Regions of
	// this Limit's namespace (a cluster-scoped Limit: among the cluster-scoped
	// Regions).
	// +optional
	RegionSelector *xpv2.Selector `json:"regionSelector,omitempty"`

	// ResourceName names the limited resource, as its registered limit does.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:Pattern=`\S`
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\x00-\\x1f\\x7f]')",message="resourceName must not contain control characters"
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="resourceName cannot be changed: Keystone cannot move a limit; create a new Limit instead"
	ResourceName string `json:"resourceName"`

	// ResourceLimit is the project's (or domain's) limit; -1 is unlimited. Keystone ignores an
	// update to 0 (it skips a false value), so a limit lowered to 0 is replaced: deleted and
	// created again, with a new ID.
	// +kubebuilder:validation:Minimum=-1
	// +kubebuilder:validation:Maximum=2147483647
	ResourceLimit int64 `json:"resourceLimit"`

	// Description of the limit. The provider appends its provenance marker on a line of its
	// own; status.atProvider reports the description without it. Unset, the description
	// Keystone holds is kept.
	// +optional
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f]')",message="description must not contain control characters other than tabs and line breaks"
	Description *string `json:"description,omitempty"`
}

// LimitObservation is the observed state of a Keystone limit.
type LimitObservation struct {
	// ID is Keystone's ID of the limit (also the external name).
	ID string `json:"id,omitempty"`

	ProjectID     string `json:"projectId,omitempty"`
	DomainID      string `json:"domainId,omitempty"`
	ServiceID     string `json:"serviceId,omitempty"`
	RegionID      string `json:"regionId,omitempty"`
	ResourceName  string `json:"resourceName,omitempty"`
	ResourceLimit int64  `json:"resourceLimit,omitempty"`
	// Description is Keystone's description without the provenance marker line.
	Description string `json:"description,omitempty"`

	// Provenance tells whether the limit was created, adopted or only observed.
	Provenance identityv1alpha1.Provenance `json:"provenance,omitempty"`
}
