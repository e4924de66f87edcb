package v1alpha1

import (
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// A ProtocolSpec defines the desired state of a Protocol.
type ProtocolSpec struct {
	xpv2.ManagedResourceSpec      `json:",inline"`
	identityv1alpha1.AdoptionSpec `json:",inline"`

	ForProvider ProtocolParameters `json:"forProvider"`
}

// A ProtocolStatus represents the observed state of a Protocol.
type ProtocolStatus struct {
	xpv2.ManagedResourceStatus `json:",inline"`
	AtProvider                 ProtocolObservation `json:"atProvider,omitempty"`
}

// +kubebuilder:object:root=true

// A Protocol is a Keystone federation protocol: it lets an identity provider's users log in
// through one protocol (openid, saml2, mapped) and names the mapping their assertions go
// through. Keystone protocols have no field for a provenance marker; the marker is kept on this
// resource (annotation identity.crossplane.io/provenance).
// +kubebuilder:printcolumn:name="READY",type="string",JSONPath=".status.conditions[?(@.type=='Ready')].status"
// +kubebuilder:printcolumn:name="SYNCED",type="string",JSONPath=".status.conditions[?(@.type=='Synced')].status"
// +kubebuilder:printcolumn:name="EXTERNAL-NAME",type="string",JSONPath=".metadata.annotations.crossplane\\.io/external-name"
// +kubebuilder:printcolumn:name="PROVENANCE",type="string",JSONPath=".status.atProvider.provenance",priority=1
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced,categories={crossplane,managed,identity,keystone}
type Protocol struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   ProtocolSpec   `json:"spec"`
	Status ProtocolStatus `json:"status,omitempty"`
}

// Parameters returns spec.forProvider.
func (mg *Protocol) Parameters() *ProtocolParameters { return &mg.Spec.ForProvider }

// Observation returns status.atProvider.
func (mg *Protocol) Observation() *ProtocolObservation { return &mg.Status.AtProvider }

// GetAdoptionPolicy returns spec.adoptionPolicy, defaulting to FailOnConflict.
func (mg *Protocol) GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy {
	return mg.Spec.GetAdoptionPolicy()
}

// +kubebuilder:object:root=true

// ProtocolList contains a list of Protocol.
type ProtocolList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Protocol `json:"items"`
}

// Protocol type metadata.
var (
	ProtocolKind             = reflect.TypeFor[Protocol]().Name()
	ProtocolGroupKind        = SchemeGroupVersion.WithKind(ProtocolKind).GroupKind()
	ProtocolGroupVersionKind = SchemeGroupVersion.WithKind(ProtocolKind)
)

func init() {
	SchemeBuilder.Register(&Protocol{}, &ProtocolList{})
}
