package importer

import (
	"context"
	"fmt"
	"slices"

	api "goauthentik.io/api/v3"

	akv1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
)

// A stageBlock fills a stage's type block into its parameters; a flow or stage the block
// names that authentik did not list makes o unsupported.
type stageBlock func(o *Object, fp *akv1.StageParameters)

// stageBlocks reads the stages of every type the Stage kind has a block for, by pk: one list
// per type (ADR 0007). A block names flows by slug and the password stage by name; prompts,
// configuration stages, validation policies and groups by reference where imported (stageRefs).
func (l *akLister) stageBlocks(ctx context.Context) (map[string]stageBlock, error) {
	out := map[string]stageBlock{}
	l.stageRefs = map[string]stageRefs{}
	for _, read := range []func(context.Context, map[string]stageBlock) error{
		l.identificationStages, l.passwordStages, l.userLoginStages, l.userLogoutStages, l.denyStages, l.consentStages,
		l.validationStages, l.userWriteStages, l.promptStages,
	} {
		if err := read(ctx, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// optionalFlow names a nullable flow field by slug; nil when empty (the spec leaves it alone).
func (l *akLister) optionalFlow(o *Object, v api.NullableString) *string {
	pk := v.Get()
	if pk == nil || *pk == "" {
		return nil
	}
	return new(l.flow(o, *pk))
}

// optionalStage names a nullable stage field by name; nil when empty.
func (l *akLister) optionalStage(o *Object, v api.NullableString) *string {
	pk := v.Get()
	if pk == nil || *pk == "" {
		return nil
	}
	name, ok := l.stageNames[*pk]
	if !ok && o.Unsupported == "" {
		o.Unsupported = fmt.Sprintf(unsupportedMissingRef, "stage", *pk)
	}
	return &name
}

func (l *akLister) identificationStages(ctx context.Context, out map[string]stageBlock) error {
	ss, err := listAll(ctx, "identification stages", func(p int32) ([]api.IdentificationStage, api.Pagination, error) {
		r, resp, err := l.api.StagesAPI.StagesIdentificationList(ctx).Page(p).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return nil, api.Pagination{}, authentik.AsError(err, resp)
		}
		return r.Results, r.Pagination, nil
	})
	for _, s := range ss {
		out[s.Pk] = func(o *Object, fp *akv1.StageParameters) {
			b := &akv1.IdentificationStage{CaseInsensitiveMatching: s.CaseInsensitiveMatching, ShowMatchedUser: s.ShowMatchedUser,
				PretendUserExists: s.PretendUserExists, EnableRememberMe: s.EnableRememberMe, ShowSourceLabels: s.ShowSourceLabels,
				PasswordStage:  l.optionalStage(o, s.PasswordStage),
				EnrollmentFlow: l.optionalFlow(o, s.EnrollmentFlow), RecoveryFlow: l.optionalFlow(o, s.RecoveryFlow),
				PasswordlessFlow: l.optionalFlow(o, s.PasswordlessFlow)}
			for _, f := range s.UserFields {
				b.UserFields = append(b.UserFields, string(f))
			}
			slices.Sort(b.UserFields)
			fp.Identification = b
		}
	}
	return err
}

func (l *akLister) passwordStages(ctx context.Context, out map[string]stageBlock) error {
	ss, err := listAll(ctx, "password stages", func(p int32) ([]api.PasswordStage, api.Pagination, error) {
		r, resp, err := l.api.StagesAPI.StagesPasswordList(ctx).Page(p).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return nil, api.Pagination{}, authentik.AsError(err, resp)
		}
		return r.Results, r.Pagination, nil
	})
	for _, s := range ss {
		out[s.Pk] = func(o *Object, fp *akv1.StageParameters) {
			b := &akv1.PasswordStage{Backends: []string{}, ConfigureFlow: l.optionalFlow(o, s.ConfigureFlow),
				FailedAttemptsBeforeCancel: s.FailedAttemptsBeforeCancel, AllowShowPassword: s.AllowShowPassword}
			for _, be := range s.Backends {
				b.Backends = append(b.Backends, string(be))
			}
			slices.Sort(b.Backends)
			fp.Password = b
		}
	}
	return err
}

func (l *akLister) userLoginStages(ctx context.Context, out map[string]stageBlock) error {
	ss, err := listAll(ctx, "user login stages", func(p int32) ([]api.UserLoginStage, api.Pagination, error) {
		r, resp, err := l.api.StagesAPI.StagesUserLoginList(ctx).Page(p).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return nil, api.Pagination{}, authentik.AsError(err, resp)
		}
		return r.Results, r.Pagination, nil
	})
	for _, s := range ss {
		b := &akv1.UserLoginStage{SessionDuration: s.SessionDuration, TerminateOtherSessions: s.TerminateOtherSessions,
			RememberMeOffset: s.RememberMeOffset, NetworkBinding: (*string)(s.NetworkBinding), GeoIPBinding: (*string)(s.GeoipBinding),
			RememberDevice: s.RememberDevice}
		out[s.Pk] = func(_ *Object, fp *akv1.StageParameters) { fp.UserLogin = b }
	}
	return err
}

func (l *akLister) userLogoutStages(ctx context.Context, out map[string]stageBlock) error {
	ss, err := listAll(ctx, "user logout stages", func(p int32) ([]api.UserLogoutStage, api.Pagination, error) {
		r, resp, err := l.api.StagesAPI.StagesUserLogoutList(ctx).Page(p).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return nil, api.Pagination{}, authentik.AsError(err, resp)
		}
		return r.Results, r.Pagination, nil
	})
	for _, s := range ss {
		out[s.Pk] = func(_ *Object, fp *akv1.StageParameters) { fp.UserLogout = &akv1.UserLogoutStage{} }
	}
	return err
}

func (l *akLister) denyStages(ctx context.Context, out map[string]stageBlock) error {
	ss, err := listAll(ctx, "deny stages", func(p int32) ([]api.DenyStage, api.Pagination, error) {
		r, resp, err := l.api.StagesAPI.StagesDenyList(ctx).Page(p).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return nil, api.Pagination{}, authentik.AsError(err, resp)
		}
		return r.Results, r.Pagination, nil
	})
	for _, s := range ss {
		out[s.Pk] = func(_ *Object, fp *akv1.StageParameters) { fp.Deny = &akv1.DenyStage{Message: s.DenyMessage} }
	}
	return err
}

func (l *akLister) consentStages(ctx context.Context, out map[string]stageBlock) error {
	ss, err := listAll(ctx, "consent stages", func(p int32) ([]api.ConsentStage, api.Pagination, error) {
		r, resp, err := l.api.StagesAPI.StagesConsentList(ctx).Page(p).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return nil, api.Pagination{}, authentik.AsError(err, resp)
		}
		return r.Results, r.Pagination, nil
	})
	for _, s := range ss {
		out[s.Pk] = func(_ *Object, fp *akv1.StageParameters) {
			fp.Consent = &akv1.ConsentStage{Mode: (*string)(s.Mode), ConsentExpireIn: s.ConsentExpireIn}
		}
	}
	return err
}
