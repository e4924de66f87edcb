package v1alpha1

import (
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// PromptParameters are the configurable fields of an authentik prompt, one field of the form
// a prompt stage shows; prompt stages list prompts, and several may share one
// (docs/adr/0007-one-stage-kind.md). Every optional field left unset is left as authentik has
// it and never causes a write.
type PromptParameters struct {
	// Name of the prompt, unique among prompts in authentik; the name is how an existing prompt
	// is found when the resource has no external name.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:Pattern=`^[^\s\x00-\x1f\x7f]([^\x00-\x1f\x7f]*[^\s\x00-\x1f\x7f])?$`
	Name string `json:"name"`

	// FieldKey is the form field's name, also the key the value is stored under in the flow
	// (a key starting with attributes. is written into the user's attributes).
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:Pattern=`^[^\s\x00-\x1f\x7f]+$`
	FieldKey string `json:"fieldKey"`

	// Label shown next to the field.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:Pattern=`^[^\x00-\x1f\x7f]+$`
	Label string `json:"label"`

	// Type of the field: text, text_area, text_read_only, text_area_read_only, username,
	// email, password, number, checkbox, radio-button-group, dropdown, date, date-time, file,
	// separator, hidden, static, alert_info, alert_warning, alert_danger, ak-locale.
	// +kubebuilder:validation:Enum=text;text_area;text_read_only;text_area_read_only;username;email;password;number;checkbox;radio-button-group;dropdown;date;date-time;file;separator;hidden;static;alert_info;alert_warning;alert_danger;ak-locale
	Type string `json:"type"`

	// Required makes the field mandatory. authentik's default is true.
	// +optional
	Required *bool `json:"required,omitempty"`

	// Placeholder shown in the empty field (or, for a choice field, the choices). With
	// PlaceholderExpression it is a Python expression. authentik's default is empty.
	// +optional
	// +kubebuilder:validation:Pattern=`^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f]*$`
	Placeholder *string `json:"placeholder,omitempty"`

	// PlaceholderExpression evaluates Placeholder as an expression. authentik's default is
	// false.
	// +optional
	PlaceholderExpression *bool `json:"placeholderExpression,omitempty"`

	// InitialValue pre-fills the field. With InitialValueExpression it is a Python
	// expression. authentik's default is empty.
	// +optional
	// +kubebuilder:validation:Pattern=`^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f]*$`
	InitialValue *string `json:"initialValue,omitempty"`

	// InitialValueExpression evaluates InitialValue as an expression. authentik's default is
	// false.
	// +optional
	InitialValueExpression *bool `json:"initialValueExpression,omitempty"`

	// Order places the field among the stage's fields, lowest first. authentik's default is 0.
	// +optional
	// +kubebuilder:validation:Minimum=-2147483648
	// +kubebuilder:validation:Maximum=2147483647
	Order *int32 `json:"order,omitempty"`

	// SubText shown under the field. authentik's default is empty.
	// +optional
	// +kubebuilder:validation:Pattern=`^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f]*$`
	SubText *string `json:"subText,omitempty"`
}

// PromptObservation is the observed state of an authentik prompt.
type PromptObservation struct {
	// ID is authentik's pk of the prompt, a UUID (also the external name).
	ID string `json:"id,omitempty"`

	Name string `json:"name,omitempty"`

	// Stages are the names of the prompt stages that show the prompt.
	Stages []string `json:"stages,omitempty"`

	// Provenance tells whether the prompt was created, adopted or only observed.
	Provenance identityv1alpha1.Provenance `json:"provenance,omitempty"`
}
