package v1alpha1

import (
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// UserParameters are the configurable fields of a Keystone user.
// +kubebuilder:validation:XValidation:rule="has(self.domainId) || has(self.domainRef) || has(self.domainSelector)",message="a user belongs to a domain: set one of domainId, domainRef or domainSelector (domainId: default is Keystone's Default domain)"
type UserParameters struct {
	// Name of the user. User names are unique within their domain; the name and the domain
	// are how an existing user is found when the resource has no external name yet.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:Pattern=`\S`
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\x00-\\x1f\\x7f]')",message="name must not contain control characters (newline, tab, escape...): Keystone would store them in the user name as given"
	Name string `json:"name"`

	// DomainID is the Keystone ID of the user's domain ("default" for Keystone's Default
	// domain). Keystone cannot move a user to another domain, so it cannot be changed once
	// set. Usually filled in from DomainRef or DomainSelector.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="domainId cannot be changed: Keystone cannot move a user to another domain; create a new User instead"
	// +identity:reference:type=Domain
	// +kubebuilder:validation:XValidation:rule="self.matches('^[A-Za-z0-9-]+$')",message="domainId must be a Keystone domain ID: letters, digits and hyphens only, as Keystone itself requires (for example 4c0f8d3b9e2a4f5c8a7b6d5e4f3a2b1c, or default for the Default domain)"
	DomainID *string `json:"domainId,omitempty"`

	// DomainRef references the Domain whose ID fills DomainID: a Domain in this User's
	// namespace (for a cluster-scoped User, a cluster-scoped Domain). A reference never leaves
	// the namespace.
	// +optional
	DomainRef *xpv2.Reference `json:"domainRef,omitempty"`

	// DomainSelector selects the Domain whose ID fills DomainID, among the Domains of this
	// User's namespace (a cluster-scoped User: among the cluster-scoped Domains).
	// +optional
	DomainSelector *xpv2.Selector `json:"domainSelector,omitempty"`

	// Description of the user.
	// +optional
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f]')",message="description must not contain control characters other than tabs and line breaks: Keystone would store them in the user description as given"
	Description *string `json:"description,omitempty"`

	// Enabled users can authenticate. Keystone's default is true.
	// +optional
	Enabled *bool `json:"enabled,omitempty"`

	// Email address of the user. Keystone keeps it as an extra attribute named email.
	// +optional
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\x00-\\x1f\\x7f]')",message="email must not contain control characters (newline, tab, escape...)"
	Email *string `json:"email,omitempty"`

	// DefaultProjectID is the Keystone ID of the project the user's tokens are scoped to when
	// they ask for no scope. It grants nothing by itself: assign a role on the project too.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +identity:reference:type=Project
	// +kubebuilder:validation:XValidation:rule="self.matches('^[A-Za-z0-9-]+$')",message="defaultProjectId must be a Keystone project ID: letters, digits and hyphens only, as Keystone itself requires (for example 4c0f8d3b9e2a4f5c8a7b6d5e4f3a2b1c)"
	DefaultProjectID *string `json:"defaultProjectId,omitempty"`

	// DefaultProjectRef references the Project whose ID fills DefaultProjectID, in this
	// User's namespace.
	// +optional
	DefaultProjectRef *xpv2.Reference `json:"defaultProjectRef,omitempty"`

	// DefaultProjectSelector selects the Project whose ID fills DefaultProjectID, in this
	// User's namespace.
	// +optional
	DefaultProjectSelector *xpv2.Selector `json:"defaultProjectSelector,omitempty"`

	// PasswordSecretRef selects the key of a Secret that holds the user's password. Keystone
	// never returns passwords, so the provider cannot see a password changed outside it: it
	// sends the password when the user is first managed and again whenever the Secret
	// changes (see status.atProvider.passwordFingerprint). Unset, the password is not managed.
	// A cluster-scoped User names the Secret's namespace; a namespaced User reads the Secret in
	// its own namespace and names none.
	// +optional
	PasswordSecretRef *identityv1alpha1.SecretKeySelector `json:"passwordSecretRef,omitempty"`
}

// A PasswordFingerprint identifies the version of a password Secret whose value was last sent
// to Keystone. It is derived from the Secret's metadata only and holds nothing computed from
// the password, so it reveals nothing about it. Any change of the Secret (a new value, or a
// Secret deleted and made again) changes the fingerprint, and the password is sent again.
type PasswordFingerprint struct {
	// Namespace of the Secret.
	Namespace string `json:"namespace"`
	// Name of the Secret.
	Name string `json:"name"`
	// Key of the password in the Secret.
	Key string `json:"key"`
	// UID of the Secret.
	UID string `json:"uid"`
	// ResourceVersion of the Secret when its value was read and sent.
	ResourceVersion string `json:"resourceVersion"`
}

// UserObservation is the observed state of a Keystone user.
type UserObservation struct {
	// ID is Keystone's ID of the user (also the external name).
	ID string `json:"id,omitempty"`

	Name             string `json:"name,omitempty"`
	DomainID         string `json:"domainId,omitempty"`
	Description      string `json:"description,omitempty"`
	Enabled          bool   `json:"enabled,omitempty"`
	Email            string `json:"email,omitempty"`
	DefaultProjectID string `json:"defaultProjectId,omitempty"`

	// PasswordFingerprint identifies the Secret version whose password was last sent to
	// Keystone; empty while the password is not managed or was not sent yet.
	// +optional
	PasswordFingerprint *PasswordFingerprint `json:"passwordFingerprint,omitempty"`

	// Provenance tells whether the user was created, adopted or only observed.
	Provenance identityv1alpha1.Provenance `json:"provenance,omitempty"`
}
