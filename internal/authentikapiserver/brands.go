package authentikapiserver

// brandFlows are the brand's flow fields in the order of the openapi
// document. Each points at a flow and is cleared when the flow is deleted
// (on_delete=SET_NULL).
var brandFlows = []string{
	"flow_authentication", "flow_user_switch", "flow_invalidation", "flow_recovery", "flow_unenrollment",
	"flow_user_settings", "flow_device_code", "flow_lockdown", "flow_request",
}

const msgSingleDefault = "Only a single brand can be set as default."

// brandKind is /core/brands/, looked up by brand_uuid. The domain is unique
// through the serializer (the column is not), and at most one brand may be
// the default. Nothing refers to a brand, so deleting one takes nothing; its
// flows, default application and web certificate are cleared when those are
// deleted.
func brandKind() *kind {
	fields := make([]field, 0, 8+len(brandFlows)+4)
	fields = append(fields,
		field{name: "domain"},
		field{name: "default", def: defBool(false)},
		field{name: "branding_title", def: defStr("authentik")},
		field{name: "branding_logo", def: defStr("/static/dist/assets/icons/icon_left_brand.svg")},
		field{name: "branding_favicon", def: defStr("/static/dist/assets/icons/icon.png")},
		field{name: "branding_custom_css", def: defStr("")},
		field{name: "branding_default_flow_background", def: defStr("/static/dist/assets/images/flow_background.jpg")},
		field{name: "branding_map_tiles", def: defStr("")},
	)
	for _, f := range brandFlows {
		fields = append(fields, field{name: f, ref: "flow", def: defNil()})
	}
	fields = append(fields,
		field{name: "default_application", ref: "application", def: defNil()},
		field{name: "web_certificate", ref: "certificatekeypair", def: defNil()},
		field{name: "client_certificates", ref: "certificatekeypair", many: true, def: defList()},
		field{name: "attributes", def: defMap()},
	)
	filters := map[string]filter{
		"brand_uuid":                       exact("pk"),
		"domain":                           exact("domain"),
		"default":                          boolFilter("default"),
		"branding_title":                   exact("branding_title"),
		"branding_logo":                    exact("branding_logo"),
		"branding_favicon":                 exact("branding_favicon"),
		"branding_default_flow_background": exact("branding_default_flow_background"),
		"web_certificate":                  exact("web_certificate"),
	}
	for _, f := range brandFlows {
		filters[f] = exact(f)
	}
	k := &kind{
		path: "core/brands", op: "core_brands", model: "Brand",
		group: "brand", lookup: "pk", pk: pkUUID,
		fields:   fields,
		unique:   []unique{{field: "domain", msg: msgUnique}},
		ordering: "domain",
		search:   []string{"domain", "branding_title"},
		filters:  filters,
		validate: validateBrand,
	}
	k.render = func(_ *renderCtx, d map[string]any) map[string]any {
		out := map[string]any{"brand_uuid": d["pk"]}
		names := make([]string, 0, len(k.fields))
		for _, f := range k.fields {
			names = append(names, f.name)
		}
		return withFields(out, d, names...)
	}
	return k
}

// validateBrand is BrandSerializer.validate: a request that sets default to
// true is refused while another brand is the default. A request that does not
// send default is not checked, as in authentik.
func validateBrand(wc *writeCtx, errs fieldErrors) {
	if !wc.sent("default") || !boolean(wc.data["default"]) {
		return
	}
	for _, r := range wc.st.tables["core/brands"].rows {
		if boolean(r.data["default"]) && (wc.old == nil || keyOf(r.data["pk"]) != keyOf(wc.old["pk"])) {
			errs.add("default", msgSingleDefault)
			return
		}
	}
}
