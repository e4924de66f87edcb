package outpost

import (
	"context"

	api "goauthentik.io/api/v3"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
)

const (
	errListTokens = "cannot list the API tokens of the service account %q of authentik outpost %q"
	typeToken     = "authentik token"
)

// ServiceAccount is the username authentik gives an outpost's service account: ak-outpost-
// and the outpost's UUID without dashes.
func ServiceAccount(pk string) string {
	hex := make([]byte, 0, len(pk))
	for i := range len(pk) {
		if pk[i] != '-' {
			hex = append(hex, pk[i])
		}
	}
	return "ak-outpost-" + string(hex)
}

// Dependents lists what deleting the outpost takes that authentik did not make for it: API
// tokens and app passwords someone made for its service account besides the outpost's own
// token. authentik deletes the service account with the outpost, and its tokens with it. The
// account and the outpost's token are authentik's, made for the outpost, and go with it
// unasked; the providers it serves are kept, unchanged (docs/adr/0011-outposts.md).
func (e *External) Dependents(ctx context.Context, _ mr, o Observed) ([]adoption.Dependent, error) {
	sa := ServiceAccount(o.Outpost.Pk)
	ts, err := authentik.ListAll(ctx, func(page int32) ([]api.Token, int32, error) {
		l, resp, err := e.API.CoreAPI.CoreTokensList(ctx).UserUsername(sa).Page(page).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return nil, 0, authentik.AsError(err, resp)
		}
		return l.Results, authentik.NextPage(l.Pagination), nil
	})
	if err != nil {
		return nil, errors.Wrapf(err, errListTokens, sa, o.Outpost.Name)
	}
	var out []adoption.Dependent
	for _, t := range ts {
		if t.Identifier == o.Outpost.TokenIdentifier || t.UserObj.Username != sa {
			continue
		}
		if t.GetIntent() != api.INTENTENUM_API && t.GetIntent() != api.INTENTENUM_APP_PASSWORD {
			continue
		}
		out = append(out, adoption.Dependent{Description: adoption.Description{
			ID: t.Identifier, Type: typeToken, Key: string(t.GetIntent()) + " token " + t.Identifier + " of the service account " + sa + " of outpost " + o.Outpost.Name,
			Markerless: true}})
	}
	return out, nil
}
