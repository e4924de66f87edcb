package v1alpha1

import (
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// A PropertyMappingSpec defines the desired state of a PropertyMapping.
type PropertyMappingSpec struct {
	xpv2.ManagedResourceSpec      `json:",inline"`
	identityv1alpha1.AdoptionSpec `json:",inline"`

	ForProvider PropertyMappingParameters `json:"forProvider"`
}

// A PropertyMappingStatus represents the observed state of a PropertyMapping.
type PropertyMappingStatus struct {
	xpv2.ManagedResourceStatus `json:",inline"`
	AtProvider                 PropertyMappingObservation `json:"atProvider,omitempty"`
}

// +kubebuilder:object:root=true

// A PropertyMapping is an authentik provider property mapping of one type (an OAuth2 scope
// mapping or a SAML property mapping), set by exactly one block of spec.forProvider. Its
// external name is its UUID.
// +kubebuilder:printcolumn:name="READY",type="string",JSONPath=".status.conditions[?(@.type=='Ready')].status"
// +kubebuilder:printcolumn:name="SYNCED",type="string",JSONPath=".status.conditions[?(@.type=='Synced')].status"
// +kubebuilder:printcolumn:name="EXTERNAL-NAME",type="string",JSONPath=".metadata.annotations.crossplane\\.io/external-name"
// +kubebuilder:printcolumn:name="PROVENANCE",type="string",JSONPath=".status.atProvider.provenance",priority=1
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced,categories={crossplane,managed,identity,authentik}
type PropertyMapping struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   PropertyMappingSpec   `json:"spec"`
	Status PropertyMappingStatus `json:"status,omitempty"`
}

// Parameters returns spec.forProvider.
func (mg *PropertyMapping) Parameters() *PropertyMappingParameters { return &mg.Spec.ForProvider }

// Observation returns status.atProvider.
func (mg *PropertyMapping) Observation() *PropertyMappingObservation { return &mg.Status.AtProvider }

// GetAdoptionPolicy returns spec.adoptionPolicy, defaulting to FailOnConflict.
func (mg *PropertyMapping) GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy {
	return mg.Spec.GetAdoptionPolicy()
}

// +kubebuilder:object:root=true

// PropertyMappingList contains a list of PropertyMapping.
type PropertyMappingList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []PropertyMapping `json:"items"`
}

// PropertyMapping type metadata.
var (
	PropertyMappingKind             = reflect.TypeFor[PropertyMapping]().Name()
	PropertyMappingGroupKind        = SchemeGroupVersion.WithKind(PropertyMappingKind).GroupKind()
	PropertyMappingGroupVersionKind = SchemeGroupVersion.WithKind(PropertyMappingKind)
)

func init() {
	SchemeBuilder.Register(&PropertyMapping{}, &PropertyMappingList{})
}
