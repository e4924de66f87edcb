package shared

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	"github.com/crossplane-contrib/provider-identity/internal/clients"
)

// WritesConnectionSecret tells whether a resource of either scope publishes its connection
// details: a cluster-scoped resource names a Secret with its namespace, a namespaced one a
// Secret of its own namespace, through methods of different types.
func WritesConnectionSecret(mg resource.Managed) bool {
	switch r := mg.(type) {
	case resource.LegacyManaged: //nolint:staticcheck // SA1019: the legacy cluster-scoped kinds are kept on purpose (ADR 0005)
		return r.GetWriteConnectionSecretToReference() != nil
	case resource.ModernManaged:
		return r.GetWriteConnectionSecretToReference() != nil
	}
	return false
}

// PublishedSecret reads the resource's connection Secret as it is: nil while there is none
// (or the resource names none). Drivers compare what they would publish with it, so that a
// secret that is already published is not read from authentik again.
func PublishedSecret(ctx context.Context, kube client.Reader, mg resource.Managed) (map[string][]byte, error) {
	var key types.NamespacedName
	switch r := mg.(type) {
	case resource.LegacyManaged: //nolint:staticcheck // SA1019: the legacy cluster-scoped kinds are kept on purpose (ADR 0005)
		ref := r.GetWriteConnectionSecretToReference()
		if ref == nil {
			return nil, nil
		}
		key = types.NamespacedName{Namespace: ref.Namespace, Name: ref.Name}
	case resource.ModernManaged:
		ref := r.GetWriteConnectionSecretToReference()
		if ref == nil {
			return nil, nil
		}
		key = types.NamespacedName{Namespace: mg.GetNamespace(), Name: ref.Name}
	default:
		return nil, nil
	}
	s := &corev1.Secret{}
	if err := clients.ResourceSecrets(kube, mg).Get(ctx, key, s); err != nil {
		if resource.IgnoreNotFound(err) == nil {
			return nil, nil
		}
		return nil, err
	}
	return s.Data, nil
}
