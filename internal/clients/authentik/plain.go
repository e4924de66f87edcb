package authentik

import api "goauthentik.io/api/v3"

// Plain copies of the generated types that the shared lists answer with (see pages.go). A
// copy embeds its type's fields under another name, which drops the methods, and shadows the
// nested generated types a list holds many of with plain copies of their own: encoding/json
// fills a field of the outer struct, not the embedded one of the same JSON name.

type plainPagination api.Pagination

type (
	applicationFields api.Application
	plainApplication  struct {
		applicationFields
		ProviderObj             *plainProvider  `json:"provider_obj"`
		BackchannelProvidersObj []plainProvider `json:"backchannel_providers_obj"`
	}
	plainProvider api.Provider
)

func (p plainApplication) object() api.Application {
	a := api.Application(p.applicationFields)
	// The generated decoding marks a required nullable field set even when it is null.
	a.ProviderObj = *api.NewNullableProvider((*api.Provider)(p.ProviderObj))
	a.BackchannelProvidersObj = convertAll(p.BackchannelProvidersObj, func(p plainProvider) api.Provider { return api.Provider(p) })
	return a
}

type plainUser api.User

func (p plainUser) object() api.User { return api.User(p) }

// plainGroup keeps the generated decoding of parents_obj and children_obj: the shared list asks
// for neither, so they are null.
type plainGroup api.Group

func (p plainGroup) object() api.Group { return api.Group(p) }

type (
	oauth2ProviderFields api.OAuth2Provider
	plainOAuth2Provider  struct {
		oauth2ProviderFields
		RedirectUris []plainRedirectURI `json:"redirect_uris"`
	}
	plainRedirectURI api.RedirectURI
)

func (p plainOAuth2Provider) object() api.OAuth2Provider {
	o := api.OAuth2Provider(p.oauth2ProviderFields)
	o.RedirectUris = convertAll(p.RedirectUris, redirectURI)
	return o
}

func redirectURI(r plainRedirectURI) api.RedirectURI { return api.RedirectURI(r) }

type plainSAMLProvider api.SAMLProvider

func (p plainSAMLProvider) object() api.SAMLProvider { return api.SAMLProvider(p) }

type (
	proxyProviderFields api.ProxyProvider
	plainProxyProvider  struct {
		proxyProviderFields
		RedirectUris []plainRedirectURI `json:"redirect_uris"`
	}
)

func (p plainProxyProvider) object() api.ProxyProvider {
	o := api.ProxyProvider(p.proxyProviderFields)
	o.RedirectUris = convertAll(p.RedirectUris, redirectURI)
	return o
}

type plainLDAPProvider api.LDAPProvider

func (p plainLDAPProvider) object() api.LDAPProvider { return api.LDAPProvider(p) }

// convertAll converts each element; nil stays nil, as the generated decoding leaves it.
func convertAll[P, T any](in []P, convert func(P) T) []T {
	if in == nil {
		return nil
	}
	out := make([]T, len(in))
	for i := range in {
		out[i] = convert(in[i])
	}
	return out
}
