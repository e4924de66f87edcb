package authentikapiserver

import "fmt"

// flowKind is /flows/instances/, looked up by slug. The provider only reads
// flows (to resolve slugs to the UUIDs providers reference), but the full
// CRUD set is served since the generic store makes it free.
func flowKind() *kind {
	k := &kind{
		path: "flows/instances", op: "flows_instances", model: "Flow",
		group: "flow", lookup: "slug", pk: pkUUID,
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
		out["background_url"] = "/static/dist/assets/images/flow_background.jpg"
		if b := str(d["background"]); b != "" {
			out["background_url"] = b
		}
		out["background_themed_urls"] = nil
		out["stages"] = []any{}
		out["policies"] = []any{}
		out["cache_count"] = 0
		out["export_url"] = fmt.Sprintf("%s/flows/instances/%s/export/", APIPrefix, str(d["slug"]))
		return out
	}
	return k
}
