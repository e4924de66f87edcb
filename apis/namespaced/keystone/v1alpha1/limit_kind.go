package v1alpha1

import (
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// A LimitSpec defines the desired state of a Limit.
type LimitSpec struct {
	xpv2.ManagedResourceSpec      `json:",inline"`
	identityv1alpha1.AdoptionSpec `json:",inline"`

	ForProvider LimitParameters `json:"forProvider"`
}

// A LimitStatus represents the observed state of a Limit.
type LimitStatus struct {
	xpv2.ManagedResourceStatus `json:",inline"`
	AtProvider                 LimitObservation `json:"atProvider,omitempty"`
}

// +kubebuilder:object:root=true

// A Limit is a Keystone project or domain limit (unified limits): a resource limit overriding its registered limit.
// +kubebuilder:printcolumn:name="READY",type="string",JSONPath=".status.conditions[?(@.type=='Ready')].status"
// +kubebuilder:printcolumn:name="SYNCED",type="string",JSONPath=".status.conditions[?(@.type=='Synced')].status"
// +kubebuilder:printcolumn:name="EXTERNAL-NAME",type="string",JSONPath=".metadata.annotations.crossplane\\.io/external-name"
// +kubebuilder:printcolumn:name="PROVENANCE",type="string",JSONPath=".status.atProvider.provenance",priority=1
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced,categories={crossplane,managed,identity,keystone}
type Limit struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   LimitSpec   `json:"spec"`
	Status LimitStatus `json:"status,omitempty"`
}

// Parameters returns spec.forProvider.
func (mg *Limit) Parameters() *LimitParameters { return &mg.Spec.ForProvider }

// Observation returns status.atProvider.
func (mg *Limit) Observation() *LimitObservation { return &mg.Status.AtProvider }

// GetAdoptionPolicy returns spec.adoptionPolicy, defaulting to FailOnConflict.
func (mg *Limit) GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy {
	return mg.Spec.GetAdoptionPolicy()
}

// +kubebuilder:object:root=true

// LimitList contains a list of Limit.
type LimitList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Limit `json:"items"`
}

// Limit type metadata.
var (
	LimitKind             = reflect.TypeFor[Limit]().Name()
	LimitGroupKind        = SchemeGroupVersion.WithKind(LimitKind).GroupKind()
	LimitGroupVersionKind = SchemeGroupVersion.WithKind(LimitKind)
)

func init() {
	SchemeBuilder.Register(&Limit{}, &LimitList{})
}
