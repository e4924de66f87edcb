package v1alpha1

import (
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// SAMLProviderParameters are the configurable fields of an authentik SAML provider. Every
// optional field left unset is left as authentik has it and never causes a write.
// +kubebuilder:validation:XValidation:rule="!has(self.signingKey) || !(has(self.signingKeyId) || has(self.signingKeyRef) || has(self.signingKeySelector))",message="set signingKey (a certificate-key pair's name) or one of signingKeyId, signingKeyRef and signingKeySelector (a CertificateKeyPair), not both"
// +kubebuilder:validation:XValidation:rule="!has(self.verificationKey) || !(has(self.verificationKeyId) || has(self.verificationKeyRef) || has(self.verificationKeySelector))",message="set verificationKey (a certificate-key pair's name) or one of verificationKeyId, verificationKeyRef and verificationKeySelector (a CertificateKeyPair), not both"
// +kubebuilder:validation:XValidation:rule="!has(self.logoutMethod) || self.logoutMethod != 'backchannel' || (has(self.slsBinding) && self.slsBinding == 'post')",message="logoutMethod backchannel needs slsBinding: post"
type SAMLProviderParameters struct {
	// Name of the provider. Provider names are unique across every provider type in authentik;
	// the name is how an existing provider is found when the resource has no external name.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:Pattern=`^[^\s\x00-\x1f\x7f]([^\x00-\x1f\x7f]*[^\s\x00-\x1f\x7f])?$`
	Name string `json:"name"`

	ProviderFlows `json:",inline"`

	// ACSURL is the service provider's Assertion Consumer Service URL.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:Pattern=`^https?://[^/?#\s\x00-\x1f\x7f][^\s\x00-\x1f\x7f]*$`
	ACSURL string `json:"acsUrl"`

	// SLSURL is the service provider's Single Logout Service URL. The empty string clears it.
	// +optional
	// +kubebuilder:validation:Pattern=`^$|^https?://[^/?#\s\x00-\x1f\x7f][^\s\x00-\x1f\x7f]*$`
	SLSURL *string `json:"slsUrl,omitempty"`

	// Audience restricts assertions to this audience. The empty string adds no restriction.
	// +optional
	// +kubebuilder:validation:Pattern=`^[^\x00-\x1f\x7f]*$`
	Audience *string `json:"audience,omitempty"`

	// Issuer overrides the issuer (EntityID) authentik generates. The empty string restores
	// the generated one.
	// +optional
	// +kubebuilder:validation:Pattern=`^[^\x00-\x1f\x7f]*$`
	Issuer *string `json:"issuer,omitempty"`

	// SPBinding is how authentik sends responses to the service provider: redirect or post.
	// +optional
	// +kubebuilder:validation:Enum=redirect;post
	SPBinding *string `json:"spBinding,omitempty"`

	// SLSBinding is how authentik sends logout responses: redirect or post.
	// +optional
	// +kubebuilder:validation:Enum=redirect;post
	SLSBinding *string `json:"slsBinding,omitempty"`

	// SigningKey is the name of the certificate-key pair that signs responses and assertions.
	// The empty string clears it.
	// +optional
	// +kubebuilder:validation:Pattern=`^[^\x00-\x1f\x7f]*$`
	SigningKey *string `json:"signingKey,omitempty"`

	// SigningKeyID is the UUID of the certificate-key pair that signs responses and assertions, usually filled in from
	// SigningKeyRef or SigningKeySelector (a CertificateKeyPair). Set either this or signingKey
	// (a name), not both.
	// +optional
	// +kubebuilder:validation:Pattern=`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`
	// +identity:reference:type=CertificateKeyPair
	SigningKeyID *string `json:"signingKeyId,omitempty"`

	// SigningKeyRef references the CertificateKeyPair whose UUID fills SigningKeyID: a
	// CertificateKeyPair in this SAMLProvider's namespace (for a cluster-scoped SAMLProvider, a
	// cluster-scoped CertificateKeyPair).
	// +optional
	SigningKeyRef *xpv2.Reference `json:"signingKeyRef,omitempty"`

	// SigningKeySelector selects the CertificateKeyPair whose UUID fills SigningKeyID, among the
	// CertificateKeyPairs of this SAMLProvider's namespace (a cluster-scoped SAMLProvider: among the
	// cluster-scoped ones).
	// +optional
	SigningKeySelector *xpv2.Selector `json:"signingKeySelector,omitempty"`

	// VerificationKey is the name of the certificate that verifies the service provider's
	// signed requests. The empty string clears it (unsigned requests are accepted).
	// +optional
	// +kubebuilder:validation:Pattern=`^[^\x00-\x1f\x7f]*$`
	VerificationKey *string `json:"verificationKey,omitempty"`

	// VerificationKeyID is the UUID of the certificate-key pair that verifies the service provider's signed requests, usually filled in from
	// VerificationKeyRef or VerificationKeySelector (a CertificateKeyPair). Set either this or verificationKey
	// (a name), not both.
	// +optional
	// +kubebuilder:validation:Pattern=`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`
	// +identity:reference:type=CertificateKeyPair
	VerificationKeyID *string `json:"verificationKeyId,omitempty"`

	// VerificationKeyRef references the CertificateKeyPair whose UUID fills VerificationKeyID: a
	// CertificateKeyPair in this SAMLProvider's namespace (for a cluster-scoped SAMLProvider, a
	// cluster-scoped CertificateKeyPair).
	// +optional
	VerificationKeyRef *xpv2.Reference `json:"verificationKeyRef,omitempty"`

	// VerificationKeySelector selects the CertificateKeyPair whose UUID fills VerificationKeyID, among the
	// CertificateKeyPairs of this SAMLProvider's namespace (a cluster-scoped SAMLProvider: among the
	// cluster-scoped ones).
	// +optional
	VerificationKeySelector *xpv2.Selector `json:"verificationKeySelector,omitempty"`

	// EncryptionKey is the name of the certificate-key pair whose public key encrypts
	// assertions. The empty string clears it.
	// +optional
	// +kubebuilder:validation:Pattern=`^[^\x00-\x1f\x7f]*$`
	EncryptionKey *string `json:"encryptionKey,omitempty"`

	// PropertyMappings are the SAML property mappings of the provider. Unset leaves them as
	// they are.
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
	// PropertyMappings in this SAMLProvider's namespace (for a cluster-scoped SAMLProvider,
	// cluster-scoped PropertyMappings).
	// +optional
	PropertyMappingRefs []xpv2.Reference `json:"propertyMappingRefs,omitempty"`

	// PropertyMappingSelector selects the PropertyMappings whose UUIDs fill
	// PropertyMappingIDs, among the PropertyMappings of this SAMLProvider's namespace (a
	// cluster-scoped SAMLProvider: among the cluster-scoped ones).
	// +optional
	PropertyMappingSelector *xpv2.Selector `json:"propertyMappingSelector,omitempty"`

	// NameIDMapping is the SAML property mapping that makes the NameID. Unset leaves it as it
	// is.
	// +optional
	NameIDMapping *PropertyMappingSelector `json:"nameIdMapping,omitempty"`

	// SignatureAlgorithm of signatures.
	// +optional
	// +kubebuilder:validation:Enum="http://www.w3.org/2000/09/xmldsig#rsa-sha1";"http://www.w3.org/2001/04/xmldsig-more#rsa-sha256";"http://www.w3.org/2001/04/xmldsig-more#rsa-sha384";"http://www.w3.org/2001/04/xmldsig-more#rsa-sha512";"http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha1";"http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256";"http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha384";"http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha512";"http://www.w3.org/2000/09/xmldsig#dsa-sha1"
	SignatureAlgorithm *string `json:"signatureAlgorithm,omitempty"`

	// DigestAlgorithm of signatures.
	// +optional
	// +kubebuilder:validation:Enum="http://www.w3.org/2000/09/xmldsig#sha1";"http://www.w3.org/2001/04/xmlenc#sha256";"http://www.w3.org/2001/04/xmldsig-more#sha384";"http://www.w3.org/2001/04/xmlenc#sha512"
	DigestAlgorithm *string `json:"digestAlgorithm,omitempty"`

	// AssertionValidNotBefore is added to the current time to make an assertion's NotBefore
	// (for example minutes=-5).
	// +optional
	// +kubebuilder:validation:Pattern=`^(weeks|days|hours|minutes|seconds|milliseconds|microseconds)=-?[0-9]+(\.[0-9]+)?(;(weeks|days|hours|minutes|seconds|milliseconds|microseconds)=-?[0-9]+(\.[0-9]+)?)*$`
	AssertionValidNotBefore *string `json:"assertionValidNotBefore,omitempty"`

	// AssertionValidNotOnOrAfter is added to the current time to make an assertion's
	// NotOnOrAfter (for example minutes=5).
	// +optional
	// +kubebuilder:validation:Pattern=`^(weeks|days|hours|minutes|seconds|milliseconds|microseconds)=-?[0-9]+(\.[0-9]+)?(;(weeks|days|hours|minutes|seconds|milliseconds|microseconds)=-?[0-9]+(\.[0-9]+)?)*$`
	AssertionValidNotOnOrAfter *string `json:"assertionValidNotOnOrAfter,omitempty"`

	// SessionValidNotOnOrAfter is how long the service provider's session lasts (for example
	// hours=8).
	// +optional
	// +kubebuilder:validation:Pattern=`^(weeks|days|hours|minutes|seconds|milliseconds|microseconds)=-?[0-9]+(\.[0-9]+)?(;(weeks|days|hours|minutes|seconds|milliseconds|microseconds)=-?[0-9]+(\.[0-9]+)?)*$`
	SessionValidNotOnOrAfter *string `json:"sessionValidNotOnOrAfter,omitempty"`

	// SignAssertion signs assertions.
	// +optional
	SignAssertion *bool `json:"signAssertion,omitempty"`

	// SignResponse signs responses.
	// +optional
	SignResponse *bool `json:"signResponse,omitempty"`

	// DefaultRelayState is the RelayState of IdP-initiated logins.
	// +optional
	// +kubebuilder:validation:Pattern=`^[^\x00-\x1f\x7f]*$`
	DefaultRelayState *string `json:"defaultRelayState,omitempty"`

	// DefaultNameIDPolicy is the NameID policy used when the request has none.
	// +optional
	// +kubebuilder:validation:Enum="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress";"urn:oasis:names:tc:SAML:2.0:nameid-format:persistent";"urn:oasis:names:tc:SAML:1.1:nameid-format:X509SubjectName";"urn:oasis:names:tc:SAML:2.0:nameid-format:WindowsDomainQualifiedName";"urn:oasis:names:tc:SAML:2.0:nameid-format:transient";"urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified"
	DefaultNameIDPolicy *string `json:"defaultNameIdPolicy,omitempty"`

	// LogoutMethod is frontchannel_iframe, frontchannel_native or backchannel (which needs
	// slsBinding: post).
	// +optional
	// +kubebuilder:validation:Enum=frontchannel_iframe;frontchannel_native;backchannel
	LogoutMethod *string `json:"logoutMethod,omitempty"`
}

// SAMLProviderObservation is the observed state of an authentik SAML provider.
type SAMLProviderObservation struct {
	ProviderObservation `json:",inline"`

	// EntityID is the issuer authentik uses, known once an application uses the provider.
	EntityID string `json:"entityId,omitempty"`

	// MetadataURL is where the IdP metadata can be downloaded.
	MetadataURL string `json:"metadataUrl,omitempty"`

	// Provenance tells whether the provider was created, adopted or only observed.
	Provenance identityv1alpha1.Provenance `json:"provenance,omitempty"`
}
