package v1alpha1

import (
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// An OAuth2ProviderSpec defines the desired state of an OAuth2Provider.
type OAuth2ProviderSpec struct {
	xpv2.ManagedResourceSpec      `json:",inline"`
	identityv1alpha1.AdoptionSpec `json:",inline"`

	// +cluster-scope:+kubebuilder:validation:XValidation:rule="!has(self.clientSecretSecretRef) || has(self.clientSecretSecretRef.namespace)",message="clientSecretSecretRef.namespace is required: a cluster-scoped OAuth2Provider names the namespace of its client secret's Secret"
	// +namespaced-only
	// +kubebuilder:validation:XValidation:rule="!has(self.clientSecretSecretRef) || !has(self.clientSecretSecretRef.namespace)",message="clientSecretSecretRef.namespace must not be set: a namespaced OAuth2Provider reads its client secret's Secret in its own namespace; put the Secret there and leave out namespace"
	ForProvider OAuth2ProviderParameters `json:"forProvider"`
}

// An OAuth2ProviderStatus represents the observed state of an OAuth2Provider.
type OAuth2ProviderStatus struct {
	xpv2.ManagedResourceStatus `json:",inline"`
	AtProvider                 OAuth2ProviderObservation `json:"atProvider,omitempty"`
}

// +kubebuilder:object:root=true

// An OAuth2Provider is an authentik OAuth2/OpenID Connect provider. Its connection secret holds
// client_id, client_secret, and (once an Application uses the provider) issuer_url and
// well_known_url.
// +kubebuilder:printcolumn:name="READY",type="string",JSONPath=".status.conditions[?(@.type=='Ready')].status"
// +kubebuilder:printcolumn:name="SYNCED",type="string",JSONPath=".status.conditions[?(@.type=='Synced')].status"
// +kubebuilder:printcolumn:name="EXTERNAL-NAME",type="string",JSONPath=".metadata.annotations.crossplane\\.io/external-name"
// +kubebuilder:printcolumn:name="PROVENANCE",type="string",JSONPath=".status.atProvider.provenance",priority=1
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced,categories={crossplane,managed,identity,authentik}
type OAuth2Provider struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   OAuth2ProviderSpec   `json:"spec"`
	Status OAuth2ProviderStatus `json:"status,omitempty"`
}

// Parameters returns spec.forProvider.
func (mg *OAuth2Provider) Parameters() *OAuth2ProviderParameters { return &mg.Spec.ForProvider }

// Observation returns status.atProvider.
func (mg *OAuth2Provider) Observation() *OAuth2ProviderObservation { return &mg.Status.AtProvider }

// GetAdoptionPolicy returns spec.adoptionPolicy, defaulting to FailOnConflict.
func (mg *OAuth2Provider) GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy {
	return mg.Spec.GetAdoptionPolicy()
}

// +kubebuilder:object:root=true

// OAuth2ProviderList contains a list of OAuth2Provider.
type OAuth2ProviderList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []OAuth2Provider `json:"items"`
}

// OAuth2Provider type metadata.
var (
	OAuth2ProviderKind             = reflect.TypeFor[OAuth2Provider]().Name()
	OAuth2ProviderGroupKind        = SchemeGroupVersion.WithKind(OAuth2ProviderKind).GroupKind()
	OAuth2ProviderGroupVersionKind = SchemeGroupVersion.WithKind(OAuth2ProviderKind)
)

func init() {
	SchemeBuilder.Register(&OAuth2Provider{}, &OAuth2ProviderList{})
}
