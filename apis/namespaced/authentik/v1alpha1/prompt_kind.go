package v1alpha1

import (
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// A PromptSpec defines the desired state of a Prompt.
type PromptSpec struct {
	xpv2.ManagedResourceSpec      `json:",inline"`
	identityv1alpha1.AdoptionSpec `json:",inline"`

	ForProvider PromptParameters `json:"forProvider"`
}

// A PromptStatus represents the observed state of a Prompt.
type PromptStatus struct {
	xpv2.ManagedResourceStatus `json:",inline"`
	AtProvider                 PromptObservation `json:"atProvider,omitempty"`
}

// +kubebuilder:object:root=true

// A Prompt is an authentik prompt: one field of the form a prompt stage shows, listed by
// Stages with a prompt block (promptRefs, promptSelector or prompts by name). Its external name
// is its UUID.
// +kubebuilder:printcolumn:name="READY",type="string",JSONPath=".status.conditions[?(@.type=='Ready')].status"
// +kubebuilder:printcolumn:name="SYNCED",type="string",JSONPath=".status.conditions[?(@.type=='Synced')].status"
// +kubebuilder:printcolumn:name="EXTERNAL-NAME",type="string",JSONPath=".metadata.annotations.crossplane\\.io/external-name"
// +kubebuilder:printcolumn:name="PROVENANCE",type="string",JSONPath=".status.atProvider.provenance",priority=1
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced,categories={crossplane,managed,identity,authentik}
type Prompt struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   PromptSpec   `json:"spec"`
	Status PromptStatus `json:"status,omitempty"`
}

// Parameters returns spec.forProvider.
func (mg *Prompt) Parameters() *PromptParameters { return &mg.Spec.ForProvider }

// Observation returns status.atProvider.
func (mg *Prompt) Observation() *PromptObservation { return &mg.Status.AtProvider }

// GetAdoptionPolicy returns spec.adoptionPolicy, defaulting to FailOnConflict.
func (mg *Prompt) GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy {
	return mg.Spec.GetAdoptionPolicy()
}

// +kubebuilder:object:root=true

// PromptList contains a list of Prompt.
type PromptList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Prompt `json:"items"`
}

// Prompt type metadata.
var (
	PromptKind             = reflect.TypeFor[Prompt]().Name()
	PromptGroupKind        = SchemeGroupVersion.WithKind(PromptKind).GroupKind()
	PromptGroupVersionKind = SchemeGroupVersion.WithKind(PromptKind)
)

func init() {
	SchemeBuilder.Register(&Prompt{}, &PromptList{})
}
