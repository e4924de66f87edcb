package main

import (
	"fmt"
	"strings"
)

// The authentik workload: N Applications, each using its own OAuth2Provider by reference, and
// N/2 Groups, as the namespaced kinds on a namespaced ProviderConfig (the fields of
// examples/namespaced/authentik). YAML text for the reasons workload.go gives.

const (
	akGroupNamespaced = "authentik.identity.m.crossplane.io/v1alpha1"
	akProviderConfig  = "authentik"
	akTokenSecret     = "authentik-token"
	// The seeded objects every provider uses (authentik's defaults; the floor looks them up too).
	akAuthorizationFlow = "default-provider-authorization-implicit-consent"
	akInvalidationFlow  = "default-provider-invalidation-flow"
	akSigningKey        = "authentik Self-signed Certificate"
)

// akScopeMappings are the managed scope mappings each OAuth2Provider asks for.
var akScopeMappings = []string{
	"goauthentik.io/providers/oauth2/scope-openid",
	"goauthentik.io/providers/oauth2/scope-email",
	"goauthentik.io/providers/oauth2/scope-profile",
}

// akGrantTypes are the grant types each OAuth2Provider asks for.
var akGrantTypes = []string{"authorization_code", "refresh_token"}

var authentikKinds = kubeKinds{Group: "authentik.identity.m.crossplane.io", Resources: []string{"oauth2providers", "applications", "groups"}}

// akWorkload names the objects of one authentik run.
type akWorkload struct {
	N         int
	Namespace string
	Prefix    string // authentik names: <prefix>-oauth2-%04d, slugs <prefix>-app-%04d, <prefix>-group-%04d
}

func (w akWorkload) groups() int { return max(w.N/2, 1) }

// resources: N Applications, N OAuth2Providers, N/2 Groups.
func (w akWorkload) resources() int { return 2*w.N + w.groups() }

func (w akWorkload) kinds() string {
	return fmt.Sprintf("%d Applications, %d OAuth2Providers, %d Groups", w.N, w.N, w.groups())
}

func (w akWorkload) providerName(i int) string { return fmt.Sprintf("%s-oauth2-%04d", w.Prefix, i) }
func (w akWorkload) appSlug(i int) string      { return fmt.Sprintf("%s-app-%04d", w.Prefix, i) }
func (w akWorkload) appName(i int) string      { return fmt.Sprintf("Bench app %04d", i) }
func (w akWorkload) groupName(i int) string    { return fmt.Sprintf("%s-group-%04d", w.Prefix, i) }

// launchURL is what every Application asks for; the drift phase changes it by hand.
func (w akWorkload) launchURL(i int) string { return fmt.Sprintf("https://app-%04d.bench.example", i) }

func (w akWorkload) redirectURI(i int) string {
	return fmt.Sprintf("https://app-%04d.bench.example/login/generic_oauth", i)
}

// setup is applied before the clock starts: the namespace, the API token Secret and the
// namespaced ProviderConfig pointed at the counting proxy.
func (w akWorkload) setup(url, token string) string {
	return fmt.Sprintf(`apiVersion: v1
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
  token: %[3]q
---
apiVersion: identity.m.crossplane.io/v1alpha1
kind: ProviderConfig
metadata:
  namespace: %[1]s
  name: %[4]s
spec:
  installationID: bench-scale
  authentik:
    url: %[5]s
    tokenSecretRef:
      name: %[2]s
      key: token
`, w.Namespace, akTokenSecret, token, akProviderConfig, url)
}

// manifest is the workload for kubectl apply -f (and, reversed by dependentsFirst, for
// kubectl delete -f): each OAuth2Provider before the Application that refers to it, then the
// Groups.
func (w akWorkload) manifest() string {
	var b strings.Builder
	obj := func(kind, name, forProvider, extraSpec string) {
		fmt.Fprintf(&b, "---\napiVersion: %s\nkind: %s\nmetadata:\n  namespace: %s\n  name: %s\nspec:\n%s  forProvider:\n%s  providerConfigRef:\n    kind: ProviderConfig\n    name: %s\n",
			akGroupNamespaced, kind, w.Namespace, name, extraSpec, forProvider, akProviderConfig)
	}
	var mappings strings.Builder
	for _, m := range akScopeMappings {
		fmt.Fprintf(&mappings, "      - managed: %s\n", m)
	}
	for i := range w.N {
		obj("OAuth2Provider", fmt.Sprintf("oauth2-%04d", i), fmt.Sprintf(
			"    name: %s\n    authorizationFlow: %s\n    invalidationFlow: %s\n    clientType: confidential\n    redirectUris:\n      - url: %s\n    grantTypes: [%s]\n    propertyMappings:\n%s    signingKey: %s\n",
			w.providerName(i), akAuthorizationFlow, akInvalidationFlow, w.redirectURI(i), strings.Join(akGrantTypes, ", "), mappings.String(), akSigningKey),
			fmt.Sprintf("  writeConnectionSecretToRef:\n    name: oauth2-%04d-oidc\n", i))
		obj("Application", fmt.Sprintf("app-%04d", i), fmt.Sprintf(
			"    name: %s\n    slug: %s\n    oauth2ProviderRef:\n      name: oauth2-%04d\n    launchUrl: %s\n    description: %q\n",
			w.appName(i), w.appSlug(i), i, w.launchURL(i), fmt.Sprintf("bench application %d", i)), "")
	}
	for i := range w.groups() {
		obj("Group", fmt.Sprintf("group-%04d", i), fmt.Sprintf("    name: %s\n", w.groupName(i)), "")
	}
	return b.String()
}
