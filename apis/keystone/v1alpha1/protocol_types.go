package v1alpha1

import (
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// ProtocolParameters are the configurable fields of a Keystone federation protocol.
// +kubebuilder:validation:XValidation:rule="has(self.identityProviderId) || has(self.identityProviderRef) || has(self.identityProviderSelector)",message="set identityProviderRef (or identityProviderSelector) to the IdentityProvider this protocol belongs to, or identityProviderId to its Keystone ID"
// +kubebuilder:validation:XValidation:rule="has(self.mappingId) || has(self.mappingRef) || has(self.mappingSelector)",message="set mappingRef (or mappingSelector) to the Mapping this protocol applies, or mappingId to its Keystone ID"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.identityProviderId) || (has(self.identityProviderId) && self.identityProviderId == oldSelf.identityProviderId)",message="identityProviderId cannot change: a protocol lives under its identity provider; create another Protocol instead"
type ProtocolParameters struct {
	// ID of the protocol, as the federation URLs and Keystone's [auth] methods name it:
	// openid, saml2, mapped...
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^[A-Za-z0-9_-]+$`
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="id cannot change: it is the protocol's identity in Keystone; create another Protocol instead"
	ID string `json:"id"`

	// IdentityProviderID is the Keystone ID of the identity provider the protocol belongs to.
	// +optional
	// +crossplane:generate:reference:type=IdentityProvider
	// +crossplane:generate:reference:refFieldName=IdentityProviderRef
	// +crossplane:generate:reference:selectorFieldName=IdentityProviderSelector
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:XValidation:rule="self.matches('^[A-Za-z0-9_-]+$')",message="identityProviderId must be a Keystone identity provider ID: letters, digits, hyphens and underscores only"
	IdentityProviderID *string `json:"identityProviderId,omitempty"`

	// IdentityProviderRef references the IdentityProvider resource whose ID fills
	// identityProviderId.
	// +optional
	IdentityProviderRef *xpv2.Reference `json:"identityProviderRef,omitempty"`

	// IdentityProviderSelector selects the IdentityProvider resource whose ID fills
	// identityProviderId.
	// +optional
	IdentityProviderSelector *xpv2.Selector `json:"identityProviderSelector,omitempty"`

	// MappingID is the Keystone ID of the mapping applied to the identity provider's
	// assertions.
	// +optional
	// +crossplane:generate:reference:type=Mapping
	// +crossplane:generate:reference:refFieldName=MappingRef
	// +crossplane:generate:reference:selectorFieldName=MappingSelector
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:XValidation:rule="self.matches('^[A-Za-z0-9_-]+$')",message="mappingId must be a Keystone mapping ID: letters, digits, hyphens and underscores only"
	MappingID *string `json:"mappingId,omitempty"`

	// MappingRef references the Mapping resource whose ID fills mappingId.
	// +optional
	MappingRef *xpv2.Reference `json:"mappingRef,omitempty"`

	// MappingSelector selects the Mapping resource whose ID fills mappingId.
	// +optional
	MappingSelector *xpv2.Selector `json:"mappingSelector,omitempty"`

	// RemoteIDAttribute is the WSGI environment key holding the identity provider's remote ID
	// (for example HTTP_OIDC_ISS or MELLON_IDP); unset leaves Keystone's [<protocol>]
	// remote_id_attribute.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\x00-\\x1f\\x7f]')",message="remoteIdAttribute must not contain control characters"
	RemoteIDAttribute *string `json:"remoteIdAttribute,omitempty"`
}

// ProtocolObservation is the observed state of a Keystone protocol.
type ProtocolObservation struct {
	// ID is the external name: <identity provider ID>/<protocol ID>.
	ID                 string `json:"id,omitempty"`
	IdentityProviderID string `json:"identityProviderId,omitempty"`
	MappingID          string `json:"mappingId,omitempty"`
	RemoteIDAttribute  string `json:"remoteIdAttribute,omitempty"`

	// Provenance tells whether the protocol was created, adopted or only observed.
	Provenance identityv1alpha1.Provenance `json:"provenance,omitempty"`
}

// A ProtocolSpec defines the desired state of a Protocol.
type ProtocolSpec struct {
	xpv2.ClusterManagedResourceSpec `json:",inline"`
	identityv1alpha1.AdoptionSpec   `json:",inline"`

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
// +kubebuilder:resource:scope=Cluster,categories={crossplane,managed,identity,keystone}
type Protocol struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   ProtocolSpec   `json:"spec"`
	Status ProtocolStatus `json:"status,omitempty"`
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
