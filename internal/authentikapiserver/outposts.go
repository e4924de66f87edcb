package authentikapiserver

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
)

// Outposts (/outposts/instances/, UUID pk) as authentik 2026.8 has them:
//
//   - an outpost serves providers of its type (the serializer checks the type
//     the request sends; a PATCH without a type may name any provider), and at
//     least one, except the embedded outpost;
//   - creating one makes its service account (ak-outpost-<uuid hex>, an
//     internal service account under goauthentik.io/outposts) and its API token
//     (ak-outpost-<uuid>-api, intent api, never expiring, managed
//     goauthentik.io/outpost/<identifier>); authentik does that in a background
//     task, this server at once;
//   - deleting one deletes its service account first, and the account's tokens
//     with it (CASCADE);
//   - authentik keeps its own embedded outpost (managed
//     goauthentik.io/outposts/embedded), which needs no provider and whose name
//     cannot change.
const (
	embeddedOutpostManaged = "goauthentik.io/outposts/embedded"
	embeddedOutpostName    = "authentik Embedded Outpost"
	outpostUserPath        = "goauthentik.io/outposts"
)

// outpostConfigTypes are the keys of authentik's OutpostConfig with the JSON
// type dacite insists on; other keys are kept as sent and ignored.
var outpostConfigTypes = map[string]string{
	"authentik_host": "string", "authentik_host_insecure": "bool", "authentik_host_browser": "string",
	"log_level": "string", "object_naming_template": "string", "refresh_interval": "string",
	"container_image": "string?", "docker_network": "string?", "docker_map_ports": "bool", "docker_labels": "object?",
	"kubernetes_replicas": "int", "kubernetes_namespace": "string", "kubernetes_ingress_annotations": "object",
	"kubernetes_ingress_secret_name": "string", "kubernetes_ingress_class_name": "string?",
	"kubernetes_httproute_annotations": "object", "kubernetes_httproute_parent_refs": "list",
	"kubernetes_service_type": "string", "kubernetes_disabled_components": "list",
	"kubernetes_image_pull_secrets": "list", "kubernetes_json_patches": "object?",
}

var durationRe = regexp.MustCompile(`^((weeks|days|hours|minutes|seconds|milliseconds|microseconds)=\d+(\.\d+)?;?)+$`)

// defaultOutpostConfig is authentik's default_outpost_config(host), less the
// keys whose default is None (container_image, docker_network, docker_labels,
// kubernetes_ingress_class_name, kubernetes_json_patches): authentik stores and
// returns them as null, but its document declares config's values
// non-nullable, and this server stays inside the document. A client must
// expect both.
func defaultOutpostConfig(host string) map[string]any {
	return map[string]any{
		"authentik_host": host, "authentik_host_insecure": false, "authentik_host_browser": "",
		"log_level": "info", "object_naming_template": "ak-outpost-%(name)s", "refresh_interval": "minutes=5",
		"docker_map_ports":    true,
		"kubernetes_replicas": int64(1), "kubernetes_namespace": "default", "kubernetes_ingress_annotations": map[string]any{},
		"kubernetes_ingress_secret_name":   "authentik-outpost-tls",
		"kubernetes_httproute_annotations": map[string]any{}, "kubernetes_httproute_parent_refs": []any{},
		"kubernetes_service_type": "ClusterIP", "kubernetes_disabled_components": []any{},
		"kubernetes_image_pull_secrets": []any{},
	}
}

