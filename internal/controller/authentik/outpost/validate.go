package outpost

import (
	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
)

const errNoProviders = "Outpost %q of type %s serves no provider yet: its %s are unresolved or select none; an outpost needs at least one provider of its type (are the providers it names there and ready?)"

// validate checks, right before a write, what the CRD checks at admission (a resource stored
// before a rule existed never went through it), and that the references have resolved.
func validate(mg mr) error {
	fp := mg.Parameters()
	ids, field := fp.ProxyProviderIDs, "proxyProviderRefs/proxyProviderSelector"
	if fp.Type == "ldap" {
		ids, field = fp.LDAPProviderIDs, "ldapProviderRefs/ldapProviderSelector"
	}
	if len(ids) == 0 {
		return errors.Errorf(errNoProviders, mg.GetName(), fp.Type, field)
	}
	fields := []clients.Field{clients.F("spec.forProvider.name", fp.Name, authentik.Name)}
	if c := fp.Config; c != nil {
		fields = append(fields,
			clients.FP("spec.forProvider.config.authentikHost", c.AuthentikHost, authentik.HTTPURL),
			clients.FP("spec.forProvider.config.authentikHostBrowser", c.AuthentikHostBrowser, authentik.HTTPURL),
			clients.FP("spec.forProvider.config.objectNamingTemplate", c.ObjectNamingTemplate, clients.SingleLine),
			clients.FP("spec.forProvider.config.containerImage", c.ContainerImage, clients.SingleLine))
	}
	return clients.CheckFields("authentik outpost", mg.GetName(), fields...)
}
