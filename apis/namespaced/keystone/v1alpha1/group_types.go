package v1alpha1

import (
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// GroupParameters are the configurable fields of a Keystone group.
// +kubebuilder:validation:XValidation:rule="has(self.domainId) || has(self.domainRef) || has(self.domainSelector)",message="a group belongs to a domain: set one of domainId, domainRef or domainSelector"
type GroupParameters struct {
	// Name of the group. Group names are unique within their domain; the name and the domain
	// are how an existing group is found when the resource has no external name yet.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`\S`
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\x00-\\x1f\\x7f]')",message="name must not contain control characters (newline, tab, escape...): Keystone would store them in the group name as given"
	Name string `json:"name"`

	// DomainID is the Keystone ID of the group's domain. Keystone cannot move a group to
	// another domain, so it cannot be changed once set. Usually filled in from DomainRef or
	// DomainSelector.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="domainId cannot be changed: Keystone cannot move a group to another domain; create a new Group instead"
	// +identity:reference:type=Domain
	// +kubebuilder:validation:XValidation:rule="self.matches('^[A-Za-z0-9-]+$')",message="domainId must be a Keystone domain ID: letters, digits and hyphens only, as Keystone itself requires (for example 4c0f8d3b9e2a4f5c8a7b6d5e4f3a2b1c, or default for the Default domain)"
	DomainID *string `json:"domainId,omitempty"`

	// DomainRef references the Domain whose ID fills DomainID: a Domain in this Group's namespace (for a
	// cluster-scoped Group, a cluster-scoped Domain). A reference never leaves the namespace.
	// +optional
	DomainRef *xpv2.Reference `json:"domainRef,omitempty"`

	// DomainSelector selects the Domain whose ID fills DomainID, among the Domains of this Group's
	// namespace (a cluster-scoped Group: among the cluster-scoped Domains).
	// +optional
	DomainSelector *xpv2.Selector `json:"domainSelector,omitempty"`

	// Description of the group.
	// +optional
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f]')",message="description must not contain control characters other than tabs and line breaks: Keystone would store them in the group description as given"
	Description *string `json:"description,omitempty"`
}

// GroupObservation is the observed state of a Keystone group.
type GroupObservation struct {
	// ID is Keystone's ID of the group (also the external name).
	ID string `json:"id,omitempty"`

	Name        string `json:"name,omitempty"`
	DomainID    string `json:"domainId,omitempty"`
	Description string `json:"description,omitempty"`

	// Provenance tells whether the group was created, adopted or only observed.
	Provenance identityv1alpha1.Provenance `json:"provenance,omitempty"`
}
