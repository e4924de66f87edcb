package authentik

import (
	"context"
	"slices"
	"strconv"

	api "goauthentik.io/api/v3"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
)

// What deleting a certificate-key pair or a property mapping changes
// (docs/adr/0002-authentik-provenance.md): authentik clears the providers' key fields
// (SET_NULL) and name-ID mappings, and drops the mapping from their property_mappings
// (many-to-many). The providers are read from their typed lists, which name these fields
// (/providers/all/ does not), and matched here.

const errListKeyProviders = "cannot list the authentik %s providers"

// A providerUse is what a provider names: its key-pair fields and its mappings.
type providerUse struct {
	pk       int32
	name     string
	verbose  string
	kind     string
	keys     []string
	mappings []string
}

// ProvidersOfKeypair lists the OAuth2, SAML, proxy and LDAP providers that use the pair as a
// signing, verification, encryption or TLS key.
func ProvidersOfKeypair(ctx context.Context, c *api.APIClient, pk, name string) ([]adoption.Dependent, error) {
	return providersUsing(ctx, c, "certificate-key pair "+strconv.Quote(name), func(u providerUse) bool { return slices.Contains(u.keys, pk) })
}

// ProvidersOfMapping lists the OAuth2, SAML, proxy and LDAP providers that use the property mapping.
func ProvidersOfMapping(ctx context.Context, c *api.APIClient, pk, name string) ([]adoption.Dependent, error) {
	return providersUsing(ctx, c, "property mapping "+strconv.Quote(name), func(u providerUse) bool { return slices.Contains(u.mappings, pk) })
}

func providersUsing(ctx context.Context, c *api.APIClient, what string, uses func(providerUse) bool) ([]adoption.Dependent, error) {
	var out []adoption.Dependent
	for _, list := range []func() ([]providerUse, error){
		func() ([]providerUse, error) { return oauth2Uses(ctx, c) },
		func() ([]providerUse, error) { return samlUses(ctx, c) },
		func() ([]providerUse, error) { return proxyUses(ctx, c) },
		func() ([]providerUse, error) { return ldapUses(ctx, c) },
	} {
		us, err := list()
		if err != nil {
			return nil, errors.Wrapf(err, "cannot find the providers that use %s", what)
		}
		for _, u := range us {
			if !uses(u) {
				continue
			}
			id := strconv.Itoa(int(u.pk))
			out = append(out, adoption.Dependent{
				Description: adoption.Description{ID: id, Type: typeProvider + " (" + u.verbose + ")", Key: u.name, Markerless: true},
				Kind:        u.kind, ExternalName: id,
			})
		}
	}
	return out, nil
}

func oauth2Uses(ctx context.Context, c *api.APIClient) ([]providerUse, error) {
	ps, err := ListAll(ctx, func(page int32) ([]api.OAuth2Provider, int32, error) {
		l, resp, err := c.ProvidersAPI.ProvidersOauth2List(ctx).Page(page).PageSize(PageSize).Execute()
		if err != nil {
			return nil, 0, AsError(err, resp)
		}
		return l.Results, NextPage(l.Pagination), nil
	})
	if err != nil {
		return nil, errors.Wrapf(err, errListKeyProviders, "OAuth2")
	}
	out := make([]providerUse, 0, len(ps))
	for _, p := range ps {
		out = append(out, providerUse{pk: p.Pk, name: p.Name, verbose: p.VerboseName, kind: v1alpha1.OAuth2ProviderGroupKind.String(),
			keys: []string{p.GetSigningKey(), p.GetEncryptionKey()}, mappings: p.GetPropertyMappings()})
	}
	return out, nil
}

func samlUses(ctx context.Context, c *api.APIClient) ([]providerUse, error) {
	ps, err := ListAll(ctx, func(page int32) ([]api.SAMLProvider, int32, error) {
		l, resp, err := c.ProvidersAPI.ProvidersSamlList(ctx).Page(page).PageSize(PageSize).Execute()
		if err != nil {
			return nil, 0, AsError(err, resp)
		}
		return l.Results, NextPage(l.Pagination), nil
	})
	if err != nil {
		return nil, errors.Wrapf(err, errListKeyProviders, "SAML")
	}
	out := make([]providerUse, 0, len(ps))
	for _, p := range ps {
		out = append(out, providerUse{pk: p.Pk, name: p.Name, verbose: p.VerboseName, kind: v1alpha1.SAMLProviderGroupKind.String(),
			keys:     []string{p.GetSigningKp(), p.GetVerificationKp(), p.GetEncryptionKp()},
			mappings: append(p.GetPropertyMappings(), p.GetNameIdMapping(), p.GetAuthnContextClassRefMapping())})
	}
	return out, nil
}

func proxyUses(ctx context.Context, c *api.APIClient) ([]providerUse, error) {
	ps, err := ListAll(ctx, func(page int32) ([]api.ProxyProvider, int32, error) {
		l, resp, err := c.ProvidersAPI.ProvidersProxyList(ctx).Page(page).PageSize(PageSize).Execute()
		if err != nil {
			return nil, 0, AsError(err, resp)
		}
		return l.Results, NextPage(l.Pagination), nil
	})
	if err != nil {
		return nil, errors.Wrapf(err, errListKeyProviders, "proxy")
	}
	out := make([]providerUse, 0, len(ps))
	for _, p := range ps {
		out = append(out, providerUse{pk: p.Pk, name: p.Name, verbose: p.VerboseName, kind: v1alpha1.ProxyProviderGroupKind.String(),
			keys: []string{p.GetCertificate()}, mappings: p.GetPropertyMappings()})
	}
	return out, nil
}

func ldapUses(ctx context.Context, c *api.APIClient) ([]providerUse, error) {
	ps, err := ListAll(ctx, func(page int32) ([]api.LDAPProvider, int32, error) {
		l, resp, err := c.ProvidersAPI.ProvidersLdapList(ctx).Page(page).PageSize(PageSize).Execute()
		if err != nil {
			return nil, 0, AsError(err, resp)
		}
		return l.Results, NextPage(l.Pagination), nil
	})
	if err != nil {
		return nil, errors.Wrapf(err, errListKeyProviders, "LDAP")
	}
	out := make([]providerUse, 0, len(ps))
	for _, p := range ps {
		out = append(out, providerUse{pk: p.Pk, name: p.Name, verbose: p.VerboseName, kind: v1alpha1.LDAPProviderGroupKind.String(),
			keys: []string{p.GetCertificate()}, mappings: p.GetPropertyMappings()})
	}
	return out, nil
}