func outpostKind() *kind {
	k := &kind{
		path: "outposts/instances", op: "outposts_instances", model: "Outpost",
		group: "outpost", lookup: "pk", pk: pkUUID,
		fields: []field{
			{name: "name"},
			{name: "type", def: defStr("proxy")},
			{name: "providers", def: defList(), ref: providerGroup, many: true, ints: true},
			// No service connection is modelled: any UUID sent names nothing.
			{name: "service_connection", def: defNil(), ref: "serviceconnection"},
			{name: "config", def: func(*state) any { return defaultOutpostConfig("") }},
			{name: "managed", def: defNil()},
		},
		unique: []unique{
			{field: "name", msg: modelUniqueMsg("Outpost", "name")},
			{field: "managed", msg: modelUniqueMsg("Outpost", "managed")},
		},
		// OutpostViewSet: ordering name, search name and providers' names.
		ordering: "name",
		search:   []string{"name"},
		filters: map[string]filter{
			"name__iexact":    iexact("name"),
			"name__icontains": icontains("name"),
			"managed__iexact": iexact("managed"),
			"managed__icontains": func(_ *renderCtx, obj map[string]any, vals []string) (bool, fieldErrors) {
				return obj["managed"] != nil && strings.Contains(strings.ToLower(str(obj["managed"])), strings.ToLower(vals[0])), nil
			},
			"providers_by_pk": listHasAny("providers"),
			"providers__isnull": func(_ *renderCtx, obj map[string]any, vals []string) (bool, fieldErrors) {
				return (len(list(obj["providers"])) == 0) == strings.EqualFold(vals[0], "true"), nil
			},
			// No service connection exists, so no outpost has one by any name.
			"service_connection__name__iexact":    func(*renderCtx, map[string]any, []string) (bool, fieldErrors) { return false, nil },
			"service_connection__name__icontains": func(*renderCtx, map[string]any, []string) (bool, fieldErrors) { return false, nil },
		},
		validate: validateOutpost,
		after:    outpostAccount,
		removed:  removeOutpostAccount,
	}
	k.render = func(rc *renderCtx, d map[string]any) map[string]any {
		out := withFields(map[string]any{}, d, "pk", "name", "type", "providers", "service_connection", "config", "managed")
		objs := []any{}
		for _, pk := range list(d["providers"]) {
			if t, r := rc.st.find(providerGroup, pk); r != nil {
				objs = append(objs, renderProvider(rc, t.k, r.data))
			}
		}
		out["providers_obj"] = objs
		out["service_connection_obj"] = nil
		out["refresh_interval_s"] = refreshSeconds(d["config"])
		out["token_identifier"] = outpostTokenIdentifier(d["pk"])
		return out
	}
	return k
}

func icontains(field string) filter {
	return func(_ *renderCtx, obj map[string]any, vals []string) (bool, fieldErrors) {
		return strings.Contains(strings.ToLower(scalarString(obj[field])), strings.ToLower(vals[0])), nil
	}
}

func outpostTokenIdentifier(pk any) string { return fmt.Sprintf("ak-outpost-%s-api", keyOf(pk)) }

func outpostUsername(pk any) string {
	return "ak-outpost-" + strings.ReplaceAll(keyOf(pk), "-", "")
}

// validateOutpost is OutpostSerializer's validation.
func validateOutpost(wc *writeCtx, errs fieldErrors) {
	embedded := wc.old != nil && str(wc.old["managed"]) == embeddedOutpostManaged
	if embedded && wc.sent("name") && str(wc.body["name"]) != embeddedOutpostName {
		errs.add("name", "Embedded outpost's name cannot be changed")
	}
	if wc.sent("providers") {
		validateOutpostProviders(wc, errs, embedded)
	}
	if wc.sent("config") {
		validateOutpostConfig(wc.body["config"], errs)
	}
}

// validateOutpostProviders checks the providers' type against the type the
// request sends (any provider when it sends none), and that there is one.
func validateOutpostProviders(wc *writeCtx, errs fieldErrors, embedded bool) {
	sentType, _ := wc.body["type"].(string)
	want := map[string]string{"proxy": "providers/proxy", "ldap": "providers/ldap", "radius": "providers/radius", "rac": "providers/rac"}[sentType]
	for _, pk := range list(wc.body["providers"]) {
		t, r := wc.st.find(providerGroup, pk)
		if r == nil || sentType == "" {
			continue // checkRefs reports missing ones
		}
		if t.k.path != want {
			errs.add("providers", "Outpost type %s can't be used with %s providers.", sentType, t.k.model)
			return
		}
	}
	if !embedded && !wc.seeding && len(list(wc.body["providers"])) == 0 {
		errs.add("providers", "This list may not be empty.")
	}
}

// validateOutpostConfig is from_dict(OutpostConfig, config) plus the refresh
// interval's format: known keys must have their type, others are ignored.
func validateOutpostConfig(v any, errs fieldErrors) {
	cfg, ok := v.(map[string]any)
	if !ok {
		errs.add("config", "Expected a dictionary of items but got type \"%s\".", jsonTypeName(v))
		return
	}
	for key, typ := range outpostConfigTypes {
		val, present := cfg[key]
		if !present {
			continue
		}
		if !configTypeOK(typ, val) {
			errs.add("config", "Failed to validate config: wrong value type for field \"%s\" - should be \"%s\" instead of value \"%v\" of type \"%s\"", key, strings.TrimSuffix(typ, "?"), val, jsonTypeName(val))
			return
		}
	}
	if ri, ok := cfg["refresh_interval"].(string); ok && !durationRe.MatchString(ri) {
		errs.add("config", "%s is not in the correct format of 'hours=3;minutes=1'.", ri)
	}
}

