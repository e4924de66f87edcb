package authentikapiserver

import (
	"fmt"
	"net/http"
)

// Stages of every type share one table in authentik (Stage, with a child table
// per type, InheritanceManager), hence one reference group and a name that is
// unique across all types (Stage.name is TextField(unique=True)). Each type has
// its own CRUD endpoint under /stages/<type>/; /stages/all/ lists, reads and
// deletes them all with the base StageSerializer.

const stageGroup = "stage"

// stageMeta is what StageSerializer computes per type.
type stageMeta struct {
	component, verbose, plural, metaModel string
}

var stageMetas = map[string]stageMeta{
	"stages/identification": {"ak-stage-identification-form", "Identification Stage", "Identification Stages", "authentik_stages_identification.identificationstage"},
	"stages/password":       {"ak-stage-password-form", "Password Stage", "Password Stages", "authentik_stages_password.passwordstage"},
	"stages/user_login":     {"ak-stage-user-login-form", "User Login Stage", "User Login Stages", "authentik_stages_user_login.userloginstage"},
	"stages/user_logout":    {"ak-stage-user-logout-form", "User Logout Stage", "User Logout Stages", "authentik_stages_user_logout.userlogoutstage"},
	"stages/deny":           {"ak-stage-deny-form", "Deny Stage", "Deny Stages", "authentik_stages_deny.denystage"},
	"stages/consent":        {"ak-stage-consent-form", "Consent Stage", "Consent Stages", "authentik_stages_consent.consentstage"},
	"stages/authenticator/validate": {"ak-stage-authenticator-validate-form", "Authenticator Validation Stage", "Authenticator Validation Stages",
		"authentik_stages_authenticator_validate.authenticatorvalidatestage"},
	"stages/user_write":    {"ak-stage-user-write-form", "User Write Stage", "User Write Stages", "authentik_stages_user_write.userwritestage"},
	"stages/prompt/stages": {"ak-stage-prompt-form", "Prompt Stage", "Prompt Stages", "authentik_stages_prompt.promptstage"},
}

// stageKind builds one stage type: the base Stage fields, the type's own, its
// viewset's filters (each typed viewset filters on name and its own fields).
func stageKind(path, op, model string, own []field, filters map[string]filter) *kind {
	fields := append([]field{{name: "name"}}, own...)
	f := map[string]filter{"name": exact("name"), "stage_uuid": exact("pk")}
	for n, v := range filters {
		f[n] = v
	}
	k := &kind{
		path: path, op: op, model: model, group: stageGroup, lookup: "pk", pk: pkUUID,
		fields:   fields,
		unique:   []unique{{field: "name", group: stageGroup, msg: modelUniqueMsg("stage", "name")}},
		ordering: "name",
		search:   []string{"name"},
		filters:  f,
	}
	names := make([]string, 0, len(own))
	for _, o := range own {
		names = append(names, o.name)
	}
	k.render = func(rc *renderCtx, d map[string]any) map[string]any {
		return withFields(renderStage(rc, k, d), d, names...)
	}
	return k
}

// renderStage is authentik's StageSerializer: the base fields every typed
// serializer extends, and what /stages/all/ and a binding's stage_obj show.
func renderStage(rc *renderCtx, k *kind, d map[string]any) map[string]any {
	meta := stageMetas[k.path]
	flows := []any{}
	for _, b := range rc.st.tables["flows/bindings"].rows {
		if keyOf(b.data["stage"]) != keyOf(d["pk"]) {
			continue
		}
		if _, f := rc.st.find("flow", b.data["target"]); f != nil {
			flows = append(flows, flowSet(f.data))
		}
	}
	return map[string]any{
		"pk": d["pk"], "name": d["name"],
		"component": meta.component, "verbose_name": meta.verbose, "verbose_name_plural": meta.plural,
		"meta_model_name": meta.metaModel, "flow_set": flows,
	}
}

// flowSet is FlowSetSerializer, a stage's flows.
func flowSet(d map[string]any) map[string]any {
	out := withFields(map[string]any{}, d, "pk", "name", "slug", "title", "designation", "policy_engine_mode",
		"compatibility_mode", "layout", "denied_action")
	out["policybindingmodel_ptr_id"] = d["pk"]
	out["background_url"] = flowBackgroundURL(d)
	out["export_url"] = fmt.Sprintf("%s/flows/instances/%s/export/", APIPrefix, str(d["slug"]))
	return out
}

