package authentik

import (
	"context"
	"strconv"

	api "goauthentik.io/api/v3"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
)

// TypeOutpost names outposts in errors and to the engine.
const TypeOutpost = "authentik outpost"

const errListOutposts = "cannot list the authentik outposts that serve provider %q"

// OutpostsOfProvider lists the outposts that serve the provider: deleting it drops it from
// their providers (many-to-many), which changes them, and an outpost left without providers
// serves nothing. An outpost carries its marker in its config; the embedded outpost and
// hand-made ones carry none and so stay in the way until the provider is taken off them.
func OutpostsOfProvider(ctx context.Context, c *api.APIClient, pk int32, name string) ([]adoption.Dependent, error) {
	os, err := ListAll(ctx, func(page int32) ([]api.Outpost, int32, error) {
		l, resp, err := c.OutpostsAPI.OutpostsInstancesList(ctx).ProvidersByPk([]int32{pk}).Page(page).PageSize(PageSize).Execute()
		if err != nil {
			return nil, 0, AsError(err, resp)
		}
		return l.Results, NextPage(l.Pagination), nil
	})
	if err != nil {
		return nil, errors.Wrapf(err, errListOutposts, name)
	}
	var out []adoption.Dependent
	for _, o := range os {
		serves := false
		for _, p := range o.Providers {
			serves = serves || p == pk
		}
		if !serves { // a server that ignored the filter must not make us report others' outposts
			continue
		}
		out = append(out, adoption.Dependent{
			Description: adoption.Description{ID: o.Pk, Type: TypeOutpost, Key: o.Name + " (serves provider " + strconv.Quote(name) + ")",
				Marker: AttributeMarker(o.Config)},
			Kind: v1alpha1.OutpostGroupKind.String(), ExternalName: o.Pk,
		})
	}
	return out, nil
}
