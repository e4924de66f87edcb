package user

import (
	"github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients"
)

// validate checks, right before a write, what the CRD checks at admission: a resource stored
// before a rule existed never went through it.
func validate(mg *v1alpha1.User) error {
	fp := mg.Spec.ForProvider
	return clients.CheckFields(typeName, mg.GetName(),
		clients.F("spec.forProvider.username", fp.Username, clients.SingleLine),
		clients.FP("spec.forProvider.name", fp.Name, clients.SingleLine),
		clients.FP("spec.forProvider.path", fp.Path, clients.SingleLine))
}
