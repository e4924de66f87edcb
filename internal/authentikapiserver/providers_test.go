package authentikapiserver

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	api "goauthentik.io/api/v3"
)

func TestOAuth2ProviderComputedFields(t *testing.T) {
	e := newEnv(t)
	authz, inval := e.flows(t)
	uris := []api.RedirectURIRequest{*api.NewRedirectURIRequest(api.MATCHINGMODEENUM_STRICT, "https://app.example.com/cb")}

	cases := []struct {
		name       string
		req        func() *api.OAuth2ProviderRequest
		wantID     func(string) bool
		wantSecret func(string) bool
	}{
		{
			name:       "confidential client gets a generated id and secret",
			req:        func() *api.OAuth2ProviderRequest { return api.NewOAuth2ProviderRequest("conf", authz, inval, uris) },
			wantID:     func(s string) bool { return len(s) == 40 },
			wantSecret: func(s string) bool { return len(s) == 128 },
		},
		{
			name: "client-chosen id and secret are kept",
			req: func() *api.OAuth2ProviderRequest {
				r := api.NewOAuth2ProviderRequest("chosen", authz, inval, uris)
				r.SetClientId("my-client")
				r.SetClientSecret("s3cret")
				return r
			},
			wantID:     func(s string) bool { return s == "my-client" },
			wantSecret: func(s string) bool { return s == "s3cret" },
		},
		{
			name: "public client",
			req: func() *api.OAuth2ProviderRequest {
				r := api.NewOAuth2ProviderRequest("public", authz, inval, uris)
				r.SetClientType(api.CLIENTTYPEENUM_PUBLIC)
				return r
			},
			wantID:     func(s string) bool { return len(s) == 40 },
			wantSecret: func(string) bool { return true },
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, resp, err := e.c.ProvidersAPI.ProvidersOauth2Create(e.ctx).OAuth2ProviderRequest(*tc.req()).Execute()
			if err != nil || status(resp) != http.StatusCreated {
				t.Fatalf("create: %d %v", status(resp), err)
			}
			if !tc.wantID(p.GetClientId()) || !tc.wantSecret(p.GetClientSecret()) {
				t.Errorf("client_id %q client_secret %q", p.GetClientId(), p.GetClientSecret())
			}
			if len(p.GetGrantTypes()) != 0 {
				t.Errorf("grant_types = %v, want [] for an API-created provider", p.GetGrantTypes())
			}
			if got := p.RedirectUris[0].GetRedirectUriType(); got != api.REDIRECTURITYPEENUM_AUTHORIZATION {
				t.Errorf("redirect_uri_type = %q, want the serializer default", got)
			}
			if p.Component != "ak-provider-oauth2-form" || p.GetAssignedApplicationSlug() != "" {
				t.Errorf("component %q assigned %q", p.Component, p.GetAssignedApplicationSlug())
			}
		})
	}
}

func TestOAuth2ProviderGetPatchDelete(t *testing.T) {
	e := newEnv(t)
	authz, inval := e.flows(t)
	p, _, err := e.c.ProvidersAPI.ProvidersOauth2Create(e.ctx).OAuth2ProviderRequest(*api.NewOAuth2ProviderRequest("p", authz, inval, []api.RedirectURIRequest{})).Execute()
	if err != nil {
		t.Fatal(err)
	}
	patch := api.NewPatchedOAuth2ProviderRequest()
	patch.SetAccessTokenValidity("minutes=10")
	got, _, err := e.c.ProvidersAPI.ProvidersOauth2PartialUpdate(e.ctx, p.Pk).PatchedOAuth2ProviderRequest(*patch).Execute()
	if err != nil {
		t.Fatal(err)
	}
	if got.GetAccessTokenValidity() != "minutes=10" || got.GetClientSecret() != p.GetClientSecret() {
		t.Errorf("patch: validity %q, secret changed %v", got.GetAccessTokenValidity(), got.GetClientSecret() != p.GetClientSecret())
	}
	if _, err := e.c.ProvidersAPI.ProvidersOauth2Destroy(e.ctx, p.Pk).Execute(); err != nil {
		t.Fatal(err)
	}
	_, resp, _ := e.c.ProvidersAPI.ProvidersOauth2Retrieve(e.ctx, p.Pk).Execute()
	if status(resp) != http.StatusNotFound {
		t.Errorf("get after delete: %d", status(resp))
	}
}

