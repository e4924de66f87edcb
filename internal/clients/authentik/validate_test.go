package authentik

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crossplane-contrib/provider-identity/internal/clients"
)

func TestRules(t *testing.T) {
	cases := map[string]struct {
		field clients.Field
		want  string // "" for no error, else a part of the message
	}{
		"Name":                  {field: clients.F("spec.forProvider.name", "Grafana – équipe", Name)},
		"NameNewline":           {field: clients.F("spec.forProvider.name", "a\nb", Name), want: `spec.forProvider.name "a\nb" contains control characters`},
		"NameTrailingSpace":     {field: clients.F("spec.forProvider.name", "grafana ", Name), want: "starts or ends with whitespace"},
		"Slug":                  {field: clients.F("spec.forProvider.slug", "grafana_1-a", Slug)},
		"SlugSlash":             {field: clients.F("spec.forProvider.slug", "a/b", Slug), want: "spec.forProvider.slug"},
		"SlugTooLong":           {field: clients.F("spec.forProvider.slug", strings.Repeat("s", 51), Slug), want: "at most 50"},
		"HTTPURL":               {field: clients.F("spec.forProvider.acsUrl", "https://sp.example.com/acs", HTTPURL)},
		"HTTPURLEmpty":          {field: clients.F("spec.forProvider.slsUrl", "", HTTPURL)},
		"HTTPURLJavascript":     {field: clients.F("spec.forProvider.launchUrl", "javascript:alert(1)", HTTPURL), want: "spec.forProvider.launchUrl"},
		"Strict":                {field: clients.F("spec.forProvider.redirectUris[0].url", "https://app.example.com/cb", RedirectURI("strict"))},
		"StrictLoopback":        {field: clients.F("spec.forProvider.redirectUris[0].url", "http://127.0.0.1:8400/cb", RedirectURI("strict"))},
		"StrictNativeApp":       {field: clients.F("spec.forProvider.redirectUris[0].url", "com.example.app:/callback", RedirectURI("strict"))},
		"StrictJavascript":      {field: clients.F("spec.forProvider.redirectUris[0].url", "javascript:alert(1)", RedirectURI("strict")), want: "spec.forProvider.redirectUris[0].url"},
		"StrictJavascriptCase":  {field: clients.F("spec.forProvider.redirectUris[0].url", "JavaScript:alert(1)", RedirectURI("strict")), want: "scheme a browser would run"},
		"StrictData":            {field: clients.F("spec.forProvider.redirectUris[1].url", "data:text/html,x", RedirectURI("strict")), want: "spec.forProvider.redirectUris[1].url"},
		"StrictFile":            {field: clients.F("spec.forProvider.redirectUris[0].url", "file:///etc/passwd", RedirectURI("strict")), want: "scheme"},
		"StrictVBScript":        {field: clients.F("spec.forProvider.redirectUris[0].url", "vbscript:msgbox", RedirectURI("strict")), want: "scheme"},
		"StrictLeadingSpace":    {field: clients.F("spec.forProvider.redirectUris[0].url", " javascript:alert(1)", RedirectURI("strict")), want: "not an absolute URI"},
		"StrictTabInScheme":     {field: clients.F("spec.forProvider.redirectUris[0].url", "java\tscript:alert(1)", RedirectURI("strict")), want: "not an absolute URI"},
		"StrictNoHost":          {field: clients.F("spec.forProvider.redirectUris[0].url", "https:/cb", RedirectURI("strict")), want: "not an absolute URI"},
		"StrictRelative":        {field: clients.F("spec.forProvider.redirectUris[0].url", "/cb", RedirectURI("strict")), want: "not an absolute URI"},
		"Regex":                 {field: clients.F("spec.forProvider.redirectUris[0].url", `https://.*\.grafana\.example\.com/cb`, RedirectURI("regex"))},
		"RegexAnchoredOptional": {field: clients.F("spec.forProvider.redirectUris[0].url", `^https?://(a|b)\.example\.com/.*$`, RedirectURI("regex"))},
		"RegexNativeApp":        {field: clients.F("spec.forProvider.redirectUris[0].url", `com\.example\.app:/cb.*`, RedirectURI("regex"))},
		"RegexAnyScheme":        {field: clients.F("spec.forProvider.redirectUris[0].url", `.*`, RedirectURI("regex")), want: "does not start with its scheme"},
		"RegexAlternation":      {field: clients.F("spec.forProvider.redirectUris[0].url", `https://a\.com/.*|file:.*`, RedirectURI("regex")), want: "uses | outside parentheses"},
		"RegexClassTrick":       {field: clients.F("spec.forProvider.redirectUris[0].url", `https://a[(]|file:.*[)]`, RedirectURI("regex")), want: "uses | outside parentheses"},
		"RegexSchemeGroup":      {field: clients.F("spec.forProvider.redirectUris[0].url", `(https|javascript)://x`, RedirectURI("regex")), want: "does not start with its scheme"},
		"RegexEscapedForbidden": {field: clients.F("spec.forProvider.redirectUris[0].url", `^j\avascript:.*`, RedirectURI("regex")), want: "scheme a browser would run"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			err := clients.CheckFields("authentik OAuth2 provider", "cr-name", tc.field)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if tc.want == "" {
				if diff := cmp.Diff("", got); diff != "" {
					t.Errorf("CheckFields(...): -want no error, +got:\n%s", diff)
				}
				return
			}
			if !strings.Contains(got, tc.want) || !strings.Contains(got, "refusing to write authentik OAuth2 provider for cr-name") {
				t.Errorf("CheckFields(...) = %q; want an error naming the resource and containing %q", got, tc.want)
			}
		})
	}
}
