package oauth2provider

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	api "goauthentik.io/api/v3"

	"github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/shared"
)

func ptr[T any](v T) *T { return &v }

// observedProvider is an OAuth2 provider as authentik returns it, with the resolved references
// the spec below resolves to.
func observedProvider() api.OAuth2Provider {
	p := api.OAuth2Provider{
		Pk: 7, Name: "grafana", AuthorizationFlow: "authz-pk", InvalidationFlow: "inval-pk",
		PropertyMappings:   []string{"m-openid", "m-email", "m-profile"},
		ClientType:         ptr(api.CLIENTTYPEENUM_CONFIDENTIAL),
		GrantTypes:         []api.GrantTypeEnum{api.GRANTTYPEENUM_AUTHORIZATION_CODE, api.GRANTTYPEENUM_REFRESH_TOKEN},
		ClientId:           ptr("grafana-client"),
		ClientSecret:       ptr("s3cret-value"),
		AccessCodeValidity: ptr("minutes=1"), AccessTokenValidity: ptr("hours=1"),
		RefreshTokenValidity: ptr("days=30"), RefreshTokenThreshold: ptr("seconds=0"),
		IncludeClaimsInIdToken: ptr(true),
		RedirectUris: []api.RedirectURI{
			{MatchingMode: api.MATCHINGMODEENUM_STRICT, Url: "https://grafana.example.com/login/generic_oauth", RedirectUriType: ptr(api.REDIRECTURITYPEENUM_AUTHORIZATION)},
		},
		LogoutUri: ptr(""), LogoutMethod: ptr(api.OAUTH2PROVIDERLOGOUTMETHODENUM_BACKCHANNEL),
		SubMode: ptr(api.SUBMODEENUM_HASHED_USER_ID), IssuerMode: ptr(api.ISSUERMODEENUM_PER_PROVIDER),
	}
	p.AuthenticationFlow.Set(nil)
	p.SigningKey.Set(ptr("key-pk"))
	p.EncryptionKey.Set(nil)
	return p
}

func spec() *v1alpha1.OAuth2ProviderParameters {
	return &v1alpha1.OAuth2ProviderParameters{
		Name:          "grafana",
		ProviderFlows: v1alpha1.ProviderFlows{AuthorizationFlow: "authz", InvalidationFlow: "inval"},
		RedirectURIs:  []v1alpha1.RedirectURI{{URL: "https://grafana.example.com/login/generic_oauth"}},
		GrantTypes:    []string{"refresh_token", "authorization_code"},
	}
}

// resolved is what the driver's resolver makes of spec()'s references.
func resolved(mut ...func(*api.PatchedOAuth2ProviderRequest)) api.PatchedOAuth2ProviderRequest {
	r := api.PatchedOAuth2ProviderRequest{AuthorizationFlow: ptr("authz-pk"), InvalidationFlow: ptr("inval-pk")}
	r.Name = ptr("grafana")
	for _, m := range mut {
		m(&r)
	}
	return r
}

