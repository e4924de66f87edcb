package stage

import (
	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
)

// validate checks, right before a write, what the CRD checks at admission: a resource stored
// before a rule existed never went through it.
func validate(mg mr) error {
	fp := mg.Parameters()
	fields := []clients.Field{clients.F("spec.forProvider.name", fp.Name, authentik.Name)}
	if id := fp.Identification; id != nil {
		for path, v := range map[string]*string{
			"identification.enrollmentFlow": id.EnrollmentFlow, "identification.recoveryFlow": id.RecoveryFlow,
			"identification.passwordlessFlow": id.PasswordlessFlow,
		} {
			if v != nil && *v != "" {
				fields = append(fields, clients.F("spec.forProvider."+path, *v, authentik.Slug))
			}
		}
	}
	if p := fp.Password; p != nil && p.ConfigureFlow != nil && *p.ConfigureFlow != "" {
		fields = append(fields, clients.F("spec.forProvider.password.configureFlow", *p.ConfigureFlow, authentik.Slug))
	}
	return clients.CheckFields(typeName, mg.GetName(), fields...)
}
