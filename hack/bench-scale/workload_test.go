package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"
)

// decode splits a manifest into its documents, as kubectl apply -f reads them.
func decode(t *testing.T, manifest string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, doc := range strings.Split(manifest, "\n---\n") {
		doc = strings.TrimPrefix(doc, "---\n")
		if strings.TrimSpace(doc) == "" {
			continue
		}
		var m map[string]any
		if err := yaml.Unmarshal([]byte(doc), &m); err != nil {
			t.Fatalf("document does not parse: %v\n%s", err, doc)
		}
		out = append(out, m)
	}
	return out
}

func str(m map[string]any, path ...string) string {
	var v any = m
	for _, p := range path {
		v = v.(map[string]any)[p]
	}
	s, _ := v.(string)
	return s
}

func TestManifest(t *testing.T) {
	w := workload{N: 5, Namespace: "bench", Prefix: "bench"}
	docs := decode(t, w.manifest())
	if len(docs) != w.resources() {
		t.Fatalf("%d documents, want %d resources", len(docs), w.resources())
	}
	kinds := map[string]int{}
	// What each RoleAssignment refers to, and what each Project and Group is called in Keystone.
	var assignments, names []string
	for _, d := range docs {
		if got := str(d, "apiVersion"); got != groupNamespaced {
			t.Errorf("apiVersion %q, want the namespaced %q", got, groupNamespaced)
		}
		if got := str(d, "metadata", "namespace"); got != "bench" {
			t.Errorf("namespace %q", got)
		}
		if got := str(d, "spec", "providerConfigRef", "kind"); got != "ProviderConfig" {
			t.Errorf("providerConfigRef.kind %q, want the namespaced ProviderConfig", got)
		}
		k := str(d, "kind")
		kinds[k]++
		switch k {
		case "RoleAssignment":
			assignments = append(assignments, fmt.Sprintf("%s %s %s", str(d, "spec", "forProvider", "roleRef", "name"),
				str(d, "spec", "forProvider", "groupRef", "name"), str(d, "spec", "forProvider", "projectRef", "name")))
		case "Project", "Group":
			names = append(names, str(d, "spec", "forProvider", "name"))
		case "Role":
			pol := d["spec"].(map[string]any)["managementPolicies"]
			if diff := cmp.Diff([]any{"Observe"}, pol); diff != "" {
				t.Errorf("the Role member is not observe-only -want +got:\n%s", diff)
			}
		}
	}
	if diff := cmp.Diff(map[string]int{"Domain": 1, "Role": 1, "Project": 5, "Group": 2, "RoleAssignment": 5}, kinds); diff != "" {
		t.Errorf("kinds -want +got:\n%s", diff)
	}
	// Group g[i % (N/2)] gets member on project p[i] (../shared/bench/README.md).
	wantRA := []string{"member group-0000 project-0000", "member group-0001 project-0001", "member group-0000 project-0002",
		"member group-0001 project-0003", "member group-0000 project-0004"}
	if diff := cmp.Diff(wantRA, assignments); diff != "" {
		t.Errorf("role assignments -want +got:\n%s", diff)
	}
	wantNames := []string{"bench-project-0000", "bench-project-0001", "bench-project-0002", "bench-project-0003", "bench-project-0004",
		"bench-group-0000", "bench-group-0001"}
	if diff := cmp.Diff(wantNames, names); diff != "" {
		t.Errorf("Keystone names -want +got:\n%s", diff)
	}
}

func TestSetup(t *testing.T) {
	w := workload{N: 1, Namespace: "bench", Prefix: "bench"}
	docs := decode(t, w.setup("http://127.0.0.1:1234/v3", `pa"ss`))
	var got []string
	for _, d := range docs {
		got = append(got, str(d, "kind"))
	}
	if diff := cmp.Diff([]string{"Namespace", "Secret", "ProviderConfig"}, got); diff != "" {
		t.Fatalf("setup kinds -want +got:\n%s", diff)
	}
	if got := str(docs[1], "stringData", "password"); got != `pa"ss` {
		t.Errorf("password in the Secret: got %q", got)
	}
	ref := docs[2]["spec"].(map[string]any)["keystone"].(map[string]any)["password"].(map[string]any)["passwordSecretRef"]
	if diff := cmp.Diff(map[string]any{"name": adminSecret, "key": "password"}, ref); diff != "" {
		t.Errorf("passwordSecretRef (no namespace: the API server refuses one on a namespaced ProviderConfig) -want +got:\n%s", diff)
	}
	if got := str(docs[2], "spec", "keystone", "authURL"); got != "http://127.0.0.1:1234/v3" {
		t.Errorf("authURL: got %q, want the proxy's", got)
	}
}

// TestDependentsFirst checks the delete phase's file: the same documents as the apply's, each
// RoleAssignment before the Group and Project it refers to, those before their Domain, and the
// Role (referred to by every assignment) after all of them.
func TestDependentsFirst(t *testing.T) {
	w := workload{N: 4, Namespace: "bench", Prefix: "bench"}
	applied, teardown := decode(t, w.manifest()), decode(t, dependentsFirst(w.manifest()))
	if len(teardown) != len(applied) {
		t.Fatalf("%d documents to delete, want the %d applied", len(teardown), len(applied))
	}
	order := make([]string, 0, len(teardown))
	for _, d := range teardown {
		order = append(order, str(d, "kind")+"/"+str(d, "metadata", "name"))
	}
	want := []string{"RoleAssignment/ra-0003", "RoleAssignment/ra-0002", "RoleAssignment/ra-0001", "RoleAssignment/ra-0000",
		"Group/group-0001", "Group/group-0000",
		"Project/project-0003", "Project/project-0002", "Project/project-0001", "Project/project-0000",
		"Role/member", "Domain/domain"}
	if diff := cmp.Diff(want, order); diff != "" {
		t.Errorf("delete order -want +got:\n%s", diff)
	}
	if diff := cmp.Diff(applied[0], teardown[len(teardown)-1]); diff != "" {
		t.Errorf("the Domain's document changed on the way -want +got:\n%s", diff)
	}
}
