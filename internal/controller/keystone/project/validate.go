package project

import (
	"fmt"

	"github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
)

// validate checks, right before a write, what the CRD checks at admission: a resource stored
// before a rule existed never went through it.
func validate(mg *v1alpha1.Project) error {
	fp := mg.Spec.ForProvider
	fields := []keystone.Field{
		keystone.F("spec.forProvider.name", fp.Name, keystone.Name(64)),
		keystone.FP("spec.forProvider.domainId", fp.DomainID, keystone.ID),
		keystone.FP("spec.forProvider.parentId", fp.ParentID, keystone.ID),
		keystone.FP("spec.forProvider.description", fp.Description, keystone.Description),
	}
	if fp.Tags != nil {
		for i, tag := range *fp.Tags {
			fields = append(fields, keystone.F(fmt.Sprintf("spec.forProvider.tags[%d]", i), tag, keystone.Tag))
		}
	}
	return keystone.CheckFields(typeName, mg.GetName(), fields...)
}
