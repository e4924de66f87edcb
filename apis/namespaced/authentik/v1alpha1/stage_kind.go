package v1alpha1

import (
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// A StageSpec defines the desired state of a Stage.
type StageSpec struct {
	xpv2.ManagedResourceSpec      `json:",inline"`
	identityv1alpha1.AdoptionSpec `json:",inline"`

	ForProvider StageParameters `json:"forProvider"`
}

// A StageStatus represents the observed state of a Stage.
type StageStatus struct {
	xpv2.ManagedResourceStatus `json:",inline"`
	AtProvider                 StageObservation `json:"atProvider,omitempty"`
}

// +kubebuilder:object:root=true

// A Stage is an authentik stage of one type (identification, password, user login, user
// logout, deny, consent, authenticator validation, user write or prompt), set by exactly one
// block of spec.forProvider. Its external name is its UUID.
// +kubebuilder:printcolumn:name="READY",type="string",JSONPath=".status.conditions[?(@.type=='Ready')].status"
// +kubebuilder:printcolumn:name="SYNCED",type="string",JSONPath=".status.conditions[?(@.type=='Synced')].status"
// +kubebuilder:printcolumn:name="EXTERNAL-NAME",type="string",JSONPath=".metadata.annotations.crossplane\\.io/external-name"
// +kubebuilder:printcolumn:name="PROVENANCE",type="string",JSONPath=".status.atProvider.provenance",priority=1
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced,categories={crossplane,managed,identity,authentik}
type Stage struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   StageSpec   `json:"spec"`
	Status StageStatus `json:"status,omitempty"`
}

// Parameters returns spec.forProvider.
func (mg *Stage) Parameters() *StageParameters { return &mg.Spec.ForProvider }

// Observation returns status.atProvider.
func (mg *Stage) Observation() *StageObservation { return &mg.Status.AtProvider }

// GetAdoptionPolicy returns spec.adoptionPolicy, defaulting to FailOnConflict.
func (mg *Stage) GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy {
	return mg.Spec.GetAdoptionPolicy()
}

// +kubebuilder:object:root=true

// StageList contains a list of Stage.
type StageList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Stage `json:"items"`
}

// Stage type metadata.
var (
	StageKind             = reflect.TypeFor[Stage]().Name()
	StageGroupKind        = SchemeGroupVersion.WithKind(StageKind).GroupKind()
	StageGroupVersionKind = SchemeGroupVersion.WithKind(StageKind)
)

func init() {
	SchemeBuilder.Register(&Stage{}, &StageList{})
}
