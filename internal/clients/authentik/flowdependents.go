package authentik

import (
	"context"
	"strconv"

	api "goauthentik.io/api/v3"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
)

// What deleting a flow or a stage takes with it (docs/adr/0002-authentik-provenance.md).

const (
	TypeFlowStageBinding = "authentik flow-stage binding"
	TypeStage            = "authentik stage"
	typeProvider         = "authentik provider"

	errListFlowBindings  = "cannot list the flow-stage bindings of %s"
	errListFlowProviders = "cannot list the authentik providers, to find those that use flow %q"
	errListFlowStages    = "cannot list the authentik %s stages that name flow %q"
	errListStageUsers    = "cannot list the authentik identification stages that name stage %q"
)

// FlowBindings lists the flow-stage bindings into the flow (target) or of the stage: authentik
// deletes them with either. Bindings are markerless; each is judged by our FlowStageBinding
// resource whose external name is its pk.
func FlowBindings(ctx context.Context, c *api.APIClient, flowPK, stagePK, what string) ([]adoption.Dependent, error) {
	bs, err := ListAll(ctx, func(page int32) ([]api.FlowStageBinding, int32, error) {
		r := c.FlowsAPI.FlowsBindingsList(ctx).Page(page).PageSize(PageSize)
		if flowPK != "" {
			r = r.Target(flowPK)
		}
		if stagePK != "" {
			r = r.Stage(stagePK)
		}
		l, resp, err := r.Execute()
		if err != nil {
			return nil, 0, AsError(err, resp)
		}
		return l.Results, NextPage(l.Pagination), nil
	})
	if err != nil {
		return nil, errors.Wrapf(err, errListFlowBindings, what)
	}
	out := make([]adoption.Dependent, 0, len(bs))
	for _, b := range bs {
		if (flowPK != "" && b.Target != flowPK) || (stagePK != "" && b.Stage != stagePK) {
			continue // a server that ignored the filter must not make us report others' bindings
		}
		out = append(out, adoption.Dependent{
			Description: adoption.Description{ID: b.Pk, Type: TypeFlowStageBinding, Markerless: true,
				Key: "stage " + strconv.Quote(b.StageObj.Name) + " in flow " + b.Target + " at order " + strconv.Itoa(int(b.Order))},
			Kind: v1alpha1.FlowStageBindingGroupKind.String(), ExternalName: b.Pk,
		})
	}
	return out, nil
}

// providerKinds are our kinds of the provider types authentik's meta_model_name names.
var providerKinds = map[string]string{
	"authentik_providers_oauth2.oauth2provider": v1alpha1.OAuth2ProviderGroupKind.String(),
	"authentik_providers_saml.samlprovider":     v1alpha1.SAMLProviderGroupKind.String(),
	"authentik_providers_proxy.proxyprovider":   v1alpha1.ProxyProviderGroupKind.String(),
	"authentik_providers_ldap.ldapprovider":     v1alpha1.LDAPProviderGroupKind.String(),
}

// ProvidersOfFlow lists the providers (of every type) that use the flow: authentik deletes
// those whose authorization or invalidation flow it is (CASCADE) and detaches it from those
// whose authentication flow it is. /providers/all/ cannot filter by flow, so every provider
// is read and matched here.
func ProvidersOfFlow(ctx context.Context, c *api.APIClient, pk, slug string) ([]adoption.Dependent, error) {
	ps, err := ListAll(ctx, func(page int32) ([]api.Provider, int32, error) {
		l, resp, err := c.ProvidersAPI.ProvidersAllList(ctx).Page(page).PageSize(PageSize).Execute()
		if err != nil {
			return nil, 0, AsError(err, resp)
		}
		return l.Results, NextPage(l.Pagination), nil
	})
	if err != nil {
		return nil, errors.Wrapf(err, errListFlowProviders, slug)
	}
	var out []adoption.Dependent
	for _, p := range ps {
		if p.AuthorizationFlow != pk && p.InvalidationFlow != pk && p.GetAuthenticationFlow() != pk {
			continue
		}
		id := strconv.Itoa(int(p.Pk))
		out = append(out, adoption.Dependent{
			Description: adoption.Description{ID: id, Type: typeProvider + " (" + p.VerboseName + ")", Key: p.Name, Markerless: true},
			Kind:        providerKinds[p.MetaModelName], ExternalName: id,
		})
	}
	return out, nil
}

