package managedkind

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"
)

// PolicyAwareResolver resolves references every reconcile but writes the resolved IDs into
// spec only when the resource's management policies include LateInitialize (the default "*").
// With LateInitialize left out, the IDs live only in memory for the reconcile, so a GitOps
// tool that owns the spec never sees fields it did not write.
type PolicyAwareResolver struct {
	reader  client.Reader
	persist managed.ReferenceResolver
}

// NewPolicyAwareResolver returns a resolver that persists through the runtime's resolver.
func NewPolicyAwareResolver(c client.Client) *PolicyAwareResolver {
	return &PolicyAwareResolver{reader: c, persist: managed.NewAPISimpleReferenceResolver(c)}
}

// ResolveReferences of the supplied managed resource.
func (r *PolicyAwareResolver) ResolveReferences(ctx context.Context, mg resource.Managed) error {
	if lateInitializes(mg.GetManagementPolicies()) {
		return r.persist.ResolveReferences(ctx, mg)
	}
	rr, ok := mg.(interface {
		ResolveReferences(ctx context.Context, r client.Reader) error
	})
	if !ok {
		return nil
	}
	return errors.Wrap(rr.ResolveReferences(ctx, r.reader), "cannot resolve references")
}

func lateInitializes(p xpv2.ManagementPolicies) bool {
	if len(p) == 0 {
		return true
	}
	for _, a := range p {
		if a == xpv2.ManagementActionAll || a == xpv2.ManagementActionLateInitialize {
			return true
		}
	}
	return false
}
