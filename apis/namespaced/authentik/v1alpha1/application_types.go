package v1alpha1

import (
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// ApplicationParameters are the configurable fields of an authentik application. Every
// optional field left unset is left as authentik has it and never causes a write.
// +kubebuilder:validation:XValidation:rule="[has(self.oauth2ProviderId) || has(self.oauth2ProviderRef) || has(self.oauth2ProviderSelector), has(self.samlProviderId) || has(self.samlProviderRef) || has(self.samlProviderSelector), has(self.proxyProviderId) || has(self.proxyProviderRef) || has(self.proxyProviderSelector), has(self.ldapProviderId) || has(self.ldapProviderRef) || has(self.ldapProviderSelector)].filter(x, x).size() <= 1",message="an application has at most one provider: set only one of the oauth2Provider*, samlProvider*, proxyProvider* and ldapProvider* fields"
type ApplicationParameters struct {
	// Name of the application, as users see it.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:Pattern=`^[^\s\x00-\x1f\x7f]([^\x00-\x1f\x7f]*[^\s\x00-\x1f\x7f])?$`
	Name string `json:"name"`

	// Slug is the application's unique identifier in authentik and in its URLs. It is how an
	// existing application is found when the resource has no external name, and it cannot be
	// changed.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=50
	// +kubebuilder:validation:Pattern=`^[-a-zA-Z0-9_]+$`
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="slug cannot be changed: it identifies the application in authentik; create a new Application instead"
	Slug string `json:"slug"`

	// OAuth2ProviderID is the ID of the OAuth2Provider the application uses. Usually filled in
	// from OAuth2ProviderRef or OAuth2ProviderSelector.
	// +optional
	// +kubebuilder:validation:Pattern=`^[0-9]+$`
	// +identity:reference:type=OAuth2Provider
	OAuth2ProviderID *string `json:"oauth2ProviderId,omitempty"`

	// OAuth2ProviderRef references the OAuth2Provider whose ID fills OAuth2ProviderID: an OAuth2Provider in this Application's
	// namespace (for a cluster-scoped Application, a cluster-scoped OAuth2Provider).
	// +optional
	OAuth2ProviderRef *xpv2.Reference `json:"oauth2ProviderRef,omitempty"`

	// OAuth2ProviderSelector selects the OAuth2Provider whose ID fills OAuth2ProviderID, among the OAuth2Providers of
	// this Application's namespace (a cluster-scoped Application: among the cluster-scoped ones).
	// +optional
	OAuth2ProviderSelector *xpv2.Selector `json:"oauth2ProviderSelector,omitempty"`

	// SAMLProviderID is the ID of the SAMLProvider the application uses. Usually filled in from
	// SAMLProviderRef or SAMLProviderSelector.
	// +optional
	// +kubebuilder:validation:Pattern=`^[0-9]+$`
	// +identity:reference:type=SAMLProvider
	SAMLProviderID *string `json:"samlProviderId,omitempty"`

	// SAMLProviderRef references the SAMLProvider whose ID fills SAMLProviderID: a SAMLProvider in this Application's
	// namespace (for a cluster-scoped Application, a cluster-scoped SAMLProvider).
	// +optional
	SAMLProviderRef *xpv2.Reference `json:"samlProviderRef,omitempty"`

	// SAMLProviderSelector selects the SAMLProvider whose ID fills SAMLProviderID, among the SAMLProviders of
	// this Application's namespace (a cluster-scoped Application: among the cluster-scoped ones).
	// +optional
	SAMLProviderSelector *xpv2.Selector `json:"samlProviderSelector,omitempty"`

	// ProxyProviderID is the ID of the ProxyProvider the application uses. Usually filled in
	// from ProxyProviderRef or ProxyProviderSelector.
	// +optional
	// +kubebuilder:validation:Pattern=`^[0-9]+$`
	// +identity:reference:type=ProxyProvider
	ProxyProviderID *string `json:"proxyProviderId,omitempty"`

	// ProxyProviderRef references the ProxyProvider whose ID fills ProxyProviderID: a ProxyProvider in this Application's
	// namespace (for a cluster-scoped Application, a cluster-scoped ProxyProvider).
	// +optional
	ProxyProviderRef *xpv2.Reference `json:"proxyProviderRef,omitempty"`

	// ProxyProviderSelector selects the ProxyProvider whose ID fills ProxyProviderID, among the ProxyProviders of
	// this Application's namespace (a cluster-scoped Application: among the cluster-scoped ones).
	// +optional
	ProxyProviderSelector *xpv2.Selector `json:"proxyProviderSelector,omitempty"`

	// LDAPProviderID is the ID of the LDAPProvider the application uses. Usually filled in from
	// LDAPProviderRef or LDAPProviderSelector.
	// +optional
	// +kubebuilder:validation:Pattern=`^[0-9]+$`
	// +identity:reference:type=LDAPProvider
	LDAPProviderID *string `json:"ldapProviderId,omitempty"`

	// LDAPProviderRef references the LDAPProvider whose ID fills LDAPProviderID: an LDAPProvider
	// in this Application's namespace (for a cluster-scoped Application, a cluster-scoped one).
	// +optional
	LDAPProviderRef *xpv2.Reference `json:"ldapProviderRef,omitempty"`

	// LDAPProviderSelector selects the LDAPProvider whose ID fills LDAPProviderID, among the
	// LDAPProviders of this Application's namespace (a cluster-scoped Application: among the
	// cluster-scoped ones).
	// +optional
	LDAPProviderSelector *xpv2.Selector `json:"ldapProviderSelector,omitempty"`

	// BackchannelProviderIDs are the IDs of backchannel providers (SCIM, ...) of the
	// application. Unset or empty leaves them as they are.
	// +optional
	// +listType=set
	// +kubebuilder:validation:items:Pattern=`^[0-9]+$`
	BackchannelProviderIDs []string `json:"backchannelProviderIds,omitempty"`

	// Group is the group the application is listed under on the user's library page. The empty
	// string clears it.
	// +optional
	// +kubebuilder:validation:Pattern=`^[^\x00-\x1f\x7f]*$`
	Group *string `json:"group,omitempty"`

	// LaunchURL is the URL the library opens: an http(s) URL with a host, or blank://blank
	// (authentik's way of listing the application without a link). The empty string clears it
	// (authentik then uses the provider's).
	// +optional
	// +kubebuilder:validation:Pattern=`^$|^blank://blank$|^https?://[^/?#\s\x00-\x1f\x7f][^\s\x00-\x1f\x7f]*$`
	LaunchURL *string `json:"launchUrl,omitempty"`

	// Description shown on the library page. The provider keeps its provenance marker on a last
	// line of authentik's description; that line is not part of this field.
	// +optional
	// +kubebuilder:validation:Pattern=`^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f]*$`
	Description *string `json:"description,omitempty"`

	// Publisher shown on the library page.
	// +optional
	// +kubebuilder:validation:Pattern=`^[^\x00-\x1f\x7f]*$`
	Publisher *string `json:"publisher,omitempty"`

	// IconURL is the URL of the application's icon. The empty string clears it.
	// +optional
	// +kubebuilder:validation:Pattern=`^[^\x00-\x1f\x7f]*$`
	// +kubebuilder:validation:MaxLength=2048
	// +kubebuilder:validation:XValidation:rule="!self.lowerAscii().matches('^\\\\s*(javascript|vbscript|file):')",message="iconUrl must not be a javascript:, vbscript: or file: URL: use https://, or fa:// for a Font Awesome icon"
	IconURL *string `json:"iconUrl,omitempty"`

	// PolicyEngineMode is any (one bound policy must pass) or all (every bound policy must).
	// +optional
	// +kubebuilder:validation:Enum=any;all
	PolicyEngineMode *string `json:"policyEngineMode,omitempty"`

	// OpenInNewTab opens the launch URL in a new browser tab.
	// +optional
	OpenInNewTab *bool `json:"openInNewTab,omitempty"`

	// Hidden hides the application from the user's library page.
	// +optional
	Hidden *bool `json:"hidden,omitempty"`
}

// ApplicationObservation is the observed state of an authentik application.
type ApplicationObservation struct {
	// ID is the application's slug (also the external name).
	ID string `json:"id,omitempty"`

	// UUID is authentik's primary key of the application.
	UUID string `json:"uuid,omitempty"`

	// Name of the application.
	Name string `json:"name,omitempty"`

	// ProviderID is the ID of the application's provider, if any.
	ProviderID string `json:"providerId,omitempty"`

	// LaunchURL is the URL the library opens, as authentik computes it.
	LaunchURL string `json:"launchUrl,omitempty"`

	// Provenance tells whether the application was created, adopted or only observed.
	Provenance identityv1alpha1.Provenance `json:"provenance,omitempty"`
}
