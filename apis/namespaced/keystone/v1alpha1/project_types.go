package v1alpha1

import (
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// ProjectParameters are the configurable fields of a Keystone project.
// +kubebuilder:validation:XValidation:rule="has(self.domainId) || has(self.domainRef) || has(self.domainSelector)",message="a project belongs to a domain: set one of domainId, domainRef or domainSelector"
type ProjectParameters struct {
	// Name of the project. Project names are unique within their domain; the name and the
	// domain are how an existing project is found when the resource has no external name yet.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`\S`
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\x00-\\x1f\\x7f]')",message="name must not contain control characters (newline, tab, escape...): Keystone would store them in the project name as given"
	Name string `json:"name"`

	// DomainID is the Keystone ID of the project's domain. Keystone cannot move a project to
	// another domain, so it cannot be changed once set. Usually filled in from DomainRef or
	// DomainSelector.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +identity:reference:type=Domain
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="domainId cannot be changed: Keystone cannot move a project to another domain; create a new Project instead"
	// +kubebuilder:validation:XValidation:rule="self.matches('^[A-Za-z0-9-]+$')",message="domainId must be a Keystone domain ID: letters, digits and hyphens only, as Keystone itself requires (for example 4c0f8d3b9e2a4f5c8a7b6d5e4f3a2b1c, or default for the Default domain)"
	DomainID *string `json:"domainId,omitempty"`

	// DomainRef references the Domain whose ID fills DomainID: a Domain in this Project's
	// namespace (for a cluster-scoped Project, a cluster-scoped Domain). A reference never
	// leaves the namespace.
	// +optional
	DomainRef *xpv2.Reference `json:"domainRef,omitempty"`

	// DomainSelector selects the Domain whose ID fills DomainID, among the Domains of this
	// Project's namespace (a cluster-scoped Project: among the cluster-scoped Domains).
	// +optional
	DomainSelector *xpv2.Selector `json:"domainSelector,omitempty"`

	// ParentID is the Keystone ID of the parent project. Unset, the project sits directly
	// under its domain. Keystone cannot move a project, so it cannot be changed once set.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +identity:reference:type=Project
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="parentId cannot be changed: Keystone cannot move a project to another parent; create a new Project instead"
	// +kubebuilder:validation:XValidation:rule="self.matches('^[A-Za-z0-9-]+$')",message="parentId must be a Keystone project ID: letters, digits and hyphens only, as Keystone itself requires (for example 4c0f8d3b9e2a4f5c8a7b6d5e4f3a2b1c)"
	ParentID *string `json:"parentId,omitempty"`

	// ParentRef references the Project whose ID fills ParentID, in this Project's namespace.
	// +optional
	ParentRef *xpv2.Reference `json:"parentRef,omitempty"`

	// ParentSelector selects the Project whose ID fills ParentID, in this Project's namespace.
	// +optional
	ParentSelector *xpv2.Selector `json:"parentSelector,omitempty"`

	// Description of the project.
	// +optional
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f]')",message="description must not contain control characters other than tabs and line breaks: Keystone would store them in the project description as given"
	Description *string `json:"description,omitempty"`

	// Enabled projects can be used for authorization. Keystone's default is true.
	// +optional
	Enabled *bool `json:"enabled,omitempty"`

	// Tags of the project. Left unset, the project's tags are not managed; set (even to an
	// empty list), they replace the project's tags.
	// +optional
	// +listType=set
	// +kubebuilder:validation:MaxItems=80
	// +kubebuilder:validation:items:MinLength=1
	// +kubebuilder:validation:items:MaxLength=255
	// +kubebuilder:validation:items:Pattern=`^[^,/\x00-\x1f\x7f]*$`
	Tags *[]string `json:"tags,omitempty"`
}

// ProjectObservation is the observed state of a Keystone project.
type ProjectObservation struct {
	// ID is Keystone's ID of the project (also the external name).
	ID string `json:"id,omitempty"`

	Name        string   `json:"name,omitempty"`
	DomainID    string   `json:"domainId,omitempty"`
	ParentID    string   `json:"parentId,omitempty"`
	Description string   `json:"description,omitempty"`
	Enabled     bool     `json:"enabled,omitempty"`
	Tags        []string `json:"tags,omitempty"`

	// Provenance tells whether the project was created, adopted or only observed.
	Provenance identityv1alpha1.Provenance `json:"provenance,omitempty"`
}
