package v1alpha1

import (
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// ImpliedRoleParameters name one Keystone implied-role rule: the prior role implies the
// implied one. A rule has no fields of its own, so nothing here can change once set: to make a
// role imply another, create another ImpliedRole. Keystone refuses a global prior role implying
// a domain-specific one, and a rule that implies a role named in its [assignment]
// prohibited_implied_role option (admin by default).
// A reference or a selector fills in the ID it resolves to and stays set, so the rules ask for
// at least one of the three, not exactly one.
// +kubebuilder:validation:XValidation:rule="has(self.priorRoleId) || has(self.priorRoleRef) || has(self.priorRoleSelector)",message="set the prior role: one of priorRoleId, priorRoleRef or priorRoleSelector"
// +kubebuilder:validation:XValidation:rule="has(self.impliedRoleId) || has(self.impliedRoleRef) || has(self.impliedRoleSelector)",message="set the implied role: one of impliedRoleId, impliedRoleRef or impliedRoleSelector"
// +kubebuilder:validation:XValidation:rule="!has(self.priorRoleId) || !has(self.impliedRoleId) || self.priorRoleId != self.impliedRoleId",message="a role cannot imply itself: priorRoleId and impliedRoleId must differ"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.priorRoleId) || (has(self.priorRoleId) && self.priorRoleId == oldSelf.priorRoleId)",message="priorRoleId cannot be changed: create another ImpliedRole instead"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.impliedRoleId) || (has(self.impliedRoleId) && self.impliedRoleId == oldSelf.impliedRoleId)",message="impliedRoleId cannot be changed: create another ImpliedRole instead"
type ImpliedRoleParameters struct {
	// PriorRoleID is the Keystone ID of the role that implies the other. Usually filled in from
	// PriorRoleRef or PriorRoleSelector.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +identity:reference:type=Role
	// +kubebuilder:validation:XValidation:rule="self.matches('^[A-Za-z0-9-]+$')",message="priorRoleId must be a Keystone role ID: letters, digits and hyphens only, as Keystone itself requires (for example 4c0f8d3b9e2a4f5c8a7b6d5e4f3a2b1c)"
	PriorRoleID *string `json:"priorRoleId,omitempty"`

	// PriorRoleRef references the Role whose ID fills PriorRoleID: a Role in this ImpliedRole's namespace (for a
	// cluster-scoped ImpliedRole, a cluster-scoped Role). A reference never leaves the namespace.
	// +optional
	PriorRoleRef *xpv2.Reference `json:"priorRoleRef,omitempty"`

	// PriorRoleSelector selects the Role whose ID fills PriorRoleID, among the Roles of this ImpliedRole's
	// namespace (a cluster-scoped ImpliedRole: among the cluster-scoped Roles).
	// +optional
	PriorRoleSelector *xpv2.Selector `json:"priorRoleSelector,omitempty"`

	// ImpliedRoleID is the Keystone ID of the role implied. Usually filled in from
	// ImpliedRoleRef or ImpliedRoleSelector.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +identity:reference:type=Role
	// +kubebuilder:validation:XValidation:rule="self.matches('^[A-Za-z0-9-]+$')",message="impliedRoleId must be a Keystone role ID: letters, digits and hyphens only, as Keystone itself requires (for example 4c0f8d3b9e2a4f5c8a7b6d5e4f3a2b1c)"
	ImpliedRoleID *string `json:"impliedRoleId,omitempty"`

	// ImpliedRoleRef references the Role whose ID fills ImpliedRoleID: a Role in this ImpliedRole's namespace (for a
	// cluster-scoped ImpliedRole, a cluster-scoped Role). A reference never leaves the namespace.
	// +optional
	ImpliedRoleRef *xpv2.Reference `json:"impliedRoleRef,omitempty"`

	// ImpliedRoleSelector selects the Role whose ID fills ImpliedRoleID, among the Roles of this ImpliedRole's
	// namespace (a cluster-scoped ImpliedRole: among the cluster-scoped Roles).
	// +optional
	ImpliedRoleSelector *xpv2.Selector `json:"impliedRoleSelector,omitempty"`
}

// ImpliedRoleObservation is the observed state of a Keystone implied-role rule.
type ImpliedRoleObservation struct {
	// ID is the rule's key, also its external name: <prior role ID>/<implied role ID>.
	ID string `json:"id,omitempty"`

	PriorRoleID   string `json:"priorRoleId,omitempty"`
	ImpliedRoleID string `json:"impliedRoleId,omitempty"`

	// Provenance tells whether the rule was created, adopted or only observed. Rules cannot
	// carry a marker; the marker is kept in this resource's identity.crossplane.io/provenance
	// annotation instead.
	Provenance identityv1alpha1.Provenance `json:"provenance,omitempty"`
}
