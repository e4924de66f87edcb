package v1alpha1

import (
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// A DomainConfigSpec defines the desired state of a DomainConfig.
type DomainConfigSpec struct {
	xpv2.ManagedResourceSpec      `json:",inline"`
	identityv1alpha1.AdoptionSpec `json:",inline"`

	// +cluster-scope:+kubebuilder:validation:XValidation:rule="!has(self.ldap) || !has(self.ldap.bindCredentialsSecretRef) || has(self.ldap.bindCredentialsSecretRef.namespace)",message="ldap.bindCredentialsSecretRef.namespace is required: a cluster-scoped DomainConfig names the namespace of its bind Secret"
	// +namespaced-only
	// +kubebuilder:validation:XValidation:rule="!has(self.ldap) || !has(self.ldap.bindCredentialsSecretRef) || !has(self.ldap.bindCredentialsSecretRef.namespace)",message="ldap.bindCredentialsSecretRef.namespace must not be set: a namespaced DomainConfig reads its bind Secret in its own namespace; put the Secret there and leave out namespace"
	ForProvider DomainConfigParameters `json:"forProvider"`
}

// A DomainConfigStatus represents the observed state of a DomainConfig.
type DomainConfigStatus struct {
	xpv2.ManagedResourceStatus `json:",inline"`
	AtProvider                 DomainConfigObservation `json:"atProvider,omitempty"`
}

// +kubebuilder:object:root=true

// A DomainConfig is the identity configuration of a Keystone domain: it backs the domain's
// users and groups with an LDAP directory.
// +kubebuilder:printcolumn:name="READY",type="string",JSONPath=".status.conditions[?(@.type=='Ready')].status"
// +kubebuilder:printcolumn:name="SYNCED",type="string",JSONPath=".status.conditions[?(@.type=='Synced')].status"
// +kubebuilder:printcolumn:name="EXTERNAL-NAME",type="string",JSONPath=".metadata.annotations.crossplane\\.io/external-name"
// +kubebuilder:printcolumn:name="PROVENANCE",type="string",JSONPath=".status.atProvider.provenance",priority=1
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced,categories={crossplane,managed,identity,keystone}
type DomainConfig struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   DomainConfigSpec   `json:"spec"`
	Status DomainConfigStatus `json:"status,omitempty"`
}

// Parameters returns spec.forProvider.
func (mg *DomainConfig) Parameters() *DomainConfigParameters { return &mg.Spec.ForProvider }

// Observation returns status.atProvider.
func (mg *DomainConfig) Observation() *DomainConfigObservation { return &mg.Status.AtProvider }

// GetAdoptionPolicy returns spec.adoptionPolicy, defaulting to FailOnConflict.
func (mg *DomainConfig) GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy {
	return mg.Spec.GetAdoptionPolicy()
}

// +kubebuilder:object:root=true

// DomainConfigList contains a list of DomainConfig.
type DomainConfigList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []DomainConfig `json:"items"`
}

// DomainConfig type metadata.
var (
	DomainConfigKind             = reflect.TypeFor[DomainConfig]().Name()
	DomainConfigGroupKind        = SchemeGroupVersion.WithKind(DomainConfigKind).GroupKind()
	DomainConfigGroupVersionKind = SchemeGroupVersion.WithKind(DomainConfigKind)
)

func init() {
	SchemeBuilder.Register(&DomainConfig{}, &DomainConfigList{})
}
