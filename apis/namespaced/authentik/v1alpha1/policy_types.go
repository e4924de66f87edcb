package v1alpha1

import (
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// PolicyParameters are the configurable fields of an authentik policy: its name, its common
// settings and exactly one block naming its type and holding that type's settings (see
// docs/adr/0008-one-policy-kind.md). Every optional field left unset is left as authentik has
// it and never causes a write.
// +kubebuilder:validation:XValidation:rule="[has(self.expression), has(self.password), has(self.reputation), has(self.eventMatcher), has(self.passwordExpiry)].filter(x, x).size() == 1",message="a policy has exactly one type: set exactly one of expression, password, reputation, eventMatcher and passwordExpiry"
// +kubebuilder:validation:XValidation:rule="[has(self.expression), has(self.password), has(self.reputation), has(self.eventMatcher), has(self.passwordExpiry)] == [has(oldSelf.expression), has(oldSelf.password), has(oldSelf.reputation), has(oldSelf.eventMatcher), has(oldSelf.passwordExpiry)]",message="the policy type cannot be changed: authentik keeps each type apart and cannot convert a policy; create a new Policy instead"
type PolicyParameters struct {
	// Name of the policy. Policy names are unique across all policy types in authentik; the
	// name is how an existing policy is found when the resource has no external name.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:Pattern=`^[^\s\x00-\x1f\x7f]([^\x00-\x1f\x7f]*[^\s\x00-\x1f\x7f])?$`
	Name string `json:"name"`

	// ExecutionLogging logs every execution of the policy, not only its errors. authentik's
	// default is false.
	// +optional
	ExecutionLogging *bool `json:"executionLogging,omitempty"`

	// Expression passes when a Python expression returns true.
	// +optional
	Expression *ExpressionPolicy `json:"expression,omitempty"`

	// Password checks a password entered in a prompt stage against rules.
	// +optional
	Password *PasswordPolicy `json:"password,omitempty"`

	// Reputation fails when the reputation of the client's IP or the username entered is at or
	// below a threshold.
	// +optional
	Reputation *ReputationPolicy `json:"reputation,omitempty"`

	// EventMatcher passes when an event matches every criterion set (used by notification
	// rules).
	// +optional
	EventMatcher *EventMatcherPolicy `json:"eventMatcher,omitempty"`

	// PasswordExpiry fails (or makes the user change their password) once the password is
	// older than a number of days.
	// +optional
	PasswordExpiry *PasswordExpiryPolicy `json:"passwordExpiry,omitempty"`
}

// ExpressionPolicy is the settings of an expression policy.
type ExpressionPolicy struct {
	// Expression is the Python code authentik evaluates: return True to pass. authentik checks
	// its syntax when it is written.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:Pattern=`^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f]*$`
	Expression string `json:"expression"`
}

// PasswordPolicy is the settings of a password policy.
type PasswordPolicy struct {
	// PasswordField is the prompt field key holding the password. authentik's default is
	// password.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:Pattern=`^[^\x00-\x1f\x7f]+$`
	PasswordField *string `json:"passwordField,omitempty"`

	// CheckStaticRules checks the length and amount rules below. authentik's default is true.
	// +optional
	CheckStaticRules *bool `json:"checkStaticRules,omitempty"`

	// CheckHaveIBeenPwned checks the password's hash prefix against haveibeenpwned.com.
	// authentik's default is false.
	// +optional
	CheckHaveIBeenPwned *bool `json:"checkHaveIBeenPwned,omitempty"`

	// CheckZxcvbn checks the password's strength with zxcvbn. authentik's default is false.
	// +optional
	CheckZxcvbn *bool `json:"checkZxcvbn,omitempty"`

	// LengthMin is the least number of characters. authentik's default is 0.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=2147483647
	LengthMin *int32 `json:"lengthMin,omitempty"`

	// AmountDigits is the least number of digits. authentik's default is 0.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=2147483647
	AmountDigits *int32 `json:"amountDigits,omitempty"`

	// AmountUppercase is the least number of uppercase letters. authentik's default is 0.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=2147483647
	AmountUppercase *int32 `json:"amountUppercase,omitempty"`

	// AmountLowercase is the least number of lowercase letters. authentik's default is 0.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=2147483647
	AmountLowercase *int32 `json:"amountLowercase,omitempty"`

	// AmountSymbols is the least number of characters from SymbolCharset. authentik's default
	// is 0.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=2147483647
	AmountSymbols *int32 `json:"amountSymbols,omitempty"`

	// SymbolCharset is the characters that count as symbols. authentik's default is ASCII
	// punctuation and the space.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:Pattern=`^[^\x00-\x1f\x7f]+$`
	SymbolCharset *string `json:"symbolCharset,omitempty"`

	// ErrorMessage is shown when the static rules fail. authentik's default is empty.
	// +optional
	// +kubebuilder:validation:Pattern=`^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f]*$`
	ErrorMessage *string `json:"errorMessage,omitempty"`

	// HIBPAllowedCount is how many times the password may appear on haveibeenpwned.com.
	// authentik's default is 0.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=2147483647
	HIBPAllowedCount *int32 `json:"hibpAllowedCount,omitempty"`

	// ZxcvbnScoreThreshold fails passwords whose zxcvbn score is at or below it (0 to 4).
	// authentik's default is 2.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=4
	ZxcvbnScoreThreshold *int32 `json:"zxcvbnScoreThreshold,omitempty"`
}

// ReputationPolicy is the settings of a reputation policy.
// +kubebuilder:validation:XValidation:rule="!(has(self.checkIp) && !self.checkIp && has(self.checkUsername) && !self.checkUsername)",message="a reputation policy checks the IP, the username or both: checkIp and checkUsername cannot both be false"
type ReputationPolicy struct {
	// CheckIP checks the reputation of the client's IP. authentik's default is true.
	// +optional
	CheckIP *bool `json:"checkIp,omitempty"`

	// CheckUsername checks the reputation of the username entered. authentik's default is
	// true.
	// +optional
	CheckUsername *bool `json:"checkUsername,omitempty"`

	// Threshold fails the policy at or below this score. authentik's default is -5.
	// +optional
	// +kubebuilder:validation:Minimum=-2147483648
	// +kubebuilder:validation:Maximum=2147483647
	Threshold *int32 `json:"threshold,omitempty"`
}

// EventMatcherPolicy is the settings of an event matcher policy. A criterion left unset is
// left as authentik has it; the empty string clears it (matches everything).
// +kubebuilder:validation:XValidation:rule="[has(self.action) && size(self.action) > 0, has(self.clientIp) && size(self.clientIp) > 0, has(self.app) && size(self.app) > 0, has(self.model) && size(self.model) > 0].exists(x, x)",message="an event matcher policy needs at least one criterion: set action, clientIp, app or model"
type EventMatcherPolicy struct {
	// Action is the event action matched, e.g. login, login_failed, model_created,
	// policy_exception (authentik's EventActions).
	// +optional
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^[a-z_]*$`
	Action *string `json:"action,omitempty"`

	// ClientIP is the client IP matched exactly.
	// +optional
	// +kubebuilder:validation:MaxLength=45
	// +kubebuilder:validation:Pattern=`^[0-9a-fA-F.:]*$`
	ClientIP *string `json:"clientIp,omitempty"`

	// App is the authentik application (Django app) whose events match, e.g. authentik.core.
	// +optional
	// +kubebuilder:validation:MaxLength=128
	// +kubebuilder:validation:Pattern=`^(authentik(\.[a-z0-9_]+)*)?$`
	App *string `json:"app,omitempty"`

	// Model is the model whose events match, e.g. authentik_core.user.
	// +optional
	// +kubebuilder:validation:MaxLength=128
	// +kubebuilder:validation:Pattern=`^([a-z0-9_]+\.[a-z0-9_]+)?$`
	Model *string `json:"model,omitempty"`
}

// PasswordExpiryPolicy is the settings of a password expiry policy.
type PasswordExpiryPolicy struct {
	// Days after which a password expires.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=2147483647
	Days int32 `json:"days"`

	// DenyOnly denies the user instead of making them set a new password. authentik's default
	// is false.
	// +optional
	DenyOnly *bool `json:"denyOnly,omitempty"`
}

// PolicyObservation is the observed state of an authentik policy.
type PolicyObservation struct {
	// ID is authentik's pk of the policy, a UUID (also the external name).
	ID string `json:"id,omitempty"`

	Name string `json:"name,omitempty"`

	// Type is authentik's model of the policy, e.g.
	// authentik_policies_expression.expressionpolicy.
	Type string `json:"type,omitempty"`

	// BoundTo is how many bindings (and prompt stages) use the policy.
	BoundTo int32 `json:"boundTo,omitempty"`

	// Provenance tells whether the policy was created, adopted or only observed.
	Provenance identityv1alpha1.Provenance `json:"provenance,omitempty"`
}
