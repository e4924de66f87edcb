package v1alpha1

import (
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// OutpostParameters are the configurable fields of an authentik outpost. Every optional field
// left unset is left as authentik has it and never causes a write.
//
// Providers are typed references, one list per provider kind, because a reference names one
// kind: a proxy outpost takes ProxyProviders, an LDAP outpost LDAPProviders. authentik also has
// RADIUS and RAC outposts; this provider manages no RADIUS or RAC provider, so it offers no
// such outpost type either (an outpost without providers is refused by authentik).
// +kubebuilder:validation:XValidation:rule="self.type != 'proxy' || (!has(self.ldapProviderIds) && !has(self.ldapProviderRefs) && !has(self.ldapProviderSelector))",message="a proxy outpost serves proxy providers only: remove the ldapProvider* fields, or set type: ldap"
// +kubebuilder:validation:XValidation:rule="self.type != 'ldap' || (!has(self.proxyProviderIds) && !has(self.proxyProviderRefs) && !has(self.proxyProviderSelector))",message="an LDAP outpost serves LDAP providers only: remove the proxyProvider* fields, or set type: proxy"
// +kubebuilder:validation:XValidation:rule="has(self.proxyProviderIds) || has(self.proxyProviderRefs) || has(self.proxyProviderSelector) || has(self.ldapProviderIds) || has(self.ldapProviderRefs) || has(self.ldapProviderSelector)",message="an outpost serves at least one provider: set proxyProviderRefs (type proxy) or ldapProviderRefs (type ldap), or their Ids or Selector"
type OutpostParameters struct {
	// Name of the outpost, unique in authentik; it is how an existing outpost is found when
	// the resource has no external name. authentik's own embedded outpost is named
	// "authentik Embedded Outpost": it is never taken over unless adoptionPolicy says so.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:Pattern=`^[^\s\x00-\x1f\x7f]([^\x00-\x1f\x7f]*[^\s\x00-\x1f\x7f])?$`
	Name string `json:"name"`

	// Type is proxy or ldap. It cannot be changed: an outpost runs as one program per type, so
	// a new type is a new outpost (and a new deployment).
	// +kubebuilder:validation:Enum=proxy;ldap
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="type cannot be changed: an outpost of another type is another program to deploy; create a new Outpost instead"
	Type string `json:"type"`

	// ProxyProviderIDs are the IDs of the proxy providers the outpost serves (type proxy).
	// Usually filled in from ProxyProviderRefs or ProxyProviderSelector.
	// +optional
	// +listType=set
	// +kubebuilder:validation:items:Pattern=`^[0-9]+$`
	// +identity:reference:type=ProxyProvider
	ProxyProviderIDs []string `json:"proxyProviderIds,omitempty"`

	// ProxyProviderRefs reference the ProxyProviders whose IDs fill ProxyProviderIDs: in this
	// Outpost's namespace (for a cluster-scoped Outpost, cluster-scoped ones).
	// +optional
	ProxyProviderRefs []xpv2.Reference `json:"proxyProviderRefs,omitempty"`

	// ProxyProviderSelector selects the ProxyProviders whose IDs fill ProxyProviderIDs, among
	// those of this Outpost's namespace (a cluster-scoped Outpost: the cluster-scoped ones).
	// +optional
	ProxyProviderSelector *xpv2.Selector `json:"proxyProviderSelector,omitempty"`

	// LDAPProviderIDs are the IDs of the LDAP providers the outpost serves (type ldap).
	// Usually filled in from LDAPProviderRefs or LDAPProviderSelector.
	// +optional
	// +listType=set
	// +kubebuilder:validation:items:Pattern=`^[0-9]+$`
	// +identity:reference:type=LDAPProvider
	LDAPProviderIDs []string `json:"ldapProviderIds,omitempty"`

	// LDAPProviderRefs reference the LDAPProviders whose IDs fill LDAPProviderIDs: in this
	// Outpost's namespace (for a cluster-scoped Outpost, cluster-scoped ones).
	// +optional
	LDAPProviderRefs []xpv2.Reference `json:"ldapProviderRefs,omitempty"`

	// LDAPProviderSelector selects the LDAPProviders whose IDs fill LDAPProviderIDs, among
	// those of this Outpost's namespace (a cluster-scoped Outpost: the cluster-scoped ones).
	// +optional
	LDAPProviderSelector *xpv2.Selector `json:"ldapProviderSelector,omitempty"`

	// ServiceConnectionID is the UUID of the authentik service connection (Docker or
	// Kubernetes) through which authentik deploys the outpost itself. The empty string clears
	// it: the outpost is then deployed by you, with the token of the connection Secret.
	// +optional
	// +kubebuilder:validation:Pattern=`^$|^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`
	ServiceConnectionID *string `json:"serviceConnectionId,omitempty"`

	// Config holds the outpost's settings. Only the settings set here are managed; every other
	// setting of authentik's config object is left as it is.
	// +optional
	Config *OutpostConfig `json:"config,omitempty"`
}

// OutpostConfig is the part of authentik's outpost configuration this provider manages. Unset
// fields are left as authentik has them.
type OutpostConfig struct {
	// AuthentikHost is the URL the outpost reaches authentik at, for example
	// https://authentik.example.com.
	// +optional
	// +kubebuilder:validation:Pattern=`^$|^https?://[^/?#\s\x00-\x1f\x7f][^\s\x00-\x1f\x7f]*$`
	AuthentikHost *string `json:"authentikHost,omitempty"`

	// AuthentikHostInsecure skips verifying authentik's certificate.
	// +optional
	AuthentikHostInsecure *bool `json:"authentikHostInsecure,omitempty"`

	// AuthentikHostBrowser is the URL browsers reach authentik at, when it differs from
	// AuthentikHost.
	// +optional
	// +kubebuilder:validation:Pattern=`^$|^https?://[^/?#\s\x00-\x1f\x7f][^\s\x00-\x1f\x7f]*$`
	AuthentikHostBrowser *string `json:"authentikHostBrowser,omitempty"`

	// LogLevel of the outpost.
	// +optional
	// +kubebuilder:validation:Enum=trace;debug;info;warning;error
	LogLevel *string `json:"logLevel,omitempty"`

	// RefreshInterval is how often the outpost reloads its providers, in authentik's duration
	// format (for example minutes=5).
	// +optional
	// +kubebuilder:validation:Pattern=`^(weeks|days|hours|minutes|seconds|milliseconds|microseconds)=-?[0-9]+(\.[0-9]+)?(;(weeks|days|hours|minutes|seconds|milliseconds|microseconds)=-?[0-9]+(\.[0-9]+)?)*$`
	RefreshInterval *string `json:"refreshInterval,omitempty"`

	// ObjectNamingTemplate names what a service connection deploys (for example
	// ak-outpost-%(name)s).
	// +optional
	// +kubebuilder:validation:Pattern=`^[^\x00-\x1f\x7f]*$`
	ObjectNamingTemplate *string `json:"objectNamingTemplate,omitempty"`

	// ContainerImage overrides the image a service connection deploys.
	// +optional
	// +kubebuilder:validation:Pattern=`^[^\s\x00-\x1f\x7f]*$`
	ContainerImage *string `json:"containerImage,omitempty"`

	// KubernetesReplicas is the number of replicas a Kubernetes service connection deploys.
	// +optional
	// +kubebuilder:validation:Minimum=0
	KubernetesReplicas *int32 `json:"kubernetesReplicas,omitempty"`

	// KubernetesNamespace is where a Kubernetes service connection deploys the outpost.
	// +optional
	// +kubebuilder:validation:Pattern=`^$|^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
	// +kubebuilder:validation:MaxLength=63
	KubernetesNamespace *string `json:"kubernetesNamespace,omitempty"`

	// KubernetesServiceType is the type of the Service a Kubernetes service connection makes.
	// +optional
	// +kubebuilder:validation:Enum=ClusterIP;NodePort;LoadBalancer
	KubernetesServiceType *string `json:"kubernetesServiceType,omitempty"`

	// KubernetesIngressClassName is the class of the Ingress a Kubernetes service connection
	// makes for a proxy outpost.
	// +optional
	// +kubebuilder:validation:Pattern=`^[^\s\x00-\x1f\x7f]*$`
	KubernetesIngressClassName *string `json:"kubernetesIngressClassName,omitempty"`

	// KubernetesIngressSecretName is the Secret holding the Ingress's TLS certificate.
	// +optional
	// +kubebuilder:validation:Pattern=`^[^\s\x00-\x1f\x7f]*$`
	KubernetesIngressSecretName *string `json:"kubernetesIngressSecretName,omitempty"`

	// KubernetesIngressAnnotations are set on that Ingress. Set: the whole map is managed.
	// +optional
	KubernetesIngressAnnotations map[string]string `json:"kubernetesIngressAnnotations,omitempty"`

	// KubernetesDisabledComponents are the objects a Kubernetes service connection does not
	// make. Set: the whole list is managed (as a set).
	// +optional
	// +listType=set
	// +kubebuilder:validation:items:Enum=deployment;service;secret;ingress;traefik middleware;prometheus servicemonitor;httproute
	KubernetesDisabledComponents []string `json:"kubernetesDisabledComponents,omitempty"`

	// KubernetesImagePullSecrets are the pull Secrets of the deployment a Kubernetes service
	// connection makes. Set: the whole list is managed (as a set).
	// +optional
	// +listType=set
	KubernetesImagePullSecrets []string `json:"kubernetesImagePullSecrets,omitempty"`
}

// OutpostObservation is the observed state of an authentik outpost.
type OutpostObservation struct {
	// ID is authentik's UUID of the outpost (also the external name).
	ID string `json:"id,omitempty"`

	// Name of the outpost.
	Name string `json:"name,omitempty"`

	// Type of the outpost.
	Type string `json:"type,omitempty"`

	// ProviderIDs are the IDs of the providers the outpost serves.
	ProviderIDs []string `json:"providerIds,omitempty"`

	// TokenIdentifier is the identifier of the outpost's API token (ak-outpost-<id>-api). Its
	// key is published to the connection Secret only.
	TokenIdentifier string `json:"tokenIdentifier,omitempty"`

	// Managed is authentik's own mark: goauthentik.io/outposts/embedded on the embedded outpost.
	Managed string `json:"managed,omitempty"`

	// Provenance tells whether the outpost was created, adopted or only observed.
	Provenance identityv1alpha1.Provenance `json:"provenance,omitempty"`
}
