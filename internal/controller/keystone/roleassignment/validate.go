package roleassignment

import (
	"github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
)

// validate checks, right before a write, what the CRD checks at admission: a resource stored
// before a rule existed never went through it.
func validate(mg *v1alpha1.RoleAssignment) error {
	fp := mg.Spec.ForProvider
	return keystone.CheckFields(typeName, mg.GetName(),
		keystone.FP("spec.forProvider.roleId", fp.RoleID, keystone.ID),
		keystone.FP("spec.forProvider.projectId", fp.ProjectID, keystone.ID),
		keystone.FP("spec.forProvider.domainId", fp.DomainID, keystone.ID),
		keystone.FP("spec.forProvider.userId", fp.UserID, keystone.ActorID),
		keystone.FP("spec.forProvider.groupId", fp.GroupID, keystone.ActorID))
}
