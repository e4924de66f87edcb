package authentikapiserver

import (
	"net/http"
	"sort"
	"strings"
)

// groupKind is /core/groups/ (UUID pk, plus the integer num_pk). Membership
// is stored once, on the users ("groups"); a group's "users" field reads and
// writes that relation. Group.name is not unique in the database, so the
// serializer's UniqueValidator answers DRF's generic "This field must be
// unique.".
func groupKind() *kind {
	k := &kind{
		path: "core/groups", op: "core_groups", model: "Group",
		group: "group", lookup: "pk", pk: pkUUID,
		fields: []field{
			{name: "name"},
			{name: "is_superuser", def: defBool(false)},
			{name: "parents", def: defList(), ref: "group", many: true},
			{name: "users", ref: "user", many: true, ints: true, virtual: true},
			{name: "attributes", def: defMap()},
			{name: "roles", def: defList(), ref: "role", many: true},
		},
		unique:   []unique{{field: "name", msg: msgUnique}},
		ordering: "name",
		search:   []string{"name", "is_superuser"},
		filters: map[string]filter{
			"name":         exact("name"),
			"is_superuser": boolFilter("is_superuser"),
			"attributes":   attributesFilter("attributes"),
			"members_by_pk": func(rc *renderCtx, obj map[string]any, vals []string) (bool, fieldErrors) {
				return anyIn(members(rc.st, obj["pk"]), vals), nil
			},
			"members_by_username": groupMembersByUsername,
		},
		options:  []string{"include_users", "include_children", "include_parents", "include_inherited_roles"},
		validate: validateGroup,
		prepare: func(wc *writeCtx) {
			if wc.creating() {
				wc.data["num_pk"] = wc.st.next("group_num_pk")
			}
		},
		after: writeGroupUsers,
	}
	k.render = renderGroup
	return k
}

func groupMembersByUsername(rc *renderCtx, obj map[string]any, vals []string) (bool, fieldErrors) {
	for _, u := range rc.st.tables["core/users"].rows {
		if contains(list(u.data["groups"]), obj["pk"]) && containsStr(vals, str(u.data["username"])) {
			return true, nil
		}
	}
	return false, nil
}

func validateGroup(wc *writeCtx, errs fieldErrors) {
	if !wc.creating() && contains(list(wc.data["parents"]), wc.data["pk"]) {
		errs.add("parents", "Cannot set group as parent of itself.")
	}
}

// writeGroupUsers stores a sent "users" field on the users' "groups", where
// membership lives.
func writeGroupUsers(wc *writeCtx) {
	if !wc.sent("users") {
		return
	}
	want := list(normalize(&field{ints: true, many: true}, clone(wc.body["users"])))
	for _, u := range wc.st.tables["core/users"].rows {
		groups := list(u.data["groups"])
		has := contains(groups, wc.data["pk"])
		switch in := contains(want, u.data["pk"]); {
		case in && !has:
			u.data["groups"] = append(groups, wc.data["pk"])
		case !in && has:
			u.data["groups"] = without(groups, wc.data["pk"])
		}
	}
}

func renderGroup(rc *renderCtx, d map[string]any) map[string]any {
	out := withFields(map[string]any{}, d, "pk", "num_pk", "name", "is_superuser", "parents", "attributes", "roles")
	out["users"] = members(rc.st, d["pk"])
	out["users_obj"] = nil
	if include(rc, "include_users", true) {
		objs := []any{}
		for _, u := range rc.st.tables["core/users"].rows {
			if contains(list(u.data["groups"]), d["pk"]) {
				objs = append(objs, partialUser(u.data))
			}
		}
		out["users_obj"] = objs
	}
	out["parents_obj"] = nil
	if include(rc, "include_parents", false) {
		out["parents_obj"] = relatedGroups(rc.st, list(d["parents"]))
	}
	children := []any{}
	for _, g := range rc.st.tables["core/groups"].rows {
		if contains(list(g.data["parents"]), d["pk"]) {
			children = append(children, g.data["pk"])
		}
	}
	out["children"] = children
	out["children_obj"] = nil
	if include(rc, "include_children", false) {
		out["children_obj"] = relatedGroups(rc.st, children)
	}
	out["roles_obj"] = rolesObj(rc.st, list(d["roles"]))
	out["inherited_roles_obj"] = nil
	if include(rc, "include_inherited_roles", false) {
		out["inherited_roles_obj"] = rolesObj(rc.st, inheritedRoles(rc.st, d["pk"]))
	}
	return out
}

