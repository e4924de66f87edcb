package v1alpha1

import (
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// EndpointInterface is how an endpoint is reached: public, internal or admin.
// +kubebuilder:validation:Enum=public;internal;admin
type EndpointInterface string

// The endpoint interfaces Keystone knows.
const (
	InterfacePublic   EndpointInterface = "public"
	InterfaceInternal EndpointInterface = "internal"
	InterfaceAdmin    EndpointInterface = "admin"
)

// EndpointParameters are the configurable fields of a Keystone endpoint of the service catalog.
// +kubebuilder:validation:XValidation:rule="has(self.serviceId) || has(self.serviceRef) || has(self.serviceSelector)",message="an endpoint belongs to a service: set one of serviceId, serviceRef or serviceSelector"
type EndpointParameters struct {
	// ServiceID is the Keystone ID of the endpoint's service. Usually filled in from ServiceRef
	// or ServiceSelector. The service, the interface and the region are the endpoint's natural
	// key.
	// +optional
	// +identity:reference:type=Service
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:XValidation:rule="self.matches('^[A-Za-z0-9-]+$')",message="serviceId must be a Keystone service ID: letters, digits and hyphens only (for example 4c0f8d3b9e2a4f5c8a7b6d5e4f3a2b1c)"
	ServiceID *string `json:"serviceId,omitempty"`

	// ServiceRef references the Service whose ID fills ServiceID: a Service in this Endpoint's
	// namespace (for a cluster-scoped Endpoint, a cluster-scoped Service).
	// +optional
	ServiceRef *xpv2.Reference `json:"serviceRef,omitempty"`

	// ServiceSelector selects the Service whose ID fills ServiceID, among the Services of this
	// Endpoint's namespace (a cluster-scoped Endpoint: among the cluster-scoped Services).
	// +optional
	ServiceSelector *xpv2.Selector `json:"serviceSelector,omitempty"`

	// Interface is how the endpoint is reached: public, internal or admin.
	Interface EndpointInterface `json:"interface"`

	// URL of the endpoint. Keystone substitutes $(project_id)s and the like when it builds a
	// token's catalog.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=225
	// +kubebuilder:validation:Pattern=`^[a-zA-Z0-9+.-]+:.+`
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\x00-\\x20\\x7f]')",message="url must not contain spaces or control characters"
	URL string `json:"url"`

	// RegionID is the ID of the endpoint's region; an endpoint without one is in no region.
	// Usually filled in from RegionRef or RegionSelector.
	// +optional
	// +identity:reference:type=Region
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^[A-Za-z0-9._-]+$`
	RegionID *string `json:"regionId,omitempty"`

	// RegionRef references the Region whose ID fills RegionID: a Region in this Endpoint's
	// namespace (for a cluster-scoped Endpoint, a cluster-scoped Region).
	// +optional
	RegionRef *xpv2.Reference `json:"regionRef,omitempty"`

	// RegionSelector selects the Region whose ID fills RegionID, among the Regions of this
	// Endpoint's namespace (a cluster-scoped Endpoint: among the cluster-scoped Regions).
	// +optional
	RegionSelector *xpv2.Selector `json:"regionSelector,omitempty"`

	// Enabled endpoints appear in the catalog of tokens. Keystone's default is true; left unset,
	// the endpoint's current value is kept.
	// +optional
	Enabled *bool `json:"enabled,omitempty"`
}

// EndpointObservation is the observed state of a Keystone endpoint.
type EndpointObservation struct {
	// ID is Keystone's ID of the endpoint (also the external name).
	ID string `json:"id,omitempty"`

	ServiceID string `json:"serviceId,omitempty"`
	Interface string `json:"interface,omitempty"`
	URL       string `json:"url,omitempty"`
	RegionID  string `json:"regionId,omitempty"`
	Enabled   bool   `json:"enabled,omitempty"`

	// Provenance tells whether the endpoint was created, adopted or only observed.
	Provenance identityv1alpha1.Provenance `json:"provenance,omitempty"`
}
