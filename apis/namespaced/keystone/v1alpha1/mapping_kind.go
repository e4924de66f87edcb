package v1alpha1

import (
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// A MappingSpec defines the desired state of a Mapping.
type MappingSpec struct {
	xpv2.ManagedResourceSpec      `json:",inline"`
	identityv1alpha1.AdoptionSpec `json:",inline"`

	ForProvider MappingParameters `json:"forProvider"`
}

// A MappingStatus represents the observed state of a Mapping.
type MappingStatus struct {
	xpv2.ManagedResourceStatus `json:",inline"`
	AtProvider                 MappingObservation `json:"atProvider,omitempty"`
}

// +kubebuilder:object:root=true

// A Mapping is a Keystone federation mapping: rules that turn a federated user's assertion into
// a local user with groups and projects. Keystone mappings have no field for a provenance
// marker; the marker is kept on this resource (annotation identity.crossplane.io/provenance).
// +kubebuilder:printcolumn:name="READY",type="string",JSONPath=".status.conditions[?(@.type=='Ready')].status"
// +kubebuilder:printcolumn:name="SYNCED",type="string",JSONPath=".status.conditions[?(@.type=='Synced')].status"
// +kubebuilder:printcolumn:name="EXTERNAL-NAME",type="string",JSONPath=".metadata.annotations.crossplane\\.io/external-name"
// +kubebuilder:printcolumn:name="PROVENANCE",type="string",JSONPath=".status.atProvider.provenance",priority=1
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced,categories={crossplane,managed,identity,keystone}
type Mapping struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   MappingSpec   `json:"spec"`
	Status MappingStatus `json:"status,omitempty"`
}

// Parameters returns spec.forProvider.
func (mg *Mapping) Parameters() *MappingParameters { return &mg.Spec.ForProvider }

// Observation returns status.atProvider.
func (mg *Mapping) Observation() *MappingObservation { return &mg.Status.AtProvider }

// GetAdoptionPolicy returns spec.adoptionPolicy, defaulting to FailOnConflict.
func (mg *Mapping) GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy {
	return mg.Spec.GetAdoptionPolicy()
}

// +kubebuilder:object:root=true

// MappingList contains a list of Mapping.
type MappingList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Mapping `json:"items"`
}

// Mapping type metadata.
var (
	MappingKind             = reflect.TypeFor[Mapping]().Name()
	MappingGroupKind        = SchemeGroupVersion.WithKind(MappingKind).GroupKind()
	MappingGroupVersionKind = SchemeGroupVersion.WithKind(MappingKind)
)

func init() {
	SchemeBuilder.Register(&Mapping{}, &MappingList{})
}