func configTypeOK(typ string, v any) bool {
	if v == nil {
		return strings.HasSuffix(typ, "?")
	}
	switch strings.TrimSuffix(typ, "?") {
	case "string":
		_, ok := v.(string)
		return ok
	case "bool":
		_, ok := v.(bool)
		return ok
	case "int":
		n, ok := toInt(v)
		f, isFloat := v.(float64)
		return ok && (!isFloat || f == float64(n))
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "list":
		_, ok := v.([]any)
		return ok
	}
	return true
}

func jsonTypeName(v any) string {
	switch v.(type) {
	case nil:
		return "NoneType"
	case string:
		return "str"
	case bool:
		return "bool"
	case map[string]any:
		return "dict"
	case []any:
		return "list"
	}
	return "int"
}

// refreshSeconds is refresh_interval_s: the config's interval in seconds.
func refreshSeconds(cfg any) int64 {
	c, _ := cfg.(map[string]any)
	s, ok := c["refresh_interval"].(string)
	if !ok {
		s = "minutes=5"
	}
	var total float64
	unit := map[string]float64{"weeks": 604800, "days": 86400, "hours": 3600, "minutes": 60, "seconds": 1, "milliseconds": 0.001, "microseconds": 0.000001}
	for _, part := range strings.Split(s, ";") {
		name, val, _ := strings.Cut(part, "=")
		var n float64
		if _, err := fmt.Sscanf(val, "%g", &n); err == nil {
			total += n * unit[name]
		}
	}
	return int64(total)
}

// outpostAccount keeps the outpost's service account and API token, as
// authentik's Outpost.user and Outpost.token do: made when missing, the
// account renamed with the outpost.
func outpostAccount(wc *writeCtx) {
	st, d := wc.st, wc.data
	users := st.tables["core/users"].k
	username := outpostUsername(d["pk"])
	name := fmt.Sprintf("Outpost %s Service-Account", str(d["name"]))
	var u map[string]any
	for _, r := range st.tables["core/users"].rows {
		if str(r.data["username"]) == username {
			u = r.data
		}
	}
	if u == nil {
		data, errs := write(st, users, map[string]any{"username": username, "name": name, "path": outpostUserPath}, nil, wc.base, true)
		if errs != nil {
			panic(fmt.Sprintf("authentikapiserver: outpost service account: %v", errs))
		}
		// The API refuses this type; authentik sets it on the model directly.
		data["type"] = "internal_service_account"
		u = data
	} else if str(u["name"]) != name {
		u["name"] = name
	}
	tokens := st.tables["core/tokens"].k
	id := outpostTokenIdentifier(d["pk"])
	if st.lookup(tokens, id) != nil {
		return
	}
	if _, errs := write(st, tokens, map[string]any{
		"identifier": id, "intent": "api", "user": u["pk"], "expiring": false,
		"managed":     "goauthentik.io/outpost/" + id,
		"description": "Autogenerated by authentik for Outpost " + str(d["name"]),
	}, nil, wc.base, true); errs != nil {
		panic(fmt.Sprintf("authentikapiserver: outpost token: %v", errs))
	}
}

// removeOutpostAccount is authentik's pre_delete of an outpost: its service
// account goes, and the account's tokens with it.
func removeOutpostAccount(st *state, d map[string]any) {
	users := st.tables["core/users"].k
	for _, r := range st.tables["core/users"].rows {
		if str(r.data["username"]) == outpostUsername(d["pk"]) {
			st.remove(users, r)
			return
		}
	}
}

// outpostOps serves /outposts/instances/default_settings/.
func outpostOps(ops map[string]handler) {
	ops["outposts_instances_default_settings_retrieve"] = func(c *call) reply {
		return jsonReply(http.StatusOK, map[string]any{"config": defaultOutpostConfig(c.base + "/")})
	}
}

// outpostSet is a provider's outpost_set: str() of every outpost serving it.
func outpostSet(st *state, pk any) []any {
	out := []any{}
	for _, r := range st.tables["outposts/instances"].rows {
		if contains(list(r.data["providers"]), pk) {
			out = append(out, "Outpost "+str(r.data["name"]))
		}
	}
	return out
}

// seedEmbeddedOutpost creates authentik's embedded outpost as a fresh install
// has it: a proxy outpost without providers whose service connection would
// deploy nothing but the ingress.
func seedEmbeddedOutpost(st *state) {
	cfg := defaultOutpostConfig("")
	cfg["kubernetes_disabled_components"] = []any{"deployment", "service", "secret"}
	if _, errs := write(st, st.tables["outposts/instances"].k, map[string]any{
		"name": embeddedOutpostName, "type": "proxy", "providers": []any{}, "config": cfg, "managed": embeddedOutpostManaged,
	}, nil, "", true); errs != nil {
		panic(fmt.Sprintf("authentikapiserver: seed embedded outpost: %v", errs))
	}
}
