package policy

import (
	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
)

// validate checks, right before a write, what the CRD checks at admission: a resource stored
// before a rule existed never went through it.
func validate(mg mr) error {
	return clients.CheckFields(typeName, mg.GetName(), clients.F("spec.forProvider.name", mg.Parameters().Name, authentik.Name))
}
