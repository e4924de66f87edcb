package v1alpha1

import (
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// A ApplicationCredentialSpec defines the desired state of a ApplicationCredential.
type ApplicationCredentialSpec struct {
	xpv2.ManagedResourceSpec      `json:",inline"`
	identityv1alpha1.AdoptionSpec `json:",inline"`

	// +cluster-scope:+kubebuilder:validation:XValidation:rule="!has(self.passwordSecretRef) || has(self.passwordSecretRef.namespace)",message="passwordSecretRef.namespace is required: a cluster-scoped ApplicationCredential names the namespace of the user's password Secret"
	// +namespaced-only
	// +kubebuilder:validation:XValidation:rule="!has(self.passwordSecretRef) || !has(self.passwordSecretRef.namespace)",message="passwordSecretRef.namespace must not be set: a namespaced ApplicationCredential reads the user's password Secret in its own namespace; put the Secret there and leave out namespace"
	ForProvider ApplicationCredentialParameters `json:"forProvider"`
}

// A ApplicationCredentialStatus represents the observed state of a ApplicationCredential.
type ApplicationCredentialStatus struct {
	xpv2.ManagedResourceStatus `json:",inline"`
	AtProvider                 ApplicationCredentialObservation `json:"atProvider,omitempty"`
}

// +kubebuilder:object:root=true

// An ApplicationCredential is a Keystone application credential: a secret that authenticates as
// its user on one project. Its connection Secret holds id, secret and clouds.yaml (auth_type
// v3applicationcredential, at the ProviderConfig's Keystone URL).
// +kubebuilder:printcolumn:name="READY",type="string",JSONPath=".status.conditions[?(@.type=='Ready')].status"
// +kubebuilder:printcolumn:name="SYNCED",type="string",JSONPath=".status.conditions[?(@.type=='Synced')].status"
// +kubebuilder:printcolumn:name="EXTERNAL-NAME",type="string",JSONPath=".metadata.annotations.crossplane\\.io/external-name"
// +kubebuilder:printcolumn:name="PROVENANCE",type="string",JSONPath=".status.atProvider.provenance",priority=1
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced,categories={crossplane,managed,identity,keystone}
type ApplicationCredential struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   ApplicationCredentialSpec   `json:"spec"`
	Status ApplicationCredentialStatus `json:"status,omitempty"`
}

// Parameters returns spec.forProvider.
func (mg *ApplicationCredential) Parameters() *ApplicationCredentialParameters {
	return &mg.Spec.ForProvider
}

// Observation returns status.atProvider.
func (mg *ApplicationCredential) Observation() *ApplicationCredentialObservation {
	return &mg.Status.AtProvider
}

// GetAdoptionPolicy returns spec.adoptionPolicy, defaulting to FailOnConflict.
func (mg *ApplicationCredential) GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy {
	return mg.Spec.GetAdoptionPolicy()
}

// +kubebuilder:object:root=true

// ApplicationCredentialList contains a list of ApplicationCredential.
type ApplicationCredentialList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ApplicationCredential `json:"items"`
}

// ApplicationCredential type metadata.
var (
	ApplicationCredentialKind             = reflect.TypeFor[ApplicationCredential]().Name()
	ApplicationCredentialGroupKind        = SchemeGroupVersion.WithKind(ApplicationCredentialKind).GroupKind()
	ApplicationCredentialGroupVersionKind = SchemeGroupVersion.WithKind(ApplicationCredentialKind)
)

func init() {
	SchemeBuilder.Register(&ApplicationCredential{}, &ApplicationCredentialList{})
}
