package v1alpha1

import (
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// FlowStageBindingParameters are the configurable fields of an authentik flow-stage binding.
// Every optional field left unset is left as authentik has it and never causes a write.
// +kubebuilder:validation:XValidation:rule="has(self.flow) || has(self.flowRef) || has(self.flowSelector)",message="a binding needs its flow: set flow (a slug), flowRef or flowSelector"
// +kubebuilder:validation:XValidation:rule="has(self.stageId) || has(self.stageRef) || has(self.stageSelector)",message="a binding needs its stage: set stageId, stageRef or stageSelector"
// +kubebuilder:validation:XValidation:rule="!has(self.reEvaluatePolicies) || self.reEvaluatePolicies || (has(self.evaluateOnPlan) && self.evaluateOnPlan)",message="authentik needs policies evaluated at least once: with reEvaluatePolicies false, set evaluateOnPlan true"
type FlowStageBindingParameters struct {
	// Flow is the slug of the flow the stage is bound into. Usually filled in from FlowRef or
	// FlowSelector; a slug names any flow in authentik, ours or not.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=50
	// +kubebuilder:validation:Pattern=`^[-a-zA-Z0-9_]+$`
	// +identity:reference:type=Flow
	Flow *string `json:"flow,omitempty"`

	// FlowRef references the Flow whose slug fills Flow: a Flow in this binding's namespace
	// (for a cluster-scoped binding, a cluster-scoped Flow).
	// +optional
	FlowRef *xpv2.Reference `json:"flowRef,omitempty"`

	// FlowSelector selects the Flow whose slug fills Flow, among the Flows of this binding's
	// namespace (a cluster-scoped binding: among the cluster-scoped ones).
	// +optional
	FlowSelector *xpv2.Selector `json:"flowSelector,omitempty"`

	// StageID is the UUID of the stage bound into the flow. Usually filled in from StageRef or
	// StageSelector.
	// +optional
	// +kubebuilder:validation:Pattern=`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`
	// +identity:reference:type=Stage
	StageID *string `json:"stageId,omitempty"`

	// StageRef references the Stage whose UUID fills StageID: a Stage in this binding's
	// namespace (for a cluster-scoped binding, a cluster-scoped Stage).
	// +optional
	StageRef *xpv2.Reference `json:"stageRef,omitempty"`

	// StageSelector selects the Stage whose UUID fills StageID, among the Stages of this
	// binding's namespace (a cluster-scoped binding: among the cluster-scoped ones).
	// +optional
	StageSelector *xpv2.Selector `json:"stageSelector,omitempty"`

	// Order of the stage in the flow, lowest first. The flow, the stage and the order together
	// are unique in authentik, and are how an existing binding is found when the resource has
	// no external name.
	// +kubebuilder:validation:Minimum=-2147483648
	// +kubebuilder:validation:Maximum=2147483647
	Order int32 `json:"order"`

	// EvaluateOnPlan evaluates the binding's policies when the flow is planned. authentik's
	// default is false.
	// +optional
	EvaluateOnPlan *bool `json:"evaluateOnPlan,omitempty"`

	// ReEvaluatePolicies evaluates the binding's policies when the stage is shown. authentik's
	// default is true.
	// +optional
	ReEvaluatePolicies *bool `json:"reEvaluatePolicies,omitempty"`

	// InvalidResponseAction is what the flow does with an invalid answer to the stage: retry,
	// restart or restart_with_context. authentik's default is retry.
	// +optional
	// +kubebuilder:validation:Enum=retry;restart;restart_with_context
	InvalidResponseAction *string `json:"invalidResponseAction,omitempty"`

	// PolicyEngineMode decides whether all (all) or any (any) of the binding's policies must
	// pass. authentik's default is any.
	// +optional
	// +kubebuilder:validation:Enum=all;any
	PolicyEngineMode *string `json:"policyEngineMode,omitempty"`
}

// FlowStageBindingObservation is the observed state of an authentik flow-stage binding.
type FlowStageBindingObservation struct {
	// ID is authentik's pk of the binding, a UUID (also the external name).
	ID string `json:"id,omitempty"`

	// PolicyBindingModelID is the binding's policy binding model ID, the target of policy
	// bindings on it.
	PolicyBindingModelID string `json:"policyBindingModelId,omitempty"`

	// FlowID is the UUID of the flow.
	FlowID string `json:"flowId,omitempty"`

	// StageName is the name of the bound stage.
	StageName string `json:"stageName,omitempty"`

	Order int32 `json:"order,omitempty"`

	// Provenance tells whether the binding was created, adopted or only observed.
	Provenance identityv1alpha1.Provenance `json:"provenance,omitempty"`
}
