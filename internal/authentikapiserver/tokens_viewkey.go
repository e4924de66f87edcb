package authentikapiserver

import "net/http"

// view_key of /core/tokens/{identifier}/: the token's key. authentik keeps a
// key on every token; this server makes one the first time it is asked for a
// token that has none yet (tokens it stored before keys were modelled), and
// keeps it out of every other rendering, as authentik does.
//
// Kept apart from tokens.go on purpose: another branch models the rest of the
// token endpoints, and the two are to be folded together when both land.
func tokenViewKey(c *call) reply {
	r := c.st.lookup(c.st.tables["core/tokens"].k, c.id())
	if r == nil {
		return notFound("Token")
	}
	key, _ := r.data["key"].(string)
	if key == "" {
		key = randomString(60)
		r.data["key"] = key
	}
	return jsonReply(http.StatusOK, map[string]any{"key": key})
}
