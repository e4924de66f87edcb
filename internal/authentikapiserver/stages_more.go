package authentikapiserver

// The authenticator validation, user write and prompt stage types, and the
// prompts a prompt stage lists. A prompt is an object of its own
// (/stages/prompt/prompts/, Prompt.name unique) shared between prompt stages
// through a many-to-many relation: deleting a prompt takes it out of every
// stage's fields, deleting a policy out of every stage's validation_policies,
// deleting a stage out of every validation stage's configuration_stages, and
// deleting a group empties create_users_group (on_delete=SET_DEFAULT, None).

const (
	promptGroup = "prompt"
	promptPath  = "stages/prompt/prompts"
	// webauthnDeviceTypeGroup is the MDS catalogue of WebAuthn device types,
	// which is not modelled: every pk sent is unknown, as on an instance
	// whose catalogue is empty.
	webauthnDeviceTypeGroup = "webauthndevicetype"
	configureAction         = "configure"
	msgConfigureNeedsStages = `When "Not configured action" is set to "Configure", you must set a configuration stage.`
	msgEmptyList            = "This list may not be empty."
)

// moreStageKinds are the stage types added with the Stage kind's
// authenticatorValidation, userWrite and prompt blocks, and the prompts.
func moreStageKinds() []*kind {
	return []*kind{validateStageKind(), userWriteStageKind(), promptStageKind(), promptKind()}
}

// defOneFloat is the throttling factors' default, FloatField(default=1).
func defOneFloat(*state) any { return float64(1) }

// validateStageKind is /stages/authenticator/validate/. Its serializer checks
// not_configured_action against the configuration_stages of the same request
// (not the stored ones), only when the request carries the action.
func validateStageKind() *kind {
	k := stageKind("stages/authenticator/validate", "stages_authenticator_validate", "AuthenticatorValidateStage", []field{
		{name: "not_configured_action", def: defStr("skip")},
		{name: "device_classes", def: func(*state) any {
			return []any{"static", "totp", "webauthn", "duo", "sms", "email"}
		}},
		{name: "configuration_stages", def: defList(), ref: stageGroup, many: true},
		{name: "last_auth_threshold", def: defStr("seconds=0")},
		{name: "webauthn_user_verification", def: defStr("preferred")},
		{name: "webauthn_hints", def: defList()},
		{name: "webauthn_allowed_device_types", def: defList(), ref: webauthnDeviceTypeGroup, many: true},
		{name: "email_otp_throttling_factor", def: defOneFloat},
		{name: "sms_otp_throttling_factor", def: defOneFloat},
		{name: "totp_otp_throttling_factor", def: defOneFloat},
		{name: "static_otp_throttling_factor", def: defOneFloat},
	}, map[string]filter{
		"configuration_stages": listHasAny("configuration_stages"), "not_configured_action": exact("not_configured_action"),
	})
	render := k.render
	k.render = func(rc *renderCtx, d map[string]any) map[string]any {
		out := render(rc, d)
		out["webauthn_allowed_device_types_obj"] = []any{}
		return out
	}
	k.validate = func(wc *writeCtx, errs fieldErrors) {
		if wc.sent("not_configured_action") && str(wc.body["not_configured_action"]) == configureAction &&
			len(list(wc.body["configuration_stages"])) == 0 {
			errs.add("not_configured_action", "%s", msgConfigureNeedsStages)
		}
	}
	return k
}

// userWriteStageKind is /stages/user_write/.
func userWriteStageKind() *kind {
	return stageKind("stages/user_write", "stages_user_write", "UserWriteStage", []field{
		{name: "user_creation_mode", def: defStr("create_when_required")},
		{name: "create_users_as_inactive", def: defBool(false)},
		{name: "create_users_group", def: defNil(), ref: "group"},
		{name: "user_type", def: defStr("external")},
		{name: "user_path_template", def: defStr("")},
	}, map[string]filter{
		"create_users_as_inactive": boolFilter("create_users_as_inactive"), "create_users_group": exact("create_users_group"),
		"user_creation_mode": exact("user_creation_mode"), "user_type": exact("user_type"),
		"user_path_template": exact("user_path_template"),
	})
}

// promptStageKind is /stages/prompt/stages/. fields is a many-to-many relation
// without blank=True, so DRF refuses an empty list.
func promptStageKind() *kind {
	k := stageKind("stages/prompt/stages", "stages_prompt_stages", "PromptStage", []field{
		{name: "fields", ref: promptGroup, many: true},
		{name: "validation_policies", def: defList(), ref: policyGroup, many: true},
	}, map[string]filter{
		"fields": listHasAny("fields"), "validation_policies": listHasAny("validation_policies"),
	})
	k.validate = func(wc *writeCtx, errs fieldErrors) {
		if (wc.creating() || wc.sent("fields")) && len(list(wc.data["fields"])) == 0 {
			errs.add("fields", "%s", msgEmptyList)
		}
	}
	return k
}

// promptKind is /stages/prompt/prompts/: ordered by field_key, and every
// prompt shows the prompt stages that list it (prompt_stages_obj).
func promptKind() *kind {
	names := []string{
		"name", "field_key", "label", "type", "required", "placeholder", "initial_value", "order", "sub_text",
		"placeholder_expression", "initial_value_expression",
	}
	k := &kind{
		path: promptPath, op: "stages_prompt_prompts", model: "Prompt", group: promptGroup, lookup: "pk", pk: pkUUID,
		fields: []field{
			{name: "name"}, {name: "field_key"}, {name: "label"}, {name: "type"},
			{name: "required", def: defBool(true)},
			{name: "placeholder", def: defStr("")},
			{name: "initial_value", def: defStr("")},
			{name: "order", def: defInt(0)},
			{name: "sub_text", def: defStr("")},
			{name: "placeholder_expression", def: defBool(false)},
			{name: "initial_value_expression", def: defBool(false)},
		},
		unique:   []unique{{field: "name", msg: modelUniqueMsg("prompt", "name")}},
		ordering: "field_key",
		search:   []string{"field_key", "name", "label", "type", "placeholder"},
		filters: map[string]filter{
			"field_key": exact("field_key"), "label": exact("label"), "name": exact("name"),
			"placeholder": exact("placeholder"), "type": exact("type"),
		},
	}
	k.render = func(rc *renderCtx, d map[string]any) map[string]any {
		out := withFields(map[string]any{"pk": d["pk"]}, d, names...)
		stages := []any{}
		if t := rc.st.tables["stages/prompt/stages"]; t != nil {
			for _, s := range t.rows {
				if contains(list(s.data["fields"]), d["pk"]) {
					stages = append(stages, rc.render(t.k, s.data))
				}
			}
		}
		out["prompt_stages_obj"] = stages
		return out
	}
	return k
}

// promptStagesUsing counts the prompt stages whose validation_policies hold the
// policy: authentik's bound_to counts them with the policy's bindings.
func promptStagesUsing(st *state, policy any) int64 {
	n := int64(0)
	if t := st.tables["stages/prompt/stages"]; t != nil {
		for _, s := range t.rows {
			if contains(list(s.data["validation_policies"]), policy) {
				n++
			}
		}
	}
	return n
}
