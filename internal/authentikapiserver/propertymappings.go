package authentikapiserver

// Property mappings of every type share authentik's PropertyMapping table:
// one reference group (providers' property_mappings may point at any type),
// and name and managed are unique across all of them.

const mappingGroup = "mapping"

// Managed identifiers of the mappings authentik's system blueprints create.
const (
	scopeOpenID  = "goauthentik.io/providers/oauth2/scope-openid"
	scopeEmail   = "goauthentik.io/providers/oauth2/scope-email"
	scopeProfile = "goauthentik.io/providers/oauth2/scope-profile"
	scopeProxy   = "goauthentik.io/providers/proxy/scope-proxy"
)

func mappingFields(extra ...field) []field {
	return append([]field{
		// managed is writable over the API; authentik's migrations may
		// overwrite it, so it is no safe marker of ownership.
		{name: "managed", def: defNil()},
		{name: "name"},
		{name: "expression"},
	}, extra...)
}

func mappingUnique() []unique {
	return []unique{
		{field: "name", group: mappingGroup, msg: modelUniqueMsg("Property Mapping", "name")},
		{field: "managed", group: mappingGroup, msg: modelUniqueMsg("Property Mapping", "Managed by authentik")},
	}
}

func mappingFilters(extra map[string]filter) map[string]filter {
	f := map[string]filter{
		"name":            exact("name"),
		"managed":         anyOf("managed"),
		"managed__isnull": isNull("managed"),
	}
	for k, v := range extra {
		f[k] = v
	}
	return f
}

func scopeMappingKind() *kind {
	k := &kind{
		path: "propertymappings/provider/scope", op: "propertymappings_provider_scope", model: "ScopeMapping",
		group: mappingGroup, lookup: "pk", pk: pkUUID,
		fields:   mappingFields(field{name: "scope_name"}, field{name: "description", def: defStr("")}),
		unique:   mappingUnique(),
		ordering: "scope_name",
		search:   []string{"name"},
		filters:  mappingFilters(map[string]filter{"scope_name": exact("scope_name")}),
	}
	k.render = func(_ *renderCtx, d map[string]any) map[string]any {
		out := withFields(map[string]any{}, d, "pk", "managed", "name", "expression", "scope_name", "description")
		out["component"] = "ak-property-mapping-provider-scope-form"
		out["verbose_name"] = "Scope Mapping"
		out["verbose_name_plural"] = "Scope Mappings"
		out["meta_model_name"] = "authentik_providers_oauth2.scopemapping"
		return out
	}
	return k
}

func samlMappingKind() *kind {
	k := &kind{
		path: "propertymappings/provider/saml", op: "propertymappings_provider_saml", model: "SAMLPropertyMapping",
		group: mappingGroup, lookup: "pk", pk: pkUUID,
		fields:   mappingFields(field{name: "saml_name"}, field{name: "friendly_name", def: defNil()}),
		unique:   mappingUnique(),
		ordering: "saml_name",
		search:   []string{"name"},
		filters: mappingFilters(map[string]filter{
			"saml_name":     exact("saml_name"),
			"friendly_name": exact("friendly_name"),
		}),
	}
	k.render = func(_ *renderCtx, d map[string]any) map[string]any {
		out := withFields(map[string]any{}, d, "pk", "managed", "name", "expression", "saml_name", "friendly_name")
		out["component"] = "ak-property-mapping-provider-saml-form"
		out["verbose_name"] = "SAML Provider Property Mapping"
		out["verbose_name_plural"] = "SAML Provider Property Mappings"
		out["meta_model_name"] = "authentik_providers_saml.samlpropertymapping"
		return out
	}
	return k
}

func managedMappingPK(st *state, managed string) any {
	for _, r := range st.rowsOf(mappingGroup) {
		if str(r.data["managed"]) == managed {
			return r.data["pk"]
		}
	}
	return nil
}
