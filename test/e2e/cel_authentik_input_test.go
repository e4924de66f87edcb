//go:build e2e

package e2e

import (
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	akv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	nsakv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// TestCELAuthentikInput covers what authentik would keep as given or a browser would follow:
// redirect URIs with schemes that run code, regular expressions that could match any scheme,
// control characters in names, slugs and IDs that are not authentik's.
func TestCELAuthentikInput(t *testing.T) {
	t.Parallel()
	redirect := func(name string, uris ...akv1alpha1.RedirectURI) *akv1alpha1.OAuth2Provider {
		return newAKOAuth2(name, name, func(p *akv1alpha1.OAuth2Provider) {
			p.Spec.ProviderConfigReference, p.Spec.ForProvider.RedirectURIs = nowhere, uris
		})
	}
	strict := func(u string) akv1alpha1.RedirectURI { return akv1alpha1.RedirectURI{URL: u} }
	regex := func(u string) akv1alpha1.RedirectURI { return akv1alpha1.RedirectURI{URL: u, MatchingMode: "regex"} }
	app := func(name string, m func(*akv1alpha1.Application)) *akv1alpha1.Application {
		return newAKApplication(name, name, func(a *akv1alpha1.Application) { a.Spec.ProviderConfigReference = nowhere; m(a) })
	}
	uri := "spec.forProvider.redirectUris[0]"
	scheme := "url must not use the javascript:, data:, vbscript:, file:"
	regexShape := "url in regex mode must start with its scheme written out"
	absolute := "url must be an absolute URI without spaces or control characters"
	match := "should match"

	refused := map[string]struct {
		obj        client.Object
		path, want string
	}{
		"redirect-javascript":       {redirect("cel-ak-js", strict("javascript:alert(1)")), uri, scheme},
		"redirect-javascript-upper": {redirect("cel-ak-js-upper", strict("JavaScript:alert(1)")), uri, scheme},
		"redirect-data":             {redirect("cel-ak-data", strict("data:text/html;base64,PHNjcmlwdD4=")), uri, scheme},
		"redirect-vbscript":         {redirect("cel-ak-vbs", strict("vbscript:msgbox(1)")), uri, scheme},
		"redirect-file":             {redirect("cel-ak-file", strict("file:///etc/passwd")), uri, scheme},
		"redirect-second-entry":     {redirect("cel-ak-second", strict("https://ok.example.com/cb"), strict("data:,x")), "spec.forProvider.redirectUris[1]", scheme},
		"redirect-leading-space":    {redirect("cel-ak-space", strict(" javascript:alert(1)")), uri, absolute},
		"redirect-tab-in-scheme":    {redirect("cel-ak-tab", strict("java\tscript:alert(1)")), uri, absolute},
		"redirect-relative":         {redirect("cel-ak-rel", strict("/oauth/callback")), uri, absolute},
		"redirect-no-host":          {redirect("cel-ak-nohost", strict("https:/cb")), uri, "url: an http or https redirect URI needs a host"},
		"regex-any-scheme":          {redirect("cel-ak-rx-any", regex(".*")), uri, regexShape},
		"regex-alternation":         {redirect("cel-ak-rx-alt", regex(`https://a\.example\.com/.*|file:.*`)), uri, regexShape},
		"regex-class-trick":         {redirect("cel-ak-rx-class", regex(`https://a[(]|file:.*[)]`)), uri, regexShape},
		"regex-scheme-group":        {redirect("cel-ak-rx-group", regex(`(https|javascript)://x`)), uri, regexShape},
		"regex-javascript":          {redirect("cel-ak-rx-js", regex(`^javascript:.*`)), uri, scheme},
		"regex-escaped-javascript":  {redirect("cel-ak-rx-esc", regex(`j\avascript:.*`)), uri, scheme},
		"oauth2-name-newline": {newAKOAuth2("cel-ak-o2-name", "x", func(p *akv1alpha1.OAuth2Provider) {
			p.Spec.ProviderConfigReference, p.Spec.ForProvider.Name = nowhere, "a\nb"
		}), "spec.forProvider.name", match},
		"oauth2-logout-javascript": {newAKOAuth2("cel-ak-o2-logout", "x", func(p *akv1alpha1.OAuth2Provider) {
			p.Spec.ProviderConfigReference, p.Spec.ForProvider.LogoutURI = nowhere, ptr("javascript:alert(1)")
		}), "spec.forProvider.logoutUri", match},
		"oauth2-flow-slug-too-long": {newAKOAuth2("cel-ak-o2-flow", "x", func(p *akv1alpha1.OAuth2Provider) {
			p.Spec.ProviderConfigReference, p.Spec.ForProvider.AuthorizationFlow = nowhere, strings.Repeat("f", 51)
		}), "spec.forProvider.authorizationFlow", "Too long"},
		"app-name-escape":          {app("cel-ak-app-name", func(a *akv1alpha1.Application) { a.Spec.ForProvider.Name = "a\x1b[2Jb" }), "spec.forProvider.name", match},
		"app-name-trailing":        {app("cel-ak-app-trail", func(a *akv1alpha1.Application) { a.Spec.ForProvider.Name = "grafana " }), "spec.forProvider.name", match},
		"app-slug-slash":           {app("cel-ak-app-slug", func(a *akv1alpha1.Application) { a.Spec.ForProvider.Slug = "a/b" }), "spec.forProvider.slug", match},
		"app-launch-javascript":    {app("cel-ak-app-launch", func(a *akv1alpha1.Application) { a.Spec.ForProvider.LaunchURL = ptr("javascript:alert(1)") }), "spec.forProvider.launchUrl", match},
		"app-icon-javascript":      {app("cel-ak-app-icon", func(a *akv1alpha1.Application) { a.Spec.ForProvider.IconURL = ptr("JavaScript:alert(1)") }), "spec.forProvider.iconUrl", "iconUrl must not be a javascript:, vbscript: or file: URL"},
		"app-description-nul":      {app("cel-ak-app-desc", func(a *akv1alpha1.Application) { a.Spec.ForProvider.Description = ptr("a\x00b") }), "spec.forProvider.description", match},
		"app-provider-id-nondigit": {app("cel-ak-app-pid", func(a *akv1alpha1.Application) { a.Spec.ForProvider.OAuth2ProviderID = ptr("1/2") }), "spec.forProvider.oauth2ProviderId", match},
		"group-name-newline":       {newAKGroup("cel-ak-grp-name", "a\nb", func(g *akv1alpha1.Group) { g.Spec.ProviderConfigReference = nowhere }), "spec.forProvider.name", match},
		"group-parent-not-uuid": {newAKGroup("cel-ak-grp-parent", "x", func(g *akv1alpha1.Group) {
			g.Spec.ProviderConfigReference, g.Spec.ForProvider.Parents = nowhere, []string{"../x"}
		}), "spec.forProvider.parents[0]", match},
		"user-username-control": {newAKUser("cel-ak-user-name", "a\x7fb", func(u *akv1alpha1.User) { u.Spec.ProviderConfigReference = nowhere }), "spec.forProvider.username", match},
		"user-group-not-uuid": {newAKUser("cel-ak-user-grp", "x", func(u *akv1alpha1.User) {
			u.Spec.ProviderConfigReference, u.Spec.ForProvider.Groups = nowhere, []string{"a/b"}
		}), "spec.forProvider.groups[0]", match},
		"saml-acs-javascript": {newAKSAML("cel-ak-saml-acs", "x", func(p *akv1alpha1.SAMLProvider) {
			p.Spec.ProviderConfigReference, p.Spec.ForProvider.ACSURL = nowhere, "https://"
		}), "spec.forProvider.acsUrl", match},
		"proxy-external-space": {newAKProxy("cel-ak-proxy-ext", "x", func(p *akv1alpha1.ProxyProvider) {
			p.Spec.ProviderConfigReference, p.Spec.ForProvider.ExternalHost = nowhere, "https://app.example.com/ x"
		}), "spec.forProvider.externalHost", match},
	}
	for name, tc := range refused {
		t.Run(name, func(t *testing.T) {
			refusedField(t, tc.obj, tc.path, tc.want)
		})
	}

	t.Run("accepts-native-app-scheme", func(t *testing.T) {
		celAcceptedPaused(t, redirect("cel-ak-ok-native", strict("com.example.app:/callback"), strict("http://127.0.0.1:8400/cb")))
	})
	t.Run("accepts-regex", func(t *testing.T) {
		celAcceptedPaused(t, redirect("cel-ak-ok-regex", regex(`https://.*\.grafana\.example\.com/cb`), regex(`^https?://(a|b)\.example\.com/.*$`),
			regex(`com\.example\.app:/cb.*`)))
	})
	t.Run("accepts-unicode-names", func(t *testing.T) {
		celAcceptedPaused(t, app("cel-ak-ok-unicode", func(a *akv1alpha1.Application) {
			a.Spec.ForProvider.Name, a.Spec.ForProvider.LaunchURL = "Grafana – équipe données", ptr("blank://blank")
			a.Spec.ForProvider.Description, a.Spec.ForProvider.IconURL = ptr("line one\nline two"), ptr("fa://fa-chart-line")
		}))
	})
}

// TestCELAuthentikKeypairMapping: every CEL rule of PropertyMapping and CertificateKeyPair, and
// the rules that keep a provider's key names apart from its key references, refuses what it
// is for, in both scopes where the rule differs.
func TestCELAuthentikKeypairMapping(t *testing.T) {
	t.Parallel()
	mapping := func(name string, p akv1alpha1.PropertyMappingParameters) *akv1alpha1.PropertyMapping {
		m := newAKMapping(name, p)
		m.Spec.ProviderConfigReference = nowhere
		return m
	}
	pair := func(name string, p akv1alpha1.CertificateKeyPairParameters) *akv1alpha1.CertificateKeyPair {
		k := newAKKeypair(name, p)
		k.Spec.ProviderConfigReference = nowhere
		return k
	}
	scope := &akv1alpha1.ScopeMapping{ScopeName: "s"}
	saml := &akv1alpha1.SAMLPropertyMapping{SAMLName: "s"}
	sec := &identityv1alpha1.SecretReference{Namespace: "crossplane-system", Name: "s"}
	gen := &akv1alpha1.CertificateGeneration{CommonName: "x.example.com"}
	fp := "spec.forProvider"
	refused := map[string]struct {
		obj        client.Object
		path, want string
	}{
		"mapping-no-type":   {mapping("cel-ak-map-none", akv1alpha1.PropertyMappingParameters{Name: "x", Expression: "return 1"}), fp, "a property mapping has exactly one type"},
		"mapping-two-types": {mapping("cel-ak-map-two", akv1alpha1.PropertyMappingParameters{Name: "x", Expression: "return 1", Scope: scope, SAML: saml}), fp, "a property mapping has exactly one type"},
		"mapping-name-newline": {mapping("cel-ak-map-name", akv1alpha1.PropertyMappingParameters{Name: "a\nb", Expression: "return 1", Scope: scope}),
			fp + ".name", "should match"},
		"mapping-scope-space": {mapping("cel-ak-map-scope", akv1alpha1.PropertyMappingParameters{Name: "x", Expression: "return 1", Scope: &akv1alpha1.ScopeMapping{ScopeName: "a b"}}),
			fp + ".scope.scopeName", "should match"},
		"pair-no-source":   {pair("cel-ak-kp-none", akv1alpha1.CertificateKeyPairParameters{Name: "x"}), fp, "set exactly one of secretRef"},
		"pair-two-sources": {pair("cel-ak-kp-two", akv1alpha1.CertificateKeyPairParameters{Name: "x", SecretRef: sec, Generate: gen}), fp, "set exactly one of secretRef"},
		"pair-key-from-secret": {pair("cel-ak-kp-key", akv1alpha1.CertificateKeyPairParameters{Name: "x", SecretRef: sec, PublishPrivateKey: ptr(true)}),
			fp, "publishPrivateKey applies to a generated pair only"},
		"pair-cluster-no-namespace": {pair("cel-ak-kp-ns", akv1alpha1.CertificateKeyPairParameters{Name: "x", SecretRef: &identityv1alpha1.SecretReference{Name: "s"}}),
			fp, "secretRef.namespace is required"},
		"pair-san-comma": {pair("cel-ak-kp-san", akv1alpha1.CertificateKeyPairParameters{Name: "x", Generate: &akv1alpha1.CertificateGeneration{CommonName: "x", SubjectAltNames: []string{"a,b"}}}),
			fp + ".generate.subjectAltNames[0]", "should match"},
		"oauth2-signing-name-and-ref": {newAKOAuth2("cel-ak-o2-kp", "x", func(p *akv1alpha1.OAuth2Provider) {
			p.Spec.ProviderConfigReference, p.Spec.ForProvider.SigningKey, p.Spec.ForProvider.SigningKeyRef = nowhere, ptr("k"), &xpv2.Reference{Name: "k"}
		}), fp, "set signingKey (a certificate-key pair's name) or one of signingKeyId"},
		"oauth2-mapping-id-not-uuid": {newAKOAuth2("cel-ak-o2-map", "x", func(p *akv1alpha1.OAuth2Provider) {
			p.Spec.ProviderConfigReference, p.Spec.ForProvider.PropertyMappingIDs = nowhere, []string{"../x"}
		}), fp + ".propertyMappingIds[0]", "should match"},
		"saml-signing-name-and-id": {newAKSAML("cel-ak-saml-kp", "x", func(p *akv1alpha1.SAMLProvider) {
			p.Spec.ProviderConfigReference, p.Spec.ForProvider.SigningKey, p.Spec.ForProvider.SigningKeyID = nowhere, ptr("k"), ptr("0b9f6a4e-3c2d-4e5f-8a7b-1c2d3e4f5a6b")
		}), fp, "set signingKey (a certificate-key pair's name) or one of signingKeyId"},
		"saml-verification-name-and-selector": {newAKSAML("cel-ak-saml-vkp", "x", func(p *akv1alpha1.SAMLProvider) {
			p.Spec.ProviderConfigReference, p.Spec.ForProvider.VerificationKey = nowhere, ptr("k")
			p.Spec.ForProvider.VerificationKeySelector = &xpv2.Selector{MatchLabels: map[string]string{"a": "b"}}
		}), fp, "set verificationKey (a certificate-key pair's name) or one of verificationKeyId"},
		"ns-pair-namespace": {&nsakv1alpha1.CertificateKeyPair{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "cel-ak-ns-kp"},
			Spec: nsakv1alpha1.CertificateKeyPairSpec{ManagedResourceSpec: xpv2.ManagedResourceSpec{ProviderConfigReference: nsRef("ClusterProviderConfig", celNoProviderConfig)},
				ForProvider: nsakv1alpha1.CertificateKeyPairParameters{Name: "x", SecretRef: sec}}}, fp, "secretRef.namespace must not be set"},
	}
	for name, tc := range refused {
		t.Run(name, func(t *testing.T) {
			refusedField(t, tc.obj, tc.path, tc.want)
		})
	}

	// Transition rules: a mapping's type and a pair's source cannot change.
	t.Run("mapping-type-change", func(t *testing.T) {
		m := mapping("cel-ak-map-change", akv1alpha1.PropertyMappingParameters{Name: "x", Expression: "return 1", Scope: scope})
		celAcceptedPaused(t, m)
		changeRefused(t, m, func(m *akv1alpha1.PropertyMapping) {
			m.Spec.ForProvider.Scope, m.Spec.ForProvider.SAML = nil, saml
		}, "the property mapping type cannot be changed")
	})
	t.Run("pair-source-change", func(t *testing.T) {
		k := pair("cel-ak-kp-change", akv1alpha1.CertificateKeyPairParameters{Name: "x", Generate: gen})
		celAcceptedPaused(t, k)
		changeRefused(t, k, func(k *akv1alpha1.CertificateKeyPair) {
			k.Spec.ForProvider.Generate, k.Spec.ForProvider.SecretRef = nil, sec
		}, "cannot switch between secretRef and generate")
	})
}