// StagesOfFlow lists the identification stages that link the flow (enrollment, recovery,
// passwordless) and the password stages that use it as their configuration flow: authentik
// clears those fields, which changes the stages.
func StagesOfFlow(ctx context.Context, c *api.APIClient, pk, slug string) ([]adoption.Dependent, error) {
	var out []adoption.Dependent
	for _, filter := range []func(api.ApiStagesIdentificationListRequest) api.ApiStagesIdentificationListRequest{
		func(r api.ApiStagesIdentificationListRequest) api.ApiStagesIdentificationListRequest {
			return r.EnrollmentFlow(pk)
		},
		func(r api.ApiStagesIdentificationListRequest) api.ApiStagesIdentificationListRequest {
			return r.RecoveryFlow(pk)
		},
		func(r api.ApiStagesIdentificationListRequest) api.ApiStagesIdentificationListRequest {
			return r.PasswordlessFlow(pk)
		},
	} {
		ss, err := ListAll(ctx, func(page int32) ([]api.IdentificationStage, int32, error) {
			l, resp, err := filter(c.StagesAPI.StagesIdentificationList(ctx)).Page(page).PageSize(PageSize).Execute()
			if err != nil {
				return nil, 0, AsError(err, resp)
			}
			return l.Results, NextPage(l.Pagination), nil
		})
		if err != nil {
			return nil, errors.Wrapf(err, errListFlowStages, "identification", slug)
		}
		for _, s := range ss {
			if s.GetEnrollmentFlow() == pk || s.GetRecoveryFlow() == pk || s.GetPasswordlessFlow() == pk {
				out = appendStage(out, s.Pk, s.Name)
			}
		}
	}
	ps, err := ListAll(ctx, func(page int32) ([]api.PasswordStage, int32, error) {
		l, resp, err := c.StagesAPI.StagesPasswordList(ctx).ConfigureFlow(pk).Page(page).PageSize(PageSize).Execute()
		if err != nil {
			return nil, 0, AsError(err, resp)
		}
		return l.Results, NextPage(l.Pagination), nil
	})
	if err != nil {
		return nil, errors.Wrapf(err, errListFlowStages, "password", slug)
	}
	for _, s := range ps {
		if s.GetConfigureFlow() == pk {
			out = appendStage(out, s.Pk, s.Name)
		}
	}
	return out, nil
}

// IdentificationStagesOf lists the identification stages that show the (password) stage on
// their page: authentik clears their password_stage when it is deleted.
func IdentificationStagesOf(ctx context.Context, c *api.APIClient, pk, name string) ([]adoption.Dependent, error) {
	ss, err := ListAll(ctx, func(page int32) ([]api.IdentificationStage, int32, error) {
		l, resp, err := c.StagesAPI.StagesIdentificationList(ctx).PasswordStage(pk).Page(page).PageSize(PageSize).Execute()
		if err != nil {
			return nil, 0, AsError(err, resp)
		}
		return l.Results, NextPage(l.Pagination), nil
	})
	if err != nil {
		return nil, errors.Wrapf(err, errListStageUsers, name)
	}
	var out []adoption.Dependent
	for _, s := range ss {
		if s.GetPasswordStage() == pk {
			out = appendStage(out, s.Pk, s.Name)
		}
	}
	return out, nil
}

// appendStage adds a stage once (an identification stage may link a flow several times).
func appendStage(out []adoption.Dependent, pk, name string) []adoption.Dependent {
	for _, d := range out {
		if d.ID == pk {
			return out
		}
	}
	return append(out, adoption.Dependent{
		Description: adoption.Description{ID: pk, Type: TypeStage, Key: name, Markerless: true},
		Kind:        v1alpha1.StageGroupKind.String(), ExternalName: pk,
	})
}
