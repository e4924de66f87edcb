package v1alpha1

import (
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// RoleParameters are the configurable fields of a Keystone role.
type RoleParameters struct {
	// Name of the role. Global role names are unique among global roles, and a domain-specific
	// role's name is unique within its domain; the name (and the domain, if any) is how an
	// existing role is found when the resource has no external name yet.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:Pattern=`\S`
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\x00-\\x1f\\x7f]')",message="name must not contain control characters (newline, tab, escape...): Keystone would store them in the role name as given"
	Name string `json:"name"`

	// DomainID makes the role domain-specific: it is the Keystone ID of the domain the role
	// belongs to. Unset (with no DomainRef or DomainSelector), the role is global. Keystone
	// cannot move a role to another domain, so it cannot be changed once set.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="domainId cannot be changed: Keystone cannot move a role to another domain; create a new Role instead"
	// +identity:reference:type=Domain
	// +kubebuilder:validation:XValidation:rule="self.matches('^[A-Za-z0-9-]+$')",message="domainId must be a Keystone domain ID: letters, digits and hyphens only, as Keystone itself requires (for example 4c0f8d3b9e2a4f5c8a7b6d5e4f3a2b1c, or default for the Default domain)"
	DomainID *string `json:"domainId,omitempty"`

	// DomainRef references the Domain whose ID fills DomainID: a Domain in this Role's namespace (for a
	// cluster-scoped Role, a cluster-scoped Domain). A reference never leaves the namespace.
	// +optional
	DomainRef *xpv2.Reference `json:"domainRef,omitempty"`

	// DomainSelector selects the Domain whose ID fills DomainID, among the Domains of this Role's
	// namespace (a cluster-scoped Role: among the cluster-scoped Domains).
	// +optional
	DomainSelector *xpv2.Selector `json:"domainSelector,omitempty"`

	// Description of the role.
	// +optional
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f]')",message="description must not contain control characters other than tabs and line breaks: Keystone would store them in the role description as given"
	Description *string `json:"description,omitempty"`
}

// RoleObservation is the observed state of a Keystone role.
type RoleObservation struct {
	// ID is Keystone's ID of the role (also the external name).
	ID string `json:"id,omitempty"`

	Name string `json:"name,omitempty"`
	// DomainID is empty for a global role.
	DomainID    string `json:"domainId,omitempty"`
	Description string `json:"description,omitempty"`

	// Provenance tells whether the role was created, adopted or only observed.
	Provenance identityv1alpha1.Provenance `json:"provenance,omitempty"`
}
