package authentikapiserver

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"
)

// userKind is /core/users/ (integer pk). The username uniqueness check is the
// serializer's own UniqueValidator, hence DRF's generic message.
func userKind() *kind {
	k := &kind{
		path: "core/users", op: "core_users", model: "User",
		group: "user", lookup: "pk", pk: pkInt,
		fields: []field{
			{name: "username"},
			{name: "name", def: defStr("")},
			{name: "is_active", def: defBool(true)},
			{name: "last_login", def: defNil()},
			{name: "groups", def: defList(), ref: "group", many: true},
			{name: "roles", def: defList(), ref: "role", many: true},
			{name: "email", def: defStr("")},
			{name: "attributes", def: defMap()},
			{name: "path", def: defStr("users")},
			{name: "type", def: defStr("internal")},
		},
		unique:   []unique{{field: "username", msg: msgUnique}},
		ordering: "username",
		search:   []string{"username", "name", "is_active", "email", "uuid"},
		filters: map[string]filter{
			"username":     exact("username"),
			"email":        exact("email"),
			"name":         exact("name"),
			"is_active":    boolFilter("is_active"),
			"is_superuser": boolFilter("is_superuser"),
			"uuid":         exact("uuid"),
			"path":         exact("path"),
			"attributes":   attributesFilter("attributes"),
			"type":         anyOf("type"),
			"groups_by_pk": listHasAny("groups"),
			"path_startswith": func(_ *renderCtx, obj map[string]any, vals []string) (bool, fieldErrors) {
				return strings.HasPrefix(str(obj["path"]), vals[0]), nil
			},
			"groups_by_name": func(rc *renderCtx, obj map[string]any, vals []string) (bool, fieldErrors) {
				for _, g := range list(obj["groups"]) {
					if _, r := rc.st.find("group", g); r != nil && containsStr(vals, str(r.data["name"])) {
						return true, nil
					}
				}
				return false, nil
			},
		},
		options:  []string{"include_groups", "include_roles"},
		validate: validateUser,
		prepare: func(wc *writeCtx) {
			t := now()
			if wc.creating() {
				wc.data["uuid"] = newUUID()
				wc.data["date_joined"] = t
				wc.data["password_change_date"] = t
			}
			wc.data["last_updated"] = t
		},
	}
	k.render = func(rc *renderCtx, d map[string]any) map[string]any {
		out := withFields(map[string]any{}, d, "pk", "username", "name", "is_active", "last_login", "groups",
			"roles", "email", "attributes", "path", "type", "uuid", "date_joined", "password_change_date", "last_updated")
		out["is_superuser"] = isSuperuser(rc.st, d)
		out["uid"] = userUID(d["pk"])
		out["avatar"] = "/static/dist/assets/images/user_default.png"
		out["groups_obj"] = nil
		if include(rc, "include_groups", true) {
			objs := []any{}
			for _, g := range list(d["groups"]) {
				if _, r := rc.st.find("group", g); r != nil {
					objs = append(objs, partialGroup(r.data))
				}
			}
			out["groups_obj"] = objs
		}
		out["roles_obj"] = nil
		if include(rc, "include_roles", true) {
			out["roles_obj"] = rolesObj(rc.st, list(d["roles"]))
		}
		return out
	}
	return k
}

// validateUser carries UserSerializer.validate_path and validate_type.
func validateUser(wc *writeCtx, errs fieldErrors) {
	if wc.sent("path") {
		p := str(wc.data["path"])
		if strings.HasPrefix(p, "/") || strings.HasSuffix(p, "/") {
			errs.add("path", "No leading or trailing slashes allowed.")
		} else {
			for _, seg := range strings.Split(p, "/") {
				if seg == "" {
					errs.add("path", "No empty segments in user path allowed.")
					break
				}
			}
		}
	}
	if wc.sent("type") {
		t := str(wc.data["type"])
		switch {
		case wc.creating() && t == "internal_service_account":
			errs.add("type", "Setting a user to internal service account is not allowed.")
		case !wc.creating() && str(wc.old["type"]) == "internal_service_account" && t != "internal_service_account":
			errs.add("type", "Can't change internal service account to other user type.")
		}
	}
}

// isSuperuser: a user is superuser through any group, inherited ones included.
func isSuperuser(st *state, d map[string]any) bool {
	for _, g := range list(d["groups"]) {
		_, r := st.find("group", g)
		if r == nil {
			continue
		}
		if boolean(r.data["is_superuser"]) {
			return true
		}
		for _, a := range ancestors(st, g) {
			if boolean(a["is_superuser"]) {
				return true
			}
		}
	}
	return false
}

// userUID is authentik's User.uid: a hash of the pk and the instance secret.
func userUID(pk any) string {
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s-authentikapiserver-secret", keyOf(pk))))
	return hex.EncodeToString(sum[:])
}

func partialUser(d map[string]any) map[string]any {
	out := withFields(map[string]any{}, d, "pk", "username", "name", "is_active", "last_login", "email", "attributes")
	out["uid"] = userUID(d["pk"])
	return out
}

// setPassword is POST /core/users/{id}/set_password/: 204, or a bare 400 when
// the password is rejected (authentik answers without a body then).
func setPassword(c *call) reply {
	k := c.s.kindNamed("core/users")
	r := c.st.lookup(k, c.id())
	if r == nil {
		return notFound(k.model)
	}
	pw := str(c.body["password"])
	if pw == "" {
		return reply{status: http.StatusBadRequest, raw: []byte{}, contentType: "application/json"}
	}
	pk, _ := toInt(r.data["pk"])
	c.st.passwords[pk] = pw
	r.data["password_change_date"] = now()
	r.data["last_updated"] = now()
	return noContent()
}
