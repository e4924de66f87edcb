package proxyprovider

import (
	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
)

// validate checks, right before a write, what the CRD checks at admission: a resource stored
// before a rule existed never went through it.
func validate(mg mr) error {
	fp := mg.Parameters()
	return clients.CheckFields("authentik proxy provider", mg.GetName(),
		clients.F("spec.forProvider.name", fp.Name, authentik.Name),
		clients.F("spec.forProvider.authorizationFlow", fp.AuthorizationFlow, authentik.Slug),
		clients.F("spec.forProvider.invalidationFlow", fp.InvalidationFlow, authentik.Slug),
		clients.F("spec.forProvider.externalHost", fp.ExternalHost, authentik.HTTPURL),
		clients.FP("spec.forProvider.internalHost", fp.InternalHost, authentik.HTTPURL))
}
