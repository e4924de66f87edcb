package v1alpha1

import (
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// PropertyMappingParameters are the configurable fields of an authentik provider property
// mapping: its name, its Python expression and exactly one block naming its type (see
// docs/adr/0009-one-property-mapping-kind.md). Every optional field left unset is left as
// authentik has it and never causes a write.
// +kubebuilder:validation:XValidation:rule="[has(self.scope), has(self.saml)].filter(x, x).size() == 1",message="a property mapping has exactly one type: set exactly one of scope and saml"
// +kubebuilder:validation:XValidation:rule="[has(self.scope), has(self.saml)] == [has(oldSelf.scope), has(oldSelf.saml)]",message="the property mapping type cannot be changed: authentik keeps each type apart and cannot convert a mapping; create a new PropertyMapping instead"
type PropertyMappingParameters struct {
	// Name of the mapping. Names are unique across all property mapping types in authentik;
	// the name is how an existing mapping is found when the resource has no external name.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:Pattern=`^[^\s\x00-\x1f\x7f]([^\x00-\x1f\x7f]*[^\s\x00-\x1f\x7f])?$`
	Name string `json:"name"`

	// Expression is the Python expression authentik evaluates, for example
	// `return {"groups": [g.name for g in request.user.ak_groups.all()]}`.
	// +kubebuilder:validation:MinLength=1
	Expression string `json:"expression"`

	// Scope makes an OAuth2 scope mapping (/propertymappings/provider/scope/), referenced by
	// OAuth2 and proxy providers.
	// +optional
	Scope *ScopeMapping `json:"scope,omitempty"`

	// SAML makes a SAML provider property mapping (/propertymappings/provider/saml/),
	// referenced by SAML providers.
	// +optional
	SAML *SAMLPropertyMapping `json:"saml,omitempty"`
}

// ScopeMapping is the settings of an OAuth2 scope mapping.
type ScopeMapping struct {
	// ScopeName is the OAuth2 scope the mapping answers, for example groups.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:Pattern=`^[^\s\x00-\x1f\x7f]+$`
	ScopeName string `json:"scopeName"`

	// Description is shown to the user on the consent screen. authentik's default is empty.
	// +optional
	// +kubebuilder:validation:Pattern=`^[^\x00-\x1f\x7f]*$`
	Description *string `json:"description,omitempty"`
}

// SAMLPropertyMapping is the settings of a SAML provider property mapping.
type SAMLPropertyMapping struct {
	// SAMLName is the attribute name in the assertion, for example
	// http://schemas.xmlsoap.org/claims/Group.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:Pattern=`^[^\s\x00-\x1f\x7f]([^\x00-\x1f\x7f]*[^\s\x00-\x1f\x7f])?$`
	SAMLName string `json:"samlName"`

	// FriendlyName is the attribute's FriendlyName. The empty string clears it.
	// +optional
	// +kubebuilder:validation:Pattern=`^[^\x00-\x1f\x7f]*$`
	FriendlyName *string `json:"friendlyName,omitempty"`
}

// PropertyMappingObservation is the observed state of an authentik property mapping.
type PropertyMappingObservation struct {
	// ID is authentik's pk of the mapping, a UUID (also the external name).
	ID string `json:"id,omitempty"`

	Name string `json:"name,omitempty"`

	// Type is authentik's model of the mapping, e.g.
	// authentik_providers_oauth2.scopemapping.
	Type string `json:"type,omitempty"`

	// Provenance tells whether the mapping was created, adopted or only observed.
	Provenance identityv1alpha1.Provenance `json:"provenance,omitempty"`
}
