package shared

import (
	"context"
	"net/http"

	api "goauthentik.io/api/v3"

	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
)

// ProviderCalls are the calls of one provider type (P, created from a Req and patched with a
// Patch) in the generated client. Its OAuth2, SAML and proxy providers have the same five calls
// under other names and types; NewProviderCalls adapts them, so that ProviderDriver is written
// once.
type ProviderCalls[P, Req, Patch any] struct {
	retrieve func(ctx context.Context, a *api.APIClient, pk int32) (*P, *http.Response, error)
	// list reads every provider with the name.
	list    func(ctx context.Context, a *api.APIClient, name string) ([]P, error)
	create  func(ctx context.Context, a *api.APIClient, r Req) (*P, *http.Response, error)
	update  func(ctx context.Context, a *api.APIClient, pk int32, r Patch) (*P, *http.Response, error)
	destroy func(ctx context.Context, a *api.APIClient, pk int32) (*http.Response, error)
	object  func(p *P) providerObject
}

// providerObject is what every provider type of the generated client tells about itself.
type providerObject interface {
	GetPk() int32
	GetName() string
	GetAssignedApplicationSlug() string
	GetAssignedBackchannelApplicationSlug() string
}

// executes is a request of the generated client that answers with a T.
type executes[T any] interface {
	Execute() (T, *http.Response, error)
}

// destroys is a delete request of the generated client.
type destroys interface {
	Execute() (*http.Response, error)
}

// NewProviderCalls adapts the generated client's methods for the provider type P, whose list
// pages are L, given as method expressions: for OAuth2 providers retrieve is
// (*api.ProvidersAPIService).ProvidersOauth2Retrieve, byName is
// api.ApiProvidersOauth2ListRequest.Name (the list request's filter on the name), withRequest
// is api.ApiProvidersOauth2CreateRequest.OAuth2ProviderRequest, and so on. The other type
// parameters are inferred from them.
func NewProviderCalls[P any, L authentik.Page[P], PP interface {
	*P
	providerObject
}, Req, Patch any, RR executes[*P], LR authentik.PageRequest[LR, L, P], CR executes[*P], UR executes[*P], DR destroys](
	retrieve func(*api.ProvidersAPIService, context.Context, int32) RR,
	list func(*api.ProvidersAPIService, context.Context) LR, byName func(LR, string) LR,
	create func(*api.ProvidersAPIService, context.Context) CR, withRequest func(CR, Req) CR,
	update func(*api.ProvidersAPIService, context.Context, int32) UR, withPatch func(UR, Patch) UR,
	destroy func(*api.ProvidersAPIService, context.Context, int32) DR,
) ProviderCalls[P, Req, Patch] {
	return ProviderCalls[P, Req, Patch]{
		retrieve: func(ctx context.Context, a *api.APIClient, pk int32) (*P, *http.Response, error) {
			return retrieve(a.ProvidersAPI, ctx, pk).Execute()
		},
		list: func(ctx context.Context, a *api.APIClient, name string) ([]P, error) {
			return authentik.ListRequest(ctx, byName(list(a.ProvidersAPI, ctx), name))
		},
		create: func(ctx context.Context, a *api.APIClient, r Req) (*P, *http.Response, error) {
			return withRequest(create(a.ProvidersAPI, ctx), r).Execute()
		},
		update: func(ctx context.Context, a *api.APIClient, pk int32, r Patch) (*P, *http.Response, error) {
			return withPatch(update(a.ProvidersAPI, ctx, pk), r).Execute()
		},
		destroy: func(ctx context.Context, a *api.APIClient, pk int32) (*http.Response, error) {
			return destroy(a.ProvidersAPI, ctx, pk).Execute()
		},
		object: func(p *P) providerObject { return PP(p) },
	}
}
