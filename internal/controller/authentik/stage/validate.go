package stage

import (
	"regexp"

	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
)

var uuid = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// isUUID is the rule of the pks the spec's ID fields hold.
func isUUID(v string) string {
	if !uuid.MatchString(v) {
		return "is not a UUID"
	}
	return ""
}

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
	if av := fp.AuthenticatorValidation; av != nil {
		fields = append(fields, each("authenticatorValidation.configurationStages", av.ConfigurationStages, authentik.Name)...)
		fields = append(fields, each("authenticatorValidation.configurationStageIds", av.ConfigurationStageIDs, isUUID)...)
	}
	if uw := fp.UserWrite; uw != nil {
		fields = append(fields, clients.FP("spec.forProvider.userWrite.userPathTemplate", uw.UserPathTemplate, clients.SingleLine))
		if uw.CreateUsersGroupID != nil && *uw.CreateUsersGroupID != "" {
			fields = append(fields, clients.F("spec.forProvider.userWrite.createUsersGroupId", *uw.CreateUsersGroupID, isUUID))
		}
	}
	if p := fp.Prompt; p != nil {
		fields = append(fields, each("prompt.prompts", p.Prompts, authentik.Name)...)
		fields = append(fields, each("prompt.promptIds", p.PromptIDs, isUUID)...)
		fields = append(fields, each("prompt.validationPolicies", p.ValidationPolicies, authentik.Name)...)
		fields = append(fields, each("prompt.validationPolicyIds", p.ValidationPolicyIDs, isUUID)...)
	}
	return clients.CheckFields(typeName, mg.GetName(), fields...)
}

// each names every value of a list under spec.forProvider.
func each(path string, vs []string, r clients.Rule) []clients.Field {
	out := make([]clients.Field, 0, len(vs))
	for _, v := range vs {
		out = append(out, clients.F("spec.forProvider."+path, v, r))
	}
	return out
}
