package stage

import (
	"context"
	"strconv"

	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
)

var _ adoption.Cascader[mr, Object] = &external{}

// Dependents lists what deleting the stage deletes or changes: its flow-stage bindings
// (deleted: the flows lose the step), the authenticator validation stages that offer it to
// users without a device (it leaves their list) and, for a password stage, the identification
// stages that show it (their password_stage is cleared).
func (e *external) Dependents(ctx context.Context, _ mr, o Object) ([]adoption.Dependent, error) {
	out, err := authentik.FlowBindings(ctx, e.c, "", o.pk(), "stage "+strconv.Quote(o.name()))
	if err != nil {
		return nil, err
	}
	vs, err := authentik.ValidationStagesConfiguringWith(ctx, e.c, o.pk(), o.name())
	if err != nil {
		return nil, err
	}
	out = append(out, vs...)
	if o.Model != password.model {
		return out, nil
	}
	ds, err := authentik.IdentificationStagesOf(ctx, e.c, o.pk(), o.name())
	if err != nil {
		return nil, err
	}
	return append(out, ds...), nil
}
