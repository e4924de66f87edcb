package v1alpha1

import (
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// A RedirectURI is one redirect URI an OAuth2 client may use.
// +kubebuilder:validation:XValidation:rule="(has(self.matchingMode) && self.matchingMode == 'regex') || self.url.matches(r'^[A-Za-z][A-Za-z0-9+.-]*:[^\\s\\x00-\\x1f\\x7f]+$')",message="url must be an absolute URI without spaces or control characters: https://app.example.com/callback, or a native app's private-use scheme such as com.example.app:/callback"
// +kubebuilder:validation:XValidation:rule="(has(self.matchingMode) && self.matchingMode == 'regex') || !self.url.lowerAscii().matches(r'^https?:') || self.url.matches(r'^[hH][tT][tT][pP][sS]?://[^/?#]+')",message="url: an http or https redirect URI needs a host, for example https://app.example.com/callback"
// +kubebuilder:validation:XValidation:rule="!(has(self.matchingMode) && self.matchingMode == 'regex') || self.url.matches(r'^\\^?(https\\?|[A-Za-z]([A-Za-z0-9-]|\\\\[.+])*):(\\\\.|\\[\\^?\\]?(\\\\.|[^\\\\\\]])*\\]|[^\\\\|()\\[\\x00-\\x1f\\x7f]|\\((\\\\.|\\[\\^?\\]?(\\\\.|[^\\\\\\]])*\\]|[^\\\\()\\[\\x00-\\x1f\\x7f])*\\))*$')",message="url in regex mode must start with its scheme written out (^https://app\\.example\\.com/.*, https?://..., com\\.example\\.app:/.*) and may use | only inside parentheses, without nested groups or control characters: otherwise the expression could also match another scheme"
// +kubebuilder:validation:XValidation:rule="!self.url.replace('\\\\', \"\").lowerAscii().matches(r'^\\^?(javascript|data|vbscript|file|blob|about|filesystem|view-source):')",message="url must not use the javascript:, data:, vbscript:, file:, blob:, about:, filesystem: or view-source: scheme: a browser would run or open it instead of returning to the application"
type RedirectURI struct {
	// URL, or a regular expression when MatchingMode is regex. An http(s) URL needs a host; a
	// native app may use its private-use scheme (com.example.app:/callback). Schemes a browser
	// would run or open itself (javascript:, data:, vbscript:, file:...) are refused. A regular
	// expression (matched against the whole redirect URI) must start with its scheme written out
	// (^https://, https?://, com\.example\.app:) and use | only inside parentheses, so that it
	// cannot match another scheme.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=2048
	URL string `json:"url"`

	// MatchingMode is strict (the URL must match exactly) or regex.
	// +optional
	// +kubebuilder:default=strict
	// +kubebuilder:validation:Enum=strict;regex
	MatchingMode string `json:"matchingMode,omitempty"`

	// Type is authorization (where authorization responses go) or logout (where the user may
	// be sent after logging out).
	// +optional
	// +kubebuilder:default=authorization
	// +kubebuilder:validation:Enum=authorization;logout
	Type string `json:"type,omitempty"`
}

// OAuth2ProviderParameters are the configurable fields of an authentik OAuth2/OpenID provider.
// Every optional field left unset is left as authentik has it and never causes a write.
// +kubebuilder:validation:XValidation:rule="!has(self.signingKey) || !(has(self.signingKeyId) || has(self.signingKeyRef) || has(self.signingKeySelector))",message="set signingKey (a certificate-key pair's name) or one of signingKeyId, signingKeyRef and signingKeySelector (a CertificateKeyPair), not both"
// +kubebuilder:validation:XValidation:rule="!has(self.clientSecretSecretRef) || !has(self.clientType) || self.clientType == 'confidential'",message="clientSecretSecretRef is only used by confidential clients; remove it or set clientType: confidential"
type OAuth2ProviderParameters struct {
	// Name of the provider. Provider names are unique across every provider type in authentik;
	// the name is how an existing provider is found when the resource has no external name.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:Pattern=`^[^\s\x00-\x1f\x7f]([^\x00-\x1f\x7f]*[^\s\x00-\x1f\x7f])?$`
	Name string `json:"name"`

	ProviderFlows `json:",inline"`

	// ClientType is confidential (the client keeps a secret) or public. authentik's default is
	// confidential.
	// +optional
	// +kubebuilder:validation:Enum=confidential;public
	ClientType *string `json:"clientType,omitempty"`

	// ClientID is the OAuth2 client ID. Unset: authentik generates one when creating the
	// provider, and it is published as the client_id connection detail.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:Pattern=`^[^\s\x00-\x1f\x7f]+$`
	ClientID *string `json:"clientId,omitempty"`

	// ClientSecretSecretRef selects a Secret key holding the client secret to use. Unset:
	// authentik generates a secret when creating the provider and the provider never writes
	// it afterwards; either way it is published as the client_secret connection detail.
	// A cluster-scoped OAuth2Provider names the Secret's namespace; a namespaced one reads the
	// Secret in its own namespace and names none.
	// +optional
	ClientSecretSecretRef *identityv1alpha1.SecretKeySelector `json:"clientSecretSecretRef,omitempty"`

	// RedirectURIs the client may use. Unset or empty leaves them as they are; a new provider
	// then has none.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=64
	RedirectURIs []RedirectURI `json:"redirectUris,omitempty"`

	// GrantTypes the client may use. Since authentik 2026.5 a provider without grant types
	// cannot sign anyone in, so a new provider created with this field unset gets
	// [authorization_code, refresh_token]; an existing provider keeps its own.
	// +optional
	// +listType=set
	// +kubebuilder:validation:items:Enum=authorization_code;implicit;hybrid;refresh_token;client_credentials;password;"urn:ietf:params:oauth:grant-type:device_code";"urn:ietf:params:oauth:grant-type:token-exchange"
	GrantTypes []string `json:"grantTypes,omitempty"`

	// AccessCodeValidity is how long an authorization code is valid, in authentik's duration
	// format (for example minutes=1, or hours=1;minutes=30).
	// +optional
	// +kubebuilder:validation:Pattern=`^(weeks|days|hours|minutes|seconds|milliseconds|microseconds)=-?[0-9]+(\.[0-9]+)?(;(weeks|days|hours|minutes|seconds|milliseconds|microseconds)=-?[0-9]+(\.[0-9]+)?)*$`
	AccessCodeValidity *string `json:"accessCodeValidity,omitempty"`

	// AccessTokenValidity is how long an access token is valid (for example hours=1).
	// +optional
	// +kubebuilder:validation:Pattern=`^(weeks|days|hours|minutes|seconds|milliseconds|microseconds)=-?[0-9]+(\.[0-9]+)?(;(weeks|days|hours|minutes|seconds|milliseconds|microseconds)=-?[0-9]+(\.[0-9]+)?)*$`
	AccessTokenValidity *string `json:"accessTokenValidity,omitempty"`

	// RefreshTokenValidity is how long a refresh token is valid (for example days=30).
	// +optional
	// +kubebuilder:validation:Pattern=`^(weeks|days|hours|minutes|seconds|milliseconds|microseconds)=-?[0-9]+(\.[0-9]+)?(;(weeks|days|hours|minutes|seconds|milliseconds|microseconds)=-?[0-9]+(\.[0-9]+)?)*$`
	RefreshTokenValidity *string `json:"refreshTokenValidity,omitempty"`

	// RefreshTokenThreshold renews a refresh token on use when it is valid for less than this
	// (seconds=0 always renews it).
	// +optional
	// +kubebuilder:validation:Pattern=`^(weeks|days|hours|minutes|seconds|milliseconds|microseconds)=-?[0-9]+(\.[0-9]+)?(;(weeks|days|hours|minutes|seconds|milliseconds|microseconds)=-?[0-9]+(\.[0-9]+)?)*$`
	RefreshTokenThreshold *string `json:"refreshTokenThreshold,omitempty"`

	// IncludeClaimsInIDToken puts the user's claims into the ID token too, for clients that do
	// not call the userinfo endpoint.
	// +optional
	IncludeClaimsInIDToken *bool `json:"includeClaimsInIdToken,omitempty"`

	// SigningKey is the name of the certificate-key pair that signs tokens. The empty string
	// clears it (tokens are then signed with the client secret, HS256).
	// +optional
	// +kubebuilder:validation:Pattern=`^[^\x00-\x1f\x7f]*$`
	SigningKey *string `json:"signingKey,omitempty"`

	// SigningKeyID is the UUID of the certificate-key pair that signs tokens, usually filled in from
	// SigningKeyRef or SigningKeySelector (a CertificateKeyPair). Set either this or signingKey
	// (a name), not both.
	// +optional
	// +kubebuilder:validation:Pattern=`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`
	// +identity:reference:type=CertificateKeyPair
	SigningKeyID *string `json:"signingKeyId,omitempty"`

	// SigningKeyRef references the CertificateKeyPair whose UUID fills SigningKeyID: a
	// CertificateKeyPair in this OAuth2Provider's namespace (for a cluster-scoped OAuth2Provider, a
	// cluster-scoped CertificateKeyPair).
	// +optional
	SigningKeyRef *xpv2.Reference `json:"signingKeyRef,omitempty"`

	// SigningKeySelector selects the CertificateKeyPair whose UUID fills SigningKeyID, among the
	// CertificateKeyPairs of this OAuth2Provider's namespace (a cluster-scoped OAuth2Provider: among the
	// cluster-scoped ones).
	// +optional
	SigningKeySelector *xpv2.Selector `json:"signingKeySelector,omitempty"`

	// EncryptionKey is the name of the certificate-key pair that encrypts tokens (JWE). The
	// empty string clears it.
	// +optional
	// +kubebuilder:validation:Pattern=`^[^\x00-\x1f\x7f]*$`
	EncryptionKey *string `json:"encryptionKey,omitempty"`

	// PropertyMappings are the scope mappings of the provider. Unset leaves them as they are;
	// a new provider then gets authentik's openid, email and profile scope mappings, without
	// which no ID token is issued.
	// +optional
	// +listType=atomic
	PropertyMappings []PropertyMappingSelector `json:"propertyMappings,omitempty"`

	// PropertyMappingIDs are the UUIDs of further property mappings of the provider, usually
	// filled in from PropertyMappingRefs or PropertyMappingSelector (PropertyMappings). The
	// provider's mappings are these together with those propertyMappings names; setting
	// either makes the union the complete list.
	// +optional
	// +listType=atomic
	// +identity:reference:type=PropertyMapping
	// +identity:reference:refFieldName=PropertyMappingRefs
	// +identity:reference:selectorFieldName=PropertyMappingSelector
	// +kubebuilder:validation:items:Pattern=`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`
	PropertyMappingIDs []string `json:"propertyMappingIds,omitempty"`

	// PropertyMappingRefs reference the PropertyMappings whose UUIDs fill PropertyMappingIDs:
	// PropertyMappings in this OAuth2Provider's namespace (for a cluster-scoped OAuth2Provider,
	// cluster-scoped PropertyMappings).
	// +optional
	PropertyMappingRefs []xpv2.Reference `json:"propertyMappingRefs,omitempty"`

	// PropertyMappingSelector selects the PropertyMappings whose UUIDs fill
	// PropertyMappingIDs, among the PropertyMappings of this OAuth2Provider's namespace (a
	// cluster-scoped OAuth2Provider: among the cluster-scoped ones).
	// +optional
	PropertyMappingSelector *xpv2.Selector `json:"propertyMappingSelector,omitempty"`

	// SubMode chooses what the sub claim holds.
	// +optional
	// +kubebuilder:validation:Enum=hashed_user_id;user_id;user_uuid;user_username;user_email;user_upn
	SubMode *string `json:"subMode,omitempty"`

	// IssuerMode is per_provider (each application has its own issuer) or global.
	// +optional
	// +kubebuilder:validation:Enum=global;per_provider
	IssuerMode *string `json:"issuerMode,omitempty"`

	// LogoutURI is where authentik sends logout notifications. The empty string clears it.
	// +optional
	// +kubebuilder:validation:Pattern=`^$|^https?://[^/?#\s\x00-\x1f\x7f][^\s\x00-\x1f\x7f]*$`
	LogoutURI *string `json:"logoutUri,omitempty"`

	// LogoutMethod is backchannel (server to server) or frontchannel (through the browser).
	// +optional
	// +kubebuilder:validation:Enum=backchannel;frontchannel
	LogoutMethod *string `json:"logoutMethod,omitempty"`
}

// OAuth2ProviderObservation is the observed state of an authentik OAuth2 provider.
type OAuth2ProviderObservation struct {
	ProviderObservation `json:",inline"`

	// ClientID of the provider.
	ClientID string `json:"clientId,omitempty"`

	// ClientType of the provider.
	ClientType string `json:"clientType,omitempty"`

	// GrantTypes the client may use.
	GrantTypes []string `json:"grantTypes,omitempty"`

	// IssuerURL is the issuer of the provider's tokens, known once an application uses it.
	IssuerURL string `json:"issuerUrl,omitempty"`

	// Provenance tells whether the provider was created, adopted or only observed.
	Provenance identityv1alpha1.Provenance `json:"provenance,omitempty"`
}
