package application

import (
	"context"
	"strconv"

	api "goauthentik.io/api/v3"

	clusterv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
)

// providerKinds maps a provider's meta_model_name to our (cluster-scoped) kind for it and its
// type name. The engine looks a markerless provider's resource up in both scopes
// (managedkind.Owners.ByExternalName), so a namespaced Application names the same kind.
var providerKinds = map[string][2]string{
	"authentik_providers_oauth2.oauth2provider": {clusterv1alpha1.OAuth2ProviderGroupKind.String(), "authentik OAuth2 provider"},
	"authentik_providers_saml.samlprovider":     {clusterv1alpha1.SAMLProviderGroupKind.String(), "authentik SAML provider"},
	"authentik_providers_proxy.proxyprovider":   {clusterv1alpha1.ProxyProviderGroupKind.String(), "authentik proxy provider"},
	"authentik_providers_ldap.ldapprovider":     {clusterv1alpha1.LDAPProviderGroupKind.String(), "authentik LDAP provider"},
}

var _ adoption.Cascader[mr, api.Application] = &External{}

// Dependents lists what authentik deletes with the application: its backchannel providers,
// the policy bindings on it (deleting the last one would open a restricted application to
// everyone, were it kept) and its entitlements; and the brands whose default application it
// is, which authentik changes (the field is cleared). Its provider is kept, detached, and is no
// dependent: the provider itself does not change.
func (e *External) Dependents(ctx context.Context, _ mr, a api.Application) ([]adoption.Dependent, error) {
	out := backchannelProviders(a)
	bs, err := authentik.BindingsOnTarget(ctx, e.API, a.PbmUuid, "application "+strconv.Quote(a.Slug))
	if err != nil {
		return nil, err
	}
	es, err := authentik.EntitlementsOf(ctx, e.API, a.PbmUuid, a.Slug)
	if err != nil {
		return nil, err
	}
	brands, err := authentik.BrandsOfApplication(ctx, e.API, a.Pk, "application "+strconv.Quote(a.Slug))
	if err != nil {
		return nil, err
	}
	return append(append(append(out, bs...), es...), brands...), nil
}

// backchannelProviders describes the application's backchannel providers. Providers carry no
// marker: those of a kind we manage are found by their resource's external name (the pk).
func backchannelProviders(a api.Application) []adoption.Dependent {
	out := make([]adoption.Dependent, 0, len(a.BackchannelProvidersObj))
	for _, p := range a.BackchannelProvidersObj {
		id := strconv.Itoa(int(p.Pk))
		d := adoption.Dependent{Description: adoption.Description{ID: id, Type: "authentik " + p.VerboseName, Key: p.Name, Markerless: true}}
		if k, ok := providerKinds[p.MetaModelName]; ok {
			d.Kind, d.Type, d.ExternalName = k[0], k[1], id
		}
		out = append(out, d)
	}
	return out
}
