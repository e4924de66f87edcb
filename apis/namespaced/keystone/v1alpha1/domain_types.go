package v1alpha1

import (
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// DomainParameters are the configurable fields of a Keystone domain.
type DomainParameters struct {
	// Name of the domain. Domain names are unique in Keystone; the name is how an existing
	// domain is found when the resource has no external name yet. Keystone's own Default
	// domain cannot be managed.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`\S`
	// +kubebuilder:validation:XValidation:rule="self.lowerAscii() != 'default'",message="the Default domain belongs to Keystone itself and cannot be managed"
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\x00-\\x1f\\x7f]')",message="name must not contain control characters (newline, tab, escape...): Keystone would store them in the domain name as given"
	Name string `json:"name"`

	// Description of the domain.
	// +optional
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f]')",message="description must not contain control characters other than tabs and line breaks: Keystone would store them in the domain description as given"
	Description *string `json:"description,omitempty"`

	// Enabled domains can be used for authentication. Keystone's default is true.
	// +optional
	Enabled *bool `json:"enabled,omitempty"`
}

// DomainObservation is the observed state of a Keystone domain.
type DomainObservation struct {
	// ID is Keystone's ID of the domain (also the external name).
	ID string `json:"id,omitempty"`

	Name        string `json:"name,omitempty"`
	Description string `json:"description,omitempty"`
	Enabled     bool   `json:"enabled,omitempty"`

	// Provenance tells whether the domain was created, adopted or only observed.
	Provenance identityv1alpha1.Provenance `json:"provenance,omitempty"`
}
