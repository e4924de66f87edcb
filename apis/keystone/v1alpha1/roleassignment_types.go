package v1alpha1

import (
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

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
	// +crossplane:generate:reference:type=Role
	// +crossplane:generate:reference:refFieldName=RoleRef
	// +crossplane:generate:reference:selectorFieldName=RoleSelector
	// +kubebuilder:validation:XValidation:rule="self.matches('^[A-Za-z0-9-]+$')",message="roleId must be a Keystone role ID: letters, digits and hyphens only, as Keystone itself requires (for example 4c0f8d3b9e2a4f5c8a7b6d5e4f3a2b1c)"
	RoleID *string `json:"roleId,omitempty"`

	// RoleRef references the Role whose ID fills RoleID.
	// +optional
	RoleRef *xpv2.Reference `json:"roleRef,omitempty"`

	// RoleSelector selects the Role whose ID fills RoleID.
	// +optional
	RoleSelector *xpv2.Selector `json:"roleSelector,omitempty"`

	// UserID is the Keystone ID of the user the role is given to.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^[^/]+$`
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="userId cannot be changed: create another RoleAssignment instead"
	// +crossplane:generate:reference:type=User
	// +crossplane:generate:reference:refFieldName=UserRef
	// +crossplane:generate:reference:selectorFieldName=UserSelector
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\x00-\\x1f\\x7f]') && self != '.' && self != '..'",message="userId must be a Keystone ID without control characters, and not . or .. (it is a segment of the assignment's URL)"
	UserID *string `json:"userId,omitempty"`

	// UserRef references the User whose ID fills UserID.
	// +optional
	UserRef *xpv2.Reference `json:"userRef,omitempty"`

	// UserSelector selects the User whose ID fills UserID.
	// +optional
	UserSelector *xpv2.Selector `json:"userSelector,omitempty"`

	// GroupID is the Keystone ID of the group the role is given to.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^[^/]+$`
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="groupId cannot be changed: create another RoleAssignment instead"
	// +crossplane:generate:reference:type=Group
	// +crossplane:generate:reference:refFieldName=GroupRef
	// +crossplane:generate:reference:selectorFieldName=GroupSelector
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\x00-\\x1f\\x7f]') && self != '.' && self != '..'",message="groupId must be a Keystone ID without control characters, and not . or .. (it is a segment of the assignment's URL)"
	GroupID *string `json:"groupId,omitempty"`

	// GroupRef references the Group whose ID fills GroupID.
	// +optional
	GroupRef *xpv2.Reference `json:"groupRef,omitempty"`

	// GroupSelector selects the Group whose ID fills GroupID.
	// +optional
	GroupSelector *xpv2.Selector `json:"groupSelector,omitempty"`

	// ProjectID is the Keystone ID of the project the role is given on.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="projectId cannot be changed: create another RoleAssignment instead"
	// +crossplane:generate:reference:type=Project
	// +crossplane:generate:reference:refFieldName=ProjectRef
	// +crossplane:generate:reference:selectorFieldName=ProjectSelector
	// +kubebuilder:validation:XValidation:rule="self.matches('^[A-Za-z0-9-]+$')",message="projectId must be a Keystone project ID: letters, digits and hyphens only, as Keystone itself requires (for example 4c0f8d3b9e2a4f5c8a7b6d5e4f3a2b1c)"
	ProjectID *string `json:"projectId,omitempty"`

	// ProjectRef references the Project whose ID fills ProjectID.
	// +optional
	ProjectRef *xpv2.Reference `json:"projectRef,omitempty"`

	// ProjectSelector selects the Project whose ID fills ProjectID.
	// +optional
	ProjectSelector *xpv2.Selector `json:"projectSelector,omitempty"`

	// DomainID is the Keystone ID of the domain the role is given on ("default" for
	// Keystone's Default domain).
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="domainId cannot be changed: create another RoleAssignment instead"
	// +crossplane:generate:reference:type=Domain
	// +crossplane:generate:reference:refFieldName=DomainRef
	// +crossplane:generate:reference:selectorFieldName=DomainSelector
	// +kubebuilder:validation:XValidation:rule="self.matches('^[A-Za-z0-9-]+$')",message="domainId must be a Keystone domain ID: letters, digits and hyphens only, as Keystone itself requires (for example 4c0f8d3b9e2a4f5c8a7b6d5e4f3a2b1c, or default for the Default domain)"
	DomainID *string `json:"domainId,omitempty"`

	// DomainRef references the Domain whose ID fills DomainID.
	// +optional
	DomainRef *xpv2.Reference `json:"domainRef,omitempty"`

	// DomainSelector selects the Domain whose ID fills DomainID.
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

// A RoleAssignmentSpec defines the desired state of a RoleAssignment.
type RoleAssignmentSpec struct {
	xpv2.ClusterManagedResourceSpec `json:",inline"`
	identityv1alpha1.AdoptionSpec   `json:",inline"`

	ForProvider RoleAssignmentParameters `json:"forProvider"`
}

// A RoleAssignmentStatus represents the observed state of a RoleAssignment.
type RoleAssignmentStatus struct {
	xpv2.ManagedResourceStatus `json:",inline"`
	AtProvider                 RoleAssignmentObservation `json:"atProvider,omitempty"`
}

// +kubebuilder:object:root=true

// A RoleAssignment gives a Keystone role to a user or a group on a project or a domain. Its
// external name is the assignment's key, for example
// project/<project ID>/user/<user ID>/role/<role ID> or
// domain/<domain ID>/group/<group ID>/role/<role ID>/inherited.
// +kubebuilder:printcolumn:name="READY",type="string",JSONPath=".status.conditions[?(@.type=='Ready')].status"
// +kubebuilder:printcolumn:name="SYNCED",type="string",JSONPath=".status.conditions[?(@.type=='Synced')].status"
// +kubebuilder:printcolumn:name="EXTERNAL-NAME",type="string",JSONPath=".metadata.annotations.crossplane\\.io/external-name"
// +kubebuilder:printcolumn:name="PROVENANCE",type="string",JSONPath=".status.atProvider.provenance",priority=1
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Cluster,categories={crossplane,managed,identity,keystone}
type RoleAssignment struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   RoleAssignmentSpec   `json:"spec"`
	Status RoleAssignmentStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// RoleAssignmentList contains a list of RoleAssignment.
type RoleAssignmentList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []RoleAssignment `json:"items"`
}

// RoleAssignment type metadata.
var (
	RoleAssignmentKind             = reflect.TypeFor[RoleAssignment]().Name()
	RoleAssignmentGroupKind        = SchemeGroupVersion.WithKind(RoleAssignmentKind).GroupKind()
	RoleAssignmentGroupVersionKind = SchemeGroupVersion.WithKind(RoleAssignmentKind)
)

func init() {
	SchemeBuilder.Register(&RoleAssignment{}, &RoleAssignmentList{})
}
