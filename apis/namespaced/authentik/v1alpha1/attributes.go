package v1alpha1

import (
	extv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// Attributes are authentik's free-form attributes of a group or user: a JSON object whose
// values are any JSON. Only the keys a spec sets are managed; other keys are left alone. Keys
// starting with identity.crossplane.io/ are the provider's own and cannot be set.
type Attributes map[string]extv1.JSON
