package authentikapiserver

// roleKind is /rbac/roles/: groups and users reference roles by UUID, so
// roles exist to make those references checkable. Permissions are not modelled.
func roleKind() *kind {
	k := &kind{
		path: "rbac/roles", op: "rbac_roles", model: "Role",
		group: "role", lookup: "pk", pk: pkUUID,
		fields:   []field{{name: "name"}},
		unique:   []unique{{field: "name", msg: modelUniqueMsg("Role", "name")}},
		ordering: "name",
		search:   []string{"name"},
		filters:  map[string]filter{"name": exact("name")},
	}
	k.render = func(_ *renderCtx, d map[string]any) map[string]any {
		return withFields(map[string]any{}, d, "pk", "name")
	}
	return k
}

func rolesObj(st *state, pks []any) []any {
	out := []any{}
	seen := map[string]bool{}
	for _, pk := range pks {
		if seen[keyOf(pk)] {
			continue
		}
		seen[keyOf(pk)] = true
		if _, r := st.find("role", pk); r != nil {
			out = append(out, withFields(map[string]any{}, r.data, "pk", "name"))
		}
	}
	return out
}
