package authentikapiserver

import "net/http"

// Policies of every type share one table in authentik (Policy, with a child
// table per type, InheritanceAutoManager): one reference group, a name that is
// unique across all types (Policy.name is TextField(unique=True)). Each type
// has its own CRUD endpoint under /policies/<type>/; /policies/all/ lists,
// reads and deletes them all, and renders each with its own type's serializer
// (PolicySerializer.to_representation resolves the inheritance). Deleting a
// policy deletes its bindings (PolicyBinding.policy is on_delete=CASCADE).

const policyGroup = "policy"

// policyMeta is what PolicySerializer computes per type.
type policyMeta struct {
	component, verbose, plural, metaModel string
}

var policyMetas = map[string]policyMeta{
	"policies/expression":      {"ak-policy-expression-form", "Expression Policy", "Expression Policies", "authentik_policies_expression.expressionpolicy"},
	"policies/password":        {"ak-policy-password-form", "Password Policy", "Password Policies", "authentik_policies_password.passwordpolicy"},
	"policies/reputation":      {"ak-policy-reputation-form", "Reputation Policy", "Reputation Policies", "authentik_policies_reputation.reputationpolicy"},
	"policies/event_matcher":   {"ak-policy-event-matcher-form", "Event Matcher Policy", "Event Matcher Policies", "authentik_policies_event_matcher.eventmatcherpolicy"},
	"policies/password_expiry": {"ak-policy-password-expiry-form", "Password Expiry Policy", "Password Expiry Policies", "authentik_policies_expiry.passwordexpirypolicy"},
}

// policyKind builds one policy type: the base Policy fields, the type's own,
// its viewset's filters (filterset_fields "__all__": name, policy_uuid and
// every field of its own), ordering and search by name.
func policyKind(path, op, model string, own []field, validate func(*writeCtx, fieldErrors)) *kind {
	fields := append([]field{{name: "name"}, {name: "execution_logging", def: defBool(false)}}, own...)
	f := map[string]filter{
		"name": exact("name"), "policy_uuid": exact("pk"), "execution_logging": boolFilter("execution_logging"),
	}
	names := make([]string, 0, len(own))
	for _, o := range own {
		names = append(names, o.name)
		if o.def != nil && isBoolDefault(o) {
			f[o.name] = boolFilter(o.name)
		} else {
			f[o.name] = exact(o.name)
		}
	}
	k := &kind{
		path: path, op: op, model: model, group: policyGroup, lookup: "pk", pk: pkUUID,
		fields:   fields,
		unique:   []unique{{field: "name", group: policyGroup, msg: modelUniqueMsg("policy", "name")}},
		ordering: "name",
		search:   []string{"name"},
		filters:  f,
		validate: validate,
	}
	k.render = func(rc *renderCtx, d map[string]any) map[string]any {
		return withFields(renderPolicy(rc, k, d), d, names...)
	}
	return k
}

func isBoolDefault(f field) bool {
	_, ok := f.def(nil).(bool)
	return ok
}

// renderPolicy is PolicySerializer's base fields. bound_to counts the
// policy's bindings and the prompt stages that validate with it.
func renderPolicy(rc *renderCtx, k *kind, d map[string]any) map[string]any {
	meta := policyMetas[k.path]
	n := bindingsOf(rc.st, d["pk"]) + promptStagesUsing(rc.st, d["pk"])
	return map[string]any{
		"pk": d["pk"], "name": d["name"], "execution_logging": d["execution_logging"],
		"component": meta.component, "verbose_name": meta.verbose, "verbose_name_plural": meta.plural,
		"meta_model_name": meta.metaModel, "bound_to": n,
	}
}

// bindingsOf counts the policy's bindings.
func bindingsOf(st *state, policy any) int64 {
	n := int64(0)
	for _, b := range st.tables["policies/bindings"].rows {
		if keyOf(b.data["policy"]) == keyOf(policy) {
			n++
		}
	}
	return n
}

func defInt(n int64) func(*state) any { return func(*state) any { return n } }

