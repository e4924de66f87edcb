package groupmembership

import (
	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
)

// validate checks, right before a write, what the CRD checks at admission: a resource stored
// before a rule existed never went through it.
func validate(mg mr) error {
	fp := *mg.Parameters()
	return clients.CheckFields(typeName, mg.GetName(),
		clients.FP("spec.forProvider.groupId", fp.GroupID, keystone.ActorID),
		clients.FP("spec.forProvider.userId", fp.UserID, keystone.ActorID))
}