func TestCompare(t *testing.T) {
	cases := map[string]struct {
		spec     func(*v1alpha1.OAuth2ProviderParameters)
		resolved api.PatchedOAuth2ProviderRequest
		observed func(*api.OAuth2Provider)
		want     shared.Fields
	}{
		"InSync": {
			resolved: resolved(),
			want:     shared.Fields{},
		},
		"UnsetFieldsAreNeverCompared": {
			resolved: resolved(),
			observed: func(p *api.OAuth2Provider) {
				p.AccessTokenValidity = ptr("minutes=5")
				p.SubMode = ptr(api.SUBMODEENUM_USER_EMAIL)
				p.PropertyMappings = nil
				p.ClientSecret = ptr("changed by hand")
			},
			want: shared.Fields{},
		},
		"GrantTypesAreASet": {
			resolved: resolved(),
			observed: func(p *api.OAuth2Provider) {
				p.GrantTypes = []api.GrantTypeEnum{api.GRANTTYPEENUM_REFRESH_TOKEN, api.GRANTTYPEENUM_AUTHORIZATION_CODE}
			},
			want: shared.Fields{},
		},
		"EmptyGrantTypesDiffer": {
			resolved: resolved(),
			observed: func(p *api.OAuth2Provider) { p.GrantTypes = []api.GrantTypeEnum{} },
			want:     shared.Fields{"grant_types": []any{"refresh_token", "authorization_code"}},
		},
		"PropertyMappingsAreASet": {
			resolved: resolved(func(r *api.PatchedOAuth2ProviderRequest) {
				r.PropertyMappings = []string{"m-profile", "m-openid", "m-email"}
			}),
			want: shared.Fields{},
		},
		"MissingPropertyMapping": {
			resolved: resolved(func(r *api.PatchedOAuth2ProviderRequest) {
				r.PropertyMappings = []string{"m-openid", "m-email", "m-profile", "m-offline"}
			}),
			want: shared.Fields{"property_mappings": []any{"m-openid", "m-email", "m-profile", "m-offline"}},
		},
		"RedirectURIDefaultsMatchAuthentiks": {
			resolved: resolved(),
			spec: func(fp *v1alpha1.OAuth2ProviderParameters) {
				fp.RedirectURIs = []v1alpha1.RedirectURI{{URL: "https://grafana.example.com/login/generic_oauth", MatchingMode: "strict", Type: "authorization"}}
			},
			want: shared.Fields{},
		},
		"RedirectURIChanged": {
			resolved: resolved(),
			spec: func(fp *v1alpha1.OAuth2ProviderParameters) {
				fp.RedirectURIs = []v1alpha1.RedirectURI{{URL: "https://.*\\.example\\.com/cb", MatchingMode: "regex"}}
			},
			want: shared.Fields{"redirect_uris": []any{map[string]any{"matching_mode": "regex", "url": "https://.*\\.example\\.com/cb", "redirect_uri_type": "authorization"}}},
		},
		"FlowChanged": {
			resolved: resolved(func(r *api.PatchedOAuth2ProviderRequest) { r.AuthorizationFlow = ptr("explicit-pk") }),
			want:     shared.Fields{"authorization_flow": "explicit-pk"},
		},
		"AuthenticationFlowSet": {
			resolved: resolved(func(r *api.PatchedOAuth2ProviderRequest) { r.AuthenticationFlow.Set(ptr("authn-pk")) }),
			want:     shared.Fields{"authentication_flow": "authn-pk"},
		},
		"AuthenticationFlowClearedMatchesNull": {
			resolved: resolved(func(r *api.PatchedOAuth2ProviderRequest) { r.AuthenticationFlow.Set(nil) }),
			want:     shared.Fields{},
		},
		"SigningKeyCleared": {
			resolved: resolved(func(r *api.PatchedOAuth2ProviderRequest) { r.SigningKey.Set(nil) }),
			want:     shared.Fields{"signing_key": nil},
		},
		"SigningKeyInSync": {
			resolved: resolved(func(r *api.PatchedOAuth2ProviderRequest) { r.SigningKey.Set(ptr("key-pk")) }),
			want:     shared.Fields{},
		},
		"ScalarsChanged": {
			resolved: resolved(),
			spec: func(fp *v1alpha1.OAuth2ProviderParameters) {
				fp.ClientType = ptr("public")
				fp.AccessTokenValidity = ptr("minutes=10")
				fp.IncludeClaimsInIDToken = ptr(true)
				fp.IssuerMode = ptr("global")
			},
			want: shared.Fields{"client_type": "public", "access_token_validity": "minutes=10", "issuer_mode": "global"},
		},
		"ClientSecretFromSecret": {
			resolved: resolved(func(r *api.PatchedOAuth2ProviderRequest) { r.ClientSecret = ptr("rotated") }),
			want:     shared.Fields{"client_secret": "rotated"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			fp := spec()
			if tc.spec != nil {
				tc.spec(fp)
			}
			want, err := Desired(fp, tc.resolved)
			if err != nil {
				t.Fatal(err)
			}
			p := observedProvider()
			if tc.observed != nil {
				tc.observed(&p)
			}
			c, err := compare(want, p)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, c.Changed); diff != "" {
				t.Errorf("changed fields: -want +got:\n%s", diff)
			}
			if c.UpToDate() != (len(tc.want) == 0) {
				t.Errorf("UpToDate() = %v with %d changed fields", c.UpToDate(), len(c.Changed))
			}
			for _, secret := range []string{"s3cret-value", "rotated"} {
				if strings.Contains(c.Diff, secret) {
					t.Errorf("the diff shows a client secret: %s", c.Diff)
				}
			}
		})
	}
}

func TestConnectionDetails(t *testing.T) {
	base := "https://auth.example.com"
	cases := map[string]struct {
		observed func(*api.OAuth2Provider)
		want     map[string]string
	}{
		"NoApplicationYet": {
			want: map[string]string{"client_id": "grafana-client", "client_secret": "s3cret-value"},
		},
		"PerProviderIssuer": {
			observed: func(p *api.OAuth2Provider) { p.AssignedApplicationSlug.Set(ptr("grafana")) },
			want: map[string]string{
				"client_id": "grafana-client", "client_secret": "s3cret-value",
				"issuer_url":     "https://auth.example.com/application/o/grafana/",
				"well_known_url": "https://auth.example.com/application/o/grafana/.well-known/openid-configuration",
			},
		},
		"GlobalIssuer": {
			observed: func(p *api.OAuth2Provider) {
				p.AssignedApplicationSlug.Set(ptr("grafana"))
				p.IssuerMode = ptr(api.ISSUERMODEENUM_GLOBAL)
			},
			want: map[string]string{
				"client_id": "grafana-client", "client_secret": "s3cret-value",
				"issuer_url":     "https://auth.example.com/",
				"well_known_url": "https://auth.example.com/application/o/grafana/.well-known/openid-configuration",
			},
		},
		"PublicClientHasNoSecret": {
			observed: func(p *api.OAuth2Provider) { p.ClientType = ptr(api.CLIENTTYPEENUM_PUBLIC) },
			want:     map[string]string{"client_id": "grafana-client"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			p := observedProvider()
			if tc.observed != nil {
				tc.observed(&p)
			}
			got := map[string]string{}
			for k, v := range ConnectionDetails(p, base) {
				got[k] = string(v)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ConnectionDetails: -want +got:\n%s", diff)
			}
		})
	}
}
