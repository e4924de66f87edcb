package main

import (
	"fmt"
	"slices"
	"strings"
)

// The workload of ../shared/bench/README.md, as the provider's namespaced kinds on a namespaced
// ProviderConfig. Written as YAML text rather than with the API types so that the benchmark
// applies exactly what a user's `kubectl apply -f` would, and keeps building while the types move.

const (
	groupNamespaced = "keystone.identity.m.crossplane.io/v1alpha1"
	providerConfig  = "keystone"
	adminSecret     = "keystone-admin"
)

// workload names the objects of one run.
type workload struct {
	N         int
	Namespace string
	Prefix    string // Keystone names: <prefix>-domain, <prefix>-project-%04d, <prefix>-group-%04d
}

func (w workload) groups() int { return max(w.N/2, 1) }

// resources is how many managed resources the workload has: 1 Domain, N Projects, N/2 Groups,
// N RoleAssignments and the observed Role.
func (w workload) resources() int { return 1 + w.N + w.groups() + w.N + 1 }

func (w workload) kinds() string {
	return fmt.Sprintf("1 Domain, %d Projects, %d Groups, %d RoleAssignments, 1 observed Role member", w.N, w.groups(), w.N)
}

func (w workload) projectName(i int) string { return fmt.Sprintf("%s-project-%04d", w.Prefix, i) }
func (w workload) groupName(i int) string   { return fmt.Sprintf("%s-group-%04d", w.Prefix, i) }
func (w workload) domainName() string       { return w.Prefix + "-domain" }

// projectDescription is what every Project asks for; the drift phase changes it by hand.
func (w workload) projectDescription(i int) string { return fmt.Sprintf("bench project %d", i) }

// setup is applied before the clock starts: the namespace, the admin password Secret and the
// namespaced ProviderConfig (pointed at the counting proxy), whose Secret reference names no
// namespace: a namespaced ProviderConfig reads its own.
func (w workload) setup(authURL, password string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `apiVersion: v1
kind: Namespace
metadata:
  name: %[1]s
---
apiVersion: v1
kind: Secret
metadata:
  namespace: %[1]s
  name: %[2]s
stringData:
  password: %[3]q
---
apiVersion: identity.m.crossplane.io/v1alpha1
kind: ProviderConfig
metadata:
  namespace: %[1]s
  name: %[4]s
spec:
  installationID: bench-scale
  keystone:
    authURL: %[5]s
    region: RegionOne
    interface: public
    password:
      username: admin
      userDomainName: Default
      passwordSecretRef:
        name: %[2]s
        key: password
      scope:
        projectName: admin
        projectDomainName: Default
`, w.Namespace, adminSecret, password, providerConfig, authURL)
	return b.String()
}

// manifest is the file the apply phase hands to kubectl apply -f (the delete phase hands
// kubectl delete -f its documents in reverse, see dependentsFirst). The Role `member` exists in every bootstrapped Keystone: it is observed
// (found by its name, never written), as the workload says.
func (w workload) manifest() string {
	var b strings.Builder
	obj := func(kind, name, forProvider string, extraSpec string) {
		fmt.Fprintf(&b, "---\napiVersion: %s\nkind: %s\nmetadata:\n  namespace: %s\n  name: %s\nspec:\n%s  forProvider:\n%s  providerConfigRef:\n    kind: ProviderConfig\n    name: %s\n",
			groupNamespaced, kind, w.Namespace, name, extraSpec, forProvider, providerConfig)
	}
	obj("Domain", "domain", fmt.Sprintf("    name: %s\n    enabled: true\n", w.domainName()), "")
	obj("Role", "member", "    name: member\n", "  managementPolicies: [\"Observe\"]\n")
	for i := range w.N {
		obj("Project", fmt.Sprintf("project-%04d", i), fmt.Sprintf("    name: %s\n    description: %q\n    enabled: true\n    domainRef:\n      name: domain\n",
			w.projectName(i), w.projectDescription(i)), "")
	}
	for i := range w.groups() {
		obj("Group", fmt.Sprintf("group-%04d", i), fmt.Sprintf("    name: %s\n    domainRef:\n      name: domain\n", w.groupName(i)), "")
	}
	for i := range w.N {
		obj("RoleAssignment", fmt.Sprintf("ra-%04d", i), fmt.Sprintf("    roleRef:\n      name: member\n    groupRef:\n      name: group-%04d\n    projectRef:\n      name: project-%04d\n",
			i%w.groups(), i), "")
	}
	return b.String()
}

// dependentsFirst returns the documents of a manifest written referenced-first (as the
// workloads' manifests are) in reverse order: every object before the objects it refers to.
func dependentsFirst(manifest string) string {
	docs := strings.Split(manifest, "---\n")
	slices.Reverse(docs)
	var b strings.Builder
	for _, d := range docs {
		if strings.TrimSpace(d) != "" {
			b.WriteString("---\n" + d)
		}
	}
	return b.String()
}
