package authentik

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strconv"

	api "goauthentik.io/api/v3"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
)

// The lists that answer the polls of many resources (Shared) are read here rather than with
// the generated client, whose UnmarshalJSON decodes each object three times (into a map to
// check the required properties, into the struct, into a map again for the additional
// ones), the page around them twice more, and every nested object of a generated type the
// same way: most of the provider's steady-state CPU with authentik (ADR 0006). A page of 500
// applications took about eight times the CPU and memory of one plain decode (BenchmarkPages).
//
// Each object is decoded into a plain copy of its generated type: the same fields, without
// the methods, so encoding/json fills the struct once. A nested generated type that a list
// answers with many of (an application's providers, a provider's redirect URIs) is decoded
// plainly too; the others keep their own UnmarshalJSON. The plain copy skips the required-
// property check and AdditionalProperties, which no driver reads.

const errDecodePage = "cannot decode page %d of %s"

// ApplicationPages reads pages of the applications list named by list.
func ApplicationPages(list string) ListPage[api.Application] {
	return pages(list, plainApplication.object)
}

// UserPages reads pages of the users list named by list.
func UserPages(list string) ListPage[api.User] { return pages(list, plainUser.object) }

// GroupPages reads pages of the groups list named by list.
func GroupPages(list string) ListPage[api.Group] { return pages(list, plainGroup.object) }

// OAuth2ProviderPages reads pages of the OAuth2 providers list named by list.
func OAuth2ProviderPages(list string) ListPage[api.OAuth2Provider] {
	return pages(list, plainOAuth2Provider.object)
}

// SAMLProviderPages reads pages of the SAML providers list named by list.
func SAMLProviderPages(list string) ListPage[api.SAMLProvider] {
	return pages(list, plainSAMLProvider.object)
}

// ProxyProviderPages reads pages of the proxy providers list named by list.
func ProxyProviderPages(list string) ListPage[api.ProxyProvider] {
	return pages(list, plainProxyProvider.object)
}

// LDAPProviderPages reads pages of the LDAP providers list named by list.
func LDAPProviderPages(list string) ListPage[api.LDAPProvider] {
	return pages(list, plainLDAPProvider.object)
}

// pages reads pages of list (a path under the API root with its query, as Shared.List names
// it), decoding each result as P and converting it with object.
func pages[P, T any](list string, object func(P) T) ListPage[T] {
	return func(ctx context.Context, c *api.APIClient, page, size int32) ([]T, int32, *http.Response, error) {
		resp, body, err := get(ctx, c, list, url.Values{"page": {strconv.Itoa(int(page))}, "page_size": {strconv.Itoa(int(size))}})
		if err != nil {
			return nil, 0, resp, err
		}
		items, next, err := decodePage(body, object)
		if err != nil {
			return nil, 0, resp, errors.Wrapf(err, errDecodePage, page, list)
		}
		return items, next, resp, nil
	}
}

// decodePage decodes a page of a list, each result as P converted with object, and returns the
// next page's number (0 on the last page).
func decodePage[P, T any](body []byte, object func(P) T) ([]T, int32, error) {
	var p struct {
		Pagination plainPagination `json:"pagination"`
		Results    []P             `json:"results"`
	}
	if err := json.Unmarshal(body, &p); err != nil {
		return nil, 0, err
	}
	out := make([]T, len(p.Results))
	for i := range p.Results {
		out[i] = object(p.Results[i])
	}
	return out, int32(p.Pagination.Next), nil
}

// get sends a GET of path (under the API root, its query merged with q) as the generated
// client would: its server, default headers (the token) and HTTP client, so the endpoint's
// limits and TLS apply. An answer other than 2xx is an *Error, as AsError makes them.
func get(ctx context.Context, c *api.APIClient, path string, q url.Values) (*http.Response, []byte, error) {
	cfg := c.GetConfig()
	base, err := cfg.Servers.URL(0, nil)
	if err != nil {
		return nil, nil, err
	}
	u, err := url.Parse(base + "/" + path)
	if err != nil {
		return nil, nil, err
	}
	query := u.Query()
	for k, v := range q {
		query[k] = v
	}
	u.RawQuery = query.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, nil, err
	}
	for k, v := range cfg.DefaultHeader {
		req.Header.Set(k, v)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", cfg.UserAgent)
	hc := cfg.HTTPClient
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, nil, err
	}
	body, err := io.ReadAll(resp.Body)
	// The body was read to its end (or failed): closing it can lose nothing.
	_ = resp.Body.Close()
	if err != nil {
		return resp, nil, err
	}
	if resp.StatusCode >= http.StatusMultipleChoices {
		return resp, body, answerError(resp, body)
	}
	return resp, body, nil
}
