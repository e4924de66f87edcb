package stage

import (
	"context"
	"net/http"

	api "goauthentik.io/api/v3"

	"github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/shared"
)

// A stageType is one stage type: the spec's block, authentik's model and its typed endpoint
// (/stages/<type>/). Objects travel as Fields, so the driver is written once for all types;
// deletes go through /stages/all/, which deletes any type.
type stageType struct {
	// block is the spec.forProvider field that selects the type.
	block string
	// model is authentik's meta_model_name of the type.
	model    string
	retrieve func(ctx context.Context, c *api.APIClient, pk string) (shared.Fields, *http.Response, error)
	create   func(ctx context.Context, c *api.APIClient, f shared.Fields) (shared.Fields, *http.Response, error)
	patch    func(ctx context.Context, c *api.APIClient, pk string, f shared.Fields) (shared.Fields, *http.Response, error)
}

// asFields renders what a typed call returned.
func asFields[T any](o *T, resp *http.Response, err error) (shared.Fields, *http.Response, error) {
	if err != nil {
		return nil, resp, err
	}
	f, err := shared.ToFields(o)
	return f, resp, err
}

// send decodes the fields into the typed request R and makes the call.
func send[R, T any](f shared.Fields, do func(R) (*T, *http.Response, error)) (shared.Fields, *http.Response, error) {
	req, err := shared.Decode[R](f)
	if err != nil {
		return nil, nil, err
	}
	o, resp, err := do(req)
	return asFields(o, resp, err)
}

