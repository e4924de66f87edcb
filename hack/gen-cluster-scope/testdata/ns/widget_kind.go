package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
)

// A WidgetSpec has lines only one scope keeps.
// +cluster-scope:+kubebuilder:validation:XValidation:rule="has(self.forProvider.gadgetId)",message="only the cluster kind requires gadgetId"
// +namespaced-only
// +kubebuilder:validation:XValidation:rule="!has(self.forProvider.toolIds)",message="only the namespaced kind forbids toolIds"
type WidgetSpec struct {
	xpv2.ManagedResourceSpec `json:",inline"`

	Note string `json:"note,omitempty"` // +namespaced-only

	ForProvider WidgetParameters `json:"forProvider"`
}

// A WidgetStatus is the observed state of a Widget.
type WidgetStatus struct {
	xpv2.ManagedResourceStatus `json:",inline"`
	AtProvider                 WidgetObservation `json:"atProvider,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Namespaced,categories={crossplane,managed}
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   WidgetSpec   `json:"spec"`
	Status WidgetStatus `json:"status,omitempty"`
}

// Parameters returns spec.forProvider.
func (mg *Widget) Parameters() *WidgetParameters { return &mg.Spec.ForProvider }

// +kubebuilder:object:root=true
type WidgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Widget `json:"items"`
}
