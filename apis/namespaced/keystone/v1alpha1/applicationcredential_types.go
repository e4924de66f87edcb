package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// ApplicationCredentialParameters are the configurable fields of a Keystone application
// credential: a secret that authenticates as its user on one project, with all or some of the
// user's roles there. Keystone lets a user create only their own application credentials, with a
// token scoped to the project: the provider logs in as the user with the password that
// passwordSecretRef selects, or, without it, uses the ProviderConfig's credentials, which must
// then be the user's own, scoped to the project. Keystone cannot change an application
// credential: any change of the fields below replaces it (the old one is deleted, a new one made
// and its secret published). The name is unique per user; it is how an existing one is found
// when the resource has no external name yet.
// +kubebuilder:validation:XValidation:rule="has(self.userId) || has(self.userRef) || has(self.userSelector)",message="set the user the application credential is for: one of userId, userRef or userSelector"
// +kubebuilder:validation:XValidation:rule="has(self.projectId) || has(self.projectRef) || has(self.projectSelector)",message="set the project the application credential is for: one of projectId, projectRef or projectSelector"
// +kubebuilder:validation:XValidation:rule="!(has(self.roleIds) && has(self.roleNames))",message="name the roles either by ID (roleIds, roleRefs or roleSelector) or by name (roleNames), not both"
type ApplicationCredentialParameters struct {
	// UserID is the Keystone ID of the user the application credential is for. Usually filled in
	// from UserRef or UserSelector. Deleting the user deletes its application credentials.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +identity:reference:type=User
	// +kubebuilder:validation:Pattern=`^[^/]+$`
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\x00-\\x1f\\x7f]') && self != '.' && self != '..'",message="userId must be a Keystone ID without control characters, and not . or .. (it is a segment of the application credential's URL)"
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="userId cannot be changed: an application credential belongs to its user for life; create a new ApplicationCredential instead"
	UserID *string `json:"userId,omitempty"`

	// UserRef references the User whose ID fills UserID, in this ApplicationCredential's
	// namespace (for a cluster-scoped ApplicationCredential, a cluster-scoped User).
	// +optional
	UserRef *xpv2.Reference `json:"userRef,omitempty"`

	// UserSelector selects the User whose ID fills UserID, in this ApplicationCredential's
	// namespace (for a cluster-scoped ApplicationCredential, among the cluster-scoped Users).
	// +optional
	UserSelector *xpv2.Selector `json:"userSelector,omitempty"`

	// ProjectID is the Keystone ID of the project the application credential authenticates to.
	// The user must have a role there. Keystone deletes the user's application credentials on
	// a project when one of the user's role assignments there is removed.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +identity:reference:type=Project
	// +kubebuilder:validation:XValidation:rule="self.matches('^[A-Za-z0-9-]+$')",message="projectId must be a Keystone project ID: letters, digits and hyphens only, as Keystone itself requires (for example 4c0f8d3b9e2a4f5c8a7b6d5e4f3a2b1c)"
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="projectId cannot be changed: an application credential is for one project for life; create a new ApplicationCredential instead"
	ProjectID *string `json:"projectId,omitempty"`

	// ProjectRef references the Project whose ID fills ProjectID, in this ApplicationCredential's
	// namespace.
	// +optional
	ProjectRef *xpv2.Reference `json:"projectRef,omitempty"`

	// ProjectSelector selects the Project whose ID fills ProjectID, in this
	// ApplicationCredential's namespace.
	// +optional
	ProjectSelector *xpv2.Selector `json:"projectSelector,omitempty"`

	// Name of the application credential, unique among the user's.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:Pattern=`\S`
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\x00-\\x1f\\x7f]')",message="name must not contain control characters"
	Name string `json:"name"`

	// Description of the application credential. The provider appends its provenance marker on
	// a line of its own; status.atProvider reports the description without it.
	// +optional
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:XValidation:rule="!self.matches('[\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f]')",message="description must not contain control characters other than tabs and line breaks"
	Description *string `json:"description,omitempty"`

	// RoleIDs are the Keystone IDs of the roles the application credential carries: a subset
	// of the user's global roles on the project (Keystone leaves domain-specific roles out of
	// tokens and application credentials). Usually filled in from RoleRefs or RoleSelector.
	// Unset (and roleNames unset), it carries every role the user has on the project when it
	// is created.
	// +optional
	// +listType=set
	// +kubebuilder:validation:MaxItems=64
	// +kubebuilder:validation:items:MinLength=1
	// +kubebuilder:validation:items:MaxLength=64
	// +kubebuilder:validation:items:Pattern=`^[A-Za-z0-9-]+$`
	// +identity:reference:type=Role
	RoleIDs []string `json:"roleIds,omitempty"`

	// RoleRefs reference the Roles whose IDs fill RoleIDs, in this ApplicationCredential's
	// namespace.
	// +optional
	RoleRefs []xpv2.Reference `json:"roleRefs,omitempty"`

	// RoleSelector selects the Roles whose IDs fill RoleIDs, in this ApplicationCredential's
	// namespace.
	// +optional
	RoleSelector *xpv2.Selector `json:"roleSelector,omitempty"`

	// RoleNames name the roles the application credential carries, as an alternative to
	// RoleIDs (Keystone looks each name up among the global roles).
	// +optional
	// +listType=set
	// +kubebuilder:validation:MaxItems=64
	// +kubebuilder:validation:items:MinLength=1
	// +kubebuilder:validation:items:MaxLength=255
	// +kubebuilder:validation:items:Pattern=`^[^\x00-\x1f\x7f]+$`
	RoleNames []string `json:"roleNames,omitempty"`

	// ExpiresAt is when the application credential stops authenticating. Unset, it never
	// expires.
	// +optional
	ExpiresAt *metav1.Time `json:"expiresAt,omitempty"`

	// Unrestricted lets the application credential create and delete other application
	// credentials and trusts: potentially dangerous, and false by default.
	// +optional
	Unrestricted *bool `json:"unrestricted,omitempty"`

	// AccessRules restrict the application credential to these API calls. Unset, it may call
	// any API its roles allow.
	// +optional
	// +kubebuilder:validation:MaxItems=64
	AccessRules []ApplicationCredentialAccessRule `json:"accessRules,omitempty"`

	// PasswordSecretRef selects the key of a Secret that holds the user's password. Keystone
	// lets only the user create their application credentials: the provider logs in as the user
	// with it, scoped to the project, to create one (reads and deletes use the
	// ProviderConfig's credentials). Unset, the ProviderConfig's credentials create it, and
	// must then be the user's own, scoped to the project. The password is used for nothing
	// else, and never written anywhere. A cluster-scoped ApplicationCredential names the
	// Secret's namespace; a namespaced one reads the Secret in its own namespace and names none.
	// +optional
	PasswordSecretRef *identityv1alpha1.SecretKeySelector `json:"passwordSecretRef,omitempty"`
}

