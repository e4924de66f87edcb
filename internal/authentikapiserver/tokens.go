package authentikapiserver

import "time"

// tokenKind is /core/tokens/, looked up by identifier. A token belongs to a
// user and is deleted with it (on_delete=CASCADE).
func tokenKind() *kind {
	k := &kind{
		path: "core/tokens", op: "core_tokens", model: "Token",
		group: "token", lookup: "identifier", pk: pkUUID,
		fields: []field{
			{name: "managed", def: defNil()},
			{name: "identifier"},
			// The model's default; the API's default is "api" (see validateToken).
			{name: "intent", def: defStr("verification")},
			{name: "user", ref: "user", ints: true, cascade: true},
			{name: "description", def: defStr("")},
			// default_token_duration: 30 minutes from now.
			{name: "expires", def: func(*state) any {
				return time.Now().UTC().Add(30 * time.Minute).Format("2006-01-02T15:04:05.000000Z")
			}},
			{name: "expiring", def: defBool(true)},
		},
		unique: []unique{
			{field: "identifier", msg: modelUniqueMsg("Token", "identifier")},
			{field: "managed", msg: modelUniqueMsg("Token", "managed")},
		},
		// TokenViewSet: ordering ["identifier", "expires"], search_fields
		// ["identifier", "intent", "user__username", "description"].
		ordering: "identifier",
		search:   []string{"identifier", "intent", "user_obj__username", "description"},
		filters: map[string]filter{
			"description": exact("description"),
			"expires":     exact("expires"),
			"expiring":    boolFilter("expiring"),
			"identifier":  exact("identifier"),
			"intent":      exact("intent"),
			"managed":     exact("managed"),
			"user__username": func(_ *renderCtx, obj map[string]any, vals []string) (bool, fieldErrors) {
				return scalarString(pathValue(obj, "user_obj__username")) == vals[0], nil
			},
		},
		validate: validateToken,
	}
	k.render = func(rc *renderCtx, d map[string]any) map[string]any {
		out := withFields(map[string]any{}, d, "pk", "managed", "identifier", "intent", "user", "description", "expires", "expiring")
		out["user_obj"] = nil
		if _, r := rc.st.find("user", d["user"]); r != nil {
			out["user_obj"] = rc.render(rc.st.tables["core/users"].k, r.data)
		}
		return out
	}
	return k
}

// validateToken is TokenSerializer.validate: the user defaults to the
// requesting one (the token's owner, akadmin here), the intent to "api", and
// only API tokens and app passwords can be made through the API. Seeded tokens
// (made by authentik itself: verification, recovery) may have any intent.
func validateToken(wc *writeCtx, errs fieldErrors) {
	if wc.creating() && wc.data["user"] == nil {
		if r := wc.st.lookup(wc.st.tables["core/users"].k, "1"); r != nil {
			wc.data["user"] = r.data["pk"]
		}
	}
	if wc.seeding {
		return
	}
	if wc.creating() && !wc.sent("intent") {
		wc.data["intent"] = "api"
	}
	if i := str(wc.data["intent"]); i != "api" && i != "app_password" {
		errs.add("intent", "Invalid intent %s", i)
	}
}
