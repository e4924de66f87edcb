package authentikapiserver

import (
	"net/http"
	"testing"

	api "goauthentik.io/api/v3"
)

// Policy names are unique across policy types; /policies/all/ serves every type with its own
// serializer; model defaults are applied; reputation and event matcher policies are validated
// as authentik does; (policy, target, order) is unique together but group bindings may share a
// target and order; a PATCH of a binding must carry its target; deleting a policy deletes its
// bindings and leaves the target.
func TestPoliciesAndBindings(t *testing.T) {
	e := newEnv(t)
	ctx := e.ctx
	expr, _, err := e.c.PoliciesAPI.PoliciesExpressionCreate(ctx).ExpressionPolicyRequest(api.ExpressionPolicyRequest{Name: "p", Expression: "return True"}).Execute()
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = e.c.PoliciesAPI.PoliciesPasswordExpiryCreate(ctx).PasswordExpiryPolicyRequest(api.PasswordExpiryPolicyRequest{Name: "p", Days: 3}).Execute()
	if got := validationError(t, err)["name"]; got == nil {
		t.Errorf("a second policy named p of another type: want a name error, got %v", err)
	}
	pw, _, err := e.c.PoliciesAPI.PoliciesPasswordCreate(ctx).PasswordPolicyRequest(api.PasswordPolicyRequest{Name: "pw"}).Execute()
	if err != nil || pw.GetPasswordField() != "password" || !pw.GetCheckStaticRules() || pw.GetZxcvbnScoreThreshold() != 2 {
		t.Errorf("password policy defaults: %+v, %v", pw, err)
	}
	_, _, err = e.c.PoliciesAPI.PoliciesReputationCreate(ctx).ReputationPolicyRequest(api.ReputationPolicyRequest{Name: "r"}).Execute()
	if validationError(t, err)["non_field_errors"] == nil {
		t.Errorf("a reputation policy whose request checks nothing: want a non-field error, got %v", err)
	}
	rep, _, err := e.c.PoliciesAPI.PoliciesReputationCreate(ctx).ReputationPolicyRequest(api.ReputationPolicyRequest{Name: "r", CheckIp: ptr(true)}).Execute()
	if err != nil || !rep.GetCheckUsername() || rep.GetThreshold() != -5 {
		t.Fatalf("reputation policy: %+v, %v", rep, err)
	}
	_, _, err = e.c.PoliciesAPI.PoliciesReputationPartialUpdate(ctx, rep.Pk).PatchedReputationPolicyRequest(api.PatchedReputationPolicyRequest{Threshold: ptr(int32(-3))}).Execute()
	if validationError(t, err)["non_field_errors"] == nil {
		t.Errorf("a PATCH of the threshold alone: want the check refused, got %v", err)
	}
	_, _, err = e.c.PoliciesAPI.PoliciesEventMatcherCreate(ctx).EventMatcherPolicyRequest(api.EventMatcherPolicyRequest{Name: "em"}).Execute()
	if validationError(t, err)["non_field_errors"] == nil {
		t.Errorf("an event matcher without criteria: want a non-field error, got %v", err)
	}
	all, _, err := e.c.PoliciesAPI.PoliciesAllList(ctx).Search("p").Execute()
	if err != nil || len(all.Results) != 2 || all.Results[0].MetaModelName != "authentik_policies_expression.expressionpolicy" {
		t.Fatalf("policies/all?search=p: %+v, %v", all, err)
	}
	app, _, err := e.c.CoreAPI.CoreApplicationsCreate(ctx).ApplicationRequest(api.ApplicationRequest{Name: "a", Slug: "a"}).Execute()
	if err != nil {
		t.Fatal(err)
	}
	req := api.PolicyBindingRequest{Policy: *api.NewNullableString(&expr.Pk), Target: app.PbmUuid, Order: 0}
	b, _, err := e.c.PoliciesAPI.PoliciesBindingsCreate(ctx).PolicyBindingRequest(req).Execute()
	if err != nil || b.PolicyObj.Get() == nil || b.PolicyObj.Get().Name != "p" {
		t.Fatalf("binding: %+v, %v", b, err)
	}
	if _, _, err := e.c.PoliciesAPI.PoliciesBindingsCreate(ctx).PolicyBindingRequest(req).Execute(); validationError(t, err)["non_field_errors"] == nil {
		t.Errorf("a second binding of p at the same target and order: want a non-field error, got %v", err)
	}
	g, _, err := e.c.CoreAPI.CoreGroupsCreate(ctx).GroupRequest(api.GroupRequest{Name: "g"}).Execute()
	if err != nil {
		t.Fatal(err)
	}
	greq := api.PolicyBindingRequest{Group: *api.NewNullableString(&g.Pk), Target: app.PbmUuid, Order: 0}
	for range 2 {
		if _, _, err := e.c.PoliciesAPI.PoliciesBindingsCreate(ctx).PolicyBindingRequest(greq).Execute(); err != nil {
			t.Errorf("group bindings at the same target and order: %v", err)
		}
	}
	_, _, err = e.c.PoliciesAPI.PoliciesBindingsPartialUpdate(ctx, b.Pk).PatchedPolicyBindingRequest(api.PatchedPolicyBindingRequest{Negate: ptr(true)}).Execute()
	if validationError(t, err)["target"] == nil {
		t.Errorf("a PATCH without the target: want it refused, got %v", err)
	}
	if got, _, err := e.c.PoliciesAPI.PoliciesAllRetrieve(ctx, expr.Pk).Execute(); err != nil || got.BoundTo != 1 {
		t.Errorf("policies/all/{pk}: bound_to want 1, got %+v, %v", got, err)
	}
	if _, err := e.c.PoliciesAPI.PoliciesAllDestroy(ctx, expr.Pk).Execute(); err != nil {
		t.Fatal(err)
	}
	if _, resp, _ := e.c.PoliciesAPI.PoliciesBindingsRetrieve(ctx, b.Pk).Execute(); status(resp) != http.StatusNotFound {
		t.Errorf("binding after its policy's deletion: want 404, got %d", status(resp))
	}
	if l, _, err := e.c.PoliciesAPI.PoliciesBindingsList(ctx).Target(app.PbmUuid).Execute(); err != nil || len(l.Results) != 2 {
		t.Errorf("the group bindings stay: %+v, %v", l, err)
	}
}
