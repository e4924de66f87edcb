package applicationcredential

import (
	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
)

// validate checks, right before a write, what the CRD checks at admission: a resource stored
// before a rule existed never went through it.
func validate(mg mr) error {
	fp := mg.Parameters()
	fs := make([]clients.Field, 0, 4+len(fp.RoleIDs)+len(fp.RoleNames)+len(fp.AccessRules))
	fs = append(fs,
		clients.FP("spec.forProvider.userId", fp.UserID, keystone.ActorID),
		clients.FP("spec.forProvider.projectId", fp.ProjectID, keystone.ID),
		clients.F("spec.forProvider.name", fp.Name, keystone.Name(255)),
		clients.FP("spec.forProvider.description", fp.Description, keystone.Description))
	for _, id := range fp.RoleIDs {
		fs = append(fs, clients.F("spec.forProvider.roleIds", id, keystone.ID))
	}
	for _, n := range fp.RoleNames {
		fs = append(fs, clients.F("spec.forProvider.roleNames", n, keystone.Name(255)))
	}
	for _, r := range fp.AccessRules {
		fs = append(fs, clients.F("spec.forProvider.accessRules[].path", r.Path, clients.SingleLine))
	}
	return clients.CheckFields(typeName, mg.GetName(), fs...)
}
