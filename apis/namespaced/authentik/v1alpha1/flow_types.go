package v1alpha1

import (
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// FlowParameters are the configurable fields of an authentik flow. Every optional field left
// unset is left as authentik has it and never causes a write.
type FlowParameters struct {
	// Name of the flow, shown in authentik's admin interface.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:Pattern=`^[^\s\x00-\x1f\x7f]([^\x00-\x1f\x7f]*[^\s\x00-\x1f\x7f])?$`
	Name string `json:"name"`

	// Slug is the flow's unique identifier in authentik and in its URL (/if/flow/<slug>/). It is
	// how an existing flow is found when the resource has no external name, and it cannot be
	// changed.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=50
	// +kubebuilder:validation:Pattern=`^[-a-zA-Z0-9_]+$`
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="slug cannot be changed: it identifies the flow in authentik; create a new Flow instead"
	Slug string `json:"slug"`

	// Title is shown to users at the top of the flow's pages.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:Pattern=`^[^\s\x00-\x1f\x7f]([^\x00-\x1f\x7f]*[^\s\x00-\x1f\x7f])?$`
	Title string `json:"title"`

	// Designation is what the flow is for: authentication, authorization, invalidation,
	// enrollment, unenrollment, recovery or stage_configuration.
	// +kubebuilder:validation:Enum=authentication;authorization;invalidation;enrollment;unenrollment;recovery;stage_configuration
	Designation string `json:"designation"`

	// Authentication is who may run the flow: none (anyone), require_authenticated,
	// require_unauthenticated, require_superuser, require_redirect, require_outpost or
	// require_token. authentik's default is none.
	// +optional
	// +kubebuilder:validation:Enum=none;require_authenticated;require_unauthenticated;require_superuser;require_redirect;require_outpost;require_token
	Authentication *string `json:"authentication,omitempty"`

	// Layout of the flow's pages. authentik's default is stacked.
	// +optional
	// +kubebuilder:validation:Enum=stacked;content_left;content_right;sidebar_left;sidebar_right;sidebar_left_frame_background;sidebar_right_frame_background
	Layout *string `json:"layout,omitempty"`

	// PolicyEngineMode decides whether all (all) or any (any) of the policies bound to the flow
	// must pass. authentik's default is any.
	// +optional
	// +kubebuilder:validation:Enum=all;any
	PolicyEngineMode *string `json:"policyEngineMode,omitempty"`

	// DeniedAction is what a user denied by the flow's policies sees: message_continue,
	// message or continue. authentik's default is message_continue.
	// +optional
	// +kubebuilder:validation:Enum=message_continue;message;continue
	DeniedAction *string `json:"deniedAction,omitempty"`

	// CompatibilityMode increases compatibility with password managers on mobile devices.
	// authentik's default is false.
	// +optional
	CompatibilityMode *bool `json:"compatibilityMode,omitempty"`
}

// FlowObservation is the observed state of an authentik flow.
type FlowObservation struct {
	// ID is authentik's pk of the flow, a UUID. The external name is the slug.
	ID string `json:"id,omitempty"`

	// PolicyBindingModelID is the flow's policy binding model ID, the target of policy
	// bindings on the flow.
	PolicyBindingModelID string `json:"policyBindingModelId,omitempty"`

	Slug        string `json:"slug,omitempty"`
	Designation string `json:"designation,omitempty"`

	// Stages are the UUIDs of the stages bound into the flow.
	Stages []string `json:"stages,omitempty"`

	// Provenance tells whether the flow was created, adopted or only observed.
	Provenance identityv1alpha1.Provenance `json:"provenance,omitempty"`
}