// inheritedRoles are the roles of the group's ancestors.
func inheritedRoles(st *state, pk any) []any {
	ancs := ancestors(st, pk)
	roles := make([]any, 0, len(ancs))
	for _, a := range ancs {
		roles = append(roles, list(a["roles"])...)
	}
	return roles
}

// groupMemberOps serves add_user/remove_user (POST {"pk": <user>} → 204).
func groupMemberOps(ops map[string]handler) {
	change := func(add bool) handler {
		return func(c *call) reply {
			k := c.s.kindNamed("core/groups")
			g := c.st.lookup(k, c.id())
			if g == nil {
				return notFound(k.model)
			}
			_, u := c.st.find("user", c.body["pk"])
			if u == nil {
				return detail(http.StatusNotFound, "Not found.")
			}
			groups := list(u.data["groups"])
			if add && !contains(groups, g.data["pk"]) {
				u.data["groups"] = append(groups, g.data["pk"])
			} else if !add {
				u.data["groups"] = without(groups, g.data["pk"])
			}
			return noContent()
		}
	}
	ops["core_groups_add_user_create"] = change(true)
	ops["core_groups_remove_user_create"] = change(false)
}

func include(rc *renderCtx, name string, def bool) bool {
	v := rc.q.Get(name)
	if v == "" {
		return def
	}
	return strings.EqualFold(v, "true")
}

// members returns the pks of a group's users, in pk order.
func members(st *state, groupPK any) []any {
	var pks []int64
	for _, u := range st.tables["core/users"].rows {
		if contains(list(u.data["groups"]), groupPK) {
			n, _ := toInt(u.data["pk"])
			pks = append(pks, n)
		}
	}
	sort.Slice(pks, func(i, j int) bool { return pks[i] < pks[j] })
	out := make([]any, 0, len(pks))
	for _, p := range pks {
		out = append(out, p)
	}
	return out
}

// ancestors returns every group above a group (parents, their parents...).
func ancestors(st *state, pk any) []map[string]any {
	seen := map[string]bool{keyOf(pk): true}
	var out []map[string]any
	queue := []any{pk}
	for len(queue) > 0 {
		_, r := st.find("group", queue[0])
		queue = queue[1:]
		if r == nil {
			continue
		}
		for _, p := range list(r.data["parents"]) {
			if seen[keyOf(p)] {
				continue
			}
			seen[keyOf(p)] = true
			if _, pr := st.find("group", p); pr != nil {
				out = append(out, pr.data)
				queue = append(queue, p)
			}
		}
	}
	return out
}

func relatedGroups(st *state, pks []any) []any {
	out := []any{}
	for _, pk := range pks {
		if _, r := st.find("group", pk); r != nil {
			out = append(out, map[string]any{
				"pk": r.data["pk"], "group_uuid": r.data["pk"], "name": r.data["name"],
				"is_superuser": r.data["is_superuser"], "attributes": r.data["attributes"],
			})
		}
	}
	return out
}

func partialGroup(d map[string]any) map[string]any {
	return withFields(map[string]any{}, d, "pk", "num_pk", "name", "is_superuser", "attributes")
}

func without(l []any, v any) []any {
	out := []any{}
	for _, x := range l {
		if keyOf(x) != keyOf(v) {
			out = append(out, x)
		}
	}
	return out
}

func anyIn(l []any, vals []string) bool {
	for _, x := range l {
		if containsStr(vals, keyOf(x)) {
			return true
		}
	}
	return false
}
