package v1alpha1

// The Secret selectors of managed resource parameters and of ProviderConfigs. Parameters are
// shared by a kind's two scopes (docs/adr/0005-crossplane-v2-scopes.md), and the spec by the
// three ProviderConfig kinds, so the namespace is optional here and each kind says what it
// means: a cluster-scoped kind requires it (for parameters a "+cluster-scope:" CEL line; on the
// legacy ProviderConfig and the ClusterProviderConfig CEL rules on spec), a namespaced kind
// forbids it (a "+namespaced-only" CEL line; CEL rules on the namespaced ProviderConfig's
// spec), because a namespaced object reads Secrets of its own namespace only. Drivers read
// them through clients.ResourceSecrets, ProviderConfigs through clients.SecretReader: the
// same reader, which enforces the same rule.

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
