package v1alpha1

import (
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
)

// ProviderConfigSpec describes one endpoint: an authentik instance or a Keystone.
// +kubebuilder:validation:XValidation:rule="has(self.authentik) != has(self.keystone)",message="exactly one of spec.authentik or spec.keystone must be set"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.installationID) || (has(self.installationID) && self.installationID == oldSelf.installationID)",message="installationID cannot be changed or removed once set: every object this installation created carries it in its provenance marker, and another ID would make them all foreign (AdoptionRequired). Keep the old value; to manage the same objects from another cluster, give that cluster's ProviderConfig this same installationID"
type ProviderConfigSpec struct {
	// InstallationID names this installation in the provenance markers it writes into external
	// objects. Two installations that manage the same authentik or Keystone must use different
	// IDs, or each would take the other's objects for its own. When empty, the UID of the
	// cluster's kube-system namespace is used, which differs between clusters. It cannot change
	// once set, and can be set later only to the ID already in use (status.installationID):
	// another ID would make every object this installation created foreign.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=128
	// +kubebuilder:validation:Pattern=`^[A-Za-z0-9][A-Za-z0-9._-]*$`
	InstallationID string `json:"installationID,omitempty"`

	// Authentik configures access to an authentik instance.
	// +optional
	Authentik *AuthentikConfig `json:"authentik,omitempty"`

	// Keystone configures access to an OpenStack Keystone (identity API v3).
	// +optional
	Keystone *KeystoneConfig `json:"keystone,omitempty"`
}

// TLSConfig configures how the provider verifies the endpoint's certificate.
type TLSConfig struct {
	// CABundleSecretRef selects a Secret key holding PEM CA certificates to trust in addition to
	// the system's.
	// +optional
	CABundleSecretRef *SecretKeySelector `json:"caBundleSecretRef,omitempty"`

	// InsecureSkipVerify disables certificate verification. Only for tests.
	// +optional
	InsecureSkipVerify bool `json:"insecureSkipVerify,omitempty"`
}

// AuthentikConfig configures access to authentik's API.
type AuthentikConfig struct {
	// URL of authentik, for example https://authentik.example.com. The provider talks to
	// <url>/api/v3.
	// +kubebuilder:validation:Pattern=`^https?://[^\s]+$`
	// +kubebuilder:validation:MaxLength=2048
	URL string `json:"url"`

	// TokenSecretRef selects the Secret key that holds an authentik API token.
	TokenSecretRef SecretKeySelector `json:"tokenSecretRef"`

	// TLS settings for the connection.
	// +optional
	TLS *TLSConfig `json:"tls,omitempty"`
}

// KeystoneConfig configures access to Keystone.
// +kubebuilder:validation:XValidation:rule="has(self.password) != has(self.applicationCredential)",message="exactly one of password or applicationCredential must be set"
type KeystoneConfig struct {
	// AuthURL is Keystone's identity v3 endpoint, for example https://keystone.example.com/v3.
	// +kubebuilder:validation:Pattern=`^https?://[^\s]+$`
	// +kubebuilder:validation:MaxLength=2048
	AuthURL string `json:"authURL"`

	// Region of the identity endpoint in the service catalog.
	// +optional
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:Pattern=`^[^\x00-\x1f\x7f]*$`
	Region string `json:"region,omitempty"`

	// Interface of the identity endpoint in the service catalog.
	// +optional
	// +kubebuilder:validation:Enum=public;internal;admin
	// +kubebuilder:default=public
	Interface string `json:"interface,omitempty"`

	// Password authenticates with a user name and a password.
	// +optional
	Password *KeystonePasswordAuth `json:"password,omitempty"`

	// ApplicationCredential authenticates with an application credential.
	// +optional
	ApplicationCredential *KeystoneApplicationCredentialAuth `json:"applicationCredential,omitempty"`

	// TLS settings for the connection.
	// +optional
	TLS *TLSConfig `json:"tls,omitempty"`
}

