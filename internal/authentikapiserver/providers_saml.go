package authentikapiserver

import (
	"encoding/base64"
	"fmt"
	"html"
	"net/http"
	"strings"
)

// samlKind is /providers/saml/ with authentik's model defaults (assertion
// validity -5/+5 minutes, SHA-256 signatures, redirect bindings).
func samlKind() *kind {
	fields := append(providerFields(),
		field{name: "acs_url"},
		field{name: "sls_url", def: defStr("")},
		field{name: "audience", def: defStr("")},
		field{name: "issuer_override", def: defStr("")},
		field{name: "assertion_valid_not_before", def: defStr("minutes=-5")},
		field{name: "assertion_valid_not_on_or_after", def: defStr("minutes=5")},
		field{name: "session_valid_not_on_or_after", def: defStr("minutes=86400")},
		field{name: "name_id_mapping", def: defNil(), ref: mappingGroup},
		field{name: "authn_context_class_ref_mapping", def: defNil(), ref: mappingGroup},
		field{name: "digest_algorithm", def: defStr("http://www.w3.org/2001/04/xmlenc#sha256")},
		field{name: "signature_algorithm", def: defStr("http://www.w3.org/2001/04/xmldsig-more#rsa-sha256")},
		field{name: "signing_kp", def: defNil(), ref: "certificatekeypair"},
		field{name: "verification_kp", def: defNil(), ref: "certificatekeypair"},
		field{name: "encryption_kp", def: defNil(), ref: "certificatekeypair"},
		field{name: "sign_assertion", def: defBool(true)},
		field{name: "sign_response", def: defBool(false)},
		field{name: "sign_logout_request", def: defBool(false)},
		field{name: "sign_logout_response", def: defBool(false)},
		field{name: "sp_binding", def: defStr("redirect")},
		field{name: "sls_binding", def: defStr("redirect")},
		field{name: "logout_method", def: defStr("frontchannel_iframe")},
		field{name: "default_relay_state", def: defStr("")},
		field{name: "default_name_id_policy", def: defStr("urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified")},
	)
	k := &kind{
		path: "providers/saml", op: "providers_saml", model: "SAMLProvider",
		group: providerGroup, lookup: "pk", pk: pkInt,
		fields: fields, unique: providerUnique(),
		ordering: "name",
		search:   []string{"name"},
		filters: map[string]filter{
			"name":                   exact("name"),
			"acs_url":                exact("acs_url"),
			"sls_url":                exact("sls_url"),
			"audience":               exact("audience"),
			"issuer_override":        exact("issuer_override"),
			"authorization_flow":     exact("authorization_flow"),
			"authentication_flow":    exact("authentication_flow"),
			"invalidation_flow":      exact("invalidation_flow"),
			"signing_kp":             exact("signing_kp"),
			"verification_kp":        exact("verification_kp"),
			"encryption_kp":          exact("encryption_kp"),
			"sp_binding":             exact("sp_binding"),
			"sls_binding":            exact("sls_binding"),
			"digest_algorithm":       exact("digest_algorithm"),
			"signature_algorithm":    exact("signature_algorithm"),
			"default_name_id_policy": exact("default_name_id_policy"),
			"logout_method":          exact("logout_method"),
			"sign_assertion":         boolFilter("sign_assertion"),
			"sign_response":          boolFilter("sign_response"),
			"property_mappings":      listHasAny("property_mappings"),
		},
	}
	k.render = func(rc *renderCtx, d map[string]any) map[string]any {
		out := renderProvider(rc, k, d)
		withFields(out, d, "acs_url", "sls_url", "audience", "issuer_override",
			"assertion_valid_not_before", "assertion_valid_not_on_or_after", "session_valid_not_on_or_after",
			"name_id_mapping", "authn_context_class_ref_mapping", "digest_algorithm", "signature_algorithm",
			"signing_kp", "verification_kp", "encryption_kp", "sign_assertion", "sign_response",
			"sign_logout_request", "sign_logout_response", "sp_binding", "sls_binding", "logout_method",
			"default_relay_state", "default_name_id_policy")
		for name, v := range samlURLs(rc, d) {
			out[name] = v
		}
		return out
	}
	return k
}

