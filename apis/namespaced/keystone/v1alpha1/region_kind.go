package v1alpha1

import (
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// A RegionSpec defines the desired state of a Region.
type RegionSpec struct {
	xpv2.ManagedResourceSpec      `json:",inline"`
	identityv1alpha1.AdoptionSpec `json:",inline"`

	ForProvider RegionParameters `json:"forProvider"`
}

// A RegionStatus represents the observed state of a Region.
type RegionStatus struct {
	xpv2.ManagedResourceStatus `json:",inline"`
	AtProvider                 RegionObservation `json:"atProvider,omitempty"`
}

// +kubebuilder:object:root=true

// A Region is a Keystone region of the service catalog, optionally part of a parent region.
// +kubebuilder:printcolumn:name="READY",type="string",JSONPath=".status.conditions[?(@.type=='Ready')].status"
// +kubebuilder:printcolumn:name="SYNCED",type="string",JSONPath=".status.conditions[?(@.type=='Synced')].status"
// +kubebuilder:printcolumn:name="EXTERNAL-NAME",type="string",JSONPath=".metadata.annotations.crossplane\\.io/external-name"
// +kubebuilder:printcolumn:name="PROVENANCE",type="string",JSONPath=".status.atProvider.provenance",priority=1
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced,categories={crossplane,managed,identity,keystone}
type Region struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   RegionSpec   `json:"spec"`
	Status RegionStatus `json:"status,omitempty"`
}

// Parameters returns spec.forProvider.
func (mg *Region) Parameters() *RegionParameters { return &mg.Spec.ForProvider }

// Observation returns status.atProvider.
func (mg *Region) Observation() *RegionObservation { return &mg.Status.AtProvider }

// GetAdoptionPolicy returns spec.adoptionPolicy, defaulting to FailOnConflict.
func (mg *Region) GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy {
	return mg.Spec.GetAdoptionPolicy()
}

// +kubebuilder:object:root=true

// RegionList contains a list of Region.
type RegionList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Region `json:"items"`
}

// Region type metadata.
var (
	RegionKind             = reflect.TypeFor[Region]().Name()
	RegionGroupKind        = SchemeGroupVersion.WithKind(RegionKind).GroupKind()
	RegionGroupVersionKind = SchemeGroupVersion.WithKind(RegionKind)
)

func init() {
	SchemeBuilder.Register(&Region{}, &RegionList{})
}
