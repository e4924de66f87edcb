package authentikapiserver

import "fmt"

// flowKind is /flows/instances/, looked up by slug (unique). A flow is a
// policy binding model: deleting it deletes its policy bindings and its stage
// bindings (CASCADE). In authentik its policybindingmodel_ptr_id differs from
// its pk (flow_uuid is declared as the primary key); here both are the pk,
// which clients cannot tell apart as long as they target the ptr id they read.
func flowKind() *kind {
	k := &kind{
		path: "flows/instances", op: "flows_instances", model: "Flow",
		group: "flow", alsoIn: []string{pbmGroup}, lookup: "slug", pk: pkUUID,
		fields: []field{
			{name: "name"},
			{name: "slug"},
			{name: "title"},
			{name: "designation"},
			{name: "background", def: defStr("")},
			{name: "policy_engine_mode", def: defStr("any")},
			{name: "compatibility_mode", def: defBool(false)},
			{name: "layout", def: defStr("stacked")},
			{name: "denied_action", def: defStr("message_continue")},
			{name: "authentication", def: defStr("none")},
		},
		unique:   []unique{{field: "slug", msg: modelUniqueMsg("Flow", "slug")}},
		ordering: "slug",
		search:   []string{"name", "slug", "designation", "title"},
		filters: map[string]filter{
			"slug":          exact("slug"),
			"name":          exact("name"),
			"designation":   exact("designation"),
			"denied_action": exact("denied_action"),
			"flow_uuid":     exact("pk"),
		},
	}
	k.render = func(rc *renderCtx, d map[string]any) map[string]any {
		out := withFields(map[string]any{}, d, "pk", "name", "slug", "title", "designation", "background",
			"policy_engine_mode", "compatibility_mode", "layout", "denied_action", "authentication")
		out["policybindingmodel_ptr_id"] = d["pk"]
		out["background_url"] = flowBackgroundURL(d)
		out["background_themed_urls"] = nil
		stages := []any{}
		for _, b := range rc.st.tables["flows/bindings"].rows {
			if keyOf(b.data["target"]) == keyOf(d["pk"]) {
				stages = append(stages, b.data["stage"])
			}
		}
		out["stages"] = stages
		out["policies"] = []any{}
		out["cache_count"] = 0
		out["export_url"] = fmt.Sprintf("%s/flows/instances/%s/export/", APIPrefix, str(d["slug"]))
		return out
	}
	return k
}

// flowBackgroundURL is Flow.background_url: the default image without a background.
func flowBackgroundURL(d map[string]any) string {
	if b := str(d["background"]); b != "" {
		return b
	}
	return "/static/dist/assets/images/flow_background.jpg"
}