// Provider names are unique across every provider type.
func TestProviderNameUniqueAcrossTypes(t *testing.T) {
	e := newEnv(t)
	authz, inval := e.flows(t)
	if _, _, err := e.c.ProvidersAPI.ProvidersOauth2Create(e.ctx).OAuth2ProviderRequest(*api.NewOAuth2ProviderRequest("shared", authz, inval, []api.RedirectURIRequest{})).Execute(); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"name": []any{"Provider with this name already exists."}}
	cases := []struct {
		name   string
		create func() (*http.Response, error)
	}{
		{"oauth2", func() (*http.Response, error) {
			_, r, err := e.c.ProvidersAPI.ProvidersOauth2Create(e.ctx).OAuth2ProviderRequest(*api.NewOAuth2ProviderRequest("shared", authz, inval, []api.RedirectURIRequest{})).Execute()
			return r, err
		}},
		{"saml", func() (*http.Response, error) {
			_, r, err := e.c.ProvidersAPI.ProvidersSamlCreate(e.ctx).SAMLProviderRequest(*api.NewSAMLProviderRequest("shared", authz, inval, "https://sp/acs")).Execute()
			return r, err
		}},
		{"proxy", func() (*http.Response, error) {
			_, r, err := e.c.ProvidersAPI.ProvidersProxyCreate(e.ctx).ProxyProviderRequest(*api.NewProxyProviderRequest("shared", authz, inval, "https://app.example.com")).Execute()
			return r, err
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := tc.create()
			if status(resp) != http.StatusBadRequest {
				t.Fatalf("status %d err %v", status(resp), err)
			}
			if diff := cmp.Diff(want, validationError(t, err)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestSAMLProviderAndMetadata(t *testing.T) {
	e := newEnv(t)
	authz, inval := e.flows(t)
	certs, _, err := e.c.CryptoAPI.CryptoCertificatekeypairsList(e.ctx).Name("authentik Self-signed Certificate").Execute()
	if err != nil || len(certs.Results) != 1 {
		t.Fatalf("self-signed keypair: %v %+v", err, certs)
	}
	req := api.NewSAMLProviderRequest("saml", authz, inval, "https://sp.example.com/acs")
	req.SetSigningKp(certs.Results[0].Pk)
	p, _, err := e.c.ProvidersAPI.ProvidersSamlCreate(e.ctx).SAMLProviderRequest(*req).Execute()
	if err != nil {
		t.Fatal(err)
	}
	if p.UrlSsoPost != "-" {
		t.Errorf("url_sso_post without application = %q, want -", p.UrlSsoPost)
	}
	if p.GetDigestAlgorithm() != api.DIGESTALGORITHMENUM_HTTP___WWW_W3_ORG_2001_04_XMLENCSHA256 || !p.GetSignAssertion() {
		t.Errorf("defaults: digest %q sign_assertion %v", p.GetDigestAlgorithm(), p.GetSignAssertion())
	}

	// No application yet: documented 404.
	_, resp, _ := e.c.ProvidersAPI.ProvidersSamlMetadataRetrieve(e.ctx, p.Pk).Execute()
	if status(resp) != http.StatusNotFound {
		t.Errorf("metadata without application: %d", status(resp))
	}

	app := api.NewApplicationRequest("SAML App", "saml-app")
	app.SetProvider(p.Pk)
	if _, _, err := e.c.CoreAPI.CoreApplicationsCreate(e.ctx).ApplicationRequest(*app).Execute(); err != nil {
		t.Fatal(err)
	}
	p, _, err = e.c.ProvidersAPI.ProvidersSamlRetrieve(e.ctx, p.Pk).Execute()
	if err != nil {
		t.Fatal(err)
	}
	if want := e.url + "/application/saml/saml-app/sso/binding/post/"; p.UrlSsoPost != want {
		t.Errorf("url_sso_post = %q, want %q", p.UrlSsoPost, want)
	}
	md, _, err := e.c.ProvidersAPI.ProvidersSamlMetadataRetrieve(e.ctx, p.Pk).Execute()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<md:EntityDescriptor", "X509Certificate", p.UrlSsoRedirect} {
		if !strings.Contains(md.Metadata, want) {
			t.Errorf("metadata lacks %q:\n%s", want, md.Metadata)
		}
	}

	// ?download answers the XML file itself.
	hr, err := http.NewRequestWithContext(t.Context(), http.MethodGet, e.url+"/api/v3/providers/saml/"+keyOf(p.Pk)+"/metadata/?download=true", nil)
	if err != nil {
		t.Fatal(err)
	}
	hr.Header.Set("Authorization", "Bearer "+e.s.Token())
	dl, err := http.DefaultClient.Do(hr)
	if err != nil {
		t.Fatal(err)
	}
	if err := dl.Body.Close(); err != nil {
		t.Fatal(err)
	}
	if dl.StatusCode != http.StatusOK || dl.Header.Get("Content-Type") != "application/xml" {
		t.Errorf("download: %d %s", dl.StatusCode, dl.Header.Get("Content-Type"))
	}
}

func TestProxyProviderSetsOAuthDefaults(t *testing.T) {
	e := newEnv(t)
	authz, inval := e.flows(t)
	p, _, err := e.c.ProvidersAPI.ProvidersProxyCreate(e.ctx).ProxyProviderRequest(*api.NewProxyProviderRequest("proxy", authz, inval, "https://app.example.com")).Execute()
	if err != nil {
		t.Fatal(err)
	}
	if len(p.ClientId) != 40 {
		t.Errorf("client_id %q", p.ClientId)
	}
	urls := make([]string, 0, len(p.RedirectUris))
	for _, u := range p.RedirectUris {
		urls = append(urls, u.Url)
	}
	want := []string{"https://app.example.com/outpost.goauthentik.io/callback?X-authentik-auth-callback=true", "https://app.example.com?X-authentik-auth-callback=true"}
	if diff := cmp.Diff(want, urls); diff != "" {
		t.Errorf("redirect_uris (-want +got):\n%s", diff)
	}
	// set_oauth_defaults adds the openid, email, profile and ak_proxy scopes.
	if len(p.PropertyMappings) != 4 {
		t.Errorf("property_mappings = %v, want the 4 managed scopes", p.PropertyMappings)
	}
}

func TestProvidersAllList(t *testing.T) {
	e := newEnv(t)
	authz, inval := e.flows(t)
	o, _, err := e.c.ProvidersAPI.ProvidersOauth2Create(e.ctx).OAuth2ProviderRequest(*api.NewOAuth2ProviderRequest("o", authz, inval, []api.RedirectURIRequest{})).Execute()
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := e.c.ProvidersAPI.ProvidersSamlCreate(e.ctx).SAMLProviderRequest(*api.NewSAMLProviderRequest("s", authz, inval, "https://sp/acs")).Execute()
	if err != nil {
		t.Fatal(err)
	}
	app := api.NewApplicationRequest("A", "a")
	app.SetProvider(s.Pk)
	if _, _, err := e.c.CoreAPI.CoreApplicationsCreate(e.ctx).ApplicationRequest(*app).Execute(); err != nil {
		t.Fatal(err)
	}

	cases := []struct {
		name string
		req  api.ApiProvidersAllListRequest
		want []int32
	}{
		{"all, by pk", e.c.ProvidersAPI.ProvidersAllList(e.ctx), []int32{o.Pk, s.Pk}},
		{"without application", e.c.ProvidersAPI.ProvidersAllList(e.ctx).ApplicationIsnull(true), []int32{o.Pk}},
		{"with application", e.c.ProvidersAPI.ProvidersAllList(e.ctx).ApplicationIsnull(false), []int32{s.Pk}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l, _, err := tc.req.Execute()
			if err != nil {
				t.Fatal(err)
			}
			var got []int32
			for _, p := range l.Results {
				got = append(got, p.Pk)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	p, _, err := e.c.ProvidersAPI.ProvidersAllRetrieve(e.ctx, s.Pk).Execute()
	if err != nil || p.GetMetaModelName() != "authentik_providers_saml.samlprovider" || p.GetAssignedApplicationSlug() != "a" {
		t.Errorf("retrieve: %v %+v", err, p)
	}
}
