package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
)

// A GadgetSpec is the desired state of a Gadget.
type GadgetSpec struct {
	xpv2.ManagedResourceSpec `json:",inline"`

	ForProvider GadgetParameters `json:"forProvider"`
}

// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Namespaced
type Gadget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec GadgetSpec `json:"spec"`
}

// +kubebuilder:object:root=true
type GadgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Gadget `json:"items"`
}
