package v1alpha1

import (
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// Both kinds share the spec and status of the legacy ProviderConfig (identity.crossplane.io),
// so that one client factory and one installation ID logic serve all three. What differs is
// where their Secrets are: a ProviderConfig's selectors name no namespace and it reads Secrets
// of its own namespace only (the API server refuses a selector's namespace, and the provider's
// Secret reader any other namespace), a ClusterProviderConfig's selectors each name one.
// The CEL rules on their spec say so, field by field, as the namespaced managed resources'
// rules do for their Secret selectors: a team's ProviderConfig cannot name another team's
// Secret, and a ClusterProviderConfig, having no namespace of its own, must name one.

// +kubebuilder:object:root=true

// A ProviderConfig configures how the namespaced resources of its namespace connect to one
// authentik or Keystone. It reads its Secrets in its own namespace: its Secret selectors name
// only a Secret and a key.
// +kubebuilder:subresource:status
// +kubebuilder:validation:XValidation:rule="has(oldSelf.spec.installationID) || !has(self.spec.installationID) || !has(oldSelf.status) || !has(oldSelf.status.installationID) || self.spec.installationID == oldSelf.status.installationID",message="spec.installationID can only be set to the ID this ProviderConfig already writes into provenance markers (status.installationID, derived from the kube-system namespace's UID): another ID would make every object it created foreign (AdoptionRequired). Set it to status.installationID, or leave it unset"
// +kubebuilder:printcolumn:name="AUTHENTICATED",type="string",JSONPath=".status.conditions[?(@.type=='Authenticated')].status"
// +kubebuilder:printcolumn:name="REASON",type="string",JSONPath=".status.conditions[?(@.type=='Authenticated')].reason"
// +kubebuilder:printcolumn:name="MESSAGE",type="string",JSONPath=".status.conditions[?(@.type=='Authenticated')].message"
// +kubebuilder:printcolumn:name="KEYSTONE",type="string",JSONPath=".spec.keystone.authURL",priority=1
// +kubebuilder:printcolumn:name="AUTHENTIK",type="string",JSONPath=".spec.authentik.url",priority=1
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:resource:scope=Namespaced,categories={crossplane,provider,identity}
type ProviderConfig struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// +kubebuilder:validation:XValidation:rule="!has(self.keystone) || !has(self.keystone.password) || !has(self.keystone.password.passwordSecretRef.namespace)",message="spec.keystone.password.passwordSecretRef.namespace must not be set: a namespaced ProviderConfig reads its Secrets in its own namespace; put the Secret there and leave out namespace, or use a ClusterProviderConfig"
	// +kubebuilder:validation:XValidation:rule="!has(self.keystone) || !has(self.keystone.applicationCredential) || !has(self.keystone.applicationCredential.secretRef.namespace)",message="spec.keystone.applicationCredential.secretRef.namespace must not be set: a namespaced ProviderConfig reads its Secrets in its own namespace; put the Secret there and leave out namespace, or use a ClusterProviderConfig"
	// +kubebuilder:validation:XValidation:rule="!has(self.keystone) || !has(self.keystone.tls) || !has(self.keystone.tls.caBundleSecretRef) || !has(self.keystone.tls.caBundleSecretRef.namespace)",message="spec.keystone.tls.caBundleSecretRef.namespace must not be set: a namespaced ProviderConfig reads its Secrets in its own namespace; put the Secret there and leave out namespace, or use a ClusterProviderConfig"
	// +kubebuilder:validation:XValidation:rule="!has(self.authentik) || !has(self.authentik.tokenSecretRef.namespace)",message="spec.authentik.tokenSecretRef.namespace must not be set: a namespaced ProviderConfig reads its Secrets in its own namespace; put the Secret there and leave out namespace, or use a ClusterProviderConfig"
	// +kubebuilder:validation:XValidation:rule="!has(self.authentik) || !has(self.authentik.tls) || !has(self.authentik.tls.caBundleSecretRef) || !has(self.authentik.tls.caBundleSecretRef.namespace)",message="spec.authentik.tls.caBundleSecretRef.namespace must not be set: a namespaced ProviderConfig reads its Secrets in its own namespace; put the Secret there and leave out namespace, or use a ClusterProviderConfig"
	Spec   identityv1alpha1.ProviderConfigSpec   `json:"spec"`
	Status identityv1alpha1.ProviderConfigStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// ProviderConfigList contains a list of ProviderConfig.
type ProviderConfigList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ProviderConfig `json:"items"`
}

// +kubebuilder:object:root=true

