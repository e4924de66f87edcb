package v1alpha1

import (
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// GroupMembershipParameters name one Keystone group membership: a user in a group. A
// membership has no fields of its own, so nothing here can change once set: to put another
// user into a group, or the user into another group, create another GroupMembership.
// A reference or a selector fills in the ID it resolves to and stays set, so the rules ask for
// at least one of the three, not exactly one.
// +kubebuilder:validation:XValidation:rule="has(self.groupId) || has(self.groupRef) || has(self.groupSelector)",message="set the group: one of groupId, groupRef or groupSelector"
// +kubebuilder:validation:XValidation:rule="has(self.userId) || has(self.userRef) || has(self.userSelector)",message="set the user: one of userId, userRef or userSelector"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.groupId) || (has(self.groupId) && self.groupId == oldSelf.groupId)",message="groupId cannot be changed: create another GroupMembership instead"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.userId) || (has(self.userId) && self.userId == oldSelf.userId)",message="userId cannot be changed: create another GroupMembership instead"
type GroupMembershipParameters struct {
	// GroupID is the Keystone ID of the group. Usually filled in from GroupRef or GroupSelector.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^[^/]+$`
	// +identity:reference:type=Group
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\x00-\\x1f\\x7f]') && self != '.' && self != '..'",message="groupId must be a Keystone ID without control characters, and not . or .. (it is a segment of the membership's URL)"
	GroupID *string `json:"groupId,omitempty"`

	// GroupRef references the Group whose ID fills GroupID: a Group in this GroupMembership's namespace (for a
	// cluster-scoped GroupMembership, a cluster-scoped Group). A reference never leaves the namespace.
	// +optional
	GroupRef *xpv2.Reference `json:"groupRef,omitempty"`

	// GroupSelector selects the Group whose ID fills GroupID, among the Groups of this GroupMembership's
	// namespace (a cluster-scoped GroupMembership: among the cluster-scoped Groups).
	// +optional
	GroupSelector *xpv2.Selector `json:"groupSelector,omitempty"`

	// UserID is the Keystone ID of the user put into the group. Usually filled in from UserRef or
	// UserSelector.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^[^/]+$`
	// +identity:reference:type=User
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\x00-\\x1f\\x7f]') && self != '.' && self != '..'",message="userId must be a Keystone ID without control characters, and not . or .. (it is a segment of the membership's URL)"
	UserID *string `json:"userId,omitempty"`

	// UserRef references the User whose ID fills UserID: a User in this GroupMembership's namespace (for a
	// cluster-scoped GroupMembership, a cluster-scoped User). A reference never leaves the namespace.
	// +optional
	UserRef *xpv2.Reference `json:"userRef,omitempty"`

	// UserSelector selects the User whose ID fills UserID, among the Users of this GroupMembership's
	// namespace (a cluster-scoped GroupMembership: among the cluster-scoped Users).
	// +optional
	UserSelector *xpv2.Selector `json:"userSelector,omitempty"`
}

// GroupMembershipObservation is the observed state of a Keystone group membership.
type GroupMembershipObservation struct {
	// ID is the membership's key, also its external name: <group ID>/<user ID>.
	ID string `json:"id,omitempty"`

	GroupID string `json:"groupId,omitempty"`
	UserID  string `json:"userId,omitempty"`

	// Provenance tells whether the membership was created, adopted or only observed. Memberships
	// cannot carry a marker; the marker is kept in this resource's
	// identity.crossplane.io/provenance annotation instead.
	Provenance identityv1alpha1.Provenance `json:"provenance,omitempty"`
}
