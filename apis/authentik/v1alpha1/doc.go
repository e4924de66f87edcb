package v1alpha1

// The authentik kinds are added here one file per kind.
