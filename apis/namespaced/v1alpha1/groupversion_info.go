// Package v1alpha1 contains the v1alpha1 types of the identity.m.crossplane.io API group: the
// ProviderConfig of a namespace and the ClusterProviderConfig, which the namespaced managed
// resources use (the cluster-scoped ones keep the ProviderConfig of identity.crossplane.io).
// +kubebuilder:object:generate=true
// +groupName=identity.m.crossplane.io
// +versionName=v1alpha1
package v1alpha1

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/scheme"
)

// Package type metadata.
const (
	Group   = "identity.m.crossplane.io"
	Version = "v1alpha1"
)

var (
	// SchemeGroupVersion is the group version used to register these objects.
	SchemeGroupVersion = schema.GroupVersion{Group: Group, Version: Version}

	// SchemeBuilder registers Go types with the GroupVersionKind scheme.
	SchemeBuilder = &scheme.Builder{GroupVersion: SchemeGroupVersion}
)
