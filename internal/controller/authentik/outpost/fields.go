package outpost

import (
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strconv"

	api "goauthentik.io/api/v3"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/shared"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

const errBadProviderID = "spec.forProvider of outpost %q names provider ID %q, which is not an authentik provider ID (an integer)"

var uuid = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// want is what a spec asks of an outpost in authentik's wire format: the top-level fields and
// the config keys it sets. Nothing else is compared or written.
type want struct {
	top    shared.Fields
	config map[string]any
}

// Normalizers: authentik keeps lists in the order they were sent, but order means nothing in
// these.
var (
	topNormalizers    = map[string]shared.Normalizer{"providers": shared.Set}
	configNormalizers = map[string]shared.Normalizer{"kubernetes_disabled_components": shared.Set, "kubernetes_image_pull_secrets": shared.Set}
)

// desired renders the spec. The providers of the outpost's type are always managed: an
// outpost serves at least one.
func desired(fp *v1alpha1.OutpostParameters) (want, error) {
	w := want{top: shared.Fields{"name": fp.Name, "type": fp.Type}}
	ids := fp.ProxyProviderIDs
	if fp.Type == string(api.OUTPOSTTYPEENUM_LDAP) {
		ids = fp.LDAPProviderIDs
	}
	pks := make([]any, 0, len(ids))
	for _, id := range ids {
		pk, err := strconv.ParseInt(id, 10, 32)
		if err != nil || pk <= 0 {
			return want{}, errors.Errorf(errBadProviderID, fp.Name, id)
		}
		pks = append(pks, float64(pk))
	}
	w.top["providers"] = pks
	w.top.NullableStr("service_connection", fp.ServiceConnectionID)
	w.config = configFields(fp.Config)
	return w, nil
}

// configFields are the config keys the spec sets, as decoded JSON holds them.
func configFields(c *v1alpha1.OutpostConfig) map[string]any {
	if c == nil {
		return map[string]any{}
	}
	f := shared.Fields{}
	f.Str("authentik_host", c.AuthentikHost)
	f.Bool("authentik_host_insecure", c.AuthentikHostInsecure)
	f.Str("authentik_host_browser", c.AuthentikHostBrowser)
	f.Str("log_level", c.LogLevel)
	f.Str("refresh_interval", c.RefreshInterval)
	f.Str("object_naming_template", c.ObjectNamingTemplate)
	f.Str("container_image", c.ContainerImage)
	f.Int("kubernetes_replicas", c.KubernetesReplicas)
	f.Str("kubernetes_namespace", c.KubernetesNamespace)
	f.Str("kubernetes_service_type", c.KubernetesServiceType)
	f.Str("kubernetes_ingress_class_name", c.KubernetesIngressClassName)
	f.Str("kubernetes_ingress_secret_name", c.KubernetesIngressSecretName)
	if c.KubernetesIngressAnnotations != nil {
		m := make(map[string]any, len(c.KubernetesIngressAnnotations))
		for k, v := range c.KubernetesIngressAnnotations {
			m[k] = v
		}
		f["kubernetes_ingress_annotations"] = m
	}
	if c.KubernetesDisabledComponents != nil {
		f["kubernetes_disabled_components"] = anyList(c.KubernetesDisabledComponents)
	}
	if c.KubernetesImagePullSecrets != nil {
		f["kubernetes_image_pull_secrets"] = anyList(c.KubernetesImagePullSecrets)
	}
	return f
}

func anyList(l []string) []any {
	out := make([]any, 0, len(l))
	for _, s := range l {
		out = append(out, s)
	}
	return out
}

// compare compares the top-level fields and the config keys the spec sets.
func compare(w want, o api.Outpost) (shared.Comparison, error) {
	have, err := shared.ToFields(o)
	if err != nil {
		return shared.Comparison{}, err
	}
	c := shared.Compare(w.top, have, topNormalizers)
	cc := shared.Compare(w.config, o.Config, configNormalizers)
	if !cc.UpToDate() {
		c.Changed["config"] = cc.Changed
		c.Diff += "config: " + cc.Diff
	}
	return c, nil
}

// patch is the PATCH body: the top-level fields that differ (the providers always with the
// type, so that authentik checks they are of the outpost's type) and, when a managed key or
// the marker differs, the whole config, since a PATCH replaces it: the observed config with
// the spec's keys and the marker laid over it, keys set by others kept.
func patch(w want, o api.Outpost, m provenance.Marker) (shared.Fields, error) {
	c, err := compare(w, o)
	if err != nil {
		return nil, err
	}
	body := shared.Fields{}
	maps.Copy(body, c.Changed)
	delete(body, "config")
	if _, ok := body["providers"]; ok {
		body["type"] = w.top["type"]
	}
	merged, _ := authentik.MergeAttributes(o.Config, w.config, m)
	if _, changed := c.Changed["config"]; changed || !sameMarker(o.Config, m) {
		body["config"] = merged
	}
	return body, nil
}

func sameMarker(cfg map[string]any, m provenance.Marker) bool {
	return reflect.DeepEqual(cfg[authentik.MarkerAttribute], m.Encode())
}

func providerIDs(pks []int32) []string {
	out := make([]string, 0, len(pks))
	for _, pk := range slices.Sorted(slices.Values(pks)) {
		out = append(out, strconv.Itoa(int(pk)))
	}
	return out
}
