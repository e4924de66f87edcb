package v1alpha1

import (
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// An ImpliedRoleSpec defines the desired state of a ImpliedRole.
type ImpliedRoleSpec struct {
	xpv2.ManagedResourceSpec      `json:",inline"`
	identityv1alpha1.AdoptionSpec `json:",inline"`

	ForProvider ImpliedRoleParameters `json:"forProvider"`
}

// An ImpliedRoleStatus represents the observed state of a ImpliedRole.
type ImpliedRoleStatus struct {
	xpv2.ManagedResourceStatus `json:",inline"`
	AtProvider                 ImpliedRoleObservation `json:"atProvider,omitempty"`
}

// +kubebuilder:object:root=true

// An ImpliedRole makes a Keystone role imply another: whoever is given the prior role also
// has the implied one. Its external name is the rule's key, <prior role ID>/<implied role ID>.
// +kubebuilder:printcolumn:name="READY",type="string",JSONPath=".status.conditions[?(@.type=='Ready')].status"
// +kubebuilder:printcolumn:name="SYNCED",type="string",JSONPath=".status.conditions[?(@.type=='Synced')].status"
// +kubebuilder:printcolumn:name="EXTERNAL-NAME",type="string",JSONPath=".metadata.annotations.crossplane\\.io/external-name"
// +kubebuilder:printcolumn:name="PROVENANCE",type="string",JSONPath=".status.atProvider.provenance",priority=1
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced,categories={crossplane,managed,identity,keystone}
type ImpliedRole struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   ImpliedRoleSpec   `json:"spec"`
	Status ImpliedRoleStatus `json:"status,omitempty"`
}

// Parameters returns spec.forProvider.
func (mg *ImpliedRole) Parameters() *ImpliedRoleParameters { return &mg.Spec.ForProvider }

// Observation returns status.atProvider.
func (mg *ImpliedRole) Observation() *ImpliedRoleObservation { return &mg.Status.AtProvider }

// GetAdoptionPolicy returns spec.adoptionPolicy, defaulting to FailOnConflict.
func (mg *ImpliedRole) GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy {
	return mg.Spec.GetAdoptionPolicy()
}

// +kubebuilder:object:root=true

// ImpliedRoleList contains a list of ImpliedRole.
type ImpliedRoleList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ImpliedRole `json:"items"`
}

// ImpliedRole type metadata.
var (
	ImpliedRoleKind             = reflect.TypeFor[ImpliedRole]().Name()
	ImpliedRoleGroupKind        = SchemeGroupVersion.WithKind(ImpliedRoleKind).GroupKind()
	ImpliedRoleGroupVersionKind = SchemeGroupVersion.WithKind(ImpliedRoleKind)
)

func init() {
	SchemeBuilder.Register(&ImpliedRole{}, &ImpliedRoleList{})
}
