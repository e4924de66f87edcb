package v1alpha1

import (
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
)

// AuthenticatorValidationStage is the settings of an authenticator validation stage, which
// asks the pending user for one of their authenticator devices.
// +kubebuilder:validation:XValidation:rule="!has(self.notConfiguredAction) || self.notConfiguredAction != 'configure' || has(self.configurationStages) || has(self.configurationStageIds) || has(self.configurationStageRefs) || has(self.configurationStageSelector)",message="notConfiguredAction configure needs the stages a user configures a device with: set configurationStages, configurationStageIds, configurationStageRefs or configurationStageSelector"
type AuthenticatorValidationStage struct {
	// DeviceClasses are the kinds of device accepted: static, totp, webauthn, duo, sms, email.
	// authentik's default is all of them. When set, it is the complete list.
	// +optional
	// +listType=set
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:items:Enum=static;totp;webauthn;duo;sms;email
	DeviceClasses []string `json:"deviceClasses,omitempty"`

	// NotConfiguredAction is what happens to a user without a device: skip (authentik's
	// default), deny, or configure (the user sets one up through a configuration stage).
	// +optional
	// +kubebuilder:validation:Enum=skip;deny;configure
	NotConfiguredAction *string `json:"notConfiguredAction,omitempty"`

	// ConfigurationStages are the names of the stages a user without a device may configure one
	// with. Together with ConfigurationStageIDs they are the complete list when either is set.
	// +optional
	// +listType=set
	// +kubebuilder:validation:items:MinLength=1
	// +kubebuilder:validation:items:Pattern=`^[^\s\x00-\x1f\x7f]([^\x00-\x1f\x7f]*[^\s\x00-\x1f\x7f])?$`
	ConfigurationStages []string `json:"configurationStages,omitempty"`

	// ConfigurationStageIDs are the UUIDs of configuration stages. Usually filled in from
	// ConfigurationStageRefs or ConfigurationStageSelector.
	// +optional
	// +listType=set
	// +kubebuilder:validation:items:Pattern=`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`
	// +identity:reference:type=Stage
	ConfigurationStageIDs []string `json:"configurationStageIds,omitempty"`

	// ConfigurationStageRefs reference the Stages whose UUIDs fill ConfigurationStageIDs: Stages
	// in this Stage's namespace (for a cluster-scoped Stage, cluster-scoped ones).
	// +optional
	ConfigurationStageRefs []xpv2.Reference `json:"configurationStageRefs,omitempty"`

	// ConfigurationStageSelector selects the Stages whose UUIDs fill ConfigurationStageIDs.
	// +optional
	ConfigurationStageSelector *xpv2.Selector `json:"configurationStageSelector,omitempty"`

	// LastAuthThreshold skips the stage when one of the user's devices was used within it, in
	// authentik's "hours=1;minutes=30" form. authentik's default is seconds=0 (never skip).
	// +optional
	// +kubebuilder:validation:Pattern=`^(weeks|days|hours|minutes|seconds|milliseconds|microseconds)=[0-9]+(\.[0-9]+)?(;(weeks|days|hours|minutes|seconds|milliseconds|microseconds)=[0-9]+(\.[0-9]+)?)*$`
	LastAuthThreshold *string `json:"lastAuthThreshold,omitempty"`

	// WebAuthnUserVerification is what a WebAuthn device must do to verify the user: required,
	// preferred (authentik's default) or discouraged.
	// +optional
	// +kubebuilder:validation:Enum=required;preferred;discouraged
	WebAuthnUserVerification *string `json:"webauthnUserVerification,omitempty"`

	// WebAuthnHints tell the browser which kinds of WebAuthn authenticator to offer first:
	// security-key, client-device, hybrid. authentik's default is none. When set, it is the
	// complete list, in order.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=3
	// +kubebuilder:validation:items:Enum=security-key;client-device;hybrid
	WebAuthnHints []string `json:"webauthnHints,omitempty"`

	// OTPThrottling are the factors by which failed one-time codes slow further attempts, per
	// device class, as decimal numbers. authentik's default for each is 1.
	// +optional
	OTPThrottling *OTPThrottling `json:"otpThrottling,omitempty"`
}

// OTPThrottling are an authenticator validation stage's throttling factors per device class,
// decimal numbers such as "1" or "0.5" (kept as strings: a CRD has no float type that
// round-trips exactly).
type OTPThrottling struct {
	// +optional
	// +kubebuilder:validation:Pattern=`^[0-9]{1,6}(\.[0-9]{1,6})?$`
	Email *string `json:"email,omitempty"`
	// +optional
	// +kubebuilder:validation:Pattern=`^[0-9]{1,6}(\.[0-9]{1,6})?$`
	SMS *string `json:"sms,omitempty"`
	// +optional
	// +kubebuilder:validation:Pattern=`^[0-9]{1,6}(\.[0-9]{1,6})?$`
	TOTP *string `json:"totp,omitempty"`
	// +optional
	// +kubebuilder:validation:Pattern=`^[0-9]{1,6}(\.[0-9]{1,6})?$`
	Static *string `json:"static,omitempty"`
}

