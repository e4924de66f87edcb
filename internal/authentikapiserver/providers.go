package authentikapiserver

import (
	"net/http"
)

// Providers of every type share one table in authentik (Provider, with a
// child table per type), hence one pk sequence, one reference group and a
// name that is unique across all types.

const providerGroup = "provider"

// providerMeta holds the per-type constants authentik's serializers expose.
type providerMeta struct {
	component, verbose, plural, metaModel string
}

var providerMetas = map[string]providerMeta{
	"providers/oauth2": {"ak-provider-oauth2-form", "OAuth2/OpenID Provider", "OAuth2/OpenID Providers", "authentik_providers_oauth2.oauth2provider"},
	"providers/saml":   {"ak-provider-saml-form", "SAML Provider", "SAML Providers", "authentik_providers_saml.samlprovider"},
	"providers/proxy":  {"ak-provider-proxy-form", "Proxy Provider", "Proxy Providers", "authentik_providers_proxy.proxyprovider"},
	"providers/ldap":   {"ak-provider-ldap-form", "LDAP Provider", "LDAP Providers", "authentik_providers_ldap.ldapprovider"},
}

// defaultFlow is a seed-only default: the API requires both flows, but an
// object seeded by a test should not need to spell them out.
func defaultFlow(slug string) func(st *state) any {
	return func(st *state) any {
		if r := st.lookup(st.tables["flows/instances"].k, slug); r != nil {
			return r.data["pk"]
		}
		return nil
	}
}

func providerFields() []field {
	return []field{
		{name: "name"},
		{name: "authentication_flow", def: defNil(), ref: "flow"},
		{name: "authorization_flow", def: defaultFlow("default-provider-authorization-implicit-consent"), ref: "flow", cascade: true},
		{name: "invalidation_flow", def: defaultFlow("default-provider-invalidation-flow"), ref: "flow", cascade: true},
		{name: "property_mappings", def: defList(), ref: mappingGroup, many: true},
	}
}

func providerUnique() []unique {
	return []unique{{field: "name", group: providerGroup, msg: modelUniqueMsg("Provider", "name")}}
}

// assignedApp finds the application using a provider, as its main provider
// or as a backchannel provider.
func assignedApp(st *state, pk any, backchannel bool) map[string]any {
	for _, r := range st.tables["core/applications"].rows {
		if backchannel {
			if contains(list(r.data["backchannel_providers"]), pk) {
				return r.data
			}
		} else if r.data["provider"] != nil && keyOf(r.data["provider"]) == keyOf(pk) {
			return r.data
		}
	}
	return nil
}

// renderProvider is authentik's ProviderSerializer, which every typed
// provider serializer extends and which application.provider_obj and
// providers/all use.
func renderProvider(rc *renderCtx, k *kind, d map[string]any) map[string]any {
	meta := providerMetas[k.path]
	out := map[string]any{
		"pk":                  d["pk"],
		"name":                d["name"],
		"authentication_flow": d["authentication_flow"],
		"authorization_flow":  d["authorization_flow"],
		"invalidation_flow":   d["invalidation_flow"],
		"property_mappings":   d["property_mappings"],
		"component":           meta.component,
		"verbose_name":        meta.verbose,
		"verbose_name_plural": meta.plural,
		"meta_model_name":     meta.metaModel,
	}
	for _, bc := range []bool{false, true} {
		prefix := "assigned_application_"
		if bc {
			prefix = "assigned_backchannel_application_"
		}
		out[prefix+"slug"], out[prefix+"name"] = nil, nil
		if app := assignedApp(rc.st, d["pk"], bc); app != nil {
			out[prefix+"slug"], out[prefix+"name"] = app["slug"], app["name"]
		}
	}
	return out
}

// withFields copies the given stored fields into a rendered object.
func withFields(out, d map[string]any, names ...string) map[string]any {
	for _, n := range names {
		out[n] = d[n]
	}
	return out
}

func providerKinds() []*kind {
	return []*kind{oauth2Kind(), samlKind(), proxyKind(), ldapKind()}
}

// providersAllOps serves /providers/all/: a read-and-delete view over every
// provider type, rendered with the base Provider serializer.
func providersAllOps(ops map[string]handler, kinds []*kind) {
	var pks []*kind
	for _, k := range kinds {
		if k.group == providerGroup {
			// Same table, rendered with the base serializer.
			base := *k
			typed := k
			base.render = func(rc *renderCtx, d map[string]any) map[string]any { return renderProvider(rc, typed, d) }
			pks = append(pks, &base)
		}
	}
	filters := map[string]filter{
		"application__isnull": isNull("assigned_application_slug"),
		// None of the modelled types is a backchannel provider (SCIM, RAC... are).
		"backchannel": func(_ *renderCtx, _ map[string]any, vals []string) (bool, fieldErrors) {
			return vals[0] != "true", nil
		},
	}
	ops["providers_all_list"] = func(c *call) reply {
		return listKinds(c, "pk", []string{"name", "assigned_application_name"}, filters, nil, pks)
	}
	ops["providers_all_retrieve"] = func(c *call) reply {
		t, r := c.st.find(providerGroup, c.id())
		if r == nil {
			return notFound("Provider")
		}
		return jsonReply(http.StatusOK, renderProvider(c.rc(), t.k, r.data))
	}
	ops["providers_all_destroy"] = func(c *call) reply {
		t, r := c.st.find(providerGroup, c.id())
		if r == nil {
			return notFound("Provider")
		}
		c.st.remove(t.k, r)
		return noContent()
	}
}
