package protocol

import (
	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
)

// validate checks, right before a write, what the CRD checks at admission: a resource stored
// before a rule existed never went through it.
func validate(mg mr) error {
	fp := *mg.Parameters()
	return clients.CheckFields(typeName, mg.GetName(),
		clients.F("spec.forProvider.id", fp.ID, keystone.FederationID),
		clients.FP("spec.forProvider.identityProviderId", fp.IdentityProviderID, keystone.FederationID),
		clients.FP("spec.forProvider.mappingId", fp.MappingID, keystone.FederationID),
		clients.FP("spec.forProvider.remoteIdAttribute", fp.RemoteIDAttribute, clients.SingleLine))
}
