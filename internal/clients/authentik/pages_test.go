package authentik

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	api "goauthentik.io/api/v3"
)

// pagesEnv is an API server holding objects of every kind whose lists are shared, each with
// nested objects: applications with a provider and backchannel providers, groups with parents
// and attributes, providers with redirect URIs.
func pagesEnv(t testing.TB) *api.APIClient {
	t.Helper()
	s := startServer(t)
	redirects := []any{
		map[string]any{"matching_mode": "strict", "url": "https://wiki.example.com/cb"},
		map[string]any{"matching_mode": "regex", "url": "https://.*\\.example\\.com/cb"},
	}
	parent := s.seedPK("core/groups", map[string]any{"name": "staff", "attributes": map[string]any{"team": "platform", "n": 3}})
	s.seed("core/groups", map[string]any{"name": "juniors", "parents": []any{parent}, "is_superuser": true})
	s.seed("core/users", map[string]any{"username": "alice", "name": "Alice", "groups": []any{parent}, "attributes": map[string]any{"desk": "4F"}})
	for i := range 3 {
		main := s.seedPK("providers/oauth2", map[string]any{"name": fmt.Sprintf("wiki-%d", i), "redirect_uris": redirects})
		back := s.seedPK("providers/proxy", map[string]any{"name": fmt.Sprintf("proxy-%d", i), "external_host": "https://app.example.com",
			"mode": "forward_single", "redirect_uris": redirects[:1]})
		s.seed("core/applications", map[string]any{"name": fmt.Sprintf("Wiki %d", i), "slug": fmt.Sprintf("wiki-%d", i),
			"provider": json.Number(main), "backchannel_providers": []any{json.Number(back)}, "meta_description": "The wiki"})
	}
	s.seed("core/applications", map[string]any{"name": "Bare", "slug": "bare"})
	s.seed("providers/saml", map[string]any{"name": "sso", "acs_url": "https://sp.example.com/acs"})
	s.seed("providers/ldap", map[string]any{"name": "directory", "base_dn": "dc=example,dc=com"})
	return s.client(nil)
}

// sameAsGenerated compares what the generated client decodes with what Pages decodes: every
// field, unexported ones (the nullable wrappers') included. AdditionalProperties is an empty
// map from one, nil from the other.
var sameAsGenerated = []cmp.Option{cmp.Exporter(func(reflect.Type) bool { return true }), cmpopts.EquateEmpty()}

// A pagesCase lists one kind: generated reads the whole list with the generated client, plain
// is what Pages reads it with, min how many objects the list has at least.
type pagesCase[T any] struct {
	generated func(ctx context.Context, c *api.APIClient) ([]T, error)
	plain     ListPage[T]
	min       int
}

// on is the subtest of the case against client c.
func (tc pagesCase[T]) on(c *api.APIClient) func(*testing.T) {
	return func(t *testing.T) { tc.run(t, c) }
}

func (tc pagesCase[T]) run(t *testing.T, c *api.APIClient) {
	t.Helper()
	ctx := context.Background()
	want, err := tc.generated(ctx, c)
	if err != nil {
		t.Fatalf("generated client: %v", err)
	}
	if len(want) < tc.min {
		t.Fatalf("generated client listed %d objects, want at least %d", len(want), tc.min)
	}
	// Two per page, so that pagination is followed too.
	got, err := ListAll(ctx, func(page int32) ([]T, int32, error) {
		items, next, _, err := tc.plain(ctx, c, page, 2)
		return items, next, err
	})
	if err != nil {
		t.Fatalf("Pages: %v", err)
	}
	if diff := cmp.Diff(want, got, sameAsGenerated...); diff != "" {
		t.Errorf("Pages decoded otherwise than the generated client (-generated +Pages):\n%s", diff)
	}
}

func TestPagesDecodeAsTheGeneratedClient(t *testing.T) {
	c := pagesEnv(t)
	t.Run("applications", pagesCase[api.Application]{
		generated: func(ctx context.Context, c *api.APIClient) ([]api.Application, error) {
			l, _, err := c.CoreAPI.CoreApplicationsList(ctx).SuperuserFullList(true).PageSize(100).Execute()
			return l.GetResults(), err
		},
		plain: ApplicationPages("core/applications/?superuser_full_list=true"), min: 4,
	}.on(c))
	t.Run("users", pagesCase[api.User]{
		generated: func(ctx context.Context, c *api.APIClient) ([]api.User, error) {
			l, _, err := c.CoreAPI.CoreUsersList(ctx).IncludeGroups(false).IncludeRoles(false).PageSize(100).Execute()
			return l.GetResults(), err
		},
		plain: UserPages("core/users/?include_groups=false&include_roles=false"), min: 2,
	}.on(c))
	t.Run("groups", pagesCase[api.Group]{
		generated: func(ctx context.Context, c *api.APIClient) ([]api.Group, error) {
			l, _, err := c.CoreAPI.CoreGroupsList(ctx).IncludeUsers(false).IncludeChildren(true).IncludeParents(true).PageSize(100).Execute()
			return l.GetResults(), err
		},
		plain: GroupPages("core/groups/?include_users=false&include_children=true&include_parents=true"), min: 3,
	}.on(c))
	t.Run("oauth2 providers", pagesCase[api.OAuth2Provider]{
		generated: func(ctx context.Context, c *api.APIClient) ([]api.OAuth2Provider, error) {
			l, _, err := c.ProvidersAPI.ProvidersOauth2List(ctx).PageSize(100).Execute()
			return l.GetResults(), err
		},
		plain: OAuth2ProviderPages("providers/oauth2/"), min: 3,
	}.on(c))
	t.Run("proxy providers", pagesCase[api.ProxyProvider]{
		generated: func(ctx context.Context, c *api.APIClient) ([]api.ProxyProvider, error) {
			l, _, err := c.ProvidersAPI.ProvidersProxyList(ctx).PageSize(100).Execute()
			return l.GetResults(), err
		},
		plain: ProxyProviderPages("providers/proxy/"), min: 3,
	}.on(c))
	t.Run("saml providers", pagesCase[api.SAMLProvider]{
		generated: func(ctx context.Context, c *api.APIClient) ([]api.SAMLProvider, error) {
			l, _, err := c.ProvidersAPI.ProvidersSamlList(ctx).PageSize(100).Execute()
			return l.GetResults(), err
		},
		plain: SAMLProviderPages("providers/saml/"), min: 1,
	}.on(c))
	t.Run("ldap providers", pagesCase[api.LDAPProvider]{
		generated: func(ctx context.Context, c *api.APIClient) ([]api.LDAPProvider, error) {
			l, _, err := c.ProvidersAPI.ProvidersLdapList(ctx).PageSize(100).Execute()
			return l.GetResults(), err
		},
		plain: LDAPProviderPages("providers/ldap/"), min: 1,
	}.on(c))
}

