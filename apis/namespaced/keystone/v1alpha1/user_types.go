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

	// Options are Keystone's per-user security options. Only the options set here are
	// managed: an option left out keeps whatever Keystone holds, and is never compared.
	// +optional
	Options *UserOptions `json:"options,omitempty"`
}

// UserOptions are the security options Keystone keeps per user (its "options" object). Each
// overrides, for this user, a rule of Keystone's [security_compliance] configuration.
type UserOptions struct {
	// IgnoreChangePasswordUponFirstUse exempts the user from changing their password on
	// first use when Keystone requires it (change_password_upon_first_use).
	// +optional
	IgnoreChangePasswordUponFirstUse *bool `json:"ignoreChangePasswordUponFirstUse,omitempty"`

	// IgnorePasswordExpiry exempts the user from password expiry (password_expires_days):
	// typical for service users.
	// +optional
	IgnorePasswordExpiry *bool `json:"ignorePasswordExpiry,omitempty"`

	// IgnoreLockoutFailureAttempts exempts the user from being locked out after repeated
	// failed authentications (lockout_failure_attempts).
	// +optional
	IgnoreLockoutFailureAttempts *bool `json:"ignoreLockoutFailureAttempts,omitempty"`

	// LockPassword forbids the user to change their own password. An administrator (and so
	// this provider, through passwordSecretRef) still can.
	// +optional
	LockPassword *bool `json:"lockPassword,omitempty"`

	// IgnoreUserInactivity exempts the user from being disabled after a period without
	// authentication (disable_user_account_days_inactive).
	// +optional
	IgnoreUserInactivity *bool `json:"ignoreUserInactivity,omitempty"`

	// MultiFactorAuthEnabled false turns the user's MultiFactorAuthRules off. Keystone
	// enforces the rules when it is unset or true.
	// +optional
	MultiFactorAuthEnabled *bool `json:"multiFactorAuthEnabled,omitempty"`

	// MultiFactorAuthRules are the sets of authentication methods a token request must
	// combine, any one set sufficing: [["password","totp"]] requires a password and a TOTP
	// passcode. Keystone checks each set against the methods it has loaded: a method it has
	// not loaded counts as given. The rules apply to every token request, an application
	// credential's too: add a set ["application_credential"] for the user's application
	// credentials to authenticate. Unset or empty, the rules are not managed (an empty list
	// does not survive a round trip through the API's Go types). Keystone refuses an empty
	// set, a set given twice and a method given twice in one set.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=16
	// +kubebuilder:validation:XValidation:rule="self.all(r, size(r) > 0)",message="multiFactorAuthRules: every rule names at least one authentication method, for example [\"password\", \"totp\"]; Keystone refuses an empty rule"
	// +kubebuilder:validation:XValidation:rule="self.all(r, self.exists_one(o, o == r))",message="multiFactorAuthRules: a rule is given twice; Keystone refuses duplicate rules"
	// +kubebuilder:validation:XValidation:rule="self.all(r, r.all(m, r.exists_one(o, o == m)))",message="multiFactorAuthRules: a rule names a method twice; Keystone refuses a method repeated within one rule"
	// +kubebuilder:validation:XValidation:rule="self.all(r, r.all(m, m.matches('^[A-Za-z0-9_.-]+$')))",message="multiFactorAuthRules: a method is the name of a Keystone authentication method (password, totp, token, application_credential, mapped...): letters, digits, dots, hyphens and underscores only"
	MultiFactorAuthRules []MFARule `json:"multiFactorAuthRules,omitempty"`
}

// An MFARule is a set of authentication methods that together satisfy multi-factor
// authentication, for example ["password", "totp"].
// +kubebuilder:validation:MaxItems=8
// +kubebuilder:validation:items:MaxLength=64
// +listType=atomic
type MFARule []string

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

	// Options are the security options Keystone holds for the user, set here or not.
	// +optional
	Options *UserOptions `json:"options,omitempty"`

	// PasswordExpiresAt is when the user's password expires, as Keystone reports it (UTC,
	// Keystone's format); empty when it never expires (no password_expires_days, or the
	// ignorePasswordExpiry option).
	// +optional
	PasswordExpiresAt string `json:"passwordExpiresAt,omitempty"`

	// PasswordFingerprint identifies the Secret version whose password was last sent to
	// Keystone; empty while the password is not managed or was not sent yet.
	// +optional
	PasswordFingerprint *PasswordFingerprint `json:"passwordFingerprint,omitempty"`

	// Provenance tells whether the user was created, adopted or only observed.
	Provenance identityv1alpha1.Provenance `json:"provenance,omitempty"`
}
