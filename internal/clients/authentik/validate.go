package authentik

import (
	"regexp"
	"strings"

	"github.com/crossplane-contrib/provider-identity/internal/clients"
)

// authentik's rules for the values drivers write, checked with clients.CheckFields right
// before a create or update (the CRDs check the same at admission).

var (
	slug = regexp.MustCompile(`^[-a-zA-Z0-9_]+$`)
	// An absolute URI: a scheme, then no spaces or control characters.
	absoluteURI = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:[^\s\x00-\x1f\x7f]+$`)
	httpNoHost  = regexp.MustCompile(`^(?i)https?:`)
	httpURL     = regexp.MustCompile(`^(?i)https?://[^/?#\s\x00-\x1f\x7f][^\s\x00-\x1f\x7f]*$`)
	// A regex-mode redirect URI starts with its scheme written out and uses | only inside
	// (unnested) parentheses: it cannot match another scheme than the one it names.
	regexURI = regexp.MustCompile(`^\^?(https\?|[A-Za-z]([A-Za-z0-9-]|\\[.+])*):(\\.|\[\^?\]?(\\.|[^\\\]])*\]|[^\\|()\[\x00-\x1f\x7f]|\((\\.|\[\^?\]?(\\.|[^\\\]])*\]|[^\\()\[\x00-\x1f\x7f])*\))*$`)
	// Schemes a browser runs or opens itself instead of returning to the application.
	forbiddenScheme = regexp.MustCompile(`^\^?(javascript|data|vbscript|file|blob|about|filesystem|view-source):`)
)

// Name is an authentik name: authentik trims surrounding whitespace and refuses blank names,
// and keeps control characters as given.
func Name(v string) string {
	if strings.TrimSpace(v) != v || v == "" {
		return "is blank or starts or ends with whitespace"
	}
	return clients.SingleLine(v)
}

// Slug is an authentik slug: letters, digits, '-' and '_', at most 50.
func Slug(v string) string {
	if len(v) > 50 || !slug.MatchString(v) {
		return "is not an authentik slug: letters, digits, '-' and '_' only, at most 50 characters"
	}
	return ""
}

// HTTPURL is an http(s) URL with a host, or empty (authentik's "unset").
func HTTPURL(v string) string {
	if v != "" && !httpURL.MatchString(v) {
		return "is not an http(s) URL with a host"
	}
	return ""
}

// RedirectURI checks one OAuth2 redirect URI in its matching mode ("strict" or "regex").
func RedirectURI(mode string) clients.Rule {
	return func(v string) string {
		if forbiddenScheme.MatchString(strings.ToLower(strings.ReplaceAll(v, `\`, ""))) {
			return "uses a scheme a browser would run or open itself (javascript:, data:, vbscript:, file:...)"
		}
		if mode == "regex" {
			if !regexURI.MatchString(v) {
				return "is a regular expression that does not start with its scheme written out, or uses | outside parentheses"
			}
			return ""
		}
		if !absoluteURI.MatchString(v) || (httpNoHost.MatchString(v) && !httpURL.MatchString(v)) {
			return "is not an absolute URI (https://host/path, or a native app's com.example.app:/path) without spaces or control characters"
		}
		return ""
	}
}

// Identifier is a token's identifier: letters, digits, '-' and '_', at most 255.
func Identifier(v string) string {
	if len(v) > 255 || !slug.MatchString(v) {
		return "is not an authentik token identifier: letters, digits, '-' and '_' only, at most 255 characters"
	}
	return ""
}
