package v1alpha1

import (
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// ServiceParameters are the configurable fields of a Keystone service of the service catalog.
type ServiceParameters struct {
	// Type of the service, as clients look it up in the catalog (identity, compute,
	// object-store...). With the name, the service's natural key.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:Pattern=`\S`
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\x00-\\x1f\\x7f]')",message="type must not contain control characters (newline, tab, escape...): Keystone would store them in the service type as given"
	Type string `json:"type"`

	// Name of the service (keystone, nova, swift...). Keystone does not keep service names
	// unique: an existing service is found by type and name, and two services of that type and
	// name are refused as ambiguous until the external name names one of them.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:Pattern=`\S`
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\x00-\\x1f\\x7f]')",message="name must not contain control characters (newline, tab, escape...): Keystone would store them in the service name as given"
	Name string `json:"name"`

	// Description of the service.
	// +optional
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f]')",message="description must not contain control characters other than tabs and line breaks: Keystone would store them in the service description as given"
	Description *string `json:"description,omitempty"`

	// Enabled services appear in the catalog of tokens. Keystone's default is true; left unset,
	// the service's current value is kept.
	// +optional
	Enabled *bool `json:"enabled,omitempty"`
}

// ServiceObservation is the observed state of a Keystone service.
type ServiceObservation struct {
	// ID is Keystone's ID of the service (also the external name).
	ID string `json:"id,omitempty"`

	Type        string `json:"type,omitempty"`
	Name        string `json:"name,omitempty"`
	Description string `json:"description,omitempty"`
	Enabled     bool   `json:"enabled,omitempty"`

	// Provenance tells whether the service was created, adopted or only observed.
	Provenance identityv1alpha1.Provenance `json:"provenance,omitempty"`
}