// The nested objects that the plain copies decode themselves are there, not dropped: the
// comparison above would pass if both sides lost them.
func TestPagesKeepNestedObjects(t *testing.T) {
	c := pagesEnv(t)
	apps, _, _, err := ApplicationPages("core/applications/?superuser_full_list=true")(context.Background(), c, 1, 100)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range apps {
		if a.Slug != "wiki-0" {
			continue
		}
		if p := a.GetProviderObj(); p.Name != "wiki-0" || len(a.BackchannelProvidersObj) != 1 || a.BackchannelProvidersObj[0].Name != "proxy-0" {
			t.Errorf("application wiki-0: provider %q, backchannel providers %+v; want wiki-0 and [proxy-0]", p.Name, a.BackchannelProvidersObj)
		}
	}
	oauth, _, _, err := OAuth2ProviderPages("providers/oauth2/")(context.Background(), c, 1, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(oauth) == 0 || len(oauth[0].RedirectUris) != 2 || oauth[0].RedirectUris[1].MatchingMode != api.MATCHINGMODEENUM_REGEX {
		t.Errorf("OAuth2 providers: %+v; want two redirect URIs, the second a regex", oauth)
	}
}

// A refused list is an *Error with authentik's status and answer, as the generated client's
// errors are after AsError, so that Shared tells a list it may not read from a passing failure.
func TestPagesErrors(t *testing.T) {
	s := startServer(t)
	cfg := s.client(nil).GetConfig()
	cfg.AddDefaultHeader("Authorization", "Bearer not-"+s.Token())
	_, _, resp, err := UserPages("core/users/")(context.Background(), api.NewAPIClient(cfg), 1, 10)
	var e *Error
	if !errors.As(err, &e) || e.Status != http.StatusForbidden {
		t.Fatalf("wrong token: %v; want an *Error with status 403", err)
	}
	if resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("wrong token: response %v, want the 403", resp)
	}
	if want := "GET /api/v3/core/users/: authentik answered 403 Forbidden: "; len(e.Message) < len(want) || e.Message[:len(want)] != want {
		t.Errorf("message %q, want it to start with %q", e.Message, want)
	}
	if err := Wrap(err, resp, "cannot list %s", "users"); !errors.As(err, &e) || e.Status != http.StatusForbidden {
		t.Errorf("Wrap lost the status: %v", err)
	}

	cfg.Servers = api.ServerConfigurations{{URL: "http://127.0.0.1:1/api/v3"}}
	if _, _, _, err := UserPages("core/users/")(context.Background(), api.NewAPIClient(cfg), 1, 10); err == nil || !MayHaveCommitted(AsError(err, nil)) {
		t.Errorf("no server: %v; want an error with no answer", err)
	}
}

// BenchmarkPages compares decoding one page of 500 applications, each with its provider, as the
// API server answers it: with the generated client's types and as ApplicationPages does.
func BenchmarkPages(b *testing.B) {
	s := startServer(b)
	for i := range 500 {
		p := s.seedPK("providers/oauth2", map[string]any{"name": fmt.Sprintf("p-%d", i)})
		s.seed("core/applications", map[string]any{"name": fmt.Sprintf("App %d", i), "slug": fmt.Sprintf("app-%d", i), "provider": json.Number(p)})
	}
	_, body, err := get(context.Background(), s.client(nil), "core/applications/?superuser_full_list=true", url.Values{"page_size": {"500"}})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("generated", func(b *testing.B) {
		for b.Loop() {
			var l api.PaginatedApplicationList
			if err := json.Unmarshal(body, &l); err != nil || len(l.Results) != 500 {
				b.Fatalf("%d results, %v", len(l.Results), err)
			}
		}
	})
	b.Run("plain", func(b *testing.B) {
		for b.Loop() {
			if l, _, err := decodePage(body, plainApplication.object); err != nil || len(l) != 500 {
				b.Fatalf("%d results, %v", len(l), err)
			}
		}
	})
}
