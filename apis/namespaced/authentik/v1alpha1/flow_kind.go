package v1alpha1

import (
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// A FlowSpec defines the desired state of a Flow.
type FlowSpec struct {
	xpv2.ManagedResourceSpec      `json:",inline"`
	identityv1alpha1.AdoptionSpec `json:",inline"`

	ForProvider FlowParameters `json:"forProvider"`
}

// A FlowStatus represents the observed state of a Flow.
type FlowStatus struct {
	xpv2.ManagedResourceStatus `json:",inline"`
	AtProvider                 FlowObservation `json:"atProvider,omitempty"`
}

// +kubebuilder:object:root=true

// A Flow is an authentik flow: the sequence of stages a login, enrollment, recovery or
// authorization runs through. Its external name is its slug.
// +kubebuilder:printcolumn:name="READY",type="string",JSONPath=".status.conditions[?(@.type=='Ready')].status"
// +kubebuilder:printcolumn:name="SYNCED",type="string",JSONPath=".status.conditions[?(@.type=='Synced')].status"
// +kubebuilder:printcolumn:name="EXTERNAL-NAME",type="string",JSONPath=".metadata.annotations.crossplane\\.io/external-name"
// +kubebuilder:printcolumn:name="PROVENANCE",type="string",JSONPath=".status.atProvider.provenance",priority=1
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced,categories={crossplane,managed,identity,authentik}
type Flow struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   FlowSpec   `json:"spec"`
	Status FlowStatus `json:"status,omitempty"`
}

// Parameters returns spec.forProvider.
func (mg *Flow) Parameters() *FlowParameters { return &mg.Spec.ForProvider }

// Observation returns status.atProvider.
func (mg *Flow) Observation() *FlowObservation { return &mg.Status.AtProvider }

// GetAdoptionPolicy returns spec.adoptionPolicy, defaulting to FailOnConflict.
func (mg *Flow) GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy {
	return mg.Spec.GetAdoptionPolicy()
}

// +kubebuilder:object:root=true

// FlowList contains a list of Flow.
type FlowList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Flow `json:"items"`
}

// Flow type metadata.
var (
	FlowKind             = reflect.TypeFor[Flow]().Name()
	FlowGroupKind        = SchemeGroupVersion.WithKind(FlowKind).GroupKind()
	FlowGroupVersionKind = SchemeGroupVersion.WithKind(FlowKind)
)

func init() {
	SchemeBuilder.Register(&Flow{}, &FlowList{})
}
