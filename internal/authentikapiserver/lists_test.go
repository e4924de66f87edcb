package authentikapiserver

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	api "goauthentik.io/api/v3"
)

// ignoreExtra drops the client's catch-all for undeclared properties.
var ignoreExtra = cmpopts.IgnoreFields(api.Pagination{}, "AdditionalProperties")

func TestPagination(t *testing.T) {
	e := newEnv(t)
	for i := 0; i < 5; i++ {
		if _, _, err := e.c.CoreAPI.CoreApplicationsCreate(e.ctx).ApplicationRequest(*api.NewApplicationRequest(fmt.Sprintf("App %d", i), fmt.Sprintf("app-%d", i))).Execute(); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		page     int32
		want     api.Pagination
		wantSlug []string
	}{
		{1, api.Pagination{Next: 2, Previous: 0, Count: 5, Current: 1, TotalPages: 3, StartIndex: 1, EndIndex: 2}, []string{"app-0", "app-1"}},
		{2, api.Pagination{Next: 3, Previous: 1, Count: 5, Current: 2, TotalPages: 3, StartIndex: 3, EndIndex: 4}, []string{"app-2", "app-3"}},
		{3, api.Pagination{Next: 0, Previous: 2, Count: 5, Current: 3, TotalPages: 3, StartIndex: 5, EndIndex: 5}, []string{"app-4"}},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("page %d", tc.page), func(t *testing.T) {
			l, _, err := e.c.CoreAPI.CoreApplicationsList(e.ctx).Page(tc.page).PageSize(2).Execute()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, l.Pagination, ignoreExtra); diff != "" {
				t.Errorf("pagination (-want +got):\n%s", diff)
			}
			var slugs []string
			for _, a := range l.Results {
				slugs = append(slugs, a.Slug)
			}
			if diff := cmp.Diff(tc.wantSlug, slugs); diff != "" {
				t.Errorf("results (-want +got):\n%s", diff)
			}
			if l.Autocomplete == nil {
				t.Error("autocomplete missing")
			}
		})
	}
	_, resp, _ := e.c.CoreAPI.CoreApplicationsList(e.ctx).Page(4).PageSize(2).Execute()
	if status(resp) != http.StatusNotFound {
		t.Errorf("page past the end: %d, want 404 Invalid page.", status(resp))
	}

	// An empty list still has one page.
	empty, _, err := e.c.CoreAPI.CoreApplicationsList(e.ctx).Slug("nope").Execute()
	if err != nil {
		t.Fatal(err)
	}
	want := api.Pagination{Next: 0, Previous: 0, Count: 0, Current: 1, TotalPages: 1, StartIndex: 0, EndIndex: 0}
	if diff := cmp.Diff(want, empty.Pagination, ignoreExtra); diff != "" {
		t.Errorf("empty (-want +got):\n%s", diff)
	}
}

func TestSeededDefaults(t *testing.T) {
	e := newEnv(t)
	for _, slug := range []string{
		"default-authentication-flow", "default-invalidation-flow",
		"default-provider-authorization-explicit-consent", "default-provider-authorization-implicit-consent",
		"default-provider-invalidation-flow",
	} {
		if f, _, err := e.c.FlowsAPI.FlowsInstancesRetrieve(e.ctx, slug).Execute(); err != nil || f.Slug != slug {
			t.Errorf("flow %s: %v", slug, err)
		}
	}
	authz, _, err := e.c.FlowsAPI.FlowsInstancesList(e.ctx).Designation(api.FLOWDESIGNATIONENUM_AUTHORIZATION).Execute()
	if err != nil || authz.Pagination.Count != 2 {
		t.Errorf("authorization flows: %v %+v", err, authz.Pagination)
	}

	scopes, _, err := e.c.PropertymappingsAPI.PropertymappingsProviderScopeList(e.ctx).
		Managed([]string{scopeOpenID, scopeEmail, scopeProfile}).Ordering("scope_name").Execute()
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, 0, len(scopes.Results))
	for _, s := range scopes.Results {
		names = append(names, s.ScopeName)
	}
	if diff := cmp.Diff([]string{"email", "openid", "profile"}, names); diff != "" {
		t.Errorf("managed scopes (-want +got):\n%s", diff)
	}

	saml, _, err := e.c.PropertymappingsAPI.PropertymappingsProviderSamlList(e.ctx).Managed([]string{"goauthentik.io/providers/saml/upn"}).Execute()
	if err != nil || len(saml.Results) != 1 || saml.Results[0].SamlName != "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/upn" {
		t.Errorf("saml upn mapping: %v %+v", err, saml)
	}

	certs, _, err := e.c.CryptoAPI.CryptoCertificatekeypairsList(e.ctx).HasKey(true).Execute()
	if err != nil || len(certs.Results) != 1 {
		t.Fatalf("keypairs: %v", err)
	}
	if c := certs.Results[0]; c.Name != "authentik Self-signed Certificate" || c.FingerprintSha256.Get() == nil || c.GetKeyType() != api.CERTIFICATEKEYPAIRKEYTYPEENUM_RSA {
		t.Errorf("self-signed keypair: %+v", c)
	}
}

// A query parameter the document declares but this server does not model is
// refused (501) and recorded, instead of silently returning everything.
func TestUnimplementedFilterIsLoud(t *testing.T) {
	e := newEnv(t)
	_, resp, _ := e.c.CoreAPI.CoreUsersList(e.ctx).RolesByName([]string{"x"}).Execute()
	if status(resp) != http.StatusNotImplemented {
		t.Fatalf("status %d", status(resp))
	}
	v := e.s.Violations()
	if len(v) != 1 || v[0].Kind != KindUnimplemented {
		t.Fatalf("violations = %+v", v)
	}
	e.s.ResetViolations()
}