func stageKinds() []*kind {
	flowRef := func(name string) field { return field{name: name, def: defNil(), ref: "flow"} }
	stageRef := func(name string) field { return field{name: name, def: defNil(), ref: stageGroup} }
	return append([]*kind{
		stageKind("stages/identification", "stages_identification", "IdentificationStage", []field{
			{name: "user_fields", def: defList()},
			stageRef("password_stage"),
			stageRef("captcha_stage"),
			{name: "case_insensitive_matching", def: defBool(true)},
			{name: "show_matched_user", def: defBool(true)},
			flowRef("enrollment_flow"),
			flowRef("recovery_flow"),
			flowRef("passwordless_flow"),
			{name: "sources", def: defList()},
			{name: "show_source_labels", def: defBool(false)},
			{name: "pretend_user_exists", def: defBool(true)},
			{name: "enable_remember_me", def: defBool(false)},
			stageRef("webauthn_stage"),
		}, map[string]filter{
			"password_stage": exact("password_stage"), "captcha_stage": exact("captcha_stage"),
			"case_insensitive_matching": boolFilter("case_insensitive_matching"), "show_matched_user": boolFilter("show_matched_user"),
			"enrollment_flow": exact("enrollment_flow"), "recovery_flow": exact("recovery_flow"),
			"passwordless_flow": exact("passwordless_flow"), "show_source_labels": boolFilter("show_source_labels"),
			"webauthn_stage": exact("webauthn_stage"),
		}),
		stageKind("stages/password", "stages_password", "PasswordStage", []field{
			{name: "backends"},
			flowRef("configure_flow"),
			{name: "failed_attempts_before_cancel", def: func(*state) any { return int64(5) }},
			{name: "allow_show_password", def: defBool(false)},
		}, map[string]filter{
			"configure_flow": exact("configure_flow"), "allow_show_password": boolFilter("allow_show_password"),
			"failed_attempts_before_cancel": exact("failed_attempts_before_cancel"),
		}),
		stageKind("stages/user_login", "stages_user_login", "UserLoginStage", []field{
			{name: "session_duration", def: defStr("seconds=0")},
			{name: "terminate_other_sessions", def: defBool(false)},
			{name: "remember_me_offset", def: defStr("seconds=0")},
			{name: "network_binding", def: defStr("no_binding")},
			{name: "geoip_binding", def: defStr("no_binding")},
			{name: "remember_device", def: defStr("days=30")},
		}, map[string]filter{
			"session_duration": exact("session_duration"), "terminate_other_sessions": boolFilter("terminate_other_sessions"),
			"remember_me_offset": exact("remember_me_offset"), "network_binding": exact("network_binding"),
			"geoip_binding": exact("geoip_binding"), "remember_device": exact("remember_device"),
		}),
		stageKind("stages/user_logout", "stages_user_logout", "UserLogoutStage", nil, nil),
		stageKind("stages/deny", "stages_deny", "DenyStage", []field{
			{name: "deny_message", def: defStr("")},
		}, map[string]filter{"deny_message": exact("deny_message")}),
		stageKind("stages/consent", "stages_consent", "ConsentStage", []field{
			{name: "mode", def: defStr("always_require")},
			{name: "consent_expire_in", def: defStr("weeks=4")},
		}, map[string]filter{"mode": exact("mode"), "consent_expire_in": exact("consent_expire_in")}),
	}, moreStageKinds()...)
}

// stagesAllOps serves /stages/all/: list, read and delete over every stage
// type, rendered with the base StageSerializer.
func stagesAllOps(ops map[string]handler, kinds []*kind) {
	var sks []*kind
	for _, k := range kinds {
		if k.group == stageGroup {
			base := *k
			typed := k
			base.render = func(rc *renderCtx, d map[string]any) map[string]any { return renderStage(rc, typed, d) }
			sks = append(sks, &base)
		}
	}
	ops["stages_all_list"] = func(c *call) reply {
		return listKinds(c, "name", []string{"name"}, map[string]filter{"name": exact("name")}, nil, sks)
	}
	ops["stages_all_retrieve"] = func(c *call) reply {
		t, r := c.st.find(stageGroup, c.id())
		if r == nil {
			return notFound("Stage")
		}
		return jsonReply(http.StatusOK, renderStage(c.rc(), t.k, r.data))
	}
	ops["stages_all_destroy"] = func(c *call) reply {
		t, r := c.st.find(stageGroup, c.id())
		if r == nil {
			return notFound("Stage")
		}
		c.st.remove(t.k, r)
		return noContent()
	}
}
