package flow

import (
	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
)

// validate checks, right before a write, what the CRD checks at admission: a resource stored
// before a rule existed never went through it.
func validate(mg mr) error {
	fp := mg.Parameters()
	return clients.CheckFields(typeName, mg.GetName(),
		clients.F("spec.forProvider.name", fp.Name, authentik.Name),
		clients.F("spec.forProvider.slug", fp.Slug, authentik.Slug),
		clients.F("spec.forProvider.title", fp.Title, authentik.Name))
}
