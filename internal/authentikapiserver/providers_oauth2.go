package authentikapiserver

import (
	"net/url"
	"regexp"
)

// oauth2Kind is /providers/oauth2/. Model defaults follow authentik 2026.8:
// client_id (40 chars) and client_secret (128 chars) are generated when a
// create omits them — for public clients too, as the model default does —
// and grant_types is empty for API-created providers (authentik 2026.5 made
// grant types configurable; only the UI and the migration pre-select them).
func oauth2Kind() *kind {
	fields := append(providerFields(),
		field{name: "client_type", def: defStr("confidential")},
		field{name: "grant_types", def: defList()},
		field{name: "client_id", def: func(*state) any { return randomString(40) }},
		field{name: "client_secret", def: func(*state) any { return randomString(128) }},
		field{name: "access_code_validity", def: defStr("minutes=1")},
		field{name: "access_token_validity", def: defStr("hours=1")},
		field{name: "refresh_token_validity", def: defStr("days=30")},
		field{name: "refresh_token_threshold", def: defStr("seconds=0")},
		field{name: "include_claims_in_id_token", def: defBool(true)},
		field{name: "signing_key", def: defNil(), ref: "certificatekeypair"},
		field{name: "encryption_key", def: defNil(), ref: "certificatekeypair"},
		field{name: "redirect_uris", def: defList()},
		field{name: "logout_uri", def: defStr("")},
		field{name: "logout_method", def: defStr("backchannel")},
		field{name: "sub_mode", def: defStr("hashed_user_id")},
		field{name: "issuer_mode", def: defStr("per_provider")},
		// Sources are not modelled, so their references are not checked.
		field{name: "jwt_federation_sources", def: defList()},
		field{name: "jwt_federation_providers", def: defList(), ref: providerGroup, many: true, ints: true},
	)
	k := &kind{
		path: "providers/oauth2", op: "providers_oauth2", model: "OAuth2Provider",
		group: providerGroup, lookup: "pk", pk: pkInt,
		fields: fields,
		unique: append(providerUnique(),
			// client_id is unique=True on the model.
			unique{field: "client_id", group: providerGroup, msg: modelUniqueMsg("OAuth2/OpenID Provider", "Client ID")}),
		ordering: "name",
		search:   []string{"name", "client_id"},
		filters: map[string]filter{
			"name":                       exact("name"),
			"client_id":                  exact("client_id"),
			"client_type":                exact("client_type"),
			"authorization_flow":         exact("authorization_flow"),
			"signing_key":                exact("signing_key"),
			"sub_mode":                   exact("sub_mode"),
			"issuer_mode":                exact("issuer_mode"),
			"include_claims_in_id_token": boolFilter("include_claims_in_id_token"),
			"access_code_validity":       exact("access_code_validity"),
			"access_token_validity":      exact("access_token_validity"),
			"refresh_token_validity":     exact("refresh_token_validity"),
			"application":                exact("assigned_application_slug"),
			"property_mappings":          listHasAny("property_mappings"),
		},
		validate: validateRedirectURIs,
		prepare: func(wc *writeCtx) {
			wc.data["redirect_uris"] = withRedirectDefaults(wc.data["redirect_uris"])
		},
	}
	k.render = func(rc *renderCtx, d map[string]any) map[string]any {
		out := renderProvider(rc, k, d)
		return withFields(out, d, "client_type", "grant_types", "client_id", "client_secret",
			"access_code_validity", "access_token_validity", "refresh_token_validity", "refresh_token_threshold",
			"include_claims_in_id_token", "signing_key", "encryption_key", "redirect_uris", "logout_uri",
			"logout_method", "sub_mode", "issuer_mode", "jwt_federation_sources", "jwt_federation_providers")
	}
	return k
}

// withRedirectDefaults applies RedirectURISerializer's default
// redirect_uri_type ("authorization") to each entry.
func withRedirectDefaults(v any) []any {
	out := []any{}
	for _, item := range list(v) {
		m, ok := item.(map[string]any)
		if !ok {
			continue
		}
		m = clone(m).(map[string]any)
		if _, ok := m["redirect_uri_type"]; !ok {
			m["redirect_uri_type"] = "authorization"
		}
		out = append(out, m)
	}
	return out
}

// validateRedirectURIs rejects regex-mode entries that do not compile, as
// authentik does before storing them.
func validateRedirectURIs(wc *writeCtx, errs fieldErrors) {
	for _, item := range list(wc.data["redirect_uris"]) {
		m, _ := item.(map[string]any)
		if str(m["matching_mode"]) != "regex" {
			continue
		}
		if _, err := regexp.Compile(str(m["url"])); err != nil {
			errs.add("redirect_uris", "Invalid Regex Pattern: %s", str(m["url"]))
		}
	}
}

// oauth2LaunchURL is OAuth2Provider.launch_url: the first redirect URI with
// its path removed.
func oauth2LaunchURL(d map[string]any) any {
	uris := list(d["redirect_uris"])
	if len(uris) == 0 {
		return nil
	}
	m, _ := uris[0].(map[string]any)
	u, err := url.Parse(str(m["url"]))
	if err != nil {
		return nil
	}
	u.Path, u.RawPath = "", ""
	return u.String()
}
