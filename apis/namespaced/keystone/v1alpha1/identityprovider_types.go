package v1alpha1

import (
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// IdentityProviderParameters are the configurable fields of a Keystone federation identity
// provider.
// +kubebuilder:validation:XValidation:rule="has(self.domainId) || has(self.domainRef) || has(self.domainSelector)",message="set domainRef (or domainSelector) to the Domain federated users belong to, or domainId to its Keystone ID: without one Keystone creates a domain of its own that outlives the identity provider"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.domainId) || (has(self.domainId) && self.domainId == oldSelf.domainId)",message="domainId cannot change: Keystone keeps an identity provider in its domain; create another IdentityProvider instead"
type IdentityProviderParameters struct {
	// ID of the identity provider in Keystone, chosen by you; it appears in federation URLs
	// (/v3/OS-FEDERATION/identity_providers/{id}/protocols/{protocol}/auth) and is how an
	// existing identity provider is found. It becomes the external name.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^[A-Za-z0-9_-]+$`
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="id cannot change: it is the identity provider's identity in Keystone; create another IdentityProvider instead"
	ID string `json:"id"`

	// DomainID is the Keystone ID of the domain federated users are created in.
	// +optional
	// +identity:reference:type=Domain
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:XValidation:rule="self.matches('^[A-Za-z0-9-]+$')",message="domainId must be a Keystone domain ID: letters, digits and hyphens only, as Keystone itself requires (for example 4c0f8d3b9e2a4f5c8a7b6d5e4f3a2b1c, or default for the Default domain)"
	DomainID *string `json:"domainId,omitempty"`

	// DomainRef references the Domain whose ID fills domainId: a Domain in this
	// IdentityProvider's namespace (for a cluster-scoped IdentityProvider, a cluster-scoped
	// Domain). A reference never leaves the namespace.
	// +optional
	DomainRef *xpv2.Reference `json:"domainRef,omitempty"`

	// DomainSelector selects the Domain whose ID fills domainId, among the Domains of this
	// IdentityProvider's namespace (a cluster-scoped IdentityProvider: among the cluster-scoped
	// Domains).
	// +optional
	DomainSelector *xpv2.Selector `json:"domainSelector,omitempty"`

	// RemoteIDs are the identifiers the identity provider asserts: an OIDC issuer URL, a SAML
	// entityID. A remote ID can belong to one identity provider only.
	// +optional
	// +listType=set
	// +kubebuilder:validation:MaxItems=32
	// +kubebuilder:validation:items:MinLength=1
	// +kubebuilder:validation:items:MaxLength=255
	// +kubebuilder:validation:XValidation:rule="self.all(r, !r.matches('[\\x00-\\x1f\\x7f]'))",message="remoteIds must not contain control characters"
	RemoteIDs []string `json:"remoteIds,omitempty"`

	// Description of the identity provider. The provider keeps its provenance marker on a last
	// line of its own in Keystone's description; that line is not part of this field.
	// +optional
	// +kubebuilder:validation:MaxLength=1024
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f]')",message="description must not contain control characters other than tabs and line breaks: Keystone would store them in the identity provider description as given"
	Description *string `json:"description,omitempty"`

	// Enabled identity providers accept federated logins. Keystone's own default is false;
	// this resource's is true.
	// +optional
	// +kubebuilder:default=true
	Enabled *bool `json:"enabled,omitempty"`

	// AuthorizationTTL is how long, in minutes, group memberships a federated login grants
	// are kept for the user; unset leaves Keystone's [federation] default_authorization_ttl.
	// +optional
	// +kubebuilder:validation:Minimum=0
	AuthorizationTTL *int32 `json:"authorizationTTL,omitempty"`
}

// IdentityProviderObservation is the observed state of a Keystone identity provider.
type IdentityProviderObservation struct {
	// ID of the identity provider (also the external name).
	ID       string `json:"id,omitempty"`
	DomainID string `json:"domainId,omitempty"`
	// Description without the provenance marker line.
	Description      string   `json:"description,omitempty"`
	Enabled          bool     `json:"enabled,omitempty"`
	RemoteIDs        []string `json:"remoteIds,omitempty"`
	AuthorizationTTL *int32   `json:"authorizationTTL,omitempty"`

	// Provenance tells whether the identity provider was created, adopted or only observed.
	Provenance identityv1alpha1.Provenance `json:"provenance,omitempty"`
}
