package v1alpha1

// The Secret selectors of managed resource parameters. Parameters are shared by a kind's two
// scopes (docs/adr/0005-crossplane-v2-scopes.md), so the namespace is optional here and each
// kind says what it means: a cluster-scoped kind requires it (a "+cluster-scope:" CEL line), a
// namespaced kind forbids it (a "+namespaced-only" CEL line), because a namespaced resource
// reads Secrets of its own namespace only. Drivers read them through
// clients.ResourceSecrets, which enforces the same rule.

// A SecretReference names a Secret.
type SecretReference struct {
	// Name of the Secret.
	Name string `json:"name"`

	// Namespace of the Secret. Required on a cluster-scoped resource; a namespaced resource
	// reads the Secret in its own namespace and must leave it unset.
	// +optional
	Namespace string `json:"namespace,omitempty"`
}

// A SecretKeySelector selects one key of a Secret.
type SecretKeySelector struct {
	SecretReference `json:",inline"`

	// Key of the Secret to read.
	Key string `json:"key"`
}
