package authentikapiserver

import (
	"fmt"
	"strings"
)

// applicationKind is /core/applications/, looked up by slug. Its pk is the
// PolicyBindingModel UUID (pk and pbm_uuid are the same value).
func applicationKind() *kind {
	k := &kind{
		path: "core/applications", op: "core_applications", model: "Application",
		group: "application", alsoIn: []string{pbmGroup}, lookup: "slug", pk: pkUUID,
		fields: []field{
			{name: "name"},
			{name: "slug"},
			// on_delete=SET_DEFAULT (null): deleting a provider detaches it.
			{name: "provider", def: defNil(), ref: providerGroup, ints: true},
			{name: "backchannel_providers", def: defList(), ref: providerGroup, many: true, ints: true},
			{name: "open_in_new_tab", def: defBool(false)},
			{name: "meta_launch_url", def: defStr("")},
			{name: "meta_icon", def: defStr("")},
			{name: "meta_description", def: defStr("")},
			{name: "meta_publisher", def: defStr("")},
			{name: "policy_engine_mode", def: defStr("any")},
			{name: "group", def: defStr("")},
			{name: "meta_hide", def: defBool(false)},
		},
		unique: []unique{
			{field: "slug", msg: modelUniqueMsg("Application", "slug")},
			// provider is a OneToOneField: one application per provider.
			{field: "provider", msg: modelUniqueMsg("Application", "provider")},
		},
		ordering: "name",
		search:   []string{"name", "slug", "meta_launch_url", "meta_description", "meta_publisher", "group"},
		filters: map[string]filter{
			"name":             exact("name"),
			"slug":             exact("slug"),
			"meta_launch_url":  exact("meta_launch_url"),
			"meta_description": exact("meta_description"),
			"meta_publisher":   exact("meta_publisher"),
			"group":            exact("group"),
			"only_with_launch_url": func(_ *renderCtx, obj map[string]any, vals []string) (bool, fieldErrors) {
				return vals[0] != "true" || obj["launch_url"] != nil, nil
			},
		},
		// No policies are modelled, so every application passes the policy
		// check the list endpoint runs for the requesting (or for_user) user.
		options: []string{"superuser_full_list", "for_user"},
		after:   claimBackchannelProviders,
		removed: removeBackchannelProviders,
	}
	k.render = func(rc *renderCtx, d map[string]any) map[string]any {
		out := withFields(map[string]any{}, d, "pk", "name", "slug", "provider", "backchannel_providers",
			"open_in_new_tab", "meta_launch_url", "meta_icon", "meta_description", "meta_publisher",
			"policy_engine_mode", "group", "meta_hide")
		out["pbm_uuid"] = d["pk"]
		out["provider_obj"] = nil
		var launch any
		if p := d["provider"]; p != nil {
			if t, r := rc.st.find(providerGroup, p); r != nil {
				out["provider_obj"] = renderProvider(rc, t.k, r.data)
				launch = providerLaunchURL(rc, t.k, r.data, d)
			}
		}
		bcs := []any{}
		for _, pk := range list(d["backchannel_providers"]) {
			if t, r := rc.st.find(providerGroup, pk); r != nil {
				bcs = append(bcs, renderProvider(rc, t.k, r.data))
			}
		}
		out["backchannel_providers_obj"] = bcs
		if s := str(d["meta_launch_url"]); s != "" {
			launch = s
		}
		out["launch_url"] = launch
		out["meta_icon_url"] = iconURL(rc, str(d["meta_icon"]))
		out["meta_icon_themed_urls"] = nil
		return out
	}
	return k
}

// providerLaunchURL is Provider.launch_url for the modelled types.
func providerLaunchURL(rc *renderCtx, k *kind, p, app map[string]any) any {
	switch k.path {
	case "providers/oauth2":
		return oauth2LaunchURL(p)
	case "providers/proxy":
		return p["external_host"]
	case "providers/saml":
		// IdP-initiated SSO, the only launch a SAML application has.
		return fmt.Sprintf("%s/application/saml/%s/sso/binding/init/", rc.base, str(app["slug"]))
	}
	return nil
}

// iconURL is Application.get_meta_icon: absolute URLs are kept, file names
// are served from the media store, no icon is null.
func iconURL(rc *renderCtx, icon string) any {
	switch {
	case icon == "":
		return nil
	case strings.HasPrefix(icon, "http://"), strings.HasPrefix(icon, "https://"), strings.HasPrefix(icon, "/"):
		return icon
	default:
		return rc.base + "/media/public/" + icon
	}
}

// claimBackchannelProviders: a backchannel provider belongs to one application
// (Provider.backchannel_application is a foreign key), so listing it on one
// takes it off any other.
func claimBackchannelProviders(wc *writeCtx) {
	if !wc.sent("backchannel_providers") {
		return
	}
	self := keyOf(wc.data["pk"])
	for _, r := range wc.st.tables["core/applications"].rows {
		if keyOf(r.data["pk"]) == self {
			continue
		}
		kept := []any{}
		for _, pk := range list(r.data["backchannel_providers"]) {
			if !contains(list(wc.data["backchannel_providers"]), pk) {
				kept = append(kept, pk)
			}
		}
		r.data["backchannel_providers"] = kept
	}
}

// removeBackchannelProviders deletes an application's backchannel providers
// with it (Provider.backchannel_application is on_delete=CASCADE). Its main
// provider stays, detached.
func removeBackchannelProviders(st *state, d map[string]any) {
	for _, pk := range list(d["backchannel_providers"]) {
		if t, r := st.find(providerGroup, pk); r != nil {
			st.remove(t.k, r)
		}
	}
}
