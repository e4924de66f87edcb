package main

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestAKManifest(t *testing.T) {
	w := akWorkload{N: 3, Namespace: "bench", Prefix: "bench"}
	docs := decode(t, w.manifest())
	if len(docs) != w.resources() {
		t.Fatalf("%d documents, want %d resources", len(docs), w.resources())
	}
	// Each document as "Kind name: authentik name (what it refers to)".
	var got []string
	for _, d := range docs {
		if got := str(d, "apiVersion"); got != akGroupNamespaced {
			t.Errorf("apiVersion %q, want the namespaced %q", got, akGroupNamespaced)
		}
		if got := str(d, "metadata", "namespace"); got != "bench" {
			t.Errorf("namespace %q", got)
		}
		if got := str(d, "spec", "providerConfigRef", "kind") + "/" + str(d, "spec", "providerConfigRef", "name"); got != "ProviderConfig/"+akProviderConfig {
			t.Errorf("providerConfigRef %q, want the namespaced ProviderConfig", got)
		}
		line := str(d, "kind") + " " + str(d, "metadata", "name") + ": " + str(d, "spec", "forProvider", "name")
		switch str(d, "kind") {
		case "Application":
			line += " slug " + str(d, "spec", "forProvider", "slug") + " provider " + str(d, "spec", "forProvider", "oauth2ProviderRef", "name") +
				" launch " + str(d, "spec", "forProvider", "launchUrl")
		case "OAuth2Provider":
			fp := d["spec"].(map[string]any)["forProvider"].(map[string]any)
			if diff := cmp.Diff([]any{map[string]any{"managed": akScopeMappings[0]}, map[string]any{"managed": akScopeMappings[1]},
				map[string]any{"managed": akScopeMappings[2]}}, fp["propertyMappings"]); diff != "" {
				t.Errorf("propertyMappings -want +got:\n%s", diff)
			}
			if diff := cmp.Diff([]any{"authorization_code", "refresh_token"}, fp["grantTypes"]); diff != "" {
				t.Errorf("grantTypes -want +got:\n%s", diff)
			}
			line += " flows " + str(d, "spec", "forProvider", "authorizationFlow") + "," + str(d, "spec", "forProvider", "invalidationFlow") +
				" key " + str(d, "spec", "forProvider", "signingKey") + " secret " + str(d, "spec", "writeConnectionSecretToRef", "name")
		}
		got = append(got, line)
	}
	const flows = " flows default-provider-authorization-implicit-consent,default-provider-invalidation-flow key authentik Self-signed Certificate"
	want := []string{
		"OAuth2Provider oauth2-0000: bench-oauth2-0000" + flows + " secret oauth2-0000-oidc",
		"Application app-0000: Bench app 0000 slug bench-app-0000 provider oauth2-0000 launch https://app-0000.bench.example",
		"OAuth2Provider oauth2-0001: bench-oauth2-0001" + flows + " secret oauth2-0001-oidc",
		"Application app-0001: Bench app 0001 slug bench-app-0001 provider oauth2-0001 launch https://app-0001.bench.example",
		"OAuth2Provider oauth2-0002: bench-oauth2-0002" + flows + " secret oauth2-0002-oidc",
		"Application app-0002: Bench app 0002 slug bench-app-0002 provider oauth2-0002 launch https://app-0002.bench.example",
		"Group group-0000: bench-group-0000",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("workload -want +got:\n%s", diff)
	}
}

func TestAKWorkloadSize(t *testing.T) {
	cases := map[string]struct {
		n          int
		resources  int
		kinds      string
		lastObject string
	}{
		"N=1: one group all the same": {n: 1, resources: 3, kinds: "1 Applications, 1 OAuth2Providers, 1 Groups", lastObject: "group-0000"},
		"N=200":                       {n: 200, resources: 500, kinds: "200 Applications, 200 OAuth2Providers, 100 Groups", lastObject: "group-0099"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			w := akWorkload{N: tc.n, Namespace: "bench", Prefix: "bench"}
			docs := decode(t, w.manifest())
			got := struct {
				Docs, Resources int
				Kinds, Last     string
			}{len(docs), w.resources(), w.kinds(), str(docs[len(docs)-1], "metadata", "name")}
			want := struct {
				Docs, Resources int
				Kinds, Last     string
			}{tc.resources, tc.resources, tc.kinds, tc.lastObject}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}

func TestAKSetup(t *testing.T) {
	w := akWorkload{N: 1, Namespace: "bench", Prefix: "bench"}
	docs := decode(t, w.setup("http://127.0.0.1:1234", `to"ken`))
	kinds := make([]string, 0, len(docs))
	for _, d := range docs {
		kinds = append(kinds, str(d, "kind"))
	}
	if diff := cmp.Diff([]string{"Namespace", "Secret", "ProviderConfig"}, kinds); diff != "" {
		t.Fatalf("setup kinds -want +got:\n%s", diff)
	}
	if got := str(docs[1], "stringData", "token"); got != `to"ken` {
		t.Errorf("token in the Secret: got %q", got)
	}
	ak := docs[2]["spec"].(map[string]any)["authentik"].(map[string]any)
	want := map[string]any{"url": "http://127.0.0.1:1234", "tokenSecretRef": map[string]any{"name": akTokenSecret, "key": "token"}}
	if diff := cmp.Diff(want, ak); diff != "" {
		t.Errorf("spec.authentik (the proxy's URL; a Secret reference without namespace) -want +got:\n%s", diff)
	}
	if !strings.Contains(str(docs[2], "spec", "installationID"), "bench") {
		t.Errorf("installationID %q", str(docs[2], "spec", "installationID"))
	}
}
