package v1alpha1

import (
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// LDAPProviderParameters are the configurable fields of an authentik LDAP provider. Every
// optional field left unset is left as authentik has it and never causes a write.
//
// authentik dropped the provider's search group (2024.8): who may search the whole directory
// is an RBAC permission on the provider now, not a field, so it is not managed here.
// +kubebuilder:validation:XValidation:rule="has(self.authorizationFlow) || has(self.authorizationFlowRef) || has(self.authorizationFlowSelector)",message="set the bind flow: authorizationFlow (a flow's slug), authorizationFlowRef or authorizationFlowSelector (a Flow)"
// +kubebuilder:validation:XValidation:rule="has(self.invalidationFlow) || has(self.invalidationFlowRef) || has(self.invalidationFlowSelector)",message="set the invalidation flow: invalidationFlow (a flow's slug), invalidationFlowRef or invalidationFlowSelector (a Flow)"
type LDAPProviderParameters struct {
	// Name of the provider. Provider names are unique across every provider type in authentik;
	// the name is how an existing provider is found when the resource has no external name.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:Pattern=`^[^\s\x00-\x1f\x7f]([^\x00-\x1f\x7f]*[^\s\x00-\x1f\x7f])?$`
	Name string `json:"name"`

	// AuthorizationFlow is the slug of the bind flow: the flow a client's LDAP bind runs
	// through (for example default-authentication-flow). Usually filled in from
	// AuthorizationFlowRef or AuthorizationFlowSelector.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=50
	// +kubebuilder:validation:Pattern=`^[-a-zA-Z0-9_]+$`
	// +identity:reference:type=Flow
	AuthorizationFlow *string `json:"authorizationFlow,omitempty"`

	// AuthorizationFlowRef references the Flow whose slug fills AuthorizationFlow: a Flow in
	// this provider's namespace (for a cluster-scoped provider, a cluster-scoped Flow).
	// +optional
	AuthorizationFlowRef *xpv2.Reference `json:"authorizationFlowRef,omitempty"`

	// AuthorizationFlowSelector selects the Flow whose slug fills AuthorizationFlow, among the
	// Flows of this provider's namespace (a cluster-scoped provider: the cluster-scoped ones).
	// +optional
	AuthorizationFlowSelector *xpv2.Selector `json:"authorizationFlowSelector,omitempty"`

	// InvalidationFlow is the slug of the flow that ends a session with the provider (for
	// example default-invalidation-flow). Usually filled in from InvalidationFlowRef or
	// InvalidationFlowSelector.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=50
	// +kubebuilder:validation:Pattern=`^[-a-zA-Z0-9_]+$`
	// +identity:reference:type=Flow
	InvalidationFlow *string `json:"invalidationFlow,omitempty"`

	// InvalidationFlowRef references the Flow whose slug fills InvalidationFlow: a Flow in this
	// provider's namespace (for a cluster-scoped provider, a cluster-scoped Flow).
	// +optional
	InvalidationFlowRef *xpv2.Reference `json:"invalidationFlowRef,omitempty"`

	// InvalidationFlowSelector selects the Flow whose slug fills InvalidationFlow, among the
	// Flows of this provider's namespace (a cluster-scoped provider: the cluster-scoped ones).
	// +optional
	InvalidationFlowSelector *xpv2.Selector `json:"invalidationFlowSelector,omitempty"`

	// BaseDN is the DN under which the outpost serves users and groups, for example
	// DC=ldap,DC=example,DC=com. authentik's default is DC=ldap,DC=goauthentik,DC=io.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:Pattern=`^[^\x00-\x1f\x7f]+$`
	BaseDN *string `json:"baseDn,omitempty"`

	// BindMode is direct (every bind runs the flow) or cached (binds are answered from the
	// outpost's cache after the first). authentik's default is direct.
	// +optional
	// +kubebuilder:validation:Enum=direct;cached
	BindMode *string `json:"bindMode,omitempty"`

	// SearchMode is direct (every search reads authentik) or cached (searches are answered
	// from the outpost's periodically refreshed copy). authentik's default is direct.
	// +optional
	// +kubebuilder:validation:Enum=direct;cached
	SearchMode *string `json:"searchMode,omitempty"`

	// MFASupport lets a bind append a TOTP code to the password after a semicolon. Enable it
	// only if every user binding through the provider has a TOTP device, or passwords that
	// contain a semicolon are refused.
	// +optional
	MFASupport *bool `json:"mfaSupport,omitempty"`

	// UIDStartNumber is added to a user's pk to form its uidNumber (authentik's default 2000).
	// +optional
	// +kubebuilder:validation:Minimum=0
	UIDStartNumber *int32 `json:"uidStartNumber,omitempty"`

	// GIDStartNumber is added to a number derived from a group's pk to form its gidNumber
	// (authentik's default 4000).
	// +optional
	// +kubebuilder:validation:Minimum=0
	GIDStartNumber *int32 `json:"gidStartNumber,omitempty"`

	// Certificate is the name of the certificate-key pair the outpost serves LDAPS and
	// StartTLS with. The empty string clears it.
	// +optional
	// +kubebuilder:validation:Pattern=`^[^\x00-\x1f\x7f]*$`
	Certificate *string `json:"certificate,omitempty"`

	// TLSServerName is the server name (SNI) the certificate is served for.
	// +optional
	// +kubebuilder:validation:Pattern=`^[^\s\x00-\x1f\x7f]*$`
	TLSServerName *string `json:"tlsServerName,omitempty"`
}

// LDAPProviderObservation is the observed state of an authentik LDAP provider.
type LDAPProviderObservation struct {
	ProviderObservation `json:",inline"`

	// BaseDN of the provider.
	BaseDN string `json:"baseDn,omitempty"`

	// Outposts that serve the provider, by name.
	Outposts []string `json:"outposts,omitempty"`

	// Provenance tells whether the provider was created, adopted or only observed.
	Provenance identityv1alpha1.Provenance `json:"provenance,omitempty"`
}
