package v1alpha1

import (
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// A GroupMembershipSpec defines the desired state of a GroupMembership.
type GroupMembershipSpec struct {
	xpv2.ManagedResourceSpec      `json:",inline"`
	identityv1alpha1.AdoptionSpec `json:",inline"`

	ForProvider GroupMembershipParameters `json:"forProvider"`
}

// A GroupMembershipStatus represents the observed state of a GroupMembership.
type GroupMembershipStatus struct {
	xpv2.ManagedResourceStatus `json:",inline"`
	AtProvider                 GroupMembershipObservation `json:"atProvider,omitempty"`
}

// +kubebuilder:object:root=true

// A GroupMembership puts a Keystone user into a Keystone group. Its external name is the
// membership's key, <group ID>/<user ID>.
// +kubebuilder:printcolumn:name="READY",type="string",JSONPath=".status.conditions[?(@.type=='Ready')].status"
// +kubebuilder:printcolumn:name="SYNCED",type="string",JSONPath=".status.conditions[?(@.type=='Synced')].status"
// +kubebuilder:printcolumn:name="EXTERNAL-NAME",type="string",JSONPath=".metadata.annotations.crossplane\\.io/external-name"
// +kubebuilder:printcolumn:name="PROVENANCE",type="string",JSONPath=".status.atProvider.provenance",priority=1
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced,categories={crossplane,managed,identity,keystone}
type GroupMembership struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   GroupMembershipSpec   `json:"spec"`
	Status GroupMembershipStatus `json:"status,omitempty"`
}

// Parameters returns spec.forProvider.
func (mg *GroupMembership) Parameters() *GroupMembershipParameters { return &mg.Spec.ForProvider }

// Observation returns status.atProvider.
func (mg *GroupMembership) Observation() *GroupMembershipObservation { return &mg.Status.AtProvider }

// GetAdoptionPolicy returns spec.adoptionPolicy, defaulting to FailOnConflict.
func (mg *GroupMembership) GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy {
	return mg.Spec.GetAdoptionPolicy()
}

// +kubebuilder:object:root=true

// GroupMembershipList contains a list of GroupMembership.
type GroupMembershipList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []GroupMembership `json:"items"`
}

// GroupMembership type metadata.
var (
	GroupMembershipKind             = reflect.TypeFor[GroupMembership]().Name()
	GroupMembershipGroupKind        = SchemeGroupVersion.WithKind(GroupMembershipKind).GroupKind()
	GroupMembershipGroupVersionKind = SchemeGroupVersion.WithKind(GroupMembershipKind)
)

func init() {
	SchemeBuilder.Register(&GroupMembership{}, &GroupMembershipList{})
}
