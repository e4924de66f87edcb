package authentikapiserver

// pbmGroup is the reference group of authentik's PolicyBindingModel: every
// object a policy binding can target. Of the modelled kinds, applications,
// application entitlements, flows and flow-stage bindings are policy binding
// models (a binding's target is their pbm_uuid, which is their pk here).
const pbmGroup = "pbm"

// policyBindingKind is /policies/bindings/. A binding names exactly one of a
// policy, a group or a user. Deleting the target, the policy, the group or the
// user deletes the binding (on_delete=CASCADE), as authentik does. (policy,
// target, order) is unique together; DRF skips that check when policy is null,
// so group and user bindings may share a target and an order.
func policyBindingKind() *kind {
	k := &kind{
		path: "policies/bindings", op: "policies_bindings", model: "PolicyBinding",
		group: "policy_binding", lookup: "pk", pk: pkUUID,
		fields: []field{
			{name: "policy", def: defNil(), ref: "policy", cascade: true},
			{name: "group", def: defNil(), ref: "group", cascade: true},
			{name: "user", def: defNil(), ref: "user", ints: true, cascade: true},
			{name: "target", ref: pbmGroup, cascade: true},
			{name: "negate", def: defBool(false)},
			{name: "enabled", def: defBool(true)},
			{name: "order"},
			{name: "timeout", def: func(*state) any { return int64(30) }},
			{name: "failure_result", def: defBool(false)},
		},
		// PolicyBindingViewSet: ordering ["target", "order"], search_fields ["policy__name"].
		ordering: "target,order",
		search:   []string{"policy_obj__name"},
		filters: map[string]filter{
			"enabled":        boolFilter("enabled"),
			"order":          exact("order"),
			"policy":         exact("policy"),
			"policy__isnull": isNull("policy"),
			"target":         exact("target"),
			"target_in":      anyOf("target"),
			"timeout":        exact("timeout"),
		},
		validate: validateBinding,
	}
	k.render = func(rc *renderCtx, d map[string]any) map[string]any {
		out := withFields(map[string]any{}, d, "pk", "policy", "group", "user", "target", "negate", "enabled",
			"order", "timeout", "failure_result")
		out["policy_obj"] = nil
		if p := d["policy"]; p != nil {
			if t, r := rc.st.find(policyGroup, p); r != nil {
				out["policy_obj"] = t.k.render(rc, r.data)
			}
		}
		out["group_obj"], out["user_obj"] = nil, nil
		if g := d["group"]; g != nil {
			if _, r := rc.st.find("group", g); r != nil {
				out["group_obj"] = partialGroup(r.data)
			}
		}
		if u := d["user"]; u != nil {
			if _, r := rc.st.find("user", u); r != nil {
				out["user_obj"] = partialUser(r.data)
			}
		}
		out["expires"], out["expiring"] = nil, false
		return out
	}
	return k
}

// validateBinding is PolicyBindingSerializer.validate, which reads only the
// fields the request carries: the target (a PATCH without it fails in
// authentik, which calls a method on the missing target; here it is a 400) and
// exactly one of policy, group and user set in the request. Then the
// unique_together (policy, target, order) rule with DRF's
// UniqueTogetherValidator message, skipped when policy is null.
func validateBinding(wc *writeCtx, errs fieldErrors) {
	if wc.body["target"] == nil {
		errs.add("target", "This field is required.")
		return
	}
	n := 0
	for _, f := range []string{"policy", "group", "user"} {
		if wc.body[f] != nil {
			n++
		}
	}
	switch {
	case n == 0:
		errs.add("non_field_errors", "One of 'policy', 'group' or 'user' must be set.")
	case n > 1:
		errs.add("non_field_errors", "Only one of 'policy', 'group' or 'user' can be set.")
	}
	if len(errs) > 0 || wc.data["policy"] == nil {
		return
	}
	self := keyOf(wc.data["pk"])
	for _, r := range wc.st.tables[wc.k.path].rows {
		if wc.old != nil && keyOf(r.data["pk"]) == self {
			continue
		}
		if keyOf(r.data["policy"]) == keyOf(wc.data["policy"]) && keyOf(r.data["target"]) == keyOf(wc.data["target"]) &&
			keyOf(r.data["order"]) == keyOf(wc.data["order"]) {
			errs.add("non_field_errors", "The fields policy, target, order must make a unique set.")
			return
		}
	}
}

// entitlementKind is /core/application_entitlements/: an application's
// entitlements, deleted with it (on_delete=CASCADE). An entitlement is a
// policy binding model itself.
func entitlementKind() *kind {
	k := &kind{
		path: "core/application_entitlements", op: "core_application_entitlements", model: "ApplicationEntitlement",
		group: "application_entitlement", alsoIn: []string{pbmGroup}, lookup: "pk", pk: pkUUID,
		fields: []field{
			{name: "name"},
			{name: "app", ref: "application", cascade: true},
			{name: "attributes", def: defMap()},
		},
		ordering: "name",
		search:   []string{"name"},
		filters: map[string]filter{
			"app":      exact("app"),
			"name":     exact("name"),
			"pbm_uuid": exact("pbm_uuid"),
		},
	}
	k.render = func(_ *renderCtx, d map[string]any) map[string]any {
		out := withFields(map[string]any{}, d, "name", "app", "attributes")
		out["pbm_uuid"] = d["pk"]
		return out
	}
	return k
}
