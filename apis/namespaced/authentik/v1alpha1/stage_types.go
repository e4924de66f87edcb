package v1alpha1

import (
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// StageParameters are the configurable fields of an authentik stage: its name and exactly one
// block naming its type and holding that type's settings (see docs/adr/0007-one-stage-kind.md).
// Every optional field left unset is left as authentik has it and never causes a write.
// +kubebuilder:validation:XValidation:rule="[has(self.identification), has(self.password), has(self.userLogin), has(self.userLogout), has(self.deny), has(self.consent), has(self.authenticatorValidation), has(self.userWrite), has(self.prompt)].filter(x, x).size() == 1",message="a stage has exactly one type: set exactly one of identification, password, userLogin, userLogout, deny, consent, authenticatorValidation, userWrite and prompt"
// +kubebuilder:validation:XValidation:rule="[has(self.identification), has(self.password), has(self.userLogin), has(self.userLogout), has(self.deny), has(self.consent), has(self.authenticatorValidation), has(self.userWrite), has(self.prompt)] == [has(oldSelf.identification), has(oldSelf.password), has(oldSelf.userLogin), has(oldSelf.userLogout), has(oldSelf.deny), has(oldSelf.consent), has(oldSelf.authenticatorValidation), has(oldSelf.userWrite), has(oldSelf.prompt)]",message="the stage type cannot be changed: authentik keeps each type apart and cannot convert a stage; create a new Stage instead"
type StageParameters struct {
	// Name of the stage. Stage names are unique across all stage types in authentik; the name
	// is how an existing stage is found when the resource has no external name.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:Pattern=`^[^\s\x00-\x1f\x7f]([^\x00-\x1f\x7f]*[^\s\x00-\x1f\x7f])?$`
	Name string `json:"name"`

	// Identification asks the user who they are.
	// +optional
	Identification *IdentificationStage `json:"identification,omitempty"`

	// Password checks the pending user's password.
	// +optional
	Password *PasswordStage `json:"password,omitempty"`

	// UserLogin logs the pending user in.
	// +optional
	UserLogin *UserLoginStage `json:"userLogin,omitempty"`

	// UserLogout logs the user out. It has no settings: set it to {}.
	// +optional
	UserLogout *UserLogoutStage `json:"userLogout,omitempty"`

	// Deny denies the flow.
	// +optional
	Deny *DenyStage `json:"deny,omitempty"`

	// Consent asks the user to consent to an application's access.
	// +optional
	Consent *ConsentStage `json:"consent,omitempty"`

	// AuthenticatorValidation asks the user for one of their authenticator devices.
	// +optional
	AuthenticatorValidation *AuthenticatorValidationStage `json:"authenticatorValidation,omitempty"`

	// UserWrite writes what the flow gathered into the pending user, creating it if needed.
	// +optional
	UserWrite *UserWriteStage `json:"userWrite,omitempty"`

	// Prompt shows the user a form of prompts.
	// +optional
	Prompt *PromptStage `json:"prompt,omitempty"`
}

// IdentificationStage is the settings of an identification stage.
type IdentificationStage struct {
	// UserFields are the user fields matched against what the user enters: email, username,
	// upn. When set, it is the complete list.
	// +optional
	// +listType=set
	// +kubebuilder:validation:items:Enum=email;username;upn
	UserFields []string `json:"userFields,omitempty"`

	// PasswordStage is the name of a password stage whose password field is shown on the same
	// page. The empty string removes it.
	// +optional
	// +kubebuilder:validation:Pattern=`^([^\s\x00-\x1f\x7f]([^\x00-\x1f\x7f]*[^\s\x00-\x1f\x7f])?)?$`
	PasswordStage *string `json:"passwordStage,omitempty"`

	// CaseInsensitiveMatching matches the user fields regardless of case. authentik's default
	// is true.
	// +optional
	CaseInsensitiveMatching *bool `json:"caseInsensitiveMatching,omitempty"`

	// ShowMatchedUser shows the matched user's username and avatar instead of what was
	// entered. authentik's default is true.
	// +optional
	ShowMatchedUser *bool `json:"showMatchedUser,omitempty"`

	// EnrollmentFlow is the slug of the flow linked as "sign up". The empty string removes it.
	// +optional
	// +kubebuilder:validation:MaxLength=50
	// +kubebuilder:validation:Pattern=`^[-a-zA-Z0-9_]*$`
	EnrollmentFlow *string `json:"enrollmentFlow,omitempty"`

	// RecoveryFlow is the slug of the flow linked as "forgot password". The empty string
	// removes it.
	// +optional
	// +kubebuilder:validation:MaxLength=50
	// +kubebuilder:validation:Pattern=`^[-a-zA-Z0-9_]*$`
	RecoveryFlow *string `json:"recoveryFlow,omitempty"`

	// PasswordlessFlow is the slug of the flow linked for a passwordless login. The empty
	// string removes it.
	// +optional
	// +kubebuilder:validation:MaxLength=50
	// +kubebuilder:validation:Pattern=`^[-a-zA-Z0-9_]*$`
	PasswordlessFlow *string `json:"passwordlessFlow,omitempty"`

	// PretendUserExists lets the flow go on when no user matches, so that it does not tell
	// which users exist. authentik's default is true.
	// +optional
	PretendUserExists *bool `json:"pretendUserExists,omitempty"`

	// EnableRememberMe shows a "remember me on this device" toggle. authentik's default is
	// false.
	// +optional
	EnableRememberMe *bool `json:"enableRememberMe,omitempty"`

	// ShowSourceLabels shows the names of the login sources. authentik's default is false.
	// +optional
	ShowSourceLabels *bool `json:"showSourceLabels,omitempty"`
}

// PasswordStage is the settings of a password stage.
type PasswordStage struct {
	// Backends the password is checked against: authentik.core.auth.InbuiltBackend,
	// authentik.core.auth.TokenBackend, authentik.sources.ldap.auth.LDAPBackend,
	// authentik.sources.kerberos.auth.KerberosBackend.
	// +kubebuilder:validation:MinItems=1
	// +listType=set
	// +kubebuilder:validation:items:Enum=authentik.core.auth.InbuiltBackend;authentik.core.auth.TokenBackend;authentik.sources.ldap.auth.LDAPBackend;authentik.sources.kerberos.auth.KerberosBackend
	Backends []string `json:"backends"`

	// ConfigureFlow is the slug of the flow a user changes their password with. The empty
	// string removes it.
	// +optional
	// +kubebuilder:validation:MaxLength=50
	// +kubebuilder:validation:Pattern=`^[-a-zA-Z0-9_]*$`
	ConfigureFlow *string `json:"configureFlow,omitempty"`

	// FailedAttemptsBeforeCancel is how many wrong passwords cancel the flow. authentik's
	// default is 5.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=2147483647
	FailedAttemptsBeforeCancel *int32 `json:"failedAttemptsBeforeCancel,omitempty"`

	// AllowShowPassword shows a "show password" button. authentik's default is false.
	// +optional
	AllowShowPassword *bool `json:"allowShowPassword,omitempty"`
}

// UserLoginStage is the settings of a user login stage. Durations are authentik's
// "hours=1;minutes=30" form.
type UserLoginStage struct {
	// SessionDuration is how long the session lasts; seconds=0 (authentik's default) ends it
	// with the browser.
	// +optional
	// +kubebuilder:validation:Pattern=`^(weeks|days|hours|minutes|seconds|milliseconds|microseconds)=[0-9]+(\.[0-9]+)?(;(weeks|days|hours|minutes|seconds|milliseconds|microseconds)=[0-9]+(\.[0-9]+)?)*$`
	SessionDuration *string `json:"sessionDuration,omitempty"`

	// TerminateOtherSessions ends the user's other sessions. authentik's default is false.
	// +optional
	TerminateOtherSessions *bool `json:"terminateOtherSessions,omitempty"`

	// RememberMeOffset extends the session when the user chooses "remember me"; seconds=0
	// (authentik's default) hides the choice.
	// +optional
	// +kubebuilder:validation:Pattern=`^(weeks|days|hours|minutes|seconds|milliseconds|microseconds)=[0-9]+(\.[0-9]+)?(;(weeks|days|hours|minutes|seconds|milliseconds|microseconds)=[0-9]+(\.[0-9]+)?)*$`
	RememberMeOffset *string `json:"rememberMeOffset,omitempty"`

	// NetworkBinding binds the session to the user's network: no_binding (authentik's
	// default), bind_asn, bind_asn_network, bind_asn_network_ip.
	// +optional
	// +kubebuilder:validation:Enum=no_binding;bind_asn;bind_asn_network;bind_asn_network_ip
	NetworkBinding *string `json:"networkBinding,omitempty"`

	// GeoIPBinding binds the session to the user's location: no_binding (authentik's
	// default), bind_continent, bind_continent_country, bind_continent_country_city.
	// +optional
	// +kubebuilder:validation:Enum=no_binding;bind_continent;bind_continent_country;bind_continent_country_city
	GeoIPBinding *string `json:"geoipBinding,omitempty"`

	// RememberDevice is how long authentik remembers the device logged in from. authentik's
	// default is days=30.
	// +optional
	// +kubebuilder:validation:Pattern=`^(weeks|days|hours|minutes|seconds|milliseconds|microseconds)=[0-9]+(\.[0-9]+)?(;(weeks|days|hours|minutes|seconds|milliseconds|microseconds)=[0-9]+(\.[0-9]+)?)*$`
	RememberDevice *string `json:"rememberDevice,omitempty"`
}

// UserLogoutStage has no settings.
type UserLogoutStage struct{}

// DenyStage is the settings of a deny stage.
type DenyStage struct {
	// Message shown to the denied user. authentik's default is empty.
	// +optional
	// +kubebuilder:validation:Pattern=`^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f]*$`
	Message *string `json:"message,omitempty"`
}

// ConsentStage is the settings of a consent stage.
type ConsentStage struct {
	// Mode is always_require (authentik's default), permanent or expiring.
	// +optional
	// +kubebuilder:validation:Enum=always_require;permanent;expiring
	Mode *string `json:"mode,omitempty"`

	// ConsentExpireIn is how long an expiring consent lasts. authentik's default is weeks=4.
	// +optional
	// +kubebuilder:validation:Pattern=`^(weeks|days|hours|minutes|seconds|milliseconds|microseconds)=[0-9]+(\.[0-9]+)?(;(weeks|days|hours|minutes|seconds|milliseconds|microseconds)=[0-9]+(\.[0-9]+)?)*$`
	ConsentExpireIn *string `json:"consentExpireIn,omitempty"`
}

// StageObservation is the observed state of an authentik stage.
type StageObservation struct {
	// ID is authentik's pk of the stage, a UUID (also the external name).
	ID string `json:"id,omitempty"`

	Name string `json:"name,omitempty"`

	// Type is authentik's model of the stage, e.g. authentik_stages_password.passwordstage.
	Type string `json:"type,omitempty"`

	// Flows are the slugs of the flows the stage is bound into.
	Flows []string `json:"flows,omitempty"`

	// Provenance tells whether the stage was created, adopted or only observed.
	Provenance identityv1alpha1.Provenance `json:"provenance,omitempty"`
}
