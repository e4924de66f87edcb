package v1alpha1

import (
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// PolicyBindingParameters are the configurable fields of an authentik policy binding: who
// (a policy, a group or a user) is bound to what (an application, a flow or a flow-stage
// binding), at which order. Every optional field left unset is left as authentik has it and
// never causes a write.
// +kubebuilder:validation:XValidation:rule="[has(self.policyId) || has(self.policyRef) || has(self.policySelector), has(self.groupId) || has(self.groupRef) || has(self.groupSelector), has(self.userId) || has(self.userRef) || has(self.userSelector)].filter(x, x).size() == 1",message="a policy binding binds exactly one of a policy, a group or a user: set one of policyId/policyRef/policySelector, groupId/groupRef/groupSelector or userId/userRef/userSelector"
// +kubebuilder:validation:XValidation:rule="[has(self.application) || has(self.applicationRef) || has(self.applicationSelector), has(self.flow) || has(self.flowRef) || has(self.flowSelector), has(self.flowStageBindingId) || has(self.flowStageBindingRef) || has(self.flowStageBindingSelector)].filter(x, x).size() == 1",message="a policy binding has exactly one target: set one of application/applicationRef/applicationSelector, flow/flowRef/flowSelector or flowStageBindingId/flowStageBindingRef/flowStageBindingSelector"
type PolicyBindingParameters struct {
	// PolicyID is the UUID of the policy bound. Usually filled in from PolicyRef or
	// PolicySelector.
	// +optional
	// +kubebuilder:validation:Pattern=`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`
	// +identity:reference:type=Policy
	PolicyID *string `json:"policyId,omitempty"`

	// PolicyRef references the Policy whose UUID fills PolicyID: a Policy in this binding's
	// namespace (for a cluster-scoped binding, a cluster-scoped Policy).
	// +optional
	PolicyRef *xpv2.Reference `json:"policyRef,omitempty"`

	// PolicySelector selects the Policy whose UUID fills PolicyID, among the Policies of this
	// binding's namespace (a cluster-scoped binding: among the cluster-scoped ones).
	// +optional
	PolicySelector *xpv2.Selector `json:"policySelector,omitempty"`

	// GroupID is the UUID of the group bound: its members pass. Usually filled in from GroupRef
	// or GroupSelector.
	// +optional
	// +kubebuilder:validation:Pattern=`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`
	// +identity:reference:type=Group
	GroupID *string `json:"groupId,omitempty"`

	// GroupRef references the Group whose UUID fills GroupID: a Group in this binding's
	// namespace (for a cluster-scoped binding, a cluster-scoped Group).
	// +optional
	GroupRef *xpv2.Reference `json:"groupRef,omitempty"`

	// GroupSelector selects the Group whose UUID fills GroupID, among the Groups of this
	// binding's namespace (a cluster-scoped binding: among the cluster-scoped ones).
	// +optional
	GroupSelector *xpv2.Selector `json:"groupSelector,omitempty"`

	// UserID is the pk (a number) of the user bound: that user passes. Usually filled in from
	// UserRef or UserSelector.
	// +optional
	// +kubebuilder:validation:MaxLength=10
	// +kubebuilder:validation:Pattern=`^[0-9]+$`
	// +identity:reference:type=User
	UserID *string `json:"userId,omitempty"`

	// UserRef references the User whose pk fills UserID: a User in this binding's namespace
	// (for a cluster-scoped binding, a cluster-scoped User).
	// +optional
	UserRef *xpv2.Reference `json:"userRef,omitempty"`

	// UserSelector selects the User whose pk fills UserID, among the Users of this binding's
	// namespace (a cluster-scoped binding: among the cluster-scoped ones).
	// +optional
	UserSelector *xpv2.Selector `json:"userSelector,omitempty"`

	// Application is the slug of the application the binding applies to. Usually filled in
	// from ApplicationRef or ApplicationSelector; a slug names any application, ours or not.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=50
	// +kubebuilder:validation:Pattern=`^[-a-zA-Z0-9_]+$`
	// +identity:reference:type=Application
	Application *string `json:"application,omitempty"`

	// ApplicationRef references the Application whose slug fills Application: an Application
	// in this binding's namespace (for a cluster-scoped binding, a cluster-scoped one).
	// +optional
	ApplicationRef *xpv2.Reference `json:"applicationRef,omitempty"`

	// ApplicationSelector selects the Application whose slug fills Application, among the
	// Applications of this binding's namespace (a cluster-scoped binding: the cluster-scoped
	// ones).
	// +optional
	ApplicationSelector *xpv2.Selector `json:"applicationSelector,omitempty"`

	// Flow is the slug of the flow the binding applies to. Usually filled in from FlowRef or
	// FlowSelector.
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

	// FlowStageBindingID is the UUID of the flow-stage binding the binding applies to (the
	// stage is shown only when it passes). Usually filled in from FlowStageBindingRef or
	// FlowStageBindingSelector.
	// +optional
	// +kubebuilder:validation:Pattern=`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`
	// +identity:reference:type=FlowStageBinding
	FlowStageBindingID *string `json:"flowStageBindingId,omitempty"`

	// FlowStageBindingRef references the FlowStageBinding whose UUID fills FlowStageBindingID:
	// one in this binding's namespace (for a cluster-scoped binding, a cluster-scoped one).
	// +optional
	FlowStageBindingRef *xpv2.Reference `json:"flowStageBindingRef,omitempty"`

	// FlowStageBindingSelector selects the FlowStageBinding whose UUID fills
	// FlowStageBindingID, among those of this binding's namespace (a cluster-scoped binding:
	// among the cluster-scoped ones).
	// +optional
	FlowStageBindingSelector *xpv2.Selector `json:"flowStageBindingSelector,omitempty"`

	// Order of the binding among the target's bindings, lowest first. A policy, a target and
	// an order are unique together in authentik. The target, what is bound and the order are
	// how an existing binding is found when the resource has no external name.
	// +kubebuilder:validation:Minimum=-2147483648
	// +kubebuilder:validation:Maximum=2147483647
	Order int32 `json:"order"`

	// Negate inverts the result. authentik's default is false.
	// +optional
	Negate *bool `json:"negate,omitempty"`

	// Enabled turns the binding on or off. authentik's default is true.
	// +optional
	Enabled *bool `json:"enabled,omitempty"`

	// Timeout is how many seconds a policy may run. authentik's default is 30.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=2147483647
	Timeout *int32 `json:"timeout,omitempty"`

	// FailureResult is the result when the policy fails to run. authentik's default is false.
	// +optional
	FailureResult *bool `json:"failureResult,omitempty"`
}

// PolicyBindingObservation is the observed state of an authentik policy binding.
type PolicyBindingObservation struct {
	// ID is authentik's pk of the binding, a UUID (also the external name).
	ID string `json:"id,omitempty"`

	// Target is the pk of the application, flow or flow-stage binding the binding applies to.
	Target string `json:"target,omitempty"`

	// Bound names what is bound: policy, group or user, and its name.
	Bound string `json:"bound,omitempty"`

	Order int32 `json:"order,omitempty"`

	// Provenance tells whether the binding was created, adopted or only observed.
	Provenance identityv1alpha1.Provenance `json:"provenance,omitempty"`
}
