package ldapprovider

import (
	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
)

// validate checks, right before a write, what the CRD checks at admission: a resource stored
// before a rule existed never went through it.
func validate(mg mr) error {
	fp := mg.Parameters()
	return clients.CheckFields("authentik LDAP provider", mg.GetName(),
		clients.F("spec.forProvider.name", fp.Name, authentik.Name),
		clients.FP("spec.forProvider.authorizationFlow", fp.AuthorizationFlow, authentik.Slug),
		clients.FP("spec.forProvider.invalidationFlow", fp.InvalidationFlow, authentik.Slug),
		clients.FP("spec.forProvider.baseDn", fp.BaseDN, clients.SingleLine),
		clients.FP("spec.forProvider.tlsServerName", fp.TLSServerName, clients.SingleLine))
}