// samlURLs are the computed endpoint URLs. They hang off the application's
// slug; authentik answers "-" for each while no application uses the provider.
func samlURLs(rc *renderCtx, d map[string]any) map[string]any {
	out := map[string]any{
		"url_download_metadata": fmt.Sprintf("%s%s/providers/saml/%s/metadata/?download", rc.base, APIPrefix, keyOf(d["pk"])),
	}
	app := assignedApp(rc.st, d["pk"], false)
	for _, name := range []string{"url_issuer", "url_unified", "url_unified_init", "url_sso_post", "url_sso_redirect", "url_sso_init", "url_slo_post", "url_slo_redirect"} {
		out[name] = "-"
	}
	if app == nil {
		return out
	}
	root := fmt.Sprintf("%s/application/saml/%s/", rc.base, str(app["slug"]))
	out["url_issuer"] = samlIssuer(rc, d, app)
	out["url_unified"] = root
	out["url_unified_init"] = root + "init/"
	out["url_sso_post"] = root + "sso/binding/post/"
	out["url_sso_redirect"] = root + "sso/binding/redirect/"
	out["url_sso_init"] = root + "sso/binding/init/"
	out["url_slo_post"] = root + "slo/binding/post/"
	out["url_slo_redirect"] = root + "slo/binding/redirect/"
	return out
}

func samlIssuer(rc *renderCtx, d, app map[string]any) string {
	if s := str(d["issuer_override"]); s != "" {
		return s
	}
	return fmt.Sprintf("%s/application/saml/%s/metadata/", rc.base, str(app["slug"]))
}

const (
	bindingPOST     = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"
	bindingRedirect = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect"
)

// samlMetadata serves GET /providers/saml/{id}/metadata/: the IdP metadata
// as a JSON {"metadata": "<xml>"} or, with ?download, as the XML file.
func samlMetadata(c *call) reply {
	k := c.s.kindNamed("providers/saml")
	r := c.st.lookup(k, c.id())
	if r == nil {
		return notFound(k.model)
	}
	app := assignedApp(c.st, r.data["pk"], false)
	if app == nil {
		// Documented as 404 "Provider has no application assigned".
		return reply{status: http.StatusNotFound, raw: []byte{}, contentType: "application/json"}
	}
	rc := c.rc()
	urls := samlURLs(rc, r.data)
	bindings := []string{bindingRedirect, bindingPOST}
	if fb := c.query.Get("force_binding"); fb != "" {
		bindings = []string{fb}
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8"?>`+"\n")
	fmt.Fprintf(&b, `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="%s">`, html.EscapeString(samlIssuer(rc, r.data, app)))
	fmt.Fprintf(&b, `<md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">`)
	if kp := r.data["signing_kp"]; kp != nil {
		if _, kr := c.st.find("certificatekeypair", kp); kr != nil {
			der := certDER(kr.data)
			fmt.Fprintf(&b, `<md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>%s</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`, base64.StdEncoding.EncodeToString(der))
		}
	}
	for _, bnd := range bindings {
		u := urls["url_slo_redirect"]
		if bnd == bindingPOST {
			u = urls["url_slo_post"]
		}
		fmt.Fprintf(&b, `<md:SingleLogoutService Binding="%s" Location="%s"/>`, bnd, u)
	}
	for _, f := range []string{"urn:oasis:names:tc:SAML:2.0:nameid-format:persistent", "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress", "urn:oasis:names:tc:SAML:2.0:nameid-format:transient", "urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified"} {
		fmt.Fprintf(&b, `<md:NameIDFormat>%s</md:NameIDFormat>`, f)
	}
	for _, bnd := range bindings {
		u := urls["url_sso_redirect"]
		if bnd == bindingPOST {
			u = urls["url_sso_post"]
		}
		fmt.Fprintf(&b, `<md:SingleSignOnService Binding="%s" Location="%s"/>`, bnd, u)
	}
	b.WriteString(`</md:IDPSSODescriptor></md:EntityDescriptor>`)
	xml := b.String()
	if c.query.Has("download") && c.query.Get("download") != "false" {
		return reply{
			status: http.StatusOK, raw: []byte(xml), contentType: "application/xml",
			header: http.Header{"Content-Disposition": {fmt.Sprintf(`attachment; filename="%s_authentik_meta.xml"`, str(app["slug"]))}},
		}
	}
	return jsonReply(http.StatusOK, map[string]any{"metadata": xml, "download_url": urls["url_download_metadata"]})
}
