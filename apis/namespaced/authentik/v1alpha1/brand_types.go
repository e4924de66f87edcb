package v1alpha1

import (
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// BrandParameters are the configurable fields of an authentik brand: which domain it answers
// for, how it looks and which flows it starts. Every optional field left unset is left as
// authentik has it and never causes a write.
type BrandParameters struct {
	// Domain the brand answers for; a brand also answers for the domain's subdomains (a.b
	// covers x.a.b). Domains are unique in authentik; the domain is how an existing brand is
	// found when the resource has no external name. authentik's own brand has the domain
	// authentik-default.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^[^\s\x00-\x1f\x7f]+$`
	Domain string `json:"domain"`

	// Default makes this the brand of every domain no other brand matches. authentik allows
	// one default brand: a brand cannot become the default while another one is (authentik's
	// own brand, authentik-default, is, unless someone changed it).
	// +optional
	Default *bool `json:"default,omitempty"`

	// BrandingTitle is the title shown in the browser and on the flows' pages.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:Pattern=`^[^\s\x00-\x1f\x7f]([^\x00-\x1f\x7f]*[^\s\x00-\x1f\x7f])?$`
	BrandingTitle *string `json:"brandingTitle,omitempty"`

	// BrandingLogo is the logo's URL or path.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:Pattern=`^[^\s\x00-\x1f\x7f]+$`
	BrandingLogo *string `json:"brandingLogo,omitempty"`

	// BrandingFavicon is the favicon's URL or path.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:Pattern=`^[^\s\x00-\x1f\x7f]+$`
	BrandingFavicon *string `json:"brandingFavicon,omitempty"`

	// AuthenticationFlow is the slug of the flow that logs users in on this brand's domain.
	// Usually filled in from AuthenticationFlowRef or AuthenticationFlowSelector; a slug names
	// any flow in authentik, ours or not.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=50
	// +kubebuilder:validation:Pattern=`^[-a-zA-Z0-9_]+$`
	// +identity:reference:type=Flow
	AuthenticationFlow *string `json:"authenticationFlow,omitempty"`

	// AuthenticationFlowRef references the Flow whose slug fills AuthenticationFlow (a Flow of
	// this brand's namespace; for a cluster-scoped brand, a cluster-scoped Flow).
	// +optional
	AuthenticationFlowRef *xpv2.Reference `json:"authenticationFlowRef,omitempty"`

	// AuthenticationFlowSelector selects the Flow whose slug fills AuthenticationFlow.
	// +optional
	AuthenticationFlowSelector *xpv2.Selector `json:"authenticationFlowSelector,omitempty"`

	// InvalidationFlow is the slug of the flow that logs users out.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=50
	// +kubebuilder:validation:Pattern=`^[-a-zA-Z0-9_]+$`
	// +identity:reference:type=Flow
	InvalidationFlow *string `json:"invalidationFlow,omitempty"`

	// InvalidationFlowRef references the Flow whose slug fills InvalidationFlow.
	// +optional
	InvalidationFlowRef *xpv2.Reference `json:"invalidationFlowRef,omitempty"`

	// InvalidationFlowSelector selects the Flow whose slug fills InvalidationFlow.
	// +optional
	InvalidationFlowSelector *xpv2.Selector `json:"invalidationFlowSelector,omitempty"`

	// RecoveryFlow is the slug of the flow users recover their account with.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=50
	// +kubebuilder:validation:Pattern=`^[-a-zA-Z0-9_]+$`
	// +identity:reference:type=Flow
	RecoveryFlow *string `json:"recoveryFlow,omitempty"`

	// RecoveryFlowRef references the Flow whose slug fills RecoveryFlow.
	// +optional
	RecoveryFlowRef *xpv2.Reference `json:"recoveryFlowRef,omitempty"`

	// RecoveryFlowSelector selects the Flow whose slug fills RecoveryFlow.
	// +optional
	RecoveryFlowSelector *xpv2.Selector `json:"recoveryFlowSelector,omitempty"`

	// UnenrollmentFlow is the slug of the flow users delete their account with.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=50
	// +kubebuilder:validation:Pattern=`^[-a-zA-Z0-9_]+$`
	// +identity:reference:type=Flow
	UnenrollmentFlow *string `json:"unenrollmentFlow,omitempty"`

	// UnenrollmentFlowRef references the Flow whose slug fills UnenrollmentFlow.
	// +optional
	UnenrollmentFlowRef *xpv2.Reference `json:"unenrollmentFlowRef,omitempty"`

	// UnenrollmentFlowSelector selects the Flow whose slug fills UnenrollmentFlow.
	// +optional
	UnenrollmentFlowSelector *xpv2.Selector `json:"unenrollmentFlowSelector,omitempty"`

	// UserSettingsFlow is the slug of the flow users change their settings with.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=50
	// +kubebuilder:validation:Pattern=`^[-a-zA-Z0-9_]+$`
	// +identity:reference:type=Flow
	UserSettingsFlow *string `json:"userSettingsFlow,omitempty"`

	// UserSettingsFlowRef references the Flow whose slug fills UserSettingsFlow.
	// +optional
	UserSettingsFlowRef *xpv2.Reference `json:"userSettingsFlowRef,omitempty"`

	// UserSettingsFlowSelector selects the Flow whose slug fills UserSettingsFlow.
	// +optional
	UserSettingsFlowSelector *xpv2.Selector `json:"userSettingsFlowSelector,omitempty"`

	// DeviceCodeFlow is the slug of the flow of OAuth2's device code grant.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=50
	// +kubebuilder:validation:Pattern=`^[-a-zA-Z0-9_]+$`
	// +identity:reference:type=Flow
	DeviceCodeFlow *string `json:"deviceCodeFlow,omitempty"`

	// DeviceCodeFlowRef references the Flow whose slug fills DeviceCodeFlow.
	// +optional
	DeviceCodeFlowRef *xpv2.Reference `json:"deviceCodeFlowRef,omitempty"`

	// DeviceCodeFlowSelector selects the Flow whose slug fills DeviceCodeFlow.
	// +optional
	DeviceCodeFlowSelector *xpv2.Selector `json:"deviceCodeFlowSelector,omitempty"`

	// DefaultApplication is the slug of the application external users are sent to after
	// they log in. Usually filled in from DefaultApplicationRef or DefaultApplicationSelector.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=50
	// +kubebuilder:validation:Pattern=`^[-a-zA-Z0-9_]+$`
	// +identity:reference:type=Application
	DefaultApplication *string `json:"defaultApplication,omitempty"`

	// DefaultApplicationRef references the Application whose slug fills DefaultApplication.
	// +optional
	DefaultApplicationRef *xpv2.Reference `json:"defaultApplicationRef,omitempty"`

	// DefaultApplicationSelector selects the Application whose slug fills DefaultApplication.
	// +optional
	DefaultApplicationSelector *xpv2.Selector `json:"defaultApplicationSelector,omitempty"`

	// WebCertificateID is the UUID of the certificate-key pair authentik's web server shows
	// for this brand's domain. Usually filled in from WebCertificateRef or
	// WebCertificateSelector.
	// +optional
	// +kubebuilder:validation:Pattern=`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`
	// +identity:reference:type=CertificateKeyPair
	WebCertificateID *string `json:"webCertificateId,omitempty"`

	// WebCertificateRef references the CertificateKeyPair whose UUID fills WebCertificateID.
	// +optional
	WebCertificateRef *xpv2.Reference `json:"webCertificateRef,omitempty"`

	// WebCertificateSelector selects the CertificateKeyPair whose UUID fills
	// WebCertificateID.
	// +optional
	WebCertificateSelector *xpv2.Selector `json:"webCertificateSelector,omitempty"`

	// Attributes are free-form JSON values under string keys (authentik reads, for example,
	// settings.theme.base and settings.locale). Only the keys set here are managed; keys set
	// in authentik by other means are kept. Keys starting with identity.crossplane.io/ are the
	// provider's own (its provenance marker): a spec that sets one is refused when reconciled.
	// +optional
	Attributes Attributes `json:"attributes,omitempty"`
}

// BrandObservation is the observed state of an authentik brand.
type BrandObservation struct {
	// ID is authentik's brand_uuid (also the external name).
	ID string `json:"id,omitempty"`

	Domain        string `json:"domain,omitempty"`
	Default       bool   `json:"default,omitempty"`
	BrandingTitle string `json:"brandingTitle,omitempty"`

	// Flows are the pks of the brand's flows, by their use (authentication, invalidation,
	// recovery, unenrollment, userSettings, deviceCode); a use without a flow is left out.
	Flows map[string]string `json:"flows,omitempty"`

	// DefaultApplicationID is the pk of the default application.
	DefaultApplicationID string `json:"defaultApplicationId,omitempty"`

	// WebCertificateID is the UUID of the web certificate.
	WebCertificateID string `json:"webCertificateId,omitempty"`

	// Provenance tells whether the brand was created, adopted or only observed.
	Provenance identityv1alpha1.Provenance `json:"provenance,omitempty"`
}
