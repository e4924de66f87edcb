package v1alpha1

import (
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// A FlowStageBindingSpec defines the desired state of a FlowStageBinding.
type FlowStageBindingSpec struct {
	xpv2.ManagedResourceSpec      `json:",inline"`
	identityv1alpha1.AdoptionSpec `json:",inline"`

	ForProvider FlowStageBindingParameters `json:"forProvider"`
}

// A FlowStageBindingStatus represents the observed state of a FlowStageBinding.
type FlowStageBindingStatus struct {
	xpv2.ManagedResourceStatus `json:",inline"`
	AtProvider                 FlowStageBindingObservation `json:"atProvider,omitempty"`
}

// +kubebuilder:object:root=true

// A FlowStageBinding binds a Stage into a Flow at an order. Its external name is its UUID.
// +kubebuilder:printcolumn:name="READY",type="string",JSONPath=".status.conditions[?(@.type=='Ready')].status"
// +kubebuilder:printcolumn:name="SYNCED",type="string",JSONPath=".status.conditions[?(@.type=='Synced')].status"
// +kubebuilder:printcolumn:name="EXTERNAL-NAME",type="string",JSONPath=".metadata.annotations.crossplane\\.io/external-name"
// +kubebuilder:printcolumn:name="PROVENANCE",type="string",JSONPath=".status.atProvider.provenance",priority=1
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced,categories={crossplane,managed,identity,authentik}
type FlowStageBinding struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   FlowStageBindingSpec   `json:"spec"`
	Status FlowStageBindingStatus `json:"status,omitempty"`
}

// Parameters returns spec.forProvider.
func (mg *FlowStageBinding) Parameters() *FlowStageBindingParameters { return &mg.Spec.ForProvider }

// Observation returns status.atProvider.
func (mg *FlowStageBinding) Observation() *FlowStageBindingObservation { return &mg.Status.AtProvider }

// GetAdoptionPolicy returns spec.adoptionPolicy, defaulting to FailOnConflict.
func (mg *FlowStageBinding) GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy {
	return mg.Spec.GetAdoptionPolicy()
}

// +kubebuilder:object:root=true

// FlowStageBindingList contains a list of FlowStageBinding.
type FlowStageBindingList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []FlowStageBinding `json:"items"`
}

// FlowStageBinding type metadata.
var (
	FlowStageBindingKind             = reflect.TypeFor[FlowStageBinding]().Name()
	FlowStageBindingGroupKind        = SchemeGroupVersion.WithKind(FlowStageBindingKind).GroupKind()
	FlowStageBindingGroupVersionKind = SchemeGroupVersion.WithKind(FlowStageBindingKind)
)

func init() {
	SchemeBuilder.Register(&FlowStageBinding{}, &FlowStageBindingList{})
}
