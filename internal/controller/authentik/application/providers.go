package application

import (
	"context"
	"slices"
	"strconv"

	api "goauthentik.io/api/v3"

	"github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1"
)

// assignableKinds are the kinds of providerKinds, sorted: the kinds whose objects an
// application's provider field names. authentik numbers every provider in one sequence,
// whatever its type, so an ID names one object of one of them; the resources of both scopes
// are asked (managedkind.Owners).
var assignableKinds = func() []string {
	out := make([]string, 0, len(providerKinds))
	for _, k := range providerKinds {
		out = append(out, k[0])
	}
	slices.Sort(out)
	return out
}()

// A Refresher reconciles the resources of a kind whose external name is name at once, reading
// their objects afresh (managedkind.Owners.RefreshByExternalName).
type Refresher interface {
	RefreshByExternalName(ctx context.Context, kind, name string) error
}

// refreshProviders refreshes the resources of the providers with the IDs: an application's
// create or change of provider assigns or releases them, and a provider's observation and
// connection details (its issuer URL) name its application. A refresh that fails is left to the
// provider's next poll, as before there were refreshes. An application's delete refreshes
// nothing: in a teardown, where the providers go right after their applications, each refresh
// cost a status update and a Secret write of a provider about to be deleted. A provider kept
// after its application was deleted names it in its status until its next poll (and its
// Secret keeps the issuer URL: crossplane-runtime never removes a connection detail's key).
func (e *External) refreshProviders(ctx context.Context, ids ...string) {
	if e.Providers == nil {
		return
	}
	for _, id := range ids {
		if id == "" {
			continue
		}
		for _, k := range assignableKinds {
			_ = e.Providers.RefreshByExternalName(ctx, k, id)
		}
	}
}

// providerOf is the ID of the provider the spec gives the application, "" for none.
func providerOf(fp *v1alpha1.ApplicationParameters) string {
	for _, id := range []*string{fp.OAuth2ProviderID, fp.SAMLProviderID, fp.ProxyProviderID, fp.LDAPProviderID} {
		if id != nil {
			return *id
		}
	}
	return ""
}

// assignedProvider is the ID of the provider the application uses in authentik, "" for none.
func assignedProvider(a api.Application) string {
	if pk, ok := a.GetProviderOk(); ok && pk != nil {
		return strconv.Itoa(int(*pk))
	}
	return ""
}
