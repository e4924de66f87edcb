package authentikapiserver

import "fmt"

// seedDefaults creates what a fresh authentik 2026.8 install has that the
// provider looks up: the default flows (by slug), the self-signed keypair,
// the managed scope and SAML property mappings (by managed ID), the default
// brand, and the bootstrap admin user and group. Mapping expressions are placeholders: the
// names, scope/SAML names and managed IDs are what clients rely on.
func seedDefaults(st *state) {
	must := func(path string, obj map[string]any) {
		k := st.tables[path].k
		if _, errs := write(st, k, obj, nil, "", true); errs != nil {
			panic(fmt.Sprintf("authentikapiserver: seed %s: %v", path, errs))
		}
	}
	for _, f := range []struct{ slug, name, title, designation, auth string }{
		{"default-authentication-flow", "Welcome to authentik!", "Welcome to authentik!", "authentication", "none"},
		{"default-invalidation-flow", "Logout", "Default Invalidation Flow", "invalidation", "none"},
		{"default-provider-authorization-explicit-consent", "Authorize Application", "Redirecting to %(app)s", "authorization", "require_authenticated"},
		{"default-provider-authorization-implicit-consent", "Authorize Application", "Redirecting to %(app)s", "authorization", "require_authenticated"},
		{"default-provider-invalidation-flow", "Logout", "You've logged out of %(app)s.", "invalidation", "none"},
		{"default-source-authentication", "Welcome to authentik!", "Welcome to authentik!", "authentication", "require_unauthenticated"},
		{"default-source-enrollment", "Welcome to authentik! Please select a username.", "Welcome to authentik!", "enrollment", "require_unauthenticated"},
		{"default-user-settings-flow", "User settings", "Update your info", "stage_configuration", "require_authenticated"},
		{"default-password-change", "Change Password", "Change password", "stage_configuration", "require_authenticated"},
	} {
		must("flows/instances", map[string]any{"slug": f.slug, "name": f.name, "title": f.title, "designation": f.designation, "authentication": f.auth})
	}

	cert, key := selfSigned()
	must("crypto/certificatekeypairs", map[string]any{"name": "authentik Self-signed Certificate", "certificate_data": cert, "key_data": key})

	for _, m := range []struct{ managed, name, scope, description string }{
		{scopeOpenID, "authentik default OAuth Mapping: OpenID 'openid'", "openid", ""},
		{scopeEmail, "authentik default OAuth Mapping: OpenID 'email'", "email", "Email address"},
		{scopeProfile, "authentik default OAuth Mapping: OpenID 'profile'", "profile", "General Profile Information"},
		{"goauthentik.io/providers/oauth2/scope-entitlements", "authentik default OAuth Mapping: Application Entitlements", "entitlements", "Application entitlements"},
		{"goauthentik.io/providers/oauth2/scope-offline_access", "authentik default OAuth Mapping: OpenID 'offline_access'", "offline_access", "Access to request new tokens without interaction"},
		{"goauthentik.io/providers/oauth2/scope-authentik_api", "authentik default OAuth Mapping: authentik API access", "goauthentik.io/api", "authentik API Access on behalf of your user"},
		{scopeProxy, "authentik default OAuth Mapping: Proxy outpost", "ak_proxy", ""},
	} {
		must("propertymappings/provider/scope", map[string]any{"managed": m.managed, "name": m.name, "scope_name": m.scope, "description": m.description, "expression": "return {}  # placeholder"})
	}

	for _, m := range []struct{ id, name, samlName string }{
		{"upn", "UPN", "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/upn"},
		{"name", "Name", "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name"},
		{"email", "Email", "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress"},
		{"username", "Username", "http://schemas.goauthentik.io/2021/02/saml/username"},
		{"uid", "User ID", "http://schemas.goauthentik.io/2021/02/saml/uid"},
		{"groups", "Groups", "http://schemas.xmlsoap.org/claims/Group"},
		{"ms-windowsaccountname", "WindowsAccountname (Username)", "http://schemas.microsoft.com/ws/2008/06/identity/claims/windowsaccountname"},
	} {
		must("propertymappings/provider/saml", map[string]any{
			"managed": "goauthentik.io/providers/saml/" + m.id, "name": "authentik default SAML Mapping: " + m.name,
			"saml_name": m.samlName, "expression": "return None  # placeholder",
		})
	}

	// The default brand of authentik's blueprint default/default-brand.yaml.
	flowPK := func(slug string) any { return st.lookup(st.tables["flows/instances"].k, slug).data["pk"] }
	must("core/brands", map[string]any{
		"domain": "authentik-default", "default": true,
		"flow_authentication": flowPK("default-authentication-flow"), "flow_invalidation": flowPK("default-invalidation-flow"),
		"flow_user_settings": flowPK("default-user-settings-flow"),
	})

	must("core/groups", map[string]any{"name": "authentik Admins", "is_superuser": true})
	admins := st.tables["core/groups"].rows[0].data["pk"]
	must("core/users", map[string]any{"username": "akadmin", "name": "authentik Default Admin", "email": "root@localhost", "groups": []any{admins}})
	seedEmbeddedOutpost(st)
}
