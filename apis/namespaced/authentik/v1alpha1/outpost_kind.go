package v1alpha1

import (
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// An OutpostSpec defines the desired state of an Outpost.
type OutpostSpec struct {
	xpv2.ManagedResourceSpec      `json:",inline"`
	identityv1alpha1.AdoptionSpec `json:",inline"`

	ForProvider OutpostParameters `json:"forProvider"`
}

// An OutpostStatus represents the observed state of an Outpost.
type OutpostStatus struct {
	xpv2.ManagedResourceStatus `json:",inline"`
	AtProvider                 OutpostObservation `json:"atProvider,omitempty"`
}

// +kubebuilder:object:root=true

// An Outpost is an authentik outpost: the proxy or LDAP server that serves a set of providers,
// deployed apart from authentik with the API token this resource publishes to its connection
// Secret.
// +kubebuilder:printcolumn:name="READY",type="string",JSONPath=".status.conditions[?(@.type=='Ready')].status"
// +kubebuilder:printcolumn:name="SYNCED",type="string",JSONPath=".status.conditions[?(@.type=='Synced')].status"
// +kubebuilder:printcolumn:name="EXTERNAL-NAME",type="string",JSONPath=".metadata.annotations.crossplane\\.io/external-name"
// +kubebuilder:printcolumn:name="PROVENANCE",type="string",JSONPath=".status.atProvider.provenance",priority=1
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced,categories={crossplane,managed,identity,authentik}
type Outpost struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   OutpostSpec   `json:"spec"`
	Status OutpostStatus `json:"status,omitempty"`
}

// Parameters returns spec.forProvider.
func (mg *Outpost) Parameters() *OutpostParameters { return &mg.Spec.ForProvider }

// Observation returns status.atProvider.
func (mg *Outpost) Observation() *OutpostObservation { return &mg.Status.AtProvider }

// GetAdoptionPolicy returns spec.adoptionPolicy, defaulting to FailOnConflict.
func (mg *Outpost) GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy {
	return mg.Spec.GetAdoptionPolicy()
}

// +kubebuilder:object:root=true

// OutpostList contains a list of Outpost.
type OutpostList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Outpost `json:"items"`
}

// Outpost type metadata.
var (
	OutpostKind             = reflect.TypeFor[Outpost]().Name()
	OutpostGroupKind        = SchemeGroupVersion.WithKind(OutpostKind).GroupKind()
	OutpostGroupVersionKind = SchemeGroupVersion.WithKind(OutpostKind)
)

func init() {
	SchemeBuilder.Register(&Outpost{}, &OutpostList{})
}
