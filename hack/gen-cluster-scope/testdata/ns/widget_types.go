package v1alpha1

import (
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
)

// WidgetParameters are shared by both scopes; they carry a single reference, a list reference
// named by the IDs rule, and a list reference whose fields are named by markers.
type WidgetParameters struct {
	// GadgetID is filled from GadgetRef or GadgetSelector.
	// +optional
	// +identity:reference:type=Gadget
	GadgetID *string `json:"gadgetId,omitempty"`

	// +optional
	GadgetRef *xpv2.Reference `json:"gadgetRef,omitempty"`

	// +optional
	GadgetSelector *xpv2.Selector `json:"gadgetSelector,omitempty"`

	// ToolIDs are filled from ToolRefs or ToolSelector.
	// +optional
	// +identity:reference:type=Gadget
	ToolIDs []string `json:"toolIds,omitempty"`

	// +optional
	ToolRefs []xpv2.Reference `json:"toolRefs,omitempty"`

	// +optional
	ToolSelector *xpv2.Selector `json:"toolSelector,omitempty"`

	// Parents do not follow the IDs rule: markers name their fields.
	// +optional
	// +identity:reference:type=Widget
	// +identity:reference:refFieldName=ParentRefs
	// +identity:reference:selectorFieldName=ParentSelector
	Parents []string `json:"parents"`

	// +optional
	ParentRefs []xpv2.Reference `json:"parentRefs,omitempty"`

	// +optional
	ParentSelector *xpv2.Selector `json:"parentSelector,omitempty"`
}

// WidgetObservation is shared by both scopes.
type WidgetObservation struct {
	ID string `json:"id,omitempty"`
}
