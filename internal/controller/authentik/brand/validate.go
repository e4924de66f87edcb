package brand

import (
	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
)

// validate checks, right before a write, what the CRD checks at admission: a resource stored
// before a rule existed never went through it.
func validate(mg mr) error {
	fp := mg.Parameters()
	return clients.CheckFields(typeName, mg.GetName(),
		clients.F("spec.forProvider.domain", fp.Domain, authentik.Name),
		clients.FP("spec.forProvider.brandingTitle", fp.BrandingTitle, authentik.Name),
		clients.FP("spec.forProvider.brandingLogo", fp.BrandingLogo, authentik.Name),
		clients.FP("spec.forProvider.brandingFavicon", fp.BrandingFavicon, authentik.Name),
	)
}
