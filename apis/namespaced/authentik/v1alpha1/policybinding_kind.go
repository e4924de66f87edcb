package v1alpha1

import (
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// A PolicyBindingSpec defines the desired state of a PolicyBinding.
type PolicyBindingSpec struct {
	xpv2.ManagedResourceSpec      `json:",inline"`
	identityv1alpha1.AdoptionSpec `json:",inline"`

	ForProvider PolicyBindingParameters `json:"forProvider"`
}

// A PolicyBindingStatus represents the observed state of a PolicyBinding.
type PolicyBindingStatus struct {
	xpv2.ManagedResourceStatus `json:",inline"`
	AtProvider                 PolicyBindingObservation `json:"atProvider,omitempty"`
}

// +kubebuilder:object:root=true

// A PolicyBinding binds a Policy, a Group or a User to an Application, a Flow or a
// FlowStageBinding at an order: the access control of the target. Its external name is its UUID.
// +kubebuilder:printcolumn:name="READY",type="string",JSONPath=".status.conditions[?(@.type=='Ready')].status"
// +kubebuilder:printcolumn:name="SYNCED",type="string",JSONPath=".status.conditions[?(@.type=='Synced')].status"
// +kubebuilder:printcolumn:name="EXTERNAL-NAME",type="string",JSONPath=".metadata.annotations.crossplane\\.io/external-name"
// +kubebuilder:printcolumn:name="PROVENANCE",type="string",JSONPath=".status.atProvider.provenance",priority=1
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced,categories={crossplane,managed,identity,authentik}
type PolicyBinding struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   PolicyBindingSpec   `json:"spec"`
	Status PolicyBindingStatus `json:"status,omitempty"`
}

// Parameters returns spec.forProvider.
func (mg *PolicyBinding) Parameters() *PolicyBindingParameters { return &mg.Spec.ForProvider }

// Observation returns status.atProvider.
func (mg *PolicyBinding) Observation() *PolicyBindingObservation { return &mg.Status.AtProvider }

// GetAdoptionPolicy returns spec.adoptionPolicy, defaulting to FailOnConflict.
func (mg *PolicyBinding) GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy {
	return mg.Spec.GetAdoptionPolicy()
}

// +kubebuilder:object:root=true

// PolicyBindingList contains a list of PolicyBinding.
type PolicyBindingList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []PolicyBinding `json:"items"`
}

// PolicyBinding type metadata.
var (
	PolicyBindingKind             = reflect.TypeFor[PolicyBinding]().Name()
	PolicyBindingGroupKind        = SchemeGroupVersion.WithKind(PolicyBindingKind).GroupKind()
	PolicyBindingGroupVersionKind = SchemeGroupVersion.WithKind(PolicyBindingKind)
)

func init() {
	SchemeBuilder.Register(&PolicyBinding{}, &PolicyBindingList{})
}