// A ClusterProviderConfig configures how namespaced resources of any namespace connect to one
// authentik or Keystone. Its Secrets are named by namespace and name.
// +kubebuilder:subresource:status
// +kubebuilder:validation:XValidation:rule="has(oldSelf.spec.installationID) || !has(self.spec.installationID) || !has(oldSelf.status) || !has(oldSelf.status.installationID) || self.spec.installationID == oldSelf.status.installationID",message="spec.installationID can only be set to the ID this ClusterProviderConfig already writes into provenance markers (status.installationID, derived from the kube-system namespace's UID): another ID would make every object it created foreign (AdoptionRequired). Set it to status.installationID, or leave it unset"
// +kubebuilder:printcolumn:name="AUTHENTICATED",type="string",JSONPath=".status.conditions[?(@.type=='Authenticated')].status"
// +kubebuilder:printcolumn:name="REASON",type="string",JSONPath=".status.conditions[?(@.type=='Authenticated')].reason"
// +kubebuilder:printcolumn:name="MESSAGE",type="string",JSONPath=".status.conditions[?(@.type=='Authenticated')].message"
// +kubebuilder:printcolumn:name="KEYSTONE",type="string",JSONPath=".spec.keystone.authURL",priority=1
// +kubebuilder:printcolumn:name="AUTHENTIK",type="string",JSONPath=".spec.authentik.url",priority=1
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:resource:scope=Cluster,categories={crossplane,provider,identity}
type ClusterProviderConfig struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// +kubebuilder:validation:XValidation:rule="!has(self.keystone) || !has(self.keystone.password) || has(self.keystone.password.passwordSecretRef.namespace)",message="spec.keystone.password.passwordSecretRef.namespace is required: a ClusterProviderConfig names the namespace of each Secret it reads"
	// +kubebuilder:validation:XValidation:rule="!has(self.keystone) || !has(self.keystone.applicationCredential) || has(self.keystone.applicationCredential.secretRef.namespace)",message="spec.keystone.applicationCredential.secretRef.namespace is required: a ClusterProviderConfig names the namespace of each Secret it reads"
	// +kubebuilder:validation:XValidation:rule="!has(self.keystone) || !has(self.keystone.tls) || !has(self.keystone.tls.caBundleSecretRef) || has(self.keystone.tls.caBundleSecretRef.namespace)",message="spec.keystone.tls.caBundleSecretRef.namespace is required: a ClusterProviderConfig names the namespace of each Secret it reads"
	// +kubebuilder:validation:XValidation:rule="!has(self.authentik) || has(self.authentik.tokenSecretRef.namespace)",message="spec.authentik.tokenSecretRef.namespace is required: a ClusterProviderConfig names the namespace of each Secret it reads"
	// +kubebuilder:validation:XValidation:rule="!has(self.authentik) || !has(self.authentik.tls) || !has(self.authentik.tls.caBundleSecretRef) || has(self.authentik.tls.caBundleSecretRef.namespace)",message="spec.authentik.tls.caBundleSecretRef.namespace is required: a ClusterProviderConfig names the namespace of each Secret it reads"
	Spec   identityv1alpha1.ProviderConfigSpec   `json:"spec"`
	Status identityv1alpha1.ProviderConfigStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// ClusterProviderConfigList contains a list of ClusterProviderConfig.
type ClusterProviderConfigList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ClusterProviderConfig `json:"items"`
}

// +kubebuilder:object:root=true

// A ProviderConfigUsage records that a namespaced managed resource uses a ProviderConfig or a
// ClusterProviderConfig (providerConfigRef.kind says which). It lives in the resource's
// namespace whichever kind it names, as crossplane-runtime's usage tracker writes it.
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:printcolumn:name="CONFIG-KIND",type="string",JSONPath=".providerConfigRef.kind"
// +kubebuilder:printcolumn:name="CONFIG-NAME",type="string",JSONPath=".providerConfigRef.name"
// +kubebuilder:printcolumn:name="RESOURCE-KIND",type="string",JSONPath=".resourceRef.kind"
// +kubebuilder:printcolumn:name="RESOURCE-NAME",type="string",JSONPath=".resourceRef.name"
// +kubebuilder:resource:scope=Namespaced,categories={crossplane,provider,identity}
type ProviderConfigUsage struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	xpv2.TypedProviderConfigUsage `json:",inline"`
}

// +kubebuilder:object:root=true

// ProviderConfigUsageList contains a list of ProviderConfigUsage.
type ProviderConfigUsageList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ProviderConfigUsage `json:"items"`
}

// ProviderConfigSpec returns the spec, which every ProviderConfig kind shares.
func (pc *ProviderConfig) ProviderConfigSpec() *identityv1alpha1.ProviderConfigSpec {
	return &pc.Spec
}

// ProviderConfigStatus returns the status, which every ProviderConfig kind shares.
func (pc *ProviderConfig) ProviderConfigStatus() *identityv1alpha1.ProviderConfigStatus {
	return &pc.Status
}

// ProviderConfigSpec returns the spec, which every ProviderConfig kind shares.
func (pc *ClusterProviderConfig) ProviderConfigSpec() *identityv1alpha1.ProviderConfigSpec {
	return &pc.Spec
}

// ProviderConfigStatus returns the status, which every ProviderConfig kind shares.
func (pc *ClusterProviderConfig) ProviderConfigStatus() *identityv1alpha1.ProviderConfigStatus {
	return &pc.Status
}

// Kind metadata used by controllers.
var (
	ProviderConfigKind             = reflect.TypeFor[ProviderConfig]().Name()
	ProviderConfigGroupVersionKind = SchemeGroupVersion.WithKind(ProviderConfigKind)

	ClusterProviderConfigKind             = reflect.TypeFor[ClusterProviderConfig]().Name()
	ClusterProviderConfigGroupVersionKind = SchemeGroupVersion.WithKind(ClusterProviderConfigKind)

	ProviderConfigUsageKind                 = reflect.TypeFor[ProviderConfigUsage]().Name()
	ProviderConfigUsageGroupVersionKind     = SchemeGroupVersion.WithKind(ProviderConfigUsageKind)
	ProviderConfigUsageListKind             = reflect.TypeFor[ProviderConfigUsageList]().Name()
	ProviderConfigUsageListGroupVersionKind = SchemeGroupVersion.WithKind(ProviderConfigUsageListKind)
)

func init() {
	SchemeBuilder.Register(&ProviderConfig{}, &ProviderConfigList{})
	SchemeBuilder.Register(&ClusterProviderConfig{}, &ClusterProviderConfigList{})
	SchemeBuilder.Register(&ProviderConfigUsage{}, &ProviderConfigUsageList{})
}
