package authentikapiserver

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	api "goauthentik.io/api/v3"
)

// Prompts: unique names, the model's defaults, the stages that list them; a prompt stage needs
// at least one prompt; deleting a prompt or a policy takes it out of the stages, and a policy
// used by a prompt stage counts as bound.
func TestPromptsAndPromptStages(t *testing.T) {
	e := newEnv(t)
	p, _, err := e.c.StagesAPI.StagesPromptPromptsCreate(e.ctx).PromptRequest(api.PromptRequest{
		Name: "p-user", FieldKey: "username", Label: "Username", Type: api.PROMPTTYPEENUM_USERNAME,
	}).Execute()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]any{
		"required": p.GetRequired(), "order": p.GetOrder(), "placeholder": p.GetPlaceholder(), "sub_text": p.GetSubText(),
		"placeholder_expression": p.GetPlaceholderExpression(), "initial_value": p.GetInitialValue(),
	}
	want := map[string]any{
		"required": true, "order": int32(0), "placeholder": "", "sub_text": "", "placeholder_expression": false, "initial_value": "",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("prompt defaults: -want, +got:\n%s", diff)
	}
	_, _, err = e.c.StagesAPI.StagesPromptPromptsCreate(e.ctx).PromptRequest(api.PromptRequest{
		Name: "p-user", FieldKey: "other", Label: "Other", Type: api.PROMPTTYPEENUM_TEXT,
	}).Execute()
	if validationError(t, err)["name"] == nil {
		t.Errorf("a second prompt named p-user: want a name error, got %v", err)
	}
	if _, _, err := e.c.StagesAPI.StagesPromptStagesCreate(e.ctx).PromptStageRequest(api.PromptStageRequest{Name: "s-empty", Fields: []string{}}).Execute(); validationError(t, err)["fields"] == nil {
		t.Errorf("a prompt stage without prompts: want a fields error, got %v", err)
	}
	pol, _, err := e.c.PoliciesAPI.PoliciesExpressionCreate(e.ctx).ExpressionPolicyRequest(api.ExpressionPolicyRequest{Name: "pol", Expression: "return True"}).Execute()
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := e.c.StagesAPI.StagesPromptStagesCreate(e.ctx).PromptStageRequest(api.PromptStageRequest{
		Name: "s-prompt", Fields: []string{p.Pk}, ValidationPolicies: []string{pol.Pk},
	}).Execute()
	if err != nil {
		t.Fatal(err)
	}
	rp, _, err := e.c.StagesAPI.StagesPromptPromptsRetrieve(e.ctx, p.Pk).Execute()
	if err != nil || len(rp.PromptStagesObj) != 1 || rp.PromptStagesObj[0].Name != "s-prompt" {
		t.Errorf("prompt's prompt_stages_obj: %+v, %v", rp, err)
	}
	l, _, err := e.c.StagesAPI.StagesPromptStagesList(e.ctx).Fields([]string{p.Pk}).Execute()
	if err != nil || len(l.Results) != 1 {
		t.Errorf("prompt stages ?fields=: %+v, %v", l, err)
	}
	rpol, _, err := e.c.PoliciesAPI.PoliciesAllRetrieve(e.ctx, pol.Pk).Execute()
	if err != nil || rpol.BoundTo != 1 {
		t.Errorf("a policy a prompt stage validates with: want bound_to 1, got %+v, %v", rpol, err)
	}
	if _, err := e.c.PoliciesAPI.PoliciesAllDestroy(e.ctx, pol.Pk).Execute(); err != nil {
		t.Fatal(err)
	}
	if _, err := e.c.StagesAPI.StagesPromptPromptsDestroy(e.ctx, p.Pk).Execute(); err != nil {
		t.Fatal(err)
	}
	rs, _, err := e.c.StagesAPI.StagesPromptStagesRetrieve(e.ctx, s.Pk).Execute()
	if err != nil || len(rs.Fields) != 0 || len(rs.ValidationPolicies) != 0 {
		t.Errorf("prompt stage after its prompt and policy went: want both lists empty, got %+v, %v", rs, err)
	}
}

