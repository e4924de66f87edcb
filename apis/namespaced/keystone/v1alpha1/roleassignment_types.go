package v1alpha1

import (
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// RoleAssignmentParameters name one Keystone role assignment: a role, given to exactly one
// actor (a user or a group) on exactly one target (a project or a domain), optionally inherited
// by the target's projects. An assignment has no fields of its own, so nothing here can change
// once set: to assign something else, create another RoleAssignment.
// +kubebuilder:validation:XValidation:rule="has(self.roleId) || has(self.roleRef) || has(self.roleSelector)",message="set the role to assign: one of roleId, roleRef or roleSelector"
// +kubebuilder:validation:XValidation:rule="(has(self.userId) || has(self.userRef) || has(self.userSelector)) != (has(self.groupId) || has(self.groupRef) || has(self.groupSelector))",message="set exactly one actor: a user (userId, userRef or userSelector) or a group (groupId, groupRef or groupSelector), not both"
// +kubebuilder:validation:XValidation:rule="(has(self.projectId) || has(self.projectRef) || has(self.projectSelector)) != (has(self.domainId) || has(self.domainRef) || has(self.domainSelector))",message="set exactly one target: a project (projectId, projectRef or projectSelector) or a domain (domainId, domainRef or domainSelector), not both"
// +kubebuilder:validation:XValidation:rule="(has(self.userId) || has(self.userRef) || has(self.userSelector)) == (has(oldSelf.userId) || has(oldSelf.userRef) || has(oldSelf.userSelector))",message="the actor of a role assignment cannot change between a user and a group: create another RoleAssignment instead"
// +kubebuilder:validation:XValidation:rule="(has(self.projectId) || has(self.projectRef) || has(self.projectSelector)) == (has(oldSelf.projectId) || has(oldSelf.projectRef) || has(oldSelf.projectSelector))",message="the target of a role assignment cannot change between a project and a domain: create another RoleAssignment instead"
// +kubebuilder:validation:XValidation:rule="(has(self.inherited) && self.inherited) == (has(oldSelf.inherited) && oldSelf.inherited)",message="inherited cannot change: an inherited assignment is another assignment; create another RoleAssignment instead"
type RoleAssignmentParameters struct {
	// RoleID is the Keystone ID of the role to assign. Usually filled in from RoleRef or
	// RoleSelector.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="roleId cannot be changed: create another RoleAssignment instead"
	// +identity:reference:type=Role
	// +kubebuilder:validation:XValidation:rule="self.matches('^[A-Za-z0-9-]+$')",message="roleId must be a Keystone role ID: letters, digits and hyphens only, as Keystone itself requires (for example 4c0f8d3b9e2a4f5c8a7b6d5e4f3a2b1c)"
	RoleID *string `json:"roleId,omitempty"`

	// RoleRef references the Role whose ID fills RoleID: a Role in this RoleAssignment's namespace (for a
	// cluster-scoped RoleAssignment, a cluster-scoped Role). A reference never leaves the namespace.
	// +optional
	RoleRef *xpv2.Reference `json:"roleRef,omitempty"`

	// RoleSelector selects the Role whose ID fills RoleID, among the Roles of this RoleAssignment's
	// namespace (a cluster-scoped RoleAssignment: among the cluster-scoped Roles).
	// +optional
	RoleSelector *xpv2.Selector `json:"roleSelector,omitempty"`

	// UserID is the Keystone ID of the user the role is given to.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^[^/]+$`
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="userId cannot be changed: create another RoleAssignment instead"
	// +identity:reference:type=User
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\x00-\\x1f\\x7f]') && self != '.' && self != '..'",message="userId must be a Keystone ID without control characters, and not . or .. (it is a segment of the assignment's URL)"
	UserID *string `json:"userId,omitempty"`

	// UserRef references the User whose ID fills UserID: a User in this RoleAssignment's namespace (for a
	// cluster-scoped RoleAssignment, a cluster-scoped User). A reference never leaves the namespace.
	// +optional
	UserRef *xpv2.Reference `json:"userRef,omitempty"`

	// UserSelector selects the User whose ID fills UserID, among the Users of this RoleAssignment's
	// namespace (a cluster-scoped RoleAssignment: among the cluster-scoped Users).
	// +optional
	UserSelector *xpv2.Selector `json:"userSelector,omitempty"`

	// GroupID is the Keystone ID of the group the role is given to.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^[^/]+$`
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="groupId cannot be changed: create another RoleAssignment instead"
	// +identity:reference:type=Group
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\x00-\\x1f\\x7f]') && self != '.' && self != '..'",message="groupId must be a Keystone ID without control characters, and not . or .. (it is a segment of the assignment's URL)"
	GroupID *string `json:"groupId,omitempty"`

	// GroupRef references the Group whose ID fills GroupID: a Group in this RoleAssignment's namespace (for a
	// cluster-scoped RoleAssignment, a cluster-scoped Group). A reference never leaves the namespace.
	// +optional
	GroupRef *xpv2.Reference `json:"groupRef,omitempty"`

	// GroupSelector selects the Group whose ID fills GroupID, among the Groups of this RoleAssignment's
	// namespace (a cluster-scoped RoleAssignment: among the cluster-scoped Groups).
	// +optional
	GroupSelector *xpv2.Selector `json:"groupSelector,omitempty"`

	// ProjectID is the Keystone ID of the project the role is given on.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="projectId cannot be changed: create another RoleAssignment instead"
	// +identity:reference:type=Project
	// +kubebuilder:validation:XValidation:rule="self.matches('^[A-Za-z0-9-]+$')",message="projectId must be a Keystone project ID: letters, digits and hyphens only, as Keystone itself requires (for example 4c0f8d3b9e2a4f5c8a7b6d5e4f3a2b1c)"
	ProjectID *string `json:"projectId,omitempty"`

	// ProjectRef references the Project whose ID fills ProjectID: a Project in this RoleAssignment's namespace (for a
	// cluster-scoped RoleAssignment, a cluster-scoped Project). A reference never leaves the namespace.
	// +optional
	ProjectRef *xpv2.Reference `json:"projectRef,omitempty"`

	// ProjectSelector selects the Project whose ID fills ProjectID, among the Projects of this RoleAssignment's
	// namespace (a cluster-scoped RoleAssignment: among the cluster-scoped Projects).
	// +optional
	ProjectSelector *xpv2.Selector `json:"projectSelector,omitempty"`

	// DomainID is the Keystone ID of the domain the role is given on ("default" for
	// Keystone's Default domain).
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="domainId cannot be changed: create another RoleAssignment instead"
	// +identity:reference:type=Domain
	// +kubebuilder:validation:XValidation:rule="self.matches('^[A-Za-z0-9-]+$')",message="domainId must be a Keystone domain ID: letters, digits and hyphens only, as Keystone itself requires (for example 4c0f8d3b9e2a4f5c8a7b6d5e4f3a2b1c, or default for the Default domain)"
	DomainID *string `json:"domainId,omitempty"`

	// DomainRef references the Domain whose ID fills DomainID: a Domain in this RoleAssignment's namespace (for a
	// cluster-scoped RoleAssignment, a cluster-scoped Domain). A reference never leaves the namespace.
	// +optional
	DomainRef *xpv2.Reference `json:"domainRef,omitempty"`

	// DomainSelector selects the Domain whose ID fills DomainID, among the Domains of this RoleAssignment's
	// namespace (a cluster-scoped RoleAssignment: among the cluster-scoped Domains).
	// +optional
	DomainSelector *xpv2.Selector `json:"domainSelector,omitempty"`

	// Inherited makes the assignment apply to the projects below the target rather than to
	// the target itself (Keystone's OS-INHERIT): on a domain, to every project of the domain;
	// on a project, to every project under it. Default false.
	// +optional
	Inherited *bool `json:"inherited,omitempty"`
}

// RoleAssignmentObservation is the observed state of a Keystone role assignment.
type RoleAssignmentObservation struct {
	// ID is the assignment's key, also its external name:
	// <project|domain>/<target ID>/<user|group>/<actor ID>/role/<role ID>, followed by
	// /inherited for an inherited assignment.
	ID string `json:"id,omitempty"`

	RoleID    string `json:"roleId,omitempty"`
	UserID    string `json:"userId,omitempty"`
	GroupID   string `json:"groupId,omitempty"`
	ProjectID string `json:"projectId,omitempty"`
	DomainID  string `json:"domainId,omitempty"`
	Inherited bool   `json:"inherited,omitempty"`

	// Provenance tells whether the assignment was created, adopted or only observed. Role
	// assignments cannot carry a marker; the marker is kept in this resource's
	// identity.crossplane.io/provenance annotation instead.
	Provenance identityv1alpha1.Provenance `json:"provenance,omitempty"`
}
