package authentikapiserver

// flowBindingKind is /flows/bindings/: a stage bound into a flow at an order.
// Deleting the flow or the stage deletes the binding (both on_delete=CASCADE).
// (target, stage, order) is unique together; a binding is a policy binding
// model itself (its pbm_uuid is its pk).
func flowBindingKind() *kind {
	k := &kind{
		path: "flows/bindings", op: "flows_bindings", model: "FlowStageBinding",
		group: "flow_binding", alsoIn: []string{pbmGroup}, lookup: "pk", pk: pkUUID,
		fields: []field{
			{name: "target", ref: "flow", cascade: true},
			{name: "stage", ref: stageGroup, cascade: true},
			{name: "evaluate_on_plan", def: defBool(false)},
			{name: "re_evaluate_policies", def: defBool(true)},
			{name: "order"},
			{name: "policy_engine_mode", def: defStr("any")},
			{name: "invalid_response_action", def: defStr("retry")},
		},
		// FlowStageBindingViewSet: ordering "order", filterset_fields "__all__".
		ordering: "order",
		search:   []string{"stage__name"},
		filters: map[string]filter{
			"target":                  exact("target"),
			"stage":                   exact("stage"),
			"order":                   exact("order"),
			"fsb_uuid":                exact("pk"),
			"pbm_uuid":                exact("pk"),
			"evaluate_on_plan":        boolFilter("evaluate_on_plan"),
			"re_evaluate_policies":    boolFilter("re_evaluate_policies"),
			"policy_engine_mode":      exact("policy_engine_mode"),
			"invalid_response_action": exact("invalid_response_action"),
		},
		validate: validateFlowBinding,
	}
	k.render = func(rc *renderCtx, d map[string]any) map[string]any {
		out := withFields(map[string]any{}, d, "pk", "target", "stage", "evaluate_on_plan", "re_evaluate_policies",
			"order", "policy_engine_mode", "invalid_response_action")
		out["policybindingmodel_ptr_id"] = d["pk"]
		out["stage_obj"] = nil
		if t, r := rc.st.find(stageGroup, d["stage"]); r != nil {
			out["stage_obj"] = renderStage(rc, t.k, r.data)
		}
		return out
	}
	return k
}

// validateFlowBinding is FlowStageBindingSerializer.validate, which reads only
// the fields the request carries (with the model's defaults for the others,
// even on a PATCH), and the unique_together (target, stage, order) rule with
// DRF's UniqueTogetherValidator message.
func validateFlowBinding(wc *writeCtx, errs fieldErrors) {
	plan, run := false, true
	if v, ok := wc.body["evaluate_on_plan"]; ok {
		plan = boolean(v)
	}
	if v, ok := wc.body["re_evaluate_policies"]; ok {
		run = boolean(v)
	}
	if !plan && !run {
		errs.add("non_field_errors", "Either evaluation on plan or evaluation on run must be enabled")
		return
	}
	self := keyOf(wc.data["pk"])
	for _, r := range wc.st.tables[wc.k.path].rows {
		if wc.old != nil && keyOf(r.data["pk"]) == self {
			continue
		}
		if keyOf(r.data["target"]) == keyOf(wc.data["target"]) && keyOf(r.data["stage"]) == keyOf(wc.data["stage"]) &&
			keyOf(r.data["order"]) == keyOf(wc.data["order"]) {
			errs.add("non_field_errors", "The fields target, stage, order must make a unique set.")
			return
		}
	}
}
