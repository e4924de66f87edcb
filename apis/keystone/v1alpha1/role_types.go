package v1alpha1

import (
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// RoleParameters are the configurable fields of a Keystone role.
type RoleParameters struct {
	// Name of the role. Global role names are unique among global roles, and a domain-specific
	// role's name is unique within its domain; the name (and the domain, if any) is how an
	// existing role is found when the resource has no external name yet.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:Pattern=`\S`
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\x00-\\x1f\\x7f]')",message="name must not contain control characters (newline, tab, escape...): Keystone would store them in the role name as given"
	Name string `json:"name"`

	// DomainID makes the role domain-specific: it is the Keystone ID of the domain the role
	// belongs to. Unset (with no DomainRef or DomainSelector), the role is global. Keystone
	// cannot move a role to another domain, so it cannot be changed once set.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="domainId cannot be changed: Keystone cannot move a role to another domain; create a new Role instead"
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

	// Description of the role.
	// +optional
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f]')",message="description must not contain control characters other than tabs and line breaks: Keystone would store them in the role description as given"
	Description *string `json:"description,omitempty"`
}

// RoleObservation is the observed state of a Keystone role.
type RoleObservation struct {
	// ID is Keystone's ID of the role (also the external name).
	ID string `json:"id,omitempty"`

	Name string `json:"name,omitempty"`
	// DomainID is empty for a global role.
	DomainID    string `json:"domainId,omitempty"`
	Description string `json:"description,omitempty"`

	// Provenance tells whether the role was created, adopted or only observed.
	Provenance identityv1alpha1.Provenance `json:"provenance,omitempty"`
}

// A RoleSpec defines the desired state of a Role.
type RoleSpec struct {
	xpv2.ClusterManagedResourceSpec `json:",inline"`
	identityv1alpha1.AdoptionSpec   `json:",inline"`

	ForProvider RoleParameters `json:"forProvider"`
}

// A RoleStatus represents the observed state of a Role.
type RoleStatus struct {
	xpv2.ManagedResourceStatus `json:",inline"`
	AtProvider                 RoleObservation `json:"atProvider,omitempty"`
}

// +kubebuilder:object:root=true

// A Role is a Keystone role, global or specific to one domain.
// +kubebuilder:printcolumn:name="READY",type="string",JSONPath=".status.conditions[?(@.type=='Ready')].status"
// +kubebuilder:printcolumn:name="SYNCED",type="string",JSONPath=".status.conditions[?(@.type=='Synced')].status"
// +kubebuilder:printcolumn:name="EXTERNAL-NAME",type="string",JSONPath=".metadata.annotations.crossplane\\.io/external-name"
// +kubebuilder:printcolumn:name="PROVENANCE",type="string",JSONPath=".status.atProvider.provenance",priority=1
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Cluster,categories={crossplane,managed,identity,keystone}
type Role struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   RoleSpec   `json:"spec"`
	Status RoleStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// RoleList contains a list of Role.
type RoleList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Role `json:"items"`
}

// Role type metadata.
var (
	RoleKind             = reflect.TypeFor[Role]().Name()
	RoleGroupKind        = SchemeGroupVersion.WithKind(RoleKind).GroupKind()
	RoleGroupVersionKind = SchemeGroupVersion.WithKind(RoleKind)
)

func init() {
	SchemeBuilder.Register(&Role{}, &RoleList{})
}
