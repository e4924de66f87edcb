//go:build e2e

package render

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"k8s.io/apimachinery/pkg/util/yaml"
)

// TestAdmissionRules validates invalid claims against the XRDs with beta validate: each is
// rejected with the message of the rule it breaks (schema or CEL), the same rules the API
// server applies at admission.
func TestAdmissionRules(t *testing.T) {
	cases := map[string]string{
		"kib-ldap-with-oidc.yaml":                 "spec.oidc is required when type is OIDC and not allowed otherwise",
		"kib-default-domain.yaml":                 "the Default domain hosts Keystone's service users",
		"kib-ldap-with-groups.yaml":               "mappings and groups apply to federation backends (OIDC, SAML) only",
		"kib-assignment-two-scopes.yaml":          "a role assignment is scoped to exactly one of project or domain",
		"kib-ldap-url-scheme.yaml":                "spec.ldap.url",
		"kib-mapping-without-local.yaml":          "a mapping rule needs at least one local entry",
		"tenant-two-domains.yaml":                 "set exactly one of keystone.domainId",
		"tenant-bad-name.yaml":                    "a Tenant is named after its team",
		"tenant-default-domain-name.yaml":         "the Default domain cannot be looked up by name",
		"serviceclaim-bad-redirect.yaml":          "spec.sso.redirectURIs[0]",
		"authentikfederation-default-domain.yaml": "federated users do not belong in the Default domain",
	}
	for file, msg := range cases {
		t.Run(strings.TrimSuffix(file, ".yaml"), func(t *testing.T) {
			b, err := os.ReadFile(testdata(filepath.Join("invalid", file)))
			if err != nil {
				t.Fatal(err)
			}
			res := validate(t, b)
			if len(res.failures) == 0 {
				t.Fatalf("want the claim rejected with %q, but it validates (%s)", msg, res.total)
			}
			all := strings.Join(res.failures, "\n")
			if !strings.Contains(all, msg) {
				t.Errorf("want a failure mentioning %q, got:\n%s", msg, all)
			}
		})
	}
}

// TestExamplesValidate: the claims of examples/platform (and its team/ folder) validate against
// the XRDs.
func TestExamplesValidate(t *testing.T) {
	top, err := filepath.Glob(filepath.Join(root, "examples", "platform", "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	team, err := filepath.Glob(filepath.Join(root, "examples", "platform", "team", "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	files := slices.Concat(top, team)
	if len(files) < 6 {
		t.Fatalf("want the platform examples, found %v", files)
	}
	var all []byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if len(all) > 0 {
			all = append(all, []byte("\n---\n")...)
		}
		all = append(all, b...)
	}
	res := validate(t, all)
	if len(res.failures) > 0 {
		t.Errorf("examples fail validation:\n%s", strings.Join(res.failures, "\n"))
	}
	// The LDAP example carries its bind Secret and the team folder its Namespace: core kinds
	// without a CRD.
	if diff := cmp.Diff([]string{"/v1, Kind=Namespace", "/v1, Kind=Secret"}, res.missing, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
		t.Errorf("kinds without a schema (-want +got):\n%s", diff)
	}
	if !strings.Contains(res.total, "0 failure cases") {
		t.Errorf("summary: %s", res.total)
	}
	t.Log(res.total)
}

// TestBackendSchemasFollowTheProviderCRDs: spec.ldap and spec.mappings of the
// KeystoneIdentityBackend XRD are the DomainConfig's forProvider.ldap and the Mapping's
// forProvider.rules (without descriptions; the bind Secret by name only, in the backend's
// namespace), so that what admission accepts the provider accepts too. The namespaced kinds'
// CRDs are compared once package/crds has them, the cluster-scoped ones (same parameter types)
// until then, as hack/gen-backend-xrd.py does.
func TestBackendSchemasFollowTheProviderCRDs(t *testing.T) {
	xrd := readYAML(t, definition("keystoneidentitybackend"))
	spec := dig(t, xrd, "spec", "versions", 0, "schema", "openAPIV3Schema", "properties", "spec", "properties").(map[string]any)

	ldap := stripDescriptions(dig(t, readYAML(t, keystoneCRD(t, "domainconfigs")),
		"spec", "versions", 0, "schema", "openAPIV3Schema", "properties", "spec", "properties", "forProvider", "properties", "ldap")).(map[string]any)
	ldap["properties"].(map[string]any)["bindCredentialsSecretRef"] = nil
	ldap["properties"].(map[string]any)["url"].(map[string]any)["pattern"] = "^ldaps?://"
	got := stripDescriptions(spec["ldap"]).(map[string]any)
	got["properties"].(map[string]any)["bindCredentialsSecretRef"] = nil
	if !reflect.DeepEqual(ldap, got) {
		t.Errorf("spec.ldap of the XRD differs from DomainConfig's forProvider.ldap: run hack/gen-backend-xrd.py")
	}

	rules := stripDescriptions(dig(t, readYAML(t, keystoneCRD(t, "mappings")),
		"spec", "versions", 0, "schema", "openAPIV3Schema", "properties", "spec", "properties", "forProvider", "properties", "rules")).(map[string]any)
	gotRules := stripDescriptions(spec["mappings"]).(map[string]any)
	// The claim allows fewer rules (32, as the backend API reference says).
	delete(gotRules, "maxItems")
	delete(rules, "maxItems")
	if !reflect.DeepEqual(rules, gotRules) {
		t.Errorf("spec.mappings of the XRD differs from Mapping's forProvider.rules: run hack/gen-backend-xrd.py")
	}
}

func readYAML(t *testing.T, path string) any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := yaml.Unmarshal(b, &out); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return out
}

func dig(t *testing.T, v any, path ...any) any {
	t.Helper()
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				t.Fatalf("no %q in %v", k, path)
			}
			v = m[k]
		case int:
			l, ok := v.([]any)
			if !ok || len(l) <= k {
				t.Fatalf("no [%d] in %v", k, path)
			}
			v = l[k]
		}
	}
	return v
}

func stripDescriptions(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, val := range t {
			if k != "description" {
				out[k] = stripDescriptions(val)
			}
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i := range t {
			out[i] = stripDescriptions(t[i])
		}
		return out
	}
	return v
}

// keystoneCRD is the namespaced Keystone CRD of plural when package/crds has it, else the
// cluster-scoped one.
func keystoneCRD(t *testing.T, plural string) string {
	t.Helper()
	ns := filepath.Join(root, "package", "crds", "keystone.identity.m.crossplane.io_"+plural+".yaml")
	if _, err := os.Stat(ns); err == nil {
		return ns
	}
	t.Logf("no namespaced %s CRD yet: comparing with the cluster-scoped one", plural)
	return filepath.Join(root, "package", "crds", "keystone.identity.crossplane.io_"+plural+".yaml")
}
