package identityprovider

import (
	"fmt"

	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
)

// validate checks, right before a write, what the CRD checks at admission: a resource stored
// before a rule existed never went through it.
func validate(mg mr) error {
	fp := *mg.Parameters()
	fields := make([]clients.Field, 0, 3+len(fp.RemoteIDs))
	fields = append(fields,
		clients.F("spec.forProvider.id", fp.ID, keystone.FederationID),
		clients.FP("spec.forProvider.domainId", fp.DomainID, keystone.ID),
		clients.FP("spec.forProvider.description", fp.Description, keystone.Description),
	)
	for i, r := range fp.RemoteIDs {
		fields = append(fields, clients.F(fmt.Sprintf("spec.forProvider.remoteIds[%d]", i), r, clients.SingleLine))
	}
	return clients.CheckFields(typeName, mg.GetName(), fields...)
}
