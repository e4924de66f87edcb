// Package v1alpha1 contains the v1alpha1 types of the authentik.identity.m.crossplane.io API
// group: the namespaced authentik kinds. It is the source of both scopes: the *_types.go files
// (and the shared helper types of attributes.go and providers_common.go) hold what every scope
// shares, the *_kind.go files the namespaced kinds, from which hack/gen-cluster-scope writes the
// cluster-scoped kinds of authentik.identity.crossplane.io (apis/authentik/v1alpha1). See
// docs/adr/0005-crossplane-v2-scopes.md.
// +kubebuilder:object:generate=true
// +groupName=authentik.identity.m.crossplane.io
// +versionName=v1alpha1
package v1alpha1

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/scheme"
)

// Package type metadata.
const (
	GroupName = "authentik.identity.m.crossplane.io"
	Version   = "v1alpha1"
)

var (
	// SchemeGroupVersion is the group version used to register these objects.
	SchemeGroupVersion = schema.GroupVersion{Group: GroupName, Version: Version}

	// SchemeBuilder registers Go types with the GroupVersionKind scheme.
	SchemeBuilder = &scheme.Builder{GroupVersion: SchemeGroupVersion}
)
