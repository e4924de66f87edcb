package v1alpha1

import (
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// A EndpointSpec defines the desired state of a Endpoint.
type EndpointSpec struct {
	xpv2.ManagedResourceSpec      `json:",inline"`
	identityv1alpha1.AdoptionSpec `json:",inline"`

	ForProvider EndpointParameters `json:"forProvider"`
}

// A EndpointStatus represents the observed state of a Endpoint.
type EndpointStatus struct {
	xpv2.ManagedResourceStatus `json:",inline"`
	AtProvider                 EndpointObservation `json:"atProvider,omitempty"`
}

// +kubebuilder:object:root=true

// An Endpoint is a Keystone endpoint of the service catalog: where a service is reached, by interface and region.
// +kubebuilder:printcolumn:name="READY",type="string",JSONPath=".status.conditions[?(@.type=='Ready')].status"
// +kubebuilder:printcolumn:name="SYNCED",type="string",JSONPath=".status.conditions[?(@.type=='Synced')].status"
// +kubebuilder:printcolumn:name="EXTERNAL-NAME",type="string",JSONPath=".metadata.annotations.crossplane\\.io/external-name"
// +kubebuilder:printcolumn:name="PROVENANCE",type="string",JSONPath=".status.atProvider.provenance",priority=1
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced,categories={crossplane,managed,identity,keystone}
type Endpoint struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   EndpointSpec   `json:"spec"`
	Status EndpointStatus `json:"status,omitempty"`
}

// Parameters returns spec.forProvider.
func (mg *Endpoint) Parameters() *EndpointParameters { return &mg.Spec.ForProvider }

// Observation returns status.atProvider.
func (mg *Endpoint) Observation() *EndpointObservation { return &mg.Status.AtProvider }

// GetAdoptionPolicy returns spec.adoptionPolicy, defaulting to FailOnConflict.
func (mg *Endpoint) GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy {
	return mg.Spec.GetAdoptionPolicy()
}

// +kubebuilder:object:root=true

// EndpointList contains a list of Endpoint.
type EndpointList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Endpoint `json:"items"`
}

// Endpoint type metadata.
var (
	EndpointKind             = reflect.TypeFor[Endpoint]().Name()
	EndpointGroupKind        = SchemeGroupVersion.WithKind(EndpointKind).GroupKind()
	EndpointGroupVersionKind = SchemeGroupVersion.WithKind(EndpointKind)
)

func init() {
	SchemeBuilder.Register(&Endpoint{}, &EndpointList{})
}
