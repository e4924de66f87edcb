package v1alpha1

import (
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// A RoleAssignmentSpec defines the desired state of a RoleAssignment.
type RoleAssignmentSpec struct {
	xpv2.ManagedResourceSpec      `json:",inline"`
	identityv1alpha1.AdoptionSpec `json:",inline"`

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
// +kubebuilder:resource:scope=Namespaced,categories={crossplane,managed,identity,keystone}
type RoleAssignment struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   RoleAssignmentSpec   `json:"spec"`
	Status RoleAssignmentStatus `json:"status,omitempty"`
}

// Parameters returns spec.forProvider.
func (mg *RoleAssignment) Parameters() *RoleAssignmentParameters { return &mg.Spec.ForProvider }

// Observation returns status.atProvider.
func (mg *RoleAssignment) Observation() *RoleAssignmentObservation { return &mg.Status.AtProvider }

// GetAdoptionPolicy returns spec.adoptionPolicy, defaulting to FailOnConflict.
func (mg *RoleAssignment) GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy {
	return mg.Spec.GetAdoptionPolicy()
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
