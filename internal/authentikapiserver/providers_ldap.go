package authentikapiserver

import "strings"

// ldapKind is /providers/ldap/. Since authentik 2024.8 an LDAP provider has no
// search group (who may search is an RBAC permission), and its document has no
// such field either. The defaults are the model's.
func ldapKind() *kind {
	fields := append(providerFields(),
		field{name: "base_dn", def: defStr("DC=ldap,DC=goauthentik,DC=io")},
		field{name: "certificate", def: defNil(), ref: "certificatekeypair"},
		field{name: "tls_server_name", def: defStr("")},
		field{name: "uid_start_number", def: defInt(2000)},
		field{name: "gid_start_number", def: defInt(4000)},
		field{name: "search_mode", def: defStr("direct")},
		field{name: "bind_mode", def: defStr("direct")},
		field{name: "mfa_support", def: defBool(true)},
	)
	k := &kind{
		path: "providers/ldap", op: "providers_ldap", model: "LDAPProvider",
		group: providerGroup, lookup: "pk", pk: pkInt,
		fields: fields, unique: providerUnique(),
		ordering: "name",
		search:   []string{"name"},
		filters: map[string]filter{
			"name__iexact":                     iexact("name"),
			"base_dn__iexact":                  iexact("base_dn"),
			"tls_server_name__iexact":          iexact("tls_server_name"),
			"uid_start_number__iexact":         exact("uid_start_number"),
			"gid_start_number__iexact":         exact("gid_start_number"),
			"certificate__kp_uuid__iexact":     iexact("certificate"),
			"application__isnull":              isNull("assigned_application_slug"),
			"authorization_flow__slug__iexact": flowSlugFilter("authorization_flow"),
			"certificate__name__iexact": func(rc *renderCtx, obj map[string]any, vals []string) (bool, fieldErrors) {
				if _, r := rc.st.find("certificatekeypair", obj["certificate"]); r != nil {
					return strings.EqualFold(str(r.data["name"]), vals[0]), nil
				}
				return false, nil
			},
		},
	}
	k.render = func(rc *renderCtx, d map[string]any) map[string]any {
		out := renderProvider(rc, k, d)
		withFields(out, d, "base_dn", "certificate", "tls_server_name", "uid_start_number", "gid_start_number",
			"search_mode", "bind_mode", "mfa_support")
		out["outpost_set"] = outpostSet(rc.st, d["pk"])
		return out
	}
	return k
}

// flowSlugFilter is a "<flow field>__slug__iexact" filter.
func flowSlugFilter(field string) filter {
	return func(rc *renderCtx, obj map[string]any, vals []string) (bool, fieldErrors) {
		if _, r := rc.st.find("flow", obj[field]); r != nil {
			return strings.EqualFold(str(r.data["slug"]), vals[0]), nil
		}
		return false, nil
	}
}
