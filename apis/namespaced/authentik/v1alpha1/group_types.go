package v1alpha1

import (
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// GroupParameters are the configurable fields of an authentik group.
type GroupParameters struct {
	// Name of the group. It is how an existing group is found when the resource has no
	// external name yet, so it should be unique in authentik.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:Pattern=`^[^\s\x00-\x1f\x7f]([^\x00-\x1f\x7f]*[^\s\x00-\x1f\x7f])?$`
	Name string `json:"name"`

	// IsSuperuser makes every member of the group a superuser. authentik's default is false.
	// +optional
	IsSuperuser *bool `json:"isSuperuser,omitempty"`

	// Parents are the pks (UUIDs) of the groups this group inherits from. Usually filled in
	// from ParentRefs or ParentSelector. When set, it is the complete list: parents not listed
	// are removed, and an empty list removes them all. When unset, the group's parents are
	// left alone.
	// +optional
	// +identity:reference:type=Group
	// +identity:reference:refFieldName=ParentRefs
	// +identity:reference:selectorFieldName=ParentSelector
	// +kubebuilder:validation:items:Pattern=`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`
	Parents []string `json:"parents"`

	// ParentRefs reference the Groups whose pks fill Parents: Groups in this Group's namespace
	// (for a cluster-scoped Group, cluster-scoped Groups).
	// +optional
	ParentRefs []xpv2.Reference `json:"parentRefs,omitempty"`

	// ParentSelector selects the Groups whose pks fill Parents, among the Groups of this
	// Group's namespace (a cluster-scoped Group: among the cluster-scoped Groups).
	// +optional
	ParentSelector *xpv2.Selector `json:"parentSelector,omitempty"`

	// Attributes are free-form JSON values under string keys. Only the keys set here are
	// managed: keys set in authentik by other means are kept, and a key removed from here is
	// left as it is in authentik. Keys starting with identity.crossplane.io/ are the
	// provider's own (its provenance marker; a user's password Secret version): a spec that
	// sets one is refused when reconciled.
	// +optional
	Attributes Attributes `json:"attributes,omitempty"`

	// Roles are the names of the authentik RBAC roles the group's members get. Each must
	// exist in authentik; names are looked up whenever the roles have to be written. When set,
	// it is the complete list (empty removes every role); when unset, the group's roles are
	// left alone.
	// +optional
	// +listType=set
	// +kubebuilder:validation:items:MinLength=1
	// +kubebuilder:validation:items:Pattern=`^[^\x00-\x1f\x7f]*$`
	Roles []string `json:"roles"`
}

// GroupObservation is the observed state of an authentik group.
type GroupObservation struct {
	// ID is authentik's pk of the group, a UUID (also the external name).
	ID string `json:"id,omitempty"`

	// NumPK is authentik's numeric ID of the group.
	NumPK int32 `json:"numPk,omitempty"`

	Name        string `json:"name,omitempty"`
	IsSuperuser bool   `json:"isSuperuser,omitempty"`

	// Parents are the pks of the group's parents.
	Parents []string `json:"parents,omitempty"`

	// Roles are the names of the group's roles.
	Roles []string `json:"roles,omitempty"`

	// Provenance tells whether the group was created, adopted or only observed.
	Provenance identityv1alpha1.Provenance `json:"provenance,omitempty"`
}
