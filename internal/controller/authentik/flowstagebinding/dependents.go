package flowstagebinding

import (
	"context"

	api "goauthentik.io/api/v3"

	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
)

var _ adoption.Cascader[mr, api.FlowStageBinding] = &external{}

// Dependents lists the policy bindings on the binding, which authentik deletes with it. The
// flow and the stage stay.
func (e *external) Dependents(ctx context.Context, _ mr, b api.FlowStageBinding) ([]adoption.Dependent, error) {
	return authentik.BindingsOnTarget(ctx, e.c, b.PolicybindingmodelPtrId, "flow-stage binding "+b.Pk)
}
