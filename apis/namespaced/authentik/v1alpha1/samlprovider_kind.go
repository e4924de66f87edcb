package v1alpha1

import (
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// A SAMLProviderSpec defines the desired state of a SAMLProvider.
type SAMLProviderSpec struct {
	xpv2.ManagedResourceSpec      `json:",inline"`
	identityv1alpha1.AdoptionSpec `json:",inline"`

	ForProvider SAMLProviderParameters `json:"forProvider"`
}

// A SAMLProviderStatus represents the observed state of a SAMLProvider.
type SAMLProviderStatus struct {
	xpv2.ManagedResourceStatus `json:",inline"`
	AtProvider                 SAMLProviderObservation `json:"atProvider,omitempty"`
}

// +kubebuilder:object:root=true

// A SAMLProvider is an authentik SAML provider. Once an Application uses it, its connection
// secret holds the IdP metadata (metadata) and its URL (metadata_url).
// +kubebuilder:printcolumn:name="READY",type="string",JSONPath=".status.conditions[?(@.type=='Ready')].status"
// +kubebuilder:printcolumn:name="SYNCED",type="string",JSONPath=".status.conditions[?(@.type=='Synced')].status"
// +kubebuilder:printcolumn:name="EXTERNAL-NAME",type="string",JSONPath=".metadata.annotations.crossplane\\.io/external-name"
// +kubebuilder:printcolumn:name="PROVENANCE",type="string",JSONPath=".status.atProvider.provenance",priority=1
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced,categories={crossplane,managed,identity,authentik}
type SAMLProvider struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   SAMLProviderSpec   `json:"spec"`
	Status SAMLProviderStatus `json:"status,omitempty"`
}

// Parameters returns spec.forProvider.
func (mg *SAMLProvider) Parameters() *SAMLProviderParameters { return &mg.Spec.ForProvider }

// Observation returns status.atProvider.
func (mg *SAMLProvider) Observation() *SAMLProviderObservation { return &mg.Status.AtProvider }

// GetAdoptionPolicy returns spec.adoptionPolicy, defaulting to FailOnConflict.
func (mg *SAMLProvider) GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy {
	return mg.Spec.GetAdoptionPolicy()
}

// +kubebuilder:object:root=true

// SAMLProviderList contains a list of SAMLProvider.
type SAMLProviderList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []SAMLProvider `json:"items"`
}

// SAMLProvider type metadata.
var (
	SAMLProviderKind             = reflect.TypeFor[SAMLProvider]().Name()
	SAMLProviderGroupKind        = SchemeGroupVersion.WithKind(SAMLProviderKind).GroupKind()
	SAMLProviderGroupVersionKind = SchemeGroupVersion.WithKind(SAMLProviderKind)
)

func init() {
	SchemeBuilder.Register(&SAMLProvider{}, &SAMLProviderList{})
}
