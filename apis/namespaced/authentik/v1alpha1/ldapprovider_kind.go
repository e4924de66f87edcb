package v1alpha1

import (
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// An LDAPProviderSpec defines the desired state of an LDAPProvider.
type LDAPProviderSpec struct {
	xpv2.ManagedResourceSpec      `json:",inline"`
	identityv1alpha1.AdoptionSpec `json:",inline"`

	ForProvider LDAPProviderParameters `json:"forProvider"`
}

// An LDAPProviderStatus represents the observed state of an LDAPProvider.
type LDAPProviderStatus struct {
	xpv2.ManagedResourceStatus `json:",inline"`
	AtProvider                 LDAPProviderObservation `json:"atProvider,omitempty"`
}

// +kubebuilder:object:root=true

// An LDAPProvider is an authentik LDAP provider: an LDAP outpost answers binds and searches
// against authentik's users and groups.
// +kubebuilder:printcolumn:name="READY",type="string",JSONPath=".status.conditions[?(@.type=='Ready')].status"
// +kubebuilder:printcolumn:name="SYNCED",type="string",JSONPath=".status.conditions[?(@.type=='Synced')].status"
// +kubebuilder:printcolumn:name="EXTERNAL-NAME",type="string",JSONPath=".metadata.annotations.crossplane\\.io/external-name"
// +kubebuilder:printcolumn:name="PROVENANCE",type="string",JSONPath=".status.atProvider.provenance",priority=1
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced,categories={crossplane,managed,identity,authentik}
type LDAPProvider struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   LDAPProviderSpec   `json:"spec"`
	Status LDAPProviderStatus `json:"status,omitempty"`
}

// Parameters returns spec.forProvider.
func (mg *LDAPProvider) Parameters() *LDAPProviderParameters { return &mg.Spec.ForProvider }

// Observation returns status.atProvider.
func (mg *LDAPProvider) Observation() *LDAPProviderObservation { return &mg.Status.AtProvider }

// GetAdoptionPolicy returns spec.adoptionPolicy, defaulting to FailOnConflict.
func (mg *LDAPProvider) GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy {
	return mg.Spec.GetAdoptionPolicy()
}

// +kubebuilder:object:root=true

// LDAPProviderList contains a list of LDAPProvider.
type LDAPProviderList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []LDAPProvider `json:"items"`
}

// LDAPProvider type metadata.
var (
	LDAPProviderKind             = reflect.TypeFor[LDAPProvider]().Name()
	LDAPProviderGroupKind        = SchemeGroupVersion.WithKind(LDAPProviderKind).GroupKind()
	LDAPProviderGroupVersionKind = SchemeGroupVersion.WithKind(LDAPProviderKind)
)

func init() {
	SchemeBuilder.Register(&LDAPProvider{}, &LDAPProviderList{})
}
