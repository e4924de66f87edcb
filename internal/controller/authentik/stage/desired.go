package stage

import (
	"context"
	"fmt"

	api "goauthentik.io/api/v3"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/shared"
)

const (
	errListPasswordStage = "cannot look up password stage %q (spec.forProvider.identification.passwordStage)"
	errNotPassword       = "authentik stage %q, named in spec.forProvider.identification.passwordStage, is a %s, not a password stage"
)

// desired is what the spec sets, in authentik's wire format, with flows and stages resolved
// to their pks: unset fields are absent, so they are neither compared nor written; an empty
// flow slug or stage name clears the field (null).
func desired(ctx context.Context, c *api.APIClient, r *shared.Resolver, fp *v1alpha1.StageParameters, t *stageType) (shared.Fields, error) {
	f := shared.Fields{"name": fp.Name}
	var err error
	switch t {
	case &identification:
		err = identificationFields(ctx, c, r, fp.Identification, f)
	case &password:
		p := fp.Password
		f["backends"] = wireList(p.Backends)
		err = flowField(ctx, r, f, "configure_flow", "password.configureFlow", p.ConfigureFlow)
		f.Int("failed_attempts_before_cancel", p.FailedAttemptsBeforeCancel)
		f.Bool("allow_show_password", p.AllowShowPassword)
	case &userLogin:
		u := fp.UserLogin
		f.Str("session_duration", u.SessionDuration)
		f.Bool("terminate_other_sessions", u.TerminateOtherSessions)
		f.Str("remember_me_offset", u.RememberMeOffset)
		f.Str("network_binding", u.NetworkBinding)
		f.Str("geoip_binding", u.GeoIPBinding)
		f.Str("remember_device", u.RememberDevice)
	case &deny:
		f.Str("deny_message", fp.Deny.Message)
	case &consent:
		f.Str("mode", fp.Consent.Mode)
		f.Str("consent_expire_in", fp.Consent.ConsentExpireIn)
	case &authenticatorValidation:
		err = validationFields(ctx, c, fp.AuthenticatorValidation, f)
	case &userWrite:
		userWriteFields(fp.UserWrite, f)
	case &promptStage:
		err = promptFields(ctx, c, fp.Name, fp.Prompt, f)
	}
	if err != nil {
		return nil, err
	}
	return f, nil
}

func identificationFields(ctx context.Context, c *api.APIClient, r *shared.Resolver, id *v1alpha1.IdentificationStage, f shared.Fields) error {
	if id.UserFields != nil {
		f["user_fields"] = wireList(id.UserFields)
	}
	f.Bool("case_insensitive_matching", id.CaseInsensitiveMatching)
	f.Bool("show_matched_user", id.ShowMatchedUser)
	f.Bool("pretend_user_exists", id.PretendUserExists)
	f.Bool("enable_remember_me", id.EnableRememberMe)
	f.Bool("show_source_labels", id.ShowSourceLabels)
	for _, fl := range []struct {
		wire, path string
		slug       *string
	}{
		{"enrollment_flow", "identification.enrollmentFlow", id.EnrollmentFlow},
		{"recovery_flow", "identification.recoveryFlow", id.RecoveryFlow},
		{"passwordless_flow", "identification.passwordlessFlow", id.PasswordlessFlow},
	} {
		if err := flowField(ctx, r, f, fl.wire, fl.path, fl.slug); err != nil {
			return err
		}
	}
	if id.PasswordStage == nil {
		return nil
	}
	if *id.PasswordStage == "" {
		f["password_stage"] = nil
		return nil
	}
	pk, err := passwordStagePK(ctx, c, *id.PasswordStage)
	if err != nil {
		return err
	}
	f["password_stage"] = pk
	return nil
}

// passwordStagePK resolves a password stage by its name (unique across stage types).
func passwordStagePK(ctx context.Context, c *api.APIClient, name string) (string, error) {
	ss, err := stagesNamed(ctx, c, name)
	if err != nil {
		return "", errors.Wrapf(err, errListPasswordStage, name)
	}
	if len(ss) == 0 {
		return "", &shared.MissingError{What: fmt.Sprintf("stage %q", name), Field: "identification.passwordStage"}
	}
	if ss[0].MetaModelName != password.model {
		return "", errors.Errorf(errNotPassword, name, ss[0].VerboseName)
	}
	return ss[0].Pk, nil
}

// flowField sets a nullable flow reference: nil leaves it unmanaged, "" clears it.
func flowField(ctx context.Context, r *shared.Resolver, f shared.Fields, wire, path string, slug *string) error {
	if slug == nil {
		return nil
	}
	if *slug == "" {
		f[wire] = nil
		return nil
	}
	pk, err := r.Flow(ctx, path, *slug)
	if err != nil {
		return err
	}
	f[wire] = pk
	return nil
}

// wireList is a list in wire format ([]any of strings, as decoded JSON is).
func wireList(l []string) []any {
	out := make([]any, 0, len(l))
	for _, s := range l {
		out = append(out, s)
	}
	return out
}
