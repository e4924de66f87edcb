package authentikapiserver

import (
	"net/http"
	"time"
)

// tokenDuration is authentik's default token duration (the tenant's
// default_token_duration): what an API token's expiry is set to on every
// write, and the longest an app password may be given.
const tokenDuration = 30 * time.Minute

// tokenKeyLength is authentik's default_token_length.
const tokenKeyLength = 60

// tokenKind is /core/tokens/, looked up by identifier. A token belongs to a
// user and is deleted with it (on_delete=CASCADE). Its key is kept on the
// object but never rendered: only view_key shows it.
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
			{name: "expires", def: func(*state) any { return expiryFromNow() }},
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
		prepare: func(wc *writeCtx) {
			if wc.creating() && str(wc.data["key"]) == "" {
				wc.data["key"] = randomString(tokenKeyLength)
			}
		},
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

func expiryFromNow() string {
	return time.Now().UTC().Add(tokenDuration).Format("2006-01-02T15:04:05.000000Z")
}

// validateToken is TokenSerializer.validate, which runs on every create and
// update with the fields the request carries: a request without user gets the
// requesting user (akadmin here), one without intent gets "api", so a PATCH
// that leaves them out moves the token to the requester and makes it an API
// token. Only API tokens and app passwords can be written; an API token's
// expiry is reset to the default duration on every write, and an app
// password's may not go beyond it. Seeded tokens (made by authentik itself:
// verification, recovery) may have any intent.
func validateToken(wc *writeCtx, errs fieldErrors) {
	if wc.seeding {
		if wc.creating() && wc.data["user"] == nil {
			wc.data["user"] = requester(wc)
		}
		return
	}
	if !wc.sent("user") {
		wc.data["user"] = requester(wc)
	}
	if !wc.sent("intent") {
		wc.data["intent"] = "api"
	}
	switch i := str(wc.data["intent"]); i {
	case "api":
		wc.data["expires"] = expiryFromNow()
	case "app_password":
		if !wc.sent("expires") || wc.body["expires"] == nil {
			return
		}
		limit := time.Now().UTC().Add(tokenDuration)
		if t, err := time.Parse(time.RFC3339Nano, str(wc.body["expires"])); err == nil && t.After(limit) {
			errs.add("expires", "Token expires exceeds maximum lifetime (%s UTC).", limit.Format("2006-01-02 15:04:05.000000+00:00"))
		}
	default:
		errs.add("intent", "Invalid intent %s", i)
	}
}

// requester is the user a request authenticates as: the bootstrap admin.
func requester(wc *writeCtx) any {
	if r := wc.st.lookup(wc.st.tables["core/users"].k, "1"); r != nil {
		return r.data["pk"]
	}
	return nil
}

// tokenOps serves view_key and set_key. authentik records both as events;
// this server keeps no events.
func tokenOps(ops map[string]handler) {
	ops["core_tokens_view_key_retrieve"] = func(c *call) reply {
		k := c.s.kindNamed("core/tokens")
		r := c.st.lookup(k, c.id())
		if r == nil {
			return notFound(k.model)
		}
		// A token made with its owner (an outpost's) gets its key when first asked for, as
		// one made through the endpoint gets it at creation; it is never rendered elsewhere.
		if str(r.data["key"]) == "" {
			r.data["key"] = randomString(tokenKeyLength)
		}
		return jsonReply(http.StatusOK, map[string]any{"key": str(r.data["key"])})
	}
	ops["core_tokens_set_key_create"] = func(c *call) reply {
		k := c.s.kindNamed("core/tokens")
		r := c.st.lookup(k, c.id())
		if r == nil {
			return notFound(k.model)
		}
		key := str(c.body["key"])
		if key == "" {
			return reply{status: http.StatusBadRequest}
		}
		r.data["key"] = key
		return noContent()
	}
}
