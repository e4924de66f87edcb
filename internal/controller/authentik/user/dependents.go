package user

import (
	"context"

	api "goauthentik.io/api/v3"

	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
)

var _ adoption.Cascader[mr, api.User] = &external{}

// Dependents lists what authentik deletes with the user besides what is the user's alone
// (sessions, consents, one-time links): its API tokens and app passwords, which someone may
// be using, and the policy bindings of the user. Its memberships are part of the user (its
// groups, which spec.forProvider.groups manages) and do not change the groups themselves.
func (e *external) Dependents(ctx context.Context, _ mr, u api.User) ([]adoption.Dependent, error) {
	ts, err := authentik.TokensOfUser(ctx, e.c, u.Pk, u.Username)
	if err != nil {
		return nil, err
	}
	bs, err := authentik.BindingsOfUser(ctx, e.c, u.Pk, u.Username)
	if err != nil {
		return nil, err
	}
	return append(ts, bs...), nil
}
