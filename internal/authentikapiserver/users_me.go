package authentikapiserver

import "net/http"

// tokenUsername is the user the server's single API token belongs to: the
// bootstrap admin seedDefaults creates, as a token made in a fresh authentik
// would be.
const tokenUsername = "akadmin"

// usersMe is GET /core/users/me/: the token's own user as a SessionUser
// (UserSelf under "user" and as the one entry of "users"; no "original",
// nobody is impersonated). The
// provider's ProviderConfig check calls it.
func usersMe(c *call) reply {
	k := c.s.kindNamed("core/users")
	var u map[string]any
	for _, r := range c.st.tables[k.path].rows {
		if str(r.data["username"]) == tokenUsername {
			u = r.data
			break
		}
	}
	if u == nil {
		// The token's user was deleted: authentik rejects its tokens then.
		return detail(http.StatusForbidden, msgTokenInvalid)
	}
	groups := []any{}
	for _, g := range list(u["groups"]) {
		if _, r := c.st.find("group", g); r != nil {
			groups = append(groups, map[string]any{"name": r.data["name"], "pk": keyOf(r.data["pk"])})
		}
	}
	roles := []any{}
	for _, r := range rolesObj(c.st, list(u["roles"])) {
		m := r.(map[string]any)
		roles = append(roles, map[string]any{"name": m["name"], "pk": keyOf(m["pk"])})
	}
	self := withFields(map[string]any{}, u, "pk", "username", "name", "is_active", "email", "type")
	self["is_superuser"] = isSuperuser(c.st, u)
	self["is_current"] = false
	self["groups"] = groups
	self["roles"] = roles
	self["avatar"] = "/static/dist/assets/images/user_default.png"
	self["uid"] = userUID(u["pk"])
	self["settings"] = map[string]any{}
	self["system_permissions"] = []any{}
	return jsonReply(http.StatusOK, map[string]any{"user": self, "users": []any{self}})
}
