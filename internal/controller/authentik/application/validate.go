package application

import (
	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
)

// validate checks, right before a write, what the CRD checks at admission: a resource stored
// before a rule existed never went through it.
func validate(mg mr) error {
	fp := mg.Parameters()
	return clients.CheckFields(typeName, mg.GetName(),
		clients.F("spec.forProvider.name", fp.Name, authentik.Name),
		clients.F("spec.forProvider.slug", fp.Slug, authentik.Slug),
		clients.FP("spec.forProvider.launchUrl", fp.LaunchURL, launchURL),
		clients.FP("spec.forProvider.description", fp.Description, clients.Text),
		clients.FP("spec.forProvider.group", fp.Group, clients.SingleLine),
		clients.FP("spec.forProvider.publisher", fp.Publisher, clients.SingleLine))
}

// launchURL is an http(s) URL, or blank://blank: authentik's launch URL for an application
// listed without a link.
func launchURL(v string) string {
	if v == "blank://blank" {
		return ""
	}
	return authentik.HTTPURL(v)
}
