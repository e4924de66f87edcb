package user

import (
	"github.com/crossplane-contrib/provider-identity/internal/clients"
)

// validate checks, right before a write, what the CRD checks at admission: a resource stored
// before a rule existed never went through it.
func validate(mg mr) error {
	fp := mg.Parameters()
	return clients.CheckFields(typeName, mg.GetName(),
		clients.F("spec.forProvider.username", fp.Username, clients.SingleLine),
		clients.FP("spec.forProvider.name", fp.Name, clients.SingleLine),
		clients.FP("spec.forProvider.path", fp.Path, clients.SingleLine))
}
