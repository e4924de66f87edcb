package group

import (
	"context"

	api "goauthentik.io/api/v3"

	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
)

var _ adoption.Cascader[mr, api.Group] = &external{}

// Dependents lists what deleting the group deletes or changes: the policy bindings of the
// group (deleted), its child groups (they lose this parent and what they inherit from it) and
// its memberships (taken off its members) and the user write stages that add created users to
// it (their group is emptied).
func (e *external) Dependents(ctx context.Context, _ mr, g api.Group) ([]adoption.Dependent, error) {
	var out []adoption.Dependent
	for _, list := range []func(context.Context, *api.APIClient, string, string) ([]adoption.Dependent, error){
		authentik.BindingsOfGroup, authentik.ChildGroups, authentik.MembersOfGroup, authentik.UserWriteStagesOf,
	} {
		ds, err := list(ctx, e.c, g.Pk, g.Name)
		if err != nil {
			return nil, err
		}
		out = append(out, ds...)
	}
	return out, nil
}
