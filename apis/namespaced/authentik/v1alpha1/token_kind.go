package v1alpha1

import (
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// A TokenSpec defines the desired state of a Token.
// +kubebuilder:validation:XValidation:rule="!has(self.forProvider.keySecretRef) || has(self.writeConnectionSecretToRef)",message="keySecretRef needs writeConnectionSecretToRef: the provider compares the key with the one it published there, without reading it from authentik"
type TokenSpec struct {
	xpv2.ManagedResourceSpec      `json:",inline"`
	identityv1alpha1.AdoptionSpec `json:",inline"`

	// +cluster-scope:+kubebuilder:validation:XValidation:rule="!has(self.keySecretRef) || has(self.keySecretRef.namespace)",message="keySecretRef.namespace is required: a cluster-scoped Token names the namespace of its key Secret"
	// +namespaced-only
	// +kubebuilder:validation:XValidation:rule="!has(self.keySecretRef) || !has(self.keySecretRef.namespace)",message="keySecretRef.namespace must not be set: a namespaced Token reads its key Secret in its own namespace; put the Secret there and leave out namespace"
	ForProvider TokenParameters `json:"forProvider"`
}

// A TokenStatus represents the observed state of a Token.
type TokenStatus struct {
	xpv2.ManagedResourceStatus `json:",inline"`
	AtProvider                 TokenObservation `json:"atProvider,omitempty"`
}

// +kubebuilder:object:root=true

// A Token is an authentik API token or app password of a user. Its external name is its
// identifier. Its key is published to the connection Secret only (token, with identifier,
// username and url), never to status, events or logs.
// +kubebuilder:printcolumn:name="READY",type="string",JSONPath=".status.conditions[?(@.type=='Ready')].status"
// +kubebuilder:printcolumn:name="SYNCED",type="string",JSONPath=".status.conditions[?(@.type=='Synced')].status"
// +kubebuilder:printcolumn:name="EXTERNAL-NAME",type="string",JSONPath=".metadata.annotations.crossplane\\.io/external-name"
// +kubebuilder:printcolumn:name="PROVENANCE",type="string",JSONPath=".status.atProvider.provenance",priority=1
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced,categories={crossplane,managed,identity,authentik}
type Token struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   TokenSpec   `json:"spec"`
	Status TokenStatus `json:"status,omitempty"`
}

// Parameters returns spec.forProvider.
func (mg *Token) Parameters() *TokenParameters { return &mg.Spec.ForProvider }

// Observation returns status.atProvider.
func (mg *Token) Observation() *TokenObservation {
	return &mg.Status.AtProvider
}

// GetAdoptionPolicy returns spec.adoptionPolicy, defaulting to FailOnConflict.
func (mg *Token) GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy {
	return mg.Spec.GetAdoptionPolicy()
}

// +kubebuilder:object:root=true

// TokenList contains a list of Token.
type TokenList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Token `json:"items"`
}

// Token type metadata.
var (
	TokenKind             = reflect.TypeFor[Token]().Name()
	TokenGroupKind        = SchemeGroupVersion.WithKind(TokenKind).GroupKind()
	TokenGroupVersionKind = SchemeGroupVersion.WithKind(TokenKind)
)

func init() {
	SchemeBuilder.Register(&Token{}, &TokenList{})
}