// An authenticator validation stage has the model's defaults; "configure" needs configuration
// stages in the same request; a deleted configuration stage leaves the list. A user write
// stage loses its group when the group is deleted.
func TestValidateAndUserWriteStages(t *testing.T) {
	e := newEnv(t)
	v, _, err := e.c.StagesAPI.StagesAuthenticatorValidateCreate(e.ctx).AuthenticatorValidateStageRequest(api.AuthenticatorValidateStageRequest{Name: "v"}).Execute()
	if err != nil {
		t.Fatal(err)
	}
	if v.GetNotConfiguredAction() != api.NOTCONFIGUREDACTIONENUM_SKIP || len(v.DeviceClasses) != 6 || v.GetLastAuthThreshold() != "seconds=0" ||
		v.GetWebauthnUserVerification() != api.USERVERIFICATIONENUM_PREFERRED || v.GetTotpOtpThrottlingFactor() != 1 {
		t.Errorf("validation stage defaults: %+v", v)
	}
	configure := api.PatchedAuthenticatorValidateStageRequest{NotConfiguredAction: api.NOTCONFIGUREDACTIONENUM_CONFIGURE.Ptr()}
	if _, _, err := e.c.StagesAPI.StagesAuthenticatorValidatePartialUpdate(e.ctx, v.Pk).PatchedAuthenticatorValidateStageRequest(configure).Execute(); validationError(t, err)["not_configured_action"] == nil {
		t.Errorf("configure without configuration stages: want an error, got %v", err)
	}
	totp, _, err := e.c.StagesAPI.StagesDenyCreate(e.ctx).DenyStageRequest(api.DenyStageRequest{Name: "cfg"}).Execute()
	if err != nil {
		t.Fatal(err)
	}
	configure.ConfigurationStages = []string{totp.Pk}
	if _, _, err := e.c.StagesAPI.StagesAuthenticatorValidatePartialUpdate(e.ctx, v.Pk).PatchedAuthenticatorValidateStageRequest(configure).Execute(); err != nil {
		t.Fatal(err)
	}
	if _, err := e.c.StagesAPI.StagesAllDestroy(e.ctx, totp.Pk).Execute(); err != nil {
		t.Fatal(err)
	}
	if v, _, err = e.c.StagesAPI.StagesAuthenticatorValidateRetrieve(e.ctx, v.Pk).Execute(); err != nil || len(v.ConfigurationStages) != 0 {
		t.Errorf("validation stage after its configuration stage went: %+v, %v", v, err)
	}

	g, _, err := e.c.CoreAPI.CoreGroupsCreate(e.ctx).GroupRequest(api.GroupRequest{Name: "g"}).Execute()
	if err != nil {
		t.Fatal(err)
	}
	w, _, err := e.c.StagesAPI.StagesUserWriteCreate(e.ctx).UserWriteStageRequest(api.UserWriteStageRequest{
		Name: "w", CreateUsersGroup: *api.NewNullableString(&g.Pk),
	}).Execute()
	if err != nil {
		t.Fatal(err)
	}
	if w.GetUserCreationMode() != api.USERCREATIONMODEENUM_CREATE_WHEN_REQUIRED || w.GetUserType() != api.USERTYPEENUM_EXTERNAL || w.GetCreateUsersAsInactive() {
		t.Errorf("user write stage defaults: %+v", w)
	}
	l, _, err := e.c.StagesAPI.StagesUserWriteList(e.ctx).CreateUsersGroup(g.Pk).Execute()
	if err != nil || len(l.Results) != 1 {
		t.Errorf("user write stages ?create_users_group=: %+v, %v", l, err)
	}
	if _, err := e.c.CoreAPI.CoreGroupsDestroy(e.ctx, g.Pk).Execute(); err != nil {
		t.Fatal(err)
	}
	if w, _, err = e.c.StagesAPI.StagesUserWriteRetrieve(e.ctx, w.Pk).Execute(); err != nil || w.CreateUsersGroup.Get() != nil {
		t.Errorf("user write stage after its group went: %+v, %v", w, err)
	}
}
