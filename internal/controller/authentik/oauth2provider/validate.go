package oauth2provider

import (
	"fmt"

	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
)

// validate checks, right before a write, what the CRD checks at admission: a resource stored
// before a rule existed never went through it.
func validate(mg mr) error {
	fp := mg.Parameters()
	fields := make([]clients.Field, 0, 4+len(fp.RedirectURIs))
	fields = append(fields,
		clients.F("spec.forProvider.name", fp.Name, authentik.Name),
		clients.F("spec.forProvider.authorizationFlow", fp.AuthorizationFlow, authentik.Slug),
		clients.F("spec.forProvider.invalidationFlow", fp.InvalidationFlow, authentik.Slug),
		clients.FP("spec.forProvider.logoutUri", fp.LogoutURI, authentik.HTTPURL),
	)
	for i, u := range fp.RedirectURIs {
		fields = append(fields, clients.F(fmt.Sprintf("spec.forProvider.redirectUris[%d].url", i), u.URL, authentik.RedirectURI(u.MatchingMode)))
	}
	return clients.CheckFields("authentik OAuth2 provider", mg.GetName(), fields...)
}
