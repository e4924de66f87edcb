package shared

import (
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	clusterv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	nsv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
)

// WritesConnectionSecret tells whether a resource of either scope publishes its connection
// details: a cluster-scoped resource names a Secret with its namespace, a namespaced one a
// Secret of its own namespace, through methods of different types.
func WritesConnectionSecret(mg resource.Managed) bool {
	switch r := mg.(type) {
	case resource.LegacyManaged:
		return r.GetWriteConnectionSecretToReference() != nil
	case resource.ModernManaged:
		return r.GetWriteConnectionSecretToReference() != nil
	}
	return false
}

// InScope points dependents at the kinds of mg's scope. The authentik clients name the
// cluster-scoped kinds (authentik.identity.crossplane.io) for markerless dependents; a
// namespaced resource's dependents are looked up among the namespaced kinds instead. A
// resource of the other scope managing one is not found: the delete then stays blocked, with
// the dependent named, rather than going ahead.
func InScope(mg resource.Managed, deps []adoption.Dependent) []adoption.Dependent {
	if mg.GetNamespace() == "" {
		return deps
	}
	for i := range deps {
		if gk := schema.ParseGroupKind(deps[i].Kind); gk.Group == clusterv1alpha1.GroupName {
			deps[i].Kind = schema.GroupKind{Group: nsv1alpha1.GroupName, Kind: gk.Kind}.String()
		}
	}
	return deps
}