// KeystonePasswordAuth is password authentication with an explicit scope.
type KeystonePasswordAuth struct {
	// Username of the Keystone user.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:Pattern=`^[^\x00-\x1f\x7f]*$`
	Username string `json:"username"`

	// UserDomainName is the domain of the user.
	// +optional
	// +kubebuilder:default=Default
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^[^\x00-\x1f\x7f]*$`
	UserDomainName string `json:"userDomainName,omitempty"`

	// PasswordSecretRef selects the Secret key that holds the password.
	PasswordSecretRef SecretKeySelector `json:"passwordSecretRef"`

	// Scope of the token the provider requests.
	Scope KeystoneScope `json:"scope"`
}

// KeystoneScope is the scope of a Keystone token: a project, a domain or the system.
// +kubebuilder:validation:XValidation:rule="[has(self.projectName), has(self.domainName), has(self.system) && self.system].filter(x, x).size() == 1",message="exactly one of projectName, domainName or system must be set"
type KeystoneScope struct {
	// ProjectName scopes the token to a project. A project scope is the fastest for Keystone to
	// validate.
	// +optional
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^[^\x00-\x1f\x7f]*$`
	ProjectName *string `json:"projectName,omitempty"`

	// ProjectDomainName is the domain of ProjectName.
	// +optional
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^[^\x00-\x1f\x7f]*$`
	ProjectDomainName *string `json:"projectDomainName,omitempty"`

	// DomainName scopes the token to a domain.
	// +optional
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^[^\x00-\x1f\x7f]*$`
	DomainName *string `json:"domainName,omitempty"`

	// System scopes the token to the whole deployment.
	// +optional
	System *bool `json:"system,omitempty"`
}

// KeystoneApplicationCredentialAuth authenticates with an application credential.
type KeystoneApplicationCredentialAuth struct {
	// ID of the application credential.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^[A-Za-z0-9-]+$`
	ID string `json:"id"`

	// SecretRef selects the Secret key that holds the application credential's secret.
	SecretRef SecretKeySelector `json:"secretRef"`
}

// ProviderConfigStatus is the observed state of a ProviderConfig.
type ProviderConfigStatus struct {
	xpv2.ProviderConfigStatus `json:",inline"`

	// InstallationID is the identity this installation writes into provenance markers,
	// recorded the first time the ProviderConfig is reconciled and never changed afterwards:
	// while spec.installationID (or, unset, the kube-system namespace's UID) differs from it,
	// the ProviderConfig's resources stop instead of writing markers with another ID.
	// +optional
	InstallationID string `json:"installationID,omitempty"`
}

// ConditionTypeAuthenticated reports whether the provider can authenticate with the endpoint.
const ConditionTypeAuthenticated xpv2.ConditionType = "Authenticated"

// ConditionTypeInstallationID reports whether the ProviderConfig's installation ID is the one
// recorded in status.installationID, the ID its resources' provenance markers carry.
const ConditionTypeInstallationID xpv2.ConditionType = "InstallationID"

// The legacy ProviderConfig's Secret selectors name their namespace (CEL rules on its spec): a
// cluster-scoped ProviderConfig has none of its own to read them in. The namespaced
// ProviderConfig of identity.m.crossplane.io forbids it instead.

// +kubebuilder:object:root=true

