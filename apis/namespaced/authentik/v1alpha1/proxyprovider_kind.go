package v1alpha1

import (
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// A ProxyProviderSpec defines the desired state of a ProxyProvider.
type ProxyProviderSpec struct {
	xpv2.ManagedResourceSpec      `json:",inline"`
	identityv1alpha1.AdoptionSpec `json:",inline"`

	ForProvider ProxyProviderParameters `json:"forProvider"`
}

// A ProxyProviderStatus represents the observed state of a ProxyProvider.
type ProxyProviderStatus struct {
	xpv2.ManagedResourceStatus `json:",inline"`
	AtProvider                 ProxyProviderObservation `json:"atProvider,omitempty"`
}

// +kubebuilder:object:root=true

// A ProxyProvider is an authentik proxy provider (an outpost in front of an application, or
// forward auth for a reverse proxy).
// +kubebuilder:printcolumn:name="READY",type="string",JSONPath=".status.conditions[?(@.type=='Ready')].status"
// +kubebuilder:printcolumn:name="SYNCED",type="string",JSONPath=".status.conditions[?(@.type=='Synced')].status"
// +kubebuilder:printcolumn:name="EXTERNAL-NAME",type="string",JSONPath=".metadata.annotations.crossplane\\.io/external-name"
// +kubebuilder:printcolumn:name="PROVENANCE",type="string",JSONPath=".status.atProvider.provenance",priority=1
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced,categories={crossplane,managed,identity,authentik}
type ProxyProvider struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   ProxyProviderSpec   `json:"spec"`
	Status ProxyProviderStatus `json:"status,omitempty"`
}

// Parameters returns spec.forProvider.
func (mg *ProxyProvider) Parameters() *ProxyProviderParameters { return &mg.Spec.ForProvider }

// Observation returns status.atProvider.
func (mg *ProxyProvider) Observation() *ProxyProviderObservation { return &mg.Status.AtProvider }

// GetAdoptionPolicy returns spec.adoptionPolicy, defaulting to FailOnConflict.
func (mg *ProxyProvider) GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy {
	return mg.Spec.GetAdoptionPolicy()
}

// +kubebuilder:object:root=true

// ProxyProviderList contains a list of ProxyProvider.
type ProxyProviderList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ProxyProvider `json:"items"`
}

// ProxyProvider type metadata.
var (
	ProxyProviderKind             = reflect.TypeFor[ProxyProvider]().Name()
	ProxyProviderGroupKind        = SchemeGroupVersion.WithKind(ProxyProviderKind).GroupKind()
	ProxyProviderGroupVersionKind = SchemeGroupVersion.WithKind(ProxyProviderKind)
)

func init() {
	SchemeBuilder.Register(&ProxyProvider{}, &ProxyProviderList{})
}
