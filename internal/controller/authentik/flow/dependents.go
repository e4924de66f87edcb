package flow

import (
	"context"
	"strconv"

	api "goauthentik.io/api/v3"

	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
)

var _ adoption.Cascader[mr, api.Flow] = &external{}

// Dependents lists what deleting the flow deletes or changes: its stage bindings and policy
// bindings (deleted), the providers that use it (deleted when it is their authorization or
// invalidation flow, changed when it is their authentication flow), the stages that link
// it and the brands that use it (changed). The stages bound into it are not deleted: only their bindings are.
func (e *external) Dependents(ctx context.Context, _ mr, f api.Flow) ([]adoption.Dependent, error) {
	what := "flow " + strconv.Quote(f.Slug)
	out, err := authentik.FlowBindings(ctx, e.c, f.Pk, "", what)
	if err != nil {
		return nil, err
	}
	for _, list := range []func() ([]adoption.Dependent, error){
		func() ([]adoption.Dependent, error) {
			return authentik.BindingsOnTarget(ctx, e.c, f.PolicybindingmodelPtrId, what)
		},
		func() ([]adoption.Dependent, error) { return authentik.ProvidersOfFlow(ctx, e.c, f.Pk, f.Slug) },
		func() ([]adoption.Dependent, error) { return authentik.StagesOfFlow(ctx, e.c, f.Pk, f.Slug) },
		func() ([]adoption.Dependent, error) { return authentik.BrandsOfFlow(ctx, e.c, f.Pk, what) },
	} {
		ds, err := list()
		if err != nil {
			return nil, err
		}
		out = append(out, ds...)
	}
	return out, nil
}
