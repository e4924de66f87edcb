package policybinding

import (
	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
)

// validate checks, right before a write, what the CRD checks at admission: a resource stored
// before a rule existed never went through it.
func validate(mg mr) error {
	fp := mg.Parameters()
	return clients.CheckFields(typeName, mg.GetName(),
		clients.FP("spec.forProvider.application", fp.Application, authentik.Slug),
		clients.FP("spec.forProvider.flow", fp.Flow, authentik.Slug))
}