func policyKinds() []*kind {
	return []*kind{
		policyKind("policies/expression", "policies_expression", "ExpressionPolicy", []field{
			{name: "expression"},
		}, nil),
		// PasswordPolicy's model defaults.
		policyKind("policies/password", "policies_password", "PasswordPolicy", []field{
			{name: "password_field", def: defStr("password")},
			{name: "amount_digits", def: defInt(0)},
			{name: "amount_uppercase", def: defInt(0)},
			{name: "amount_lowercase", def: defInt(0)},
			{name: "amount_symbols", def: defInt(0)},
			{name: "length_min", def: defInt(0)},
			{name: "symbol_charset", def: defStr("!\\\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~ ")},
			{name: "error_message", def: defStr("")},
			{name: "check_static_rules", def: defBool(true)},
			{name: "check_have_i_been_pwned", def: defBool(false)},
			{name: "check_zxcvbn", def: defBool(false)},
			{name: "hibp_allowed_count", def: defInt(0)},
			{name: "zxcvbn_score_threshold", def: defInt(2)},
		}, nil),
		policyKind("policies/reputation", "policies_reputation", "ReputationPolicy", []field{
			{name: "check_ip", def: defBool(true)},
			{name: "check_username", def: defBool(true)},
			{name: "threshold", def: defInt(-5)},
		}, validateReputation),
		policyKind("policies/event_matcher", "policies_event_matcher", "EventMatcherPolicy", []field{
			{name: "action", def: defNil()},
			{name: "client_ip", def: defNil()},
			{name: "app", def: defNil()},
			{name: "model", def: defNil()},
			{name: "query", def: defNil()},
		}, validateEventMatcher),
		policyKind("policies/password_expiry", "policies_password_expiry", "PasswordExpiryPolicy", []field{
			{name: "days"},
			{name: "deny_only", def: defBool(false)},
		}, nil),
	}
}

// validateReputation is ReputationPolicySerializer.validate, which reads only
// the fields the request carries: a create or PATCH that carries neither
// check_ip nor check_username true is refused, whatever the object holds.
func validateReputation(wc *writeCtx, errs fieldErrors) {
	if !boolean(wc.body["check_ip"]) && !boolean(wc.body["check_username"]) {
		errs.add("non_field_errors", "Either IP or Username must be checked")
	}
}

// validateEventMatcher is EventMatcherPolicySerializer.validate: at least one
// criterion is set.
func validateEventMatcher(wc *writeCtx, errs fieldErrors) {
	for _, f := range []string{"action", "client_ip", "app", "model", "query"} {
		if str(wc.data[f]) != "" {
			return
		}
	}
	errs.add("non_field_errors", "At least one criteria must be set.")
}

// policiesAllOps serves /policies/all/: list, read and delete over every
// policy type, each rendered with its own type's serializer.
func policiesAllOps(ops map[string]handler, kinds []*kind) {
	var pks []*kind
	for _, k := range kinds {
		if k.group == policyGroup {
			pks = append(pks, k)
		}
	}
	filters := map[string]filter{
		"bindings__isnull": func(rc *renderCtx, obj map[string]any, vals []string) (bool, fieldErrors) {
			return (bindingsOf(rc.st, obj["pk"]) == 0) == (vals[0] == "true" || vals[0] == "True" || vals[0] == "1"), nil
		},
		"promptstage__isnull": func(rc *renderCtx, obj map[string]any, vals []string) (bool, fieldErrors) {
			return (promptStagesUsing(rc.st, obj["pk"]) == 0) == (vals[0] == "true" || vals[0] == "True" || vals[0] == "1"), nil
		},
	}
	ops["policies_all_list"] = func(c *call) reply {
		return listKinds(c, "name", []string{"name"}, filters, nil, pks)
	}
	ops["policies_all_retrieve"] = func(c *call) reply {
		t, r := c.st.find(policyGroup, c.id())
		if r == nil {
			return notFound("Policy")
		}
		return jsonReply(http.StatusOK, c.rc().render(t.k, r.data))
	}
	ops["policies_all_destroy"] = func(c *call) reply {
		t, r := c.st.find(policyGroup, c.id())
		if r == nil {
			return notFound("Policy")
		}
		c.st.remove(t.k, r)
		return noContent()
	}
}
