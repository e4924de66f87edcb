package v1alpha1

import (
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// ProxyProviderParameters are the configurable fields of an authentik proxy provider. Every
// optional field left unset is left as authentik has it and never causes a write.
// +kubebuilder:validation:XValidation:rule="self.mode != 'proxy' || (has(self.internalHost) && size(self.internalHost) > 0)",message="mode proxy forwards to internalHost: set it"
// +kubebuilder:validation:XValidation:rule="self.mode != 'forward_domain' || (has(self.cookieDomain) && size(self.cookieDomain) > 0)",message="mode forward_domain authenticates every host under cookieDomain: set it"
type ProxyProviderParameters struct {
	// Name of the provider. Provider names are unique across every provider type in authentik;
	// the name is how an existing provider is found when the resource has no external name.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:Pattern=`^[^\s\x00-\x1f\x7f]([^\x00-\x1f\x7f]*[^\s\x00-\x1f\x7f])?$`
	Name string `json:"name"`

	ProviderFlows `json:",inline"`

	// Mode is proxy (the outpost proxies requests to internalHost), forward_single (forward
	// auth for one application) or forward_domain (forward auth for every host under
	// cookieDomain).
	// +kubebuilder:validation:Enum=proxy;forward_single;forward_domain
	Mode string `json:"mode"`

	// ExternalHost is the URL users open, for example https://app.example.com.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:Pattern=`^https?://[^/?#\s\x00-\x1f\x7f][^\s\x00-\x1f\x7f]*$`
	ExternalHost string `json:"externalHost"`

	// InternalHost is the upstream the outpost proxies to (mode proxy only).
	// +optional
	// +kubebuilder:validation:Pattern=`^$|^https?://[^/?#\s\x00-\x1f\x7f][^\s\x00-\x1f\x7f]*$`
	InternalHost *string `json:"internalHost,omitempty"`

	// InternalHostSSLValidation validates the upstream's certificate.
	// +optional
	InternalHostSSLValidation *bool `json:"internalHostSslValidation,omitempty"`

	// CookieDomain is the domain of the session cookie (mode forward_domain).
	// +optional
	// +kubebuilder:validation:Pattern=`^[^\s\x00-\x1f\x7f/]*$`
	CookieDomain *string `json:"cookieDomain,omitempty"`

	// SkipPathRegex holds regular expressions, one per line, of paths that need no
	// authentication.
	// +optional
	// +kubebuilder:validation:Pattern=`^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f]*$`
	SkipPathRegex *string `json:"skipPathRegex,omitempty"`

	// BasicAuthEnabled sends an HTTP Basic Authorization header upstream, built from the user's
	// or group's attributes.
	// +optional
	BasicAuthEnabled *bool `json:"basicAuthEnabled,omitempty"`

	// BasicAuthUserAttribute is the attribute holding the Basic username (default: email).
	// +optional
	// +kubebuilder:validation:Pattern=`^[^\x00-\x1f\x7f]*$`
	BasicAuthUserAttribute *string `json:"basicAuthUserAttribute,omitempty"`

	// BasicAuthPasswordAttribute is the attribute holding the Basic password.
	// +optional
	// +kubebuilder:validation:Pattern=`^[^\x00-\x1f\x7f]*$`
	BasicAuthPasswordAttribute *string `json:"basicAuthPasswordAttribute,omitempty"`

	// InterceptHeaderAuth authenticates requests that carry an Authorization header by it.
	// +optional
	InterceptHeaderAuth *bool `json:"interceptHeaderAuth,omitempty"`

	// Certificate is the name of the certificate-key pair the outpost serves externalHost
	// with. The empty string clears it.
	// +optional
	// +kubebuilder:validation:Pattern=`^[^\x00-\x1f\x7f]*$`
	Certificate *string `json:"certificate,omitempty"`

	// AccessTokenValidity is how long a session token is valid (for example hours=24).
	// +optional
	// +kubebuilder:validation:Pattern=`^(weeks|days|hours|minutes|seconds|milliseconds|microseconds)=-?[0-9]+(\.[0-9]+)?(;(weeks|days|hours|minutes|seconds|milliseconds|microseconds)=-?[0-9]+(\.[0-9]+)?)*$`
	AccessTokenValidity *string `json:"accessTokenValidity,omitempty"`

	// RefreshTokenValidity is how long a refresh token is valid (for example days=30).
	// +optional
	// +kubebuilder:validation:Pattern=`^(weeks|days|hours|minutes|seconds|milliseconds|microseconds)=-?[0-9]+(\.[0-9]+)?(;(weeks|days|hours|minutes|seconds|milliseconds|microseconds)=-?[0-9]+(\.[0-9]+)?)*$`
	RefreshTokenValidity *string `json:"refreshTokenValidity,omitempty"`

	// PropertyMappings are additional scope mappings of the provider. authentik itself adds its
	// openid, email, profile and ak_proxy scope mappings to every proxy provider; those are
	// neither needed here nor counted as drift.
	// +optional
	// +listType=atomic
	PropertyMappings []PropertyMappingSelector `json:"propertyMappings,omitempty"`
}

// ProxyProviderObservation is the observed state of an authentik proxy provider.
type ProxyProviderObservation struct {
	ProviderObservation `json:",inline"`

	// ClientID authentik generated for the provider's outpost.
	ClientID string `json:"clientId,omitempty"`

	// Mode of the provider.
	Mode string `json:"mode,omitempty"`

	// ExternalHost of the provider.
	ExternalHost string `json:"externalHost,omitempty"`

	// Provenance tells whether the provider was created, adopted or only observed.
	Provenance identityv1alpha1.Provenance `json:"provenance,omitempty"`
}
