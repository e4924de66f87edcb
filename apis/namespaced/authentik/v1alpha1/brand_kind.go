package v1alpha1

import (
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// A BrandSpec defines the desired state of a Brand.
type BrandSpec struct {
	xpv2.ManagedResourceSpec      `json:",inline"`
	identityv1alpha1.AdoptionSpec `json:",inline"`

	ForProvider BrandParameters `json:"forProvider"`
}

// A BrandStatus represents the observed state of a Brand.
type BrandStatus struct {
	xpv2.ManagedResourceStatus `json:",inline"`
	AtProvider                 BrandObservation `json:"atProvider,omitempty"`
}

// +kubebuilder:object:root=true

// A Brand is an authentik brand: the domain it answers for, its look and its flows. Its
// external name is its UUID; its provenance marker is its attribute
// identity.crossplane.io/provenance. authentik's own default brand (authentik-default) is
// never written unless a Brand adopts it (spec.adoptionPolicy: AdoptExisting).
// +kubebuilder:printcolumn:name="READY",type="string",JSONPath=".status.conditions[?(@.type=='Ready')].status"
// +kubebuilder:printcolumn:name="SYNCED",type="string",JSONPath=".status.conditions[?(@.type=='Synced')].status"
// +kubebuilder:printcolumn:name="EXTERNAL-NAME",type="string",JSONPath=".metadata.annotations.crossplane\\.io/external-name"
// +kubebuilder:printcolumn:name="PROVENANCE",type="string",JSONPath=".status.atProvider.provenance",priority=1
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced,categories={crossplane,managed,identity,authentik}
type Brand struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   BrandSpec   `json:"spec"`
	Status BrandStatus `json:"status,omitempty"`
}

// Parameters returns spec.forProvider.
func (mg *Brand) Parameters() *BrandParameters { return &mg.Spec.ForProvider }

// Observation returns status.atProvider.
func (mg *Brand) Observation() *BrandObservation {
	return &mg.Status.AtProvider
}

// GetAdoptionPolicy returns spec.adoptionPolicy, defaulting to FailOnConflict.
func (mg *Brand) GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy {
	return mg.Spec.GetAdoptionPolicy()
}

// +kubebuilder:object:root=true

// BrandList contains a list of Brand.
type BrandList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Brand `json:"items"`
}

// Brand type metadata.
var (
	BrandKind             = reflect.TypeFor[Brand]().Name()
	BrandGroupKind        = SchemeGroupVersion.WithKind(BrandKind).GroupKind()
	BrandGroupVersionKind = SchemeGroupVersion.WithKind(BrandKind)
)

func init() {
	SchemeBuilder.Register(&Brand{}, &BrandList{})
}
