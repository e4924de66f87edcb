package importer

import (
	"context"
	"strings"

	api "goauthentik.io/api/v3"

	akv1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
)

const (
	kindPrompt = "Prompt"

	notePromptMarkerless = "authentik keeps no marker on prompts (ADR 0007): one that another installation manages cannot be told from a hand-made one, so make sure none does before adopting it"
)

// builtInPrompt tells the prompts authentik's default blueprints make, by name (nothing on a
// prompt records that a blueprint made it).
func builtInPrompt(name string) bool {
	return strings.HasPrefix(name, "default-") || strings.HasPrefix(name, "initial-setup-")
}

// prompts makes the prompts; a prompt's external name is its UUID.
func (l *akLister) prompts(ctx context.Context) error {
	if !l.f.kind(kindPrompt) {
		return nil
	}
	ps, err := listAll(ctx, "prompts", func(p int32) ([]api.Prompt, api.Pagination, error) {
		r, resp, err := l.api.StagesAPI.StagesPromptPromptsList(ctx).Page(p).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return nil, api.Pagination{}, authentik.AsError(err, resp)
		}
		return r.Results, r.Pagination, nil
	})
	for _, p := range ps {
		o := akMarkerless(kindPrompt, describeAk("prompt", p.Name, "pk", p.Pk), p.Pk, p.Name)
		o.Notes = []string{notePromptMarkerless}
		if !l.f.BuiltIn && builtInPrompt(p.Name) {
			o.Unsupported = skipBuiltInFlow
		}
		fp := akv1.PromptParameters{Name: p.Name, FieldKey: p.FieldKey, Label: p.Label, Type: string(p.Type),
			Required: p.Required, Placeholder: p.Placeholder, PlaceholderExpression: p.PlaceholderExpression,
			InitialValue: p.InitialValue, InitialValueExpression: p.InitialValueExpression, Order: p.Order, SubText: p.SubText}
		o.Build = func(Refs) any { return fp }
		l.emit(o)
	}
	return err
}

// A stageRefs fills, when the resources are built, the references of a stage's block: to the
// resources that stand for the objects it names, else their UUIDs.
type stageRefs func(r Refs, fp *akv1.StageParameters)

func (l *akLister) validationStages(ctx context.Context, out map[string]stageBlock) error {
	ss, err := listAll(ctx, "authenticator validation stages", func(p int32) ([]api.AuthenticatorValidateStage, api.Pagination, error) {
		r, resp, err := l.api.StagesAPI.StagesAuthenticatorValidateList(ctx).Page(p).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return nil, api.Pagination{}, authentik.AsError(err, resp)
		}
		return r.Results, r.Pagination, nil
	})
	for _, s := range ss {
		b := akv1.AuthenticatorValidationStage{NotConfiguredAction: (*string)(s.NotConfiguredAction), LastAuthThreshold: s.LastAuthThreshold,
			WebAuthnUserVerification: (*string)(s.WebauthnUserVerification)}
		for _, c := range s.DeviceClasses {
			b.DeviceClasses = append(b.DeviceClasses, string(c))
		}
		for _, h := range s.WebauthnHints {
			b.WebAuthnHints = append(b.WebAuthnHints, string(h))
		}
		out[s.Pk] = func(_ *Object, fp *akv1.StageParameters) { fp.AuthenticatorValidation = new(b) }
		l.stageRefs[s.Pk] = func(r Refs, fp *akv1.StageParameters) {
			c := *fp.AuthenticatorValidation
			c.ConfigurationStageIDs, c.ConfigurationStageRefs = refsOrIDs(r, kindStage, s.ConfigurationStages)
			fp.AuthenticatorValidation = &c
		}
	}
	return err
}

func (l *akLister) userWriteStages(ctx context.Context, out map[string]stageBlock) error {
	ss, err := listAll(ctx, "user write stages", func(p int32) ([]api.UserWriteStage, api.Pagination, error) {
		r, resp, err := l.api.StagesAPI.StagesUserWriteList(ctx).Page(p).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return nil, api.Pagination{}, authentik.AsError(err, resp)
		}
		return r.Results, r.Pagination, nil
	})
	for _, s := range ss {
		b := akv1.UserWriteStage{UserCreationMode: (*string)(s.UserCreationMode), CreateUsersAsInactive: s.CreateUsersAsInactive,
			UserType: (*string)(s.UserType), UserPathTemplate: s.UserPathTemplate}
		out[s.Pk] = func(_ *Object, fp *akv1.StageParameters) { fp.UserWrite = new(b) }
		group := s.GetCreateUsersGroup()
		l.stageRefs[s.Pk] = func(r Refs, fp *akv1.StageParameters) {
			c := *fp.UserWrite
			c.CreateUsersGroupRef, c.CreateUsersGroupID = ref(r, kindGroup, group)
			fp.UserWrite = &c
		}
	}
	return err
}

func (l *akLister) promptStages(ctx context.Context, out map[string]stageBlock) error {
	ss, err := listAll(ctx, "prompt stages", func(p int32) ([]api.PromptStage, api.Pagination, error) {
		r, resp, err := l.api.StagesAPI.StagesPromptStagesList(ctx).Page(p).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return nil, api.Pagination{}, authentik.AsError(err, resp)
		}
		return r.Results, r.Pagination, nil
	})
	for _, s := range ss {
		out[s.Pk] = func(_ *Object, fp *akv1.StageParameters) { fp.Prompt = &akv1.PromptStage{} }
		l.stageRefs[s.Pk] = func(r Refs, fp *akv1.StageParameters) {
			c := akv1.PromptStage{}
			c.PromptIDs, c.PromptRefs = refsOrIDs(r, kindPrompt, s.Fields)
			c.ValidationPolicyIDs, c.ValidationPolicyRefs = refsOrIDs(r, kindPolicy, s.ValidationPolicies)
			fp.Prompt = &c
		}
	}
	return err
}
