package v1alpha1

import (
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// UserParameters are the configurable fields of an authentik user.
type UserParameters struct {
	// Username of the user, unique in authentik. It is how an existing user is found when
	// the resource has no external name yet.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=150
	// +kubebuilder:validation:Pattern=`^[^\s\x00-\x1f\x7f]+$`
	Username string `json:"username"`

	// Name is the user's display name. A user created without one gets an empty name.
	// +optional
	// +kubebuilder:validation:Pattern=`^([^\s\x00-\x1f\x7f]([^\x00-\x1f\x7f]*[^\s\x00-\x1f\x7f])?)?$`
	Name *string `json:"name,omitempty"`

	// Email address of the user.
	// +optional
	// +kubebuilder:validation:MaxLength=254
	// +kubebuilder:validation:XValidation:rule="self == '' || self.matches('^[^@\\\\s<>]+@[^@\\\\s<>]+$')",message="email must be an address like someone@example.com (or empty)"
	Email *string `json:"email,omitempty"`

	// IsActive users can log in. authentik's default is true; deactivate users instead of
	// deleting them to keep their history.
	// +optional
	IsActive *bool `json:"isActive,omitempty"`

	// Type of the user. authentik's default is internal. internal_service_account users are
	// made by authentik for its outposts and cannot be created.
	// +optional
	// +kubebuilder:validation:Enum=internal;external;service_account
	Type *string `json:"type,omitempty"`

	// Path groups users in authentik's directory, for example users/engineering. authentik's
	// default is "users".
	// +optional
	// +kubebuilder:validation:Pattern=`^[^/\x00-\x1f\x7f]+(/[^/\x00-\x1f\x7f]+)*$`
	Path *string `json:"path,omitempty"`

	// Groups are the pks (UUIDs) of the groups the user belongs to. Usually filled in from
	// GroupRefs or GroupSelector. When set, it is the complete list: the user is removed from
	// groups not listed, and from every group when it is empty. When unset, the user's groups
	// are left alone.
	// +optional
	// +identity:reference:type=Group
	// +identity:reference:refFieldName=GroupRefs
	// +identity:reference:selectorFieldName=GroupSelector
	// +kubebuilder:validation:items:Pattern=`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`
	Groups []string `json:"groups"`

	// GroupRefs reference the Groups whose pks fill Groups: Groups in this User's namespace
	// (for a cluster-scoped User, cluster-scoped Groups).
	// +optional
	GroupRefs []xpv2.Reference `json:"groupRefs,omitempty"`

	// GroupSelector selects the Groups whose pks fill Groups, among the Groups of this User's
	// namespace (a cluster-scoped User: among the cluster-scoped Groups).
	// +optional
	GroupSelector *xpv2.Selector `json:"groupSelector,omitempty"`

	// Attributes are free-form JSON values under string keys. Only the keys set here are
	// managed: keys set in authentik by other means are kept, and a key removed from here is
	// left as it is in authentik. Keys starting with identity.crossplane.io/ are the
	// provider's own (its provenance marker; a user's password Secret version): a spec that
	// sets one is refused when reconciled.
	// +optional
	Attributes Attributes `json:"attributes,omitempty"`

	// PasswordSecretRef selects the Secret key that holds the user's password. The password
	// is set right after the user is created or adopted, and again whenever the Secret changes
	// (the Secret's version is recorded in the user's attribute
	// identity.crossplane.io/password-secret-version). It is never read back from authentik,
	// so a password changed in authentik stays until the Secret changes.
	// A cluster-scoped User names the Secret's namespace; a namespaced User reads the Secret in
	// its own namespace and names none.
	// +optional
	PasswordSecretRef *identityv1alpha1.SecretKeySelector `json:"passwordSecretRef,omitempty"`
}

// UserObservation is the observed state of an authentik user.
type UserObservation struct {
	// ID is authentik's pk of the user, an integer (also the external name).
	ID string `json:"id,omitempty"`

	// UUID is authentik's UUID of the user.
	UUID string `json:"uuid,omitempty"`

	Username    string `json:"username,omitempty"`
	Name        string `json:"name,omitempty"`
	Email       string `json:"email,omitempty"`
	IsActive    bool   `json:"isActive,omitempty"`
	IsSuperuser bool   `json:"isSuperuser,omitempty"`
	Type        string `json:"type,omitempty"`
	Path        string `json:"path,omitempty"`

	// Groups are the pks of the user's groups.
	Groups []string `json:"groups,omitempty"`

	// PasswordSecretVersion identifies the version of the password Secret whose value was
	// last set as the user's password: the Secret's UID, resourceVersion and key, never
	// anything derived from the password. The provider records it in the user's attribute
	// identity.crossplane.io/password-secret-version and sets the password again only when
	// the Secret's version differs.
	PasswordSecretVersion string `json:"passwordSecretVersion,omitempty"`

	// Provenance tells whether the user was created, adopted or only observed.
	Provenance identityv1alpha1.Provenance `json:"provenance,omitempty"`
}
