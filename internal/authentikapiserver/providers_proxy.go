package authentikapiserver

import (
	"net/url"
	"regexp"
	"strings"
)

// proxyKind is /providers/proxy/. authentik's ProxyProvider is an OAuth2
// provider underneath: its serializer calls set_oauth_defaults() on every
// create and update, which generates a client_id, derives redirect_uris from
// external_host and mode, and ADDS the openid/email/profile/ak_proxy scope
// mappings to property_mappings. A client comparing property_mappings with
// what it sent must expect those extras.
func proxyKind() *kind {
	fields := append(providerFields(),
		field{name: "internal_host", def: defStr("")},
		field{name: "external_host"},
		field{name: "internal_host_ssl_validation", def: defBool(true)},
		field{name: "certificate", def: defNil(), ref: "certificatekeypair"},
		field{name: "skip_path_regex", def: defStr("")},
		field{name: "basic_auth_enabled", def: defBool(false)},
		field{name: "basic_auth_password_attribute", def: defStr("")},
		field{name: "basic_auth_user_attribute", def: defStr("")},
		field{name: "mode", def: defStr("proxy")},
		field{name: "intercept_header_auth", def: defBool(true)},
		field{name: "cookie_domain", def: defStr("")},
		field{name: "jwt_federation_sources", def: defList()},
		field{name: "jwt_federation_providers", def: defList(), ref: providerGroup, many: true, ints: true},
		field{name: "access_token_validity", def: defStr("hours=24")},
		field{name: "refresh_token_validity", def: defStr("days=30")},
	)
	k := &kind{
		path: "providers/proxy", op: "providers_proxy", model: "ProxyProvider",
		group: providerGroup, lookup: "pk", pk: pkInt,
		fields: fields, unique: providerUnique(),
		ordering: "name",
		search:   []string{"name"},
		filters: map[string]filter{
			"name__iexact":                          iexact("name"),
			"external_host__iexact":                 iexact("external_host"),
			"internal_host__iexact":                 iexact("internal_host"),
			"mode__iexact":                          iexact("mode"),
			"cookie_domain__iexact":                 iexact("cookie_domain"),
			"skip_path_regex__iexact":               iexact("skip_path_regex"),
			"basic_auth_enabled__iexact":            boolFilter("basic_auth_enabled"),
			"internal_host_ssl_validation__iexact":  boolFilter("internal_host_ssl_validation"),
			"basic_auth_user_attribute__iexact":     iexact("basic_auth_user_attribute"),
			"basic_auth_password_attribute__iexact": iexact("basic_auth_password_attribute"),
			"certificate__kp_uuid__iexact":          iexact("certificate"),
			"application__isnull":                   isNull("assigned_application_slug"),
		},
		validate: func(wc *writeCtx, errs fieldErrors) {
			if re := str(wc.data["skip_path_regex"]); re != "" {
				for _, line := range strings.Split(re, "\n") {
					if _, err := regexp.Compile(line); err != nil {
						errs.add("skip_path_regex", "Invalid Regex Pattern: %s", line)
						return
					}
				}
			}
		},
		prepare: func(wc *writeCtx) {
			if wc.creating() {
				wc.data["client_id"] = randomString(40)
			}
			pms := list(wc.data["property_mappings"])
			for _, managed := range []string{scopeOpenID, scopeEmail, scopeProfile, scopeProxy} {
				if pk := managedMappingPK(wc.st, managed); pk != nil && !contains(pms, pk) {
					pms = append(pms, pk)
				}
			}
			wc.data["property_mappings"] = pms
		},
	}
	k.render = func(rc *renderCtx, d map[string]any) map[string]any {
		out := renderProvider(rc, k, d)
		withFields(out, d, "internal_host", "external_host", "internal_host_ssl_validation", "certificate",
			"skip_path_regex", "basic_auth_enabled", "basic_auth_password_attribute", "basic_auth_user_attribute",
			"mode", "intercept_header_auth", "cookie_domain", "jwt_federation_sources", "jwt_federation_providers",
			"access_token_validity", "refresh_token_validity")
		out["client_id"] = d["client_id"]
		out["redirect_uris"] = proxyRedirectURIs(d)
		out["outpost_set"] = outpostSet(rc.st, d["pk"])
		return out
	}
	return k
}

// proxyRedirectURIs mirrors set_oauth_defaults: the outpost callback below
// external_host, external_host itself, and for domain-level forward auth a
// regex covering every host under cookie_domain.
func proxyRedirectURIs(d map[string]any) []any {
	ext := str(d["external_host"])
	callback := ext
	if u, err := url.Parse(ext); err == nil {
		callback = u.ResolveReference(&url.URL{Path: "outpost.goauthentik.io/callback"}).String()
	}
	uri := func(mode, u string) map[string]any {
		return map[string]any{"matching_mode": mode, "url": u, "redirect_uri_type": "authorization"}
	}
	out := []any{
		uri("strict", callback+"?X-authentik-auth-callback=true"),
		uri("strict", ext+"?X-authentik-auth-callback=true"),
	}
	if str(d["mode"]) == "forward_domain" {
		out = append(out, uri("regex", "https://.*\\."+regexp.QuoteMeta(str(d["cookie_domain"]))+"/outpost.goauthentik.io/callback\\?X-authentik-auth-callback=true"))
	}
	return out
}
