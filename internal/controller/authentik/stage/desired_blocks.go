package stage

import (
	"context"
	"fmt"
	"strconv"

	api "goauthentik.io/api/v3"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/shared"
)

const (
	errListNamed  = "cannot look up the %s named %q (spec.forProvider.%s)"
	errNoPrompts  = "authentik prompt stage %q shows no prompt: prompts, promptIds, promptRefs and promptSelector name none, and authentik needs at least one"
	errThrottling = "spec.forProvider.authenticatorValidation.otpThrottling.%s %q is not a decimal number"
)

// validationFields are an authenticator validation stage's fields. Configuration stages are
// named stages of any type (authentik offers each as a way to set up a device).
func validationFields(ctx context.Context, c *api.APIClient, av *v1alpha1.AuthenticatorValidationStage, f shared.Fields) error {
	if av.DeviceClasses != nil {
		f["device_classes"] = wireList(av.DeviceClasses)
	}
	f.Str("not_configured_action", av.NotConfiguredAction)
	f.Str("last_auth_threshold", av.LastAuthThreshold)
	f.Str("webauthn_user_verification", av.WebAuthnUserVerification)
	if av.WebAuthnHints != nil {
		f["webauthn_hints"] = wireList(av.WebAuthnHints)
	}
	if t := av.OTPThrottling; t != nil {
		for _, x := range []struct {
			wire, path string
			v          *string
		}{
			{"email_otp_throttling_factor", "email", t.Email}, {"sms_otp_throttling_factor", "sms", t.SMS},
			{"totp_otp_throttling_factor", "totp", t.TOTP}, {"static_otp_throttling_factor", "static", t.Static},
		} {
			if x.v == nil {
				continue
			}
			n, err := strconv.ParseFloat(*x.v, 64)
			if err != nil {
				return errors.Errorf(errThrottling, x.path, *x.v)
			}
			f[x.wire] = n
		}
	}
	if av.ConfigurationStages == nil && av.ConfigurationStageIDs == nil {
		return nil
	}
	pks, err := resolveNames(av.ConfigurationStages, "stage", "authenticatorValidation.configurationStages", func(name string) ([]string, error) {
		ss, err := stagesNamed(ctx, c, name)
		out := make([]string, 0, len(ss))
		for _, s := range ss {
			out = append(out, s.Pk)
		}
		return out, err
	})
	if err != nil {
		return err
	}
	f["configuration_stages"] = union(pks, av.ConfigurationStageIDs)
	return nil
}

// userWriteFields are a user write stage's fields; an empty group ID clears the group.
func userWriteFields(uw *v1alpha1.UserWriteStage, f shared.Fields) {
	f.Str("user_creation_mode", uw.UserCreationMode)
	f.Bool("create_users_as_inactive", uw.CreateUsersAsInactive)
	f.NullableStr("create_users_group", uw.CreateUsersGroupID)
	f.Str("user_type", uw.UserType)
	f.Str("user_path_template", uw.UserPathTemplate)
}

// promptFields are a prompt stage's prompts (always managed: authentik needs at least one) and,
// when the spec names any, its validation policies.
func promptFields(ctx context.Context, c *api.APIClient, name string, p *v1alpha1.PromptStage, f shared.Fields) error {
	pks, err := resolveNames(p.Prompts, "prompt", "prompt.prompts", func(n string) ([]string, error) {
		return promptsNamed(ctx, c, n)
	})
	if err != nil {
		return err
	}
	fields := union(pks, p.PromptIDs)
	if len(fields) == 0 {
		return errors.Errorf(errNoPrompts, name)
	}
	f["fields"] = fields
	if p.ValidationPolicies == nil && p.ValidationPolicyIDs == nil {
		return nil
	}
	pks, err = resolveNames(p.ValidationPolicies, "policy", "prompt.validationPolicies", func(n string) ([]string, error) {
		return policiesNamed(ctx, c, n)
	})
	if err != nil {
		return err
	}
	f["validation_policies"] = union(pks, p.ValidationPolicyIDs)
	return nil
}

// resolveNames resolves each name to the pk of the one object lookup finds.
func resolveNames(names []string, what, field string, lookup func(string) ([]string, error)) ([]string, error) {
	out := make([]string, 0, len(names))
	for _, n := range names {
		pks, err := lookup(n)
		if err != nil {
			return nil, errors.Wrapf(err, errListNamed, what, n, field)
		}
		if len(pks) == 0 {
			return nil, &shared.MissingError{What: fmt.Sprintf("%s %q", what, n), Field: field}
		}
		out = append(out, pks[0])
	}
	return out, nil
}

// promptsNamed are the pks of the prompts with the name (unique in authentik).
func promptsNamed(ctx context.Context, c *api.APIClient, name string) ([]string, error) {
	l, resp, err := c.StagesAPI.StagesPromptPromptsList(ctx).Name(name).PageSize(authentik.PageSize).Execute()
	if err != nil {
		return nil, authentik.AsError(err, resp)
	}
	var out []string
	for _, p := range l.Results {
		if p.Name == name {
			out = append(out, p.Pk)
		}
	}
	return out, nil
}

// policiesNamed are the pks of the policies of any type with the name (unique across types);
// /policies/all/ searches names, so the matches are compared exactly.
func policiesNamed(ctx context.Context, c *api.APIClient, name string) ([]string, error) {
	all, err := authentik.ListAll(ctx, func(page int32) ([]api.Policy, int32, error) {
		l, resp, err := c.PoliciesAPI.PoliciesAllList(ctx).Search(name).Page(page).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return nil, 0, authentik.AsError(err, resp)
		}
		return l.Results, authentik.NextPage(l.Pagination), nil
	})
	var out []string
	for _, p := range all {
		if p.Name == name {
			out = append(out, p.Pk)
		}
	}
	return out, err
}

// union is the pks of both lists, each once, in wire format.
func union(a, b []string) []any {
	seen := map[string]bool{}
	out := make([]any, 0, len(a)+len(b))
	for _, l := range [][]string{a, b} {
		for _, pk := range l {
			if !seen[pk] {
				seen[pk] = true
				out = append(out, pk)
			}
		}
	}
	return out
}
