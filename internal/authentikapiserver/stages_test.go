package authentikapiserver

import (
	"context"
	"net/http"
	"testing"

	api "goauthentik.io/api/v3"
)

// Stage names are unique across stage types, as Stage.name is; /stages/all/ lists every type
// with the base serializer; deleting a flow or a stage deletes its bindings; (target, stage,
// order) is unique together; a binding needs policies evaluated at least once.
func TestStagesAndFlowBindings(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	deny, _, err := e.c.StagesAPI.StagesDenyCreate(ctx).DenyStageRequest(api.DenyStageRequest{Name: "s"}).Execute()
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = e.c.StagesAPI.StagesUserLogoutCreate(ctx).UserLogoutStageRequest(api.UserLogoutStageRequest{Name: "s"}).Execute()
	if got := validationError(t, err)["name"]; got == nil {
		t.Errorf("a second stage named s of another type: want a name error, got %v", err)
	}
	l, _, err := e.c.StagesAPI.StagesAllList(ctx).Name("s").Execute()
	if err != nil || len(l.Results) != 1 || l.Results[0].MetaModelName != "authentik_stages_deny.denystage" {
		t.Fatalf("stages/all?name=s: %+v, %v", l, err)
	}
	flow, _, err := e.c.FlowsAPI.FlowsInstancesCreate(ctx).FlowRequest(api.FlowRequest{Name: "f", Slug: "f", Title: "f", Designation: "authentication"}).Execute()
	if err != nil {
		t.Fatal(err)
	}
	req := api.FlowStageBindingRequest{Target: flow.Pk, Stage: deny.Pk, Order: 1}
	b, _, err := e.c.FlowsAPI.FlowsBindingsCreate(ctx).FlowStageBindingRequest(req).Execute()
	if err != nil {
		t.Fatal(err)
	}
	if b.StageObj.Name != "s" || len(b.StageObj.FlowSet) != 1 || b.StageObj.FlowSet[0].Slug != "f" {
		t.Errorf("binding's stage_obj: %+v", b.StageObj)
	}
	if _, _, err := e.c.FlowsAPI.FlowsBindingsCreate(ctx).FlowStageBindingRequest(req).Execute(); validationError(t, err)["non_field_errors"] == nil {
		t.Errorf("a second binding at the same (target, stage, order): want a non-field error, got %v", err)
	}
	off := api.FlowStageBindingRequest{Target: flow.Pk, Stage: deny.Pk, Order: 2, ReEvaluatePolicies: ptr(false)}
	if _, _, err := e.c.FlowsAPI.FlowsBindingsCreate(ctx).FlowStageBindingRequest(off).Execute(); validationError(t, err)["non_field_errors"] == nil {
		t.Errorf("a binding evaluating no policies: want a non-field error, got %v", err)
	}
	if _, err := e.c.FlowsAPI.FlowsInstancesDestroy(ctx, "f").Execute(); err != nil {
		t.Fatal(err)
	}
	if _, resp, _ := e.c.FlowsAPI.FlowsBindingsRetrieve(ctx, b.Pk).Execute(); status(resp) != http.StatusNotFound {
		t.Errorf("binding after its flow's deletion: want 404, got %d", status(resp))
	}
	if _, _, err := e.c.StagesAPI.StagesAllRetrieve(ctx, deny.Pk).Execute(); err != nil {
		t.Errorf("the stage went with the flow: %v", err)
	}
}
