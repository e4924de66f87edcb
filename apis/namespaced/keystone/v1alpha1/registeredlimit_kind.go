package v1alpha1

import (
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// A RegisteredLimitSpec defines the desired state of a RegisteredLimit.
type RegisteredLimitSpec struct {
	xpv2.ManagedResourceSpec      `json:",inline"`
	identityv1alpha1.AdoptionSpec `json:",inline"`

	ForProvider RegisteredLimitParameters `json:"forProvider"`
}

// A RegisteredLimitStatus represents the observed state of a RegisteredLimit.
type RegisteredLimitStatus struct {
	xpv2.ManagedResourceStatus `json:",inline"`
	AtProvider                 RegisteredLimitObservation `json:"atProvider,omitempty"`
}

// +kubebuilder:object:root=true

// A RegisteredLimit is a Keystone registered limit (unified limits): the default limit of a resource of a service.
// +kubebuilder:printcolumn:name="READY",type="string",JSONPath=".status.conditions[?(@.type=='Ready')].status"
// +kubebuilder:printcolumn:name="SYNCED",type="string",JSONPath=".status.conditions[?(@.type=='Synced')].status"
// +kubebuilder:printcolumn:name="EXTERNAL-NAME",type="string",JSONPath=".metadata.annotations.crossplane\\.io/external-name"
// +kubebuilder:printcolumn:name="PROVENANCE",type="string",JSONPath=".status.atProvider.provenance",priority=1
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced,categories={crossplane,managed,identity,keystone}
type RegisteredLimit struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   RegisteredLimitSpec   `json:"spec"`
	Status RegisteredLimitStatus `json:"status,omitempty"`
}

// Parameters returns spec.forProvider.
func (mg *RegisteredLimit) Parameters() *RegisteredLimitParameters { return &mg.Spec.ForProvider }

// Observation returns status.atProvider.
func (mg *RegisteredLimit) Observation() *RegisteredLimitObservation { return &mg.Status.AtProvider }

// GetAdoptionPolicy returns spec.adoptionPolicy, defaulting to FailOnConflict.
func (mg *RegisteredLimit) GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy {
	return mg.Spec.GetAdoptionPolicy()
}

// +kubebuilder:object:root=true

// RegisteredLimitList contains a list of RegisteredLimit.
type RegisteredLimitList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []RegisteredLimit `json:"items"`
}

// RegisteredLimit type metadata.
var (
	RegisteredLimitKind             = reflect.TypeFor[RegisteredLimit]().Name()
	RegisteredLimitGroupKind        = SchemeGroupVersion.WithKind(RegisteredLimitKind).GroupKind()
	RegisteredLimitGroupVersionKind = SchemeGroupVersion.WithKind(RegisteredLimitKind)
)

func init() {
	SchemeBuilder.Register(&RegisteredLimit{}, &RegisteredLimitList{})
}
