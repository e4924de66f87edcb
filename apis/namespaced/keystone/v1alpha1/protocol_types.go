package v1alpha1

import (
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// ProtocolParameters are the configurable fields of a Keystone federation protocol.
// +kubebuilder:validation:XValidation:rule="has(self.identityProviderId) || has(self.identityProviderRef) || has(self.identityProviderSelector)",message="set identityProviderRef (or identityProviderSelector) to the IdentityProvider this protocol belongs to, or identityProviderId to its Keystone ID"
// +kubebuilder:validation:XValidation:rule="has(self.mappingId) || has(self.mappingRef) || has(self.mappingSelector)",message="set mappingRef (or mappingSelector) to the Mapping this protocol applies, or mappingId to its Keystone ID"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.identityProviderId) || (has(self.identityProviderId) && self.identityProviderId == oldSelf.identityProviderId)",message="identityProviderId cannot change: a protocol lives under its identity provider; create another Protocol instead"
type ProtocolParameters struct {
	// ID of the protocol, as the federation URLs and Keystone's [auth] methods name it:
	// openid, saml2, mapped...
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^[A-Za-z0-9_-]+$`
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="id cannot change: it is the protocol's identity in Keystone; create another Protocol instead"
	ID string `json:"id"`

	// IdentityProviderID is the Keystone ID of the identity provider the protocol belongs to.
	// +optional
	// +identity:reference:type=IdentityProvider
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:XValidation:rule="self.matches('^[A-Za-z0-9_-]+$')",message="identityProviderId must be a Keystone identity provider ID: letters, digits, hyphens and underscores only"
	IdentityProviderID *string `json:"identityProviderId,omitempty"`

	// IdentityProviderRef references the IdentityProvider whose ID fills identityProviderId:
	// an IdentityProvider in this Protocol's namespace (for a cluster-scoped Protocol, a
	// cluster-scoped IdentityProvider). A reference never leaves the namespace.
	// +optional
	IdentityProviderRef *xpv2.Reference `json:"identityProviderRef,omitempty"`

	// IdentityProviderSelector selects the IdentityProvider whose ID fills identityProviderId,
	// among the IdentityProviders of this Protocol's namespace (a cluster-scoped Protocol: among
	// the cluster-scoped IdentityProviders).
	// +optional
	IdentityProviderSelector *xpv2.Selector `json:"identityProviderSelector,omitempty"`

	// MappingID is the Keystone ID of the mapping applied to the identity provider's
	// assertions.
	// +optional
	// +identity:reference:type=Mapping
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:XValidation:rule="self.matches('^[A-Za-z0-9_-]+$')",message="mappingId must be a Keystone mapping ID: letters, digits, hyphens and underscores only"
	MappingID *string `json:"mappingId,omitempty"`

	// MappingRef references the Mapping whose ID fills mappingId: a Mapping in this Protocol's
	// namespace (for a cluster-scoped Protocol, a cluster-scoped Mapping). A reference never
	// leaves the namespace.
	// +optional
	MappingRef *xpv2.Reference `json:"mappingRef,omitempty"`

	// MappingSelector selects the Mapping whose ID fills mappingId, among the Mappings of this
	// Protocol's namespace (a cluster-scoped Protocol: among the cluster-scoped Mappings).
	// +optional
	MappingSelector *xpv2.Selector `json:"mappingSelector,omitempty"`

	// RemoteIDAttribute is the WSGI environment key holding the identity provider's remote ID
	// (for example HTTP_OIDC_ISS or MELLON_IDP); unset leaves Keystone's [<protocol>]
	// remote_id_attribute.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\x00-\\x1f\\x7f]')",message="remoteIdAttribute must not contain control characters"
	RemoteIDAttribute *string `json:"remoteIdAttribute,omitempty"`
}

// ProtocolObservation is the observed state of a Keystone protocol.
type ProtocolObservation struct {
	// ID is the external name: <identity provider ID>/<protocol ID>.
	ID                 string `json:"id,omitempty"`
	IdentityProviderID string `json:"identityProviderId,omitempty"`
	MappingID          string `json:"mappingId,omitempty"`
	RemoteIDAttribute  string `json:"remoteIdAttribute,omitempty"`

	// Provenance tells whether the protocol was created, adopted or only observed.
	Provenance identityv1alpha1.Provenance `json:"provenance,omitempty"`
}
