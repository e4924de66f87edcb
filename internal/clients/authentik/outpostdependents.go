package authentik

import (
	"context"
	"strconv"

	api "goauthentik.io/api/v3"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients"
)

// TypeOutpost names outposts in errors and to the engine.
const TypeOutpost = "authentik outpost"

const errListOutposts = "cannot list the authentik outposts that serve provider %q"

// deletionOutposts joins the questions of provider deletions asking at about the same time
// which outposts serve their providers: one list of every outpost (an authentik has few), read
// after all of them asked, answers each (clients.JoinedLists).
var deletionOutposts clients.JoinedLists[api.Outpost]

// OutpostsOfProvider lists the outposts that serve the provider: deleting it drops it from
// their providers (many-to-many), which changes them, and an outpost left without providers
// serves nothing. An outpost carries its marker in its config; the embedded outpost and
// hand-made ones carry none and so stay in the way until the provider is taken off them.
func OutpostsOfProvider(ctx context.Context, c *api.APIClient, pk int32, name string) ([]adoption.Dependent, error) {
	os, err := deletionOutposts.Rows(ctx, clients.Scope{Client: c, List: "outposts/instances/"}, strconv.Itoa(int(pk)), clients.Rows[api.Outpost]{
		Alone: func(ctx context.Context) ([]api.Outpost, error) {
			return ListRequest(ctx, c.OutpostsAPI.OutpostsInstancesList(ctx).ProvidersByPk([]int32{pk}))
		},
		List: func(ctx context.Context) ([]api.Outpost, error) {
			return ListRequest(ctx, c.OutpostsAPI.OutpostsInstancesList(ctx))
		},
		Keys: func(o api.Outpost) []string {
			keys := make([]string, len(o.Providers))
			for i, p := range o.Providers {
				keys[i] = strconv.Itoa(int(p))
			}
			return keys
		},
		Refused: listRefused,
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
