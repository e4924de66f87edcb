package authentik

import (
	"context"
	"slices"

	api "goauthentik.io/api/v3"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients"
)

// What deleting a prompt, a policy, a stage or a group changes in the stages that list it
// (docs/adr/0007-one-stage-kind.md): authentik takes the object out of their many-to-many lists
// (a prompt stage's fields or validation policies, a validation stage's configuration stages)
// or, for a user write stage's group, empties the field. The stage stays, changed under its
// owner's feet, so each is a dependent judged by our Stage resource whose external name is its
// pk.

const (
	TypePrompt = "authentik prompt"

	errListPromptStages     = "cannot list the authentik prompt stages that use %s %q"
	errListValidationStages = "cannot list the authentik authenticator validation stages that configure with stage %q"
	errListUserWriteStages  = "cannot list the authentik user write stages that add created users to group %q"
)

// PromptStagesOf lists the prompt stages that show the prompt.
func PromptStagesOf(ctx context.Context, c *api.APIClient, pk, name string) ([]adoption.Dependent, error) {
	ss, err := promptStages(ctx, func(r api.ApiStagesPromptStagesListRequest) api.ApiStagesPromptStagesListRequest {
		return r.Fields([]string{pk})
	}, c)
	if err != nil {
		return nil, errors.Wrapf(err, errListPromptStages, "prompt", name)
	}
	var out []adoption.Dependent
	for _, s := range ss {
		if slices.Contains(s.Fields, pk) {
			out = appendStage(out, s.Pk, s.Name)
		}
	}
	return out, nil
}

// PromptStagesValidatingWith lists the prompt stages that validate with the policy.
func PromptStagesValidatingWith(ctx context.Context, c *api.APIClient, pk, name string) ([]adoption.Dependent, error) {
	ss, err := promptStages(ctx, func(r api.ApiStagesPromptStagesListRequest) api.ApiStagesPromptStagesListRequest {
		return r.ValidationPolicies([]string{pk})
	}, c)
	if err != nil {
		return nil, errors.Wrapf(err, errListPromptStages, "policy", name)
	}
	var out []adoption.Dependent
	for _, s := range ss {
		if slices.Contains(s.ValidationPolicies, pk) {
			out = appendStage(out, s.Pk, s.Name)
		}
	}
	return out, nil
}

func promptStages(ctx context.Context, filter func(api.ApiStagesPromptStagesListRequest) api.ApiStagesPromptStagesListRequest, c *api.APIClient) ([]api.PromptStage, error) {
	return ListAll(ctx, func(page int32) ([]api.PromptStage, int32, error) {
		l, resp, err := filter(c.StagesAPI.StagesPromptStagesList(ctx)).Page(page).PageSize(PageSize).Execute()
		if err != nil {
			return nil, 0, AsError(err, resp)
		}
		return l.Results, NextPage(l.Pagination), nil
	})
}

// ValidationStagesConfiguringWith lists the authenticator validation stages that offer the
// stage to users without a device.
func ValidationStagesConfiguringWith(ctx context.Context, c *api.APIClient, pk, name string) ([]adoption.Dependent, error) {
	ss, err := ListAll(ctx, func(page int32) ([]api.AuthenticatorValidateStage, int32, error) {
		l, resp, err := c.StagesAPI.StagesAuthenticatorValidateList(ctx).ConfigurationStages([]string{pk}).Page(page).PageSize(PageSize).Execute()
		if err != nil {
			return nil, 0, AsError(err, resp)
		}
		return l.Results, NextPage(l.Pagination), nil
	})
	if err != nil {
		return nil, errors.Wrapf(err, errListValidationStages, name)
	}
	var out []adoption.Dependent
	for _, s := range ss {
		if slices.Contains(s.ConfigurationStages, pk) {
			out = appendStage(out, s.Pk, s.Name)
		}
	}
	return out, nil
}

// deletionUserWriteStages joins the questions of group deletions asking at about the same time
// which user write stages add users to their groups: one list of every user write stage (an
// authentik has few), read after all of them asked, answers each (clients.JoinedLists).
var deletionUserWriteStages clients.JoinedLists[api.UserWriteStage]

// UserWriteStagesOf lists the user write stages that add the users they create to the group.
func UserWriteStagesOf(ctx context.Context, c *api.APIClient, pk, name string) ([]adoption.Dependent, error) {
	ss, err := deletionUserWriteStages.Rows(ctx, clients.Scope{Client: c, List: "stages/user_write/"}, pk, clients.Rows[api.UserWriteStage]{
		Alone: func(ctx context.Context) ([]api.UserWriteStage, error) {
			return ListRequest(ctx, c.StagesAPI.StagesUserWriteList(ctx).CreateUsersGroup(pk))
		},
		List: func(ctx context.Context) ([]api.UserWriteStage, error) {
			return ListRequest(ctx, c.StagesAPI.StagesUserWriteList(ctx))
		},
		Keys:    func(s api.UserWriteStage) []string { return []string{s.GetCreateUsersGroup()} },
		Refused: listRefused,
	})
	if err != nil {
		return nil, errors.Wrapf(err, errListUserWriteStages, name)
	}
	var out []adoption.Dependent
	for _, s := range ss {
		if s.GetCreateUsersGroup() == pk {
			out = appendStage(out, s.Pk, s.Name)
		}
	}
	return out, nil
}