// ApplicationCredentialAccessRule allows one API call: a method on a path of a service.
type ApplicationCredentialAccessRule struct {
	// Service is the service type, for example compute or identity.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^[A-Za-z0-9_-]+$`
	Service string `json:"service"`

	// Method is the HTTP method allowed.
	// +kubebuilder:validation:Enum=GET;HEAD;POST;PUT;PATCH;DELETE
	Method string `json:"method"`

	// Path is the API path allowed, starting with a slash; Keystone allows the wildcards * (one
	// segment) and ** (any number of segments).
	// +kubebuilder:validation:MaxLength=225
	// +kubebuilder:validation:Pattern=`^/[^\x00-\x1f\x7f]*$`
	Path string `json:"path"`
}

// ApplicationCredentialObservedAccessRule is an access rule as Keystone holds it.
type ApplicationCredentialObservedAccessRule struct {
	ID      string `json:"id,omitempty"`
	Service string `json:"service,omitempty"`
	Method  string `json:"method,omitempty"`
	Path    string `json:"path,omitempty"`
}

// ApplicationCredentialRole is a role an application credential carries.
type ApplicationCredentialRole struct {
	ID   string `json:"id,omitempty"`
	Name string `json:"name,omitempty"`
}

// ApplicationCredentialObservation is the observed state of a Keystone application credential.
// It never holds the secret, which Keystone returns only when it creates the credential and
// the provider publishes only to the connection Secret.
type ApplicationCredentialObservation struct {
	// ID is Keystone's ID of the application credential (also the external name).
	ID string `json:"id,omitempty"`

	Name      string `json:"name,omitempty"`
	UserID    string `json:"userId,omitempty"`
	ProjectID string `json:"projectId,omitempty"`
	// Description is Keystone's description without the provenance marker line.
	Description  string                                    `json:"description,omitempty"`
	Roles        []ApplicationCredentialRole               `json:"roles,omitempty"`
	ExpiresAt    *metav1.Time                              `json:"expiresAt,omitempty"`
	Unrestricted bool                                      `json:"unrestricted,omitempty"`
	AccessRules  []ApplicationCredentialObservedAccessRule `json:"accessRules,omitempty"`

	// SecretPublished is true when the connection Secret holds this application credential's
	// secret. It is false for one this resource adopted or only observes (Keystone returns
	// the secret only to its create), and for one whose secret was lost.
	SecretPublished bool `json:"secretPublished,omitempty"`

	// Provenance tells whether the application credential was created, adopted or only
	// observed.
	Provenance identityv1alpha1.Provenance `json:"provenance,omitempty"`
}
