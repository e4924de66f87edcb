package shared

import (
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
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