// UserWriteStage is the settings of a user write stage, which writes what the flow gathered
// into the pending user, creating the user when needed.
type UserWriteStage struct {
	// UserCreationMode is never_create, create_when_required (authentik's default) or
	// always_create.
	// +optional
	// +kubebuilder:validation:Enum=never_create;create_when_required;always_create
	UserCreationMode *string `json:"userCreationMode,omitempty"`

	// CreateUsersAsInactive makes created users inactive (they cannot log in). authentik's
	// default is false.
	// +optional
	CreateUsersAsInactive *bool `json:"createUsersAsInactive,omitempty"`

	// CreateUsersGroupID is the UUID of the group created users join; the empty string removes
	// it. Usually filled in from CreateUsersGroupRef or CreateUsersGroupSelector.
	// +optional
	// +kubebuilder:validation:Pattern=`^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})?$`
	// +identity:reference:type=Group
	CreateUsersGroupID *string `json:"createUsersGroupId,omitempty"`

	// CreateUsersGroupRef references the Group whose UUID fills CreateUsersGroupID: a Group in
	// this Stage's namespace (for a cluster-scoped Stage, a cluster-scoped Group).
	// +optional
	CreateUsersGroupRef *xpv2.Reference `json:"createUsersGroupRef,omitempty"`

	// CreateUsersGroupSelector selects the Group whose UUID fills CreateUsersGroupID.
	// +optional
	CreateUsersGroupSelector *xpv2.Selector `json:"createUsersGroupSelector,omitempty"`

	// UserType is the type of created users: internal, external (authentik's default),
	// service_account or internal_service_account.
	// +optional
	// +kubebuilder:validation:Enum=internal;external;service_account;internal_service_account
	UserType *string `json:"userType,omitempty"`

	// UserPathTemplate is the path created users get; the empty string (authentik's default)
	// keeps authentik's default path.
	// +optional
	// +kubebuilder:validation:Pattern=`^[^\x00-\x1f\x7f]*$`
	UserPathTemplate *string `json:"userPathTemplate,omitempty"`
}

// PromptStage is the settings of a prompt stage, which shows the user a form of prompts.
// +kubebuilder:validation:XValidation:rule="has(self.prompts) || has(self.promptIds) || has(self.promptRefs) || has(self.promptSelector)",message="a prompt stage shows at least one prompt: set prompts, promptIds, promptRefs or promptSelector"
type PromptStage struct {
	// Prompts are the names of the prompts the stage shows. Together with PromptIDs they are
	// the complete list; authentik needs at least one.
	// +optional
	// +listType=set
	// +kubebuilder:validation:items:MinLength=1
	// +kubebuilder:validation:items:Pattern=`^[^\s\x00-\x1f\x7f]([^\x00-\x1f\x7f]*[^\s\x00-\x1f\x7f])?$`
	Prompts []string `json:"prompts,omitempty"`

	// PromptIDs are the UUIDs of prompts the stage shows. Usually filled in from PromptRefs or
	// PromptSelector.
	// +optional
	// +listType=set
	// +kubebuilder:validation:items:Pattern=`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`
	// +identity:reference:type=Prompt
	PromptIDs []string `json:"promptIds,omitempty"`

	// PromptRefs reference the Prompts whose UUIDs fill PromptIDs: Prompts in this Stage's
	// namespace (for a cluster-scoped Stage, cluster-scoped ones).
	// +optional
	PromptRefs []xpv2.Reference `json:"promptRefs,omitempty"`

	// PromptSelector selects the Prompts whose UUIDs fill PromptIDs.
	// +optional
	PromptSelector *xpv2.Selector `json:"promptSelector,omitempty"`

	// ValidationPolicies are the names of the policies that check what the user entered.
	// Together with ValidationPolicyIDs they are the complete list when either is set.
	// +optional
	// +listType=set
	// +kubebuilder:validation:items:MinLength=1
	// +kubebuilder:validation:items:Pattern=`^[^\s\x00-\x1f\x7f]([^\x00-\x1f\x7f]*[^\s\x00-\x1f\x7f])?$`
	ValidationPolicies []string `json:"validationPolicies,omitempty"`

	// ValidationPolicyIDs are the UUIDs of validation policies. Usually filled in from
	// ValidationPolicyRefs or ValidationPolicySelector.
	// +optional
	// +listType=set
	// +kubebuilder:validation:items:Pattern=`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`
	// +identity:reference:type=Policy
	ValidationPolicyIDs []string `json:"validationPolicyIds,omitempty"`

	// ValidationPolicyRefs reference the Policies whose UUIDs fill ValidationPolicyIDs:
	// Policies in this Stage's namespace (for a cluster-scoped Stage, cluster-scoped ones).
	// +optional
	ValidationPolicyRefs []xpv2.Reference `json:"validationPolicyRefs,omitempty"`

	// ValidationPolicySelector selects the Policies whose UUIDs fill ValidationPolicyIDs.
	// +optional
	ValidationPolicySelector *xpv2.Selector `json:"validationPolicySelector,omitempty"`
}
