package limit

import (
	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
)

// validate checks, right before a write, what the CRD checks at admission: a resource stored
// before a rule existed never went through it.
func validate(mg mr) error {
	fp := mg.Parameters()
	return clients.CheckFields(typeName, mg.GetName(),
		clients.FP("spec.forProvider.projectId", fp.ProjectID, keystone.ID),
		clients.FP("spec.forProvider.domainId", fp.DomainID, keystone.ID),
		clients.FP("spec.forProvider.serviceId", fp.ServiceID, keystone.ID),
		clients.FP("spec.forProvider.regionId", fp.RegionID, keystone.Name(64)),
		clients.F("spec.forProvider.resourceName", fp.ResourceName, keystone.Name(255)),
		clients.FP("spec.forProvider.description", fp.Description, keystone.Description))
}
