package v1alpha1

// Fields every authentik provider kind (OAuth2Provider, SAMLProvider, ProxyProvider) shares.

// ProviderFlows names the flows of a provider by slug. The provider resolves each slug to the
// flow's primary key at every reconcile; a slug that names no flow stops the reconcile with a
// condition that names it.
type ProviderFlows struct {
	// AuthorizationFlow is the slug of the flow that authorizes a user for the application,
	// for example default-provider-authorization-implicit-consent.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:Pattern=`^[-a-zA-Z0-9_]+$`
	// +kubebuilder:validation:MaxLength=50
	AuthorizationFlow string `json:"authorizationFlow"`

	// InvalidationFlow is the slug of the flow that ends the user's session with the provider,
	// for example default-provider-invalidation-flow.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:Pattern=`^[-a-zA-Z0-9_]+$`
	// +kubebuilder:validation:MaxLength=50
	InvalidationFlow string `json:"invalidationFlow"`

	// AuthenticationFlow is the slug of the flow that authenticates a user who opens the
	// application without a session. The empty string clears it (authentik then uses the
	// brand's authentication flow); unset leaves it as it is.
	// +optional
	// +kubebuilder:validation:Pattern=`^[-a-zA-Z0-9_]*$`
	// +kubebuilder:validation:MaxLength=50
	AuthenticationFlow *string `json:"authenticationFlow,omitempty"`
}

// A PropertyMappingSelector names one authentik property mapping, either by its name or by the
// managed identifier authentik gives the mappings it ships (for example
// goauthentik.io/providers/oauth2/scope-openid). Managed identifiers survive renames.
// +kubebuilder:validation:XValidation:rule="has(self.name) != has(self.managed)",message="set exactly one of name and managed"
type PropertyMappingSelector struct {
	// Name of the property mapping.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:Pattern=`^[^\x00-\x1f\x7f]*$`
	Name *string `json:"name,omitempty"`

	// Managed is the managed identifier of a property mapping shipped by authentik.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:Pattern=`^[^\x00-\x1f\x7f]*$`
	Managed *string `json:"managed,omitempty"`
}

// ProviderObservation holds what every provider kind observes.
type ProviderObservation struct {
	// ID is authentik's primary key of the provider (also the external name).
	ID string `json:"id,omitempty"`

	// Name of the provider.
	Name string `json:"name,omitempty"`

	// AssignedApplication is the slug of the application that uses the provider, if any.
	AssignedApplication string `json:"assignedApplication,omitempty"`
}