var (
	identification = stageType{
		block: "identification", model: "authentik_stages_identification.identificationstage",
		retrieve: func(ctx context.Context, c *api.APIClient, pk string) (shared.Fields, *http.Response, error) {
			return asFields(c.StagesAPI.StagesIdentificationRetrieve(ctx, pk).Execute())
		},
		create: func(ctx context.Context, c *api.APIClient, f shared.Fields) (shared.Fields, *http.Response, error) {
			return send(f, func(r api.IdentificationStageRequest) (*api.IdentificationStage, *http.Response, error) {
				return c.StagesAPI.StagesIdentificationCreate(ctx).IdentificationStageRequest(r).Execute()
			})
		},
		patch: func(ctx context.Context, c *api.APIClient, pk string, f shared.Fields) (shared.Fields, *http.Response, error) {
			return send(f, func(r api.PatchedIdentificationStageRequest) (*api.IdentificationStage, *http.Response, error) {
				return c.StagesAPI.StagesIdentificationPartialUpdate(ctx, pk).PatchedIdentificationStageRequest(r).Execute()
			})
		},
	}
	password = stageType{
		block: "password", model: "authentik_stages_password.passwordstage",
		retrieve: func(ctx context.Context, c *api.APIClient, pk string) (shared.Fields, *http.Response, error) {
			return asFields(c.StagesAPI.StagesPasswordRetrieve(ctx, pk).Execute())
		},
		create: func(ctx context.Context, c *api.APIClient, f shared.Fields) (shared.Fields, *http.Response, error) {
			return send(f, func(r api.PasswordStageRequest) (*api.PasswordStage, *http.Response, error) {
				return c.StagesAPI.StagesPasswordCreate(ctx).PasswordStageRequest(r).Execute()
			})
		},
		patch: func(ctx context.Context, c *api.APIClient, pk string, f shared.Fields) (shared.Fields, *http.Response, error) {
			return send(f, func(r api.PatchedPasswordStageRequest) (*api.PasswordStage, *http.Response, error) {
				return c.StagesAPI.StagesPasswordPartialUpdate(ctx, pk).PatchedPasswordStageRequest(r).Execute()
			})
		},
	}
	userLogin = stageType{
		block: "userLogin", model: "authentik_stages_user_login.userloginstage",
		retrieve: func(ctx context.Context, c *api.APIClient, pk string) (shared.Fields, *http.Response, error) {
			return asFields(c.StagesAPI.StagesUserLoginRetrieve(ctx, pk).Execute())
		},
		create: func(ctx context.Context, c *api.APIClient, f shared.Fields) (shared.Fields, *http.Response, error) {
			return send(f, func(r api.UserLoginStageRequest) (*api.UserLoginStage, *http.Response, error) {
				return c.StagesAPI.StagesUserLoginCreate(ctx).UserLoginStageRequest(r).Execute()
			})
		},
		patch: func(ctx context.Context, c *api.APIClient, pk string, f shared.Fields) (shared.Fields, *http.Response, error) {
			return send(f, func(r api.PatchedUserLoginStageRequest) (*api.UserLoginStage, *http.Response, error) {
				return c.StagesAPI.StagesUserLoginPartialUpdate(ctx, pk).PatchedUserLoginStageRequest(r).Execute()
			})
		},
	}
	userLogout = stageType{
		block: "userLogout", model: "authentik_stages_user_logout.userlogoutstage",
		retrieve: func(ctx context.Context, c *api.APIClient, pk string) (shared.Fields, *http.Response, error) {
			return asFields(c.StagesAPI.StagesUserLogoutRetrieve(ctx, pk).Execute())
		},
		create: func(ctx context.Context, c *api.APIClient, f shared.Fields) (shared.Fields, *http.Response, error) {
			return send(f, func(r api.UserLogoutStageRequest) (*api.UserLogoutStage, *http.Response, error) {
				return c.StagesAPI.StagesUserLogoutCreate(ctx).UserLogoutStageRequest(r).Execute()
			})
		},
		patch: func(ctx context.Context, c *api.APIClient, pk string, f shared.Fields) (shared.Fields, *http.Response, error) {
			return send(f, func(r api.PatchedUserLogoutStageRequest) (*api.UserLogoutStage, *http.Response, error) {
				return c.StagesAPI.StagesUserLogoutPartialUpdate(ctx, pk).PatchedUserLogoutStageRequest(r).Execute()
			})
		},
	}
	deny = stageType{
		block: "deny", model: "authentik_stages_deny.denystage",
		retrieve: func(ctx context.Context, c *api.APIClient, pk string) (shared.Fields, *http.Response, error) {
			return asFields(c.StagesAPI.StagesDenyRetrieve(ctx, pk).Execute())
		},
		create: func(ctx context.Context, c *api.APIClient, f shared.Fields) (shared.Fields, *http.Response, error) {
			return send(f, func(r api.DenyStageRequest) (*api.DenyStage, *http.Response, error) {
				return c.StagesAPI.StagesDenyCreate(ctx).DenyStageRequest(r).Execute()
			})
		},
		patch: func(ctx context.Context, c *api.APIClient, pk string, f shared.Fields) (shared.Fields, *http.Response, error) {
			return send(f, func(r api.PatchedDenyStageRequest) (*api.DenyStage, *http.Response, error) {
				return c.StagesAPI.StagesDenyPartialUpdate(ctx, pk).PatchedDenyStageRequest(r).Execute()
			})
		},
	}
	consent = stageType{
		block: "consent", model: "authentik_stages_consent.consentstage",
		retrieve: func(ctx context.Context, c *api.APIClient, pk string) (shared.Fields, *http.Response, error) {
			return asFields(c.StagesAPI.StagesConsentRetrieve(ctx, pk).Execute())
		},
		create: func(ctx context.Context, c *api.APIClient, f shared.Fields) (shared.Fields, *http.Response, error) {
			return send(f, func(r api.ConsentStageRequest) (*api.ConsentStage, *http.Response, error) {
				return c.StagesAPI.StagesConsentCreate(ctx).ConsentStageRequest(r).Execute()
			})
		},
		patch: func(ctx context.Context, c *api.APIClient, pk string, f shared.Fields) (shared.Fields, *http.Response, error) {
			return send(f, func(r api.PatchedConsentStageRequest) (*api.ConsentStage, *http.Response, error) {
				return c.StagesAPI.StagesConsentPartialUpdate(ctx, pk).PatchedConsentStageRequest(r).Execute()
			})
		},
	}
	authenticatorValidation = stageType{
		block: "authenticatorValidation", model: "authentik_stages_authenticator_validate.authenticatorvalidatestage",
		retrieve: func(ctx context.Context, c *api.APIClient, pk string) (shared.Fields, *http.Response, error) {
			return asFields(c.StagesAPI.StagesAuthenticatorValidateRetrieve(ctx, pk).Execute())
		},
		create: func(ctx context.Context, c *api.APIClient, f shared.Fields) (shared.Fields, *http.Response, error) {
			return send(f, func(r api.AuthenticatorValidateStageRequest) (*api.AuthenticatorValidateStage, *http.Response, error) {
				return c.StagesAPI.StagesAuthenticatorValidateCreate(ctx).AuthenticatorValidateStageRequest(r).Execute()
			})
		},
		patch: func(ctx context.Context, c *api.APIClient, pk string, f shared.Fields) (shared.Fields, *http.Response, error) {
			return send(f, func(r api.PatchedAuthenticatorValidateStageRequest) (*api.AuthenticatorValidateStage, *http.Response, error) {
				return c.StagesAPI.StagesAuthenticatorValidatePartialUpdate(ctx, pk).PatchedAuthenticatorValidateStageRequest(r).Execute()
			})
		},
	}
	userWrite = stageType{
		block: "userWrite", model: "authentik_stages_user_write.userwritestage",
		retrieve: func(ctx context.Context, c *api.APIClient, pk string) (shared.Fields, *http.Response, error) {
			return asFields(c.StagesAPI.StagesUserWriteRetrieve(ctx, pk).Execute())
		},
		create: func(ctx context.Context, c *api.APIClient, f shared.Fields) (shared.Fields, *http.Response, error) {
			return send(f, func(r api.UserWriteStageRequest) (*api.UserWriteStage, *http.Response, error) {
				return c.StagesAPI.StagesUserWriteCreate(ctx).UserWriteStageRequest(r).Execute()
			})
		},
		patch: func(ctx context.Context, c *api.APIClient, pk string, f shared.Fields) (shared.Fields, *http.Response, error) {
			return send(f, func(r api.PatchedUserWriteStageRequest) (*api.UserWriteStage, *http.Response, error) {
				return c.StagesAPI.StagesUserWritePartialUpdate(ctx, pk).PatchedUserWriteStageRequest(r).Execute()
			})
		},
	}
	promptStage = stageType{
		block: "prompt", model: "authentik_stages_prompt.promptstage",
		retrieve: func(ctx context.Context, c *api.APIClient, pk string) (shared.Fields, *http.Response, error) {
			return asFields(c.StagesAPI.StagesPromptStagesRetrieve(ctx, pk).Execute())
		},
		create: func(ctx context.Context, c *api.APIClient, f shared.Fields) (shared.Fields, *http.Response, error) {
			return send(f, func(r api.PromptStageRequest) (*api.PromptStage, *http.Response, error) {
				return c.StagesAPI.StagesPromptStagesCreate(ctx).PromptStageRequest(r).Execute()
			})
		},
		patch: func(ctx context.Context, c *api.APIClient, pk string, f shared.Fields) (shared.Fields, *http.Response, error) {
			return send(f, func(r api.PatchedPromptStageRequest) (*api.PromptStage, *http.Response, error) {
				return c.StagesAPI.StagesPromptStagesPartialUpdate(ctx, pk).PatchedPromptStageRequest(r).Execute()
			})
		},
	}
)

// typeOf is the type the spec's block selects; nil when no block (or, for a resource stored
// before the CEL rule, more than one) is set.
func typeOf(fp *v1alpha1.StageParameters) *stageType {
	var t *stageType
	n := 0
	for _, c := range []struct {
		set bool
		t   *stageType
	}{
		{fp.Identification != nil, &identification}, {fp.Password != nil, &password}, {fp.UserLogin != nil, &userLogin},
		{fp.UserLogout != nil, &userLogout}, {fp.Deny != nil, &deny}, {fp.Consent != nil, &consent},
		{fp.AuthenticatorValidation != nil, &authenticatorValidation}, {fp.UserWrite != nil, &userWrite},
		{fp.Prompt != nil, &promptStage},
	} {
		if c.set {
			t, n = c.t, n+1
		}
	}
	if n != 1 {
		return nil
	}
	return t
}
