package user

import (
	"github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
)

// validate checks, right before a write, what the CRD checks at admission: a resource stored
// before a rule existed never went through it.
func validate(mg *v1alpha1.User) error {
	fp := mg.Spec.ForProvider
	return keystone.CheckFields(typeName, mg.GetName(),
		keystone.F("spec.forProvider.name", fp.Name, keystone.Name(255)),
		keystone.FP("spec.forProvider.domainId", fp.DomainID, keystone.ID),
		keystone.FP("spec.forProvider.defaultProjectId", fp.DefaultProjectID, keystone.ID),
		keystone.FP("spec.forProvider.description", fp.Description, keystone.Description),
		keystone.FP("spec.forProvider.email", fp.Email, keystone.Name(255)))
}