// A ProviderConfig configures how provider-identity connects to one authentik or Keystone.
// +kubebuilder:subresource:status
// +kubebuilder:validation:XValidation:rule="has(oldSelf.spec.installationID) || !has(self.spec.installationID) || !has(oldSelf.status) || !has(oldSelf.status.installationID) || self.spec.installationID == oldSelf.status.installationID",message="spec.installationID can only be set to the ID this ProviderConfig already writes into provenance markers (status.installationID, derived from the kube-system namespace's UID): another ID would make every object it created foreign (AdoptionRequired). Set it to status.installationID, or leave it unset"
// +kubebuilder:printcolumn:name="AUTHENTICATED",type="string",JSONPath=".status.conditions[?(@.type=='Authenticated')].status"
// +kubebuilder:printcolumn:name="REASON",type="string",JSONPath=".status.conditions[?(@.type=='Authenticated')].reason"
// +kubebuilder:printcolumn:name="MESSAGE",type="string",JSONPath=".status.conditions[?(@.type=='Authenticated')].message"
// +kubebuilder:printcolumn:name="KEYSTONE",type="string",JSONPath=".spec.keystone.authURL",priority=1
// +kubebuilder:printcolumn:name="AUTHENTIK",type="string",JSONPath=".spec.authentik.url",priority=1
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:resource:scope=Cluster,categories={crossplane,provider,identity}
type ProviderConfig struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// +kubebuilder:validation:XValidation:rule="!has(self.keystone) || !has(self.keystone.password) || has(self.keystone.password.passwordSecretRef.namespace)",message="spec.keystone.password.passwordSecretRef.namespace is required: a cluster-scoped ProviderConfig names the namespace of each Secret it reads"
	// +kubebuilder:validation:XValidation:rule="!has(self.keystone) || !has(self.keystone.applicationCredential) || has(self.keystone.applicationCredential.secretRef.namespace)",message="spec.keystone.applicationCredential.secretRef.namespace is required: a cluster-scoped ProviderConfig names the namespace of each Secret it reads"
	// +kubebuilder:validation:XValidation:rule="!has(self.keystone) || !has(self.keystone.tls) || !has(self.keystone.tls.caBundleSecretRef) || has(self.keystone.tls.caBundleSecretRef.namespace)",message="spec.keystone.tls.caBundleSecretRef.namespace is required: a cluster-scoped ProviderConfig names the namespace of each Secret it reads"
	// +kubebuilder:validation:XValidation:rule="!has(self.authentik) || has(self.authentik.tokenSecretRef.namespace)",message="spec.authentik.tokenSecretRef.namespace is required: a cluster-scoped ProviderConfig names the namespace of each Secret it reads"
	// +kubebuilder:validation:XValidation:rule="!has(self.authentik) || !has(self.authentik.tls) || !has(self.authentik.tls.caBundleSecretRef) || has(self.authentik.tls.caBundleSecretRef.namespace)",message="spec.authentik.tls.caBundleSecretRef.namespace is required: a cluster-scoped ProviderConfig names the namespace of each Secret it reads"
	Spec   ProviderConfigSpec   `json:"spec"`
	Status ProviderConfigStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// ProviderConfigList contains a list of ProviderConfig.
type ProviderConfigList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ProviderConfig `json:"items"`
}

// +kubebuilder:object:root=true

// A ProviderConfigUsage records that a managed resource uses a ProviderConfig.
// +kubebuilder:printcolumn:name="AGE",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:printcolumn:name="CONFIG-NAME",type="string",JSONPath=".providerConfigRef.name"
// +kubebuilder:printcolumn:name="RESOURCE-KIND",type="string",JSONPath=".resourceRef.kind"
// +kubebuilder:printcolumn:name="RESOURCE-NAME",type="string",JSONPath=".resourceRef.name"
// +kubebuilder:resource:scope=Cluster,categories={crossplane,provider,identity}
type ProviderConfigUsage struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	xpv2.ProviderConfigUsage `json:",inline"`
}

// +kubebuilder:object:root=true

// ProviderConfigUsageList contains a list of ProviderConfigUsage.
type ProviderConfigUsageList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ProviderConfigUsage `json:"items"`
}

// Kind metadata used by controllers.
var (
	ProviderConfigKind             = reflect.TypeFor[ProviderConfig]().Name()
	ProviderConfigGroupVersionKind = SchemeGroupVersion.WithKind(ProviderConfigKind)

	ProviderConfigUsageKind                 = reflect.TypeFor[ProviderConfigUsage]().Name()
	ProviderConfigUsageGroupVersionKind     = SchemeGroupVersion.WithKind(ProviderConfigUsageKind)
	ProviderConfigUsageListKind             = reflect.TypeFor[ProviderConfigUsageList]().Name()
	ProviderConfigUsageListGroupVersionKind = SchemeGroupVersion.WithKind(ProviderConfigUsageListKind)
)

func init() {
	SchemeBuilder.Register(&ProviderConfig{}, &ProviderConfigList{})
	SchemeBuilder.Register(&ProviderConfigUsage{}, &ProviderConfigUsageList{})
}

// ProviderConfigSpec returns the spec, which every ProviderConfig kind shares.
func (pc *ProviderConfig) ProviderConfigSpec() *ProviderConfigSpec { return &pc.Spec }

// ProviderConfigStatus returns the status, which every ProviderConfig kind shares.
func (pc *ProviderConfig) ProviderConfigStatus() *ProviderConfigStatus { return &pc.Status }
