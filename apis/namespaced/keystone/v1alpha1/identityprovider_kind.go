package v1alpha1

import (
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// An IdentityProviderSpec defines the desired state of an IdentityProvider.
type IdentityProviderSpec struct {
	xpv2.ManagedResourceSpec      `json:",inline"`
	identityv1alpha1.AdoptionSpec `json:",inline"`

	ForProvider IdentityProviderParameters `json:"forProvider"`
}

// An IdentityProviderStatus represents the observed state of an IdentityProvider.
type IdentityProviderStatus struct {
	xpv2.ManagedResourceStatus `json:",inline"`
	AtProvider                 IdentityProviderObservation `json:"atProvider,omitempty"`
}

// +kubebuilder:object:root=true

// An IdentityProvider is a Keystone federation identity provider (OS-FEDERATION): an external
// OIDC or SAML identity provider Keystone trusts.
// +kubebuilder:printcolumn:name="READY",type="string",JSONPath=".status.conditions[?(@.type=='Ready')].status"
// +kubebuilder:printcolumn:name="SYNCED",type="string",JSONPath=".status.conditions[?(@.type=='Synced')].status"
// +kubebuilder:printcolumn:name="EXTERNAL-NAME",type="string",JSONPath=".metadata.annotations.crossplane\\.io/external-name"
// +kubebuilder:printcolumn:name="PROVENANCE",type="string",JSONPath=".status.atProvider.provenance",priority=1
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced,categories={crossplane,managed,identity,keystone}
type IdentityProvider struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   IdentityProviderSpec   `json:"spec"`
	Status IdentityProviderStatus `json:"status,omitempty"`
}

// Parameters returns spec.forProvider.
func (mg *IdentityProvider) Parameters() *IdentityProviderParameters { return &mg.Spec.ForProvider }

// Observation returns status.atProvider.
func (mg *IdentityProvider) Observation() *IdentityProviderObservation { return &mg.Status.AtProvider }

// GetAdoptionPolicy returns spec.adoptionPolicy, defaulting to FailOnConflict.
func (mg *IdentityProvider) GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy {
	return mg.Spec.GetAdoptionPolicy()
}

// +kubebuilder:object:root=true

// IdentityProviderList contains a list of IdentityProvider.
type IdentityProviderList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []IdentityProvider `json:"items"`
}

// IdentityProvider type metadata.
var (
	IdentityProviderKind             = reflect.TypeFor[IdentityProvider]().Name()
	IdentityProviderGroupKind        = SchemeGroupVersion.WithKind(IdentityProviderKind).GroupKind()
	IdentityProviderGroupVersionKind = SchemeGroupVersion.WithKind(IdentityProviderKind)
)

func init() {
	SchemeBuilder.Register(&IdentityProvider{}, &IdentityProviderList{})
}
