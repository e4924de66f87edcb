package authentikapiserver

import (
	"strings"
	"testing"

	api "goauthentik.io/api/v3"
)

func TestOutpostLifecycle(t *testing.T) {
	e := newEnv(t)
	authz, inval := e.flows(t)
	proxy, _, err := e.c.ProvidersAPI.ProvidersProxyCreate(e.ctx).ProxyProviderRequest(*api.NewProxyProviderRequest("app", authz, inval, "https://app.example.com")).Execute()
	if err != nil {
		t.Fatal(err)
	}
	ldap, _, err := e.c.ProvidersAPI.ProvidersLdapCreate(e.ctx).LDAPProviderRequest(*api.NewLDAPProviderRequest("dir", authz, inval)).Execute()
	if err != nil {
		t.Fatal(err)
	}
	if ldap.GetBaseDn() != "DC=ldap,DC=goauthentik,DC=io" || ldap.GetBindMode() != api.LDAPAPIACCESSMODE_DIRECT || !ldap.GetMfaSupport() {
		t.Errorf("LDAP provider defaults: %+v", ldap)
	}

	cases := map[string]struct {
		req       api.OutpostRequest
		wantField string
		wantMsg   string
	}{
		"WrongType":     {*api.NewOutpostRequest("x", api.OUTPOSTTYPEENUM_LDAP, []int32{proxy.Pk}, map[string]interface{}{}), "providers", "can't be used with ProxyProvider providers"},
		"NoProviders":   {*api.NewOutpostRequest("x", api.OUTPOSTTYPEENUM_PROXY, []int32{}, map[string]interface{}{}), "providers", "may not be empty"},
		"BadConfigType": {*api.NewOutpostRequest("x", api.OUTPOSTTYPEENUM_PROXY, []int32{proxy.Pk}, map[string]interface{}{"log_level": 3}), "config", "wrong value type"},
		"BadInterval":   {*api.NewOutpostRequest("x", api.OUTPOSTTYPEENUM_PROXY, []int32{proxy.Pk}, map[string]interface{}{"refresh_interval": "5m"}), "config", "correct format"},
		"EmbeddedName":  {*api.NewOutpostRequest("authentik Embedded Outpost", api.OUTPOSTTYPEENUM_PROXY, []int32{proxy.Pk}, map[string]interface{}{}), "name", "already exists"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, _, err := e.c.OutpostsAPI.OutpostsInstancesCreate(e.ctx).OutpostRequest(tc.req).Execute()
			ve := validationError(t, err)
			if msgs, _ := ve[tc.wantField].([]any); len(msgs) == 0 || !strings.Contains(msgs[0].(string), tc.wantMsg) {
				t.Errorf("%s: %v, want %q", tc.wantField, ve, tc.wantMsg)
			}
		})
	}

	o, _, err := e.c.OutpostsAPI.OutpostsInstancesCreate(e.ctx).OutpostRequest(*api.NewOutpostRequest("edge", api.OUTPOSTTYPEENUM_PROXY, []int32{proxy.Pk}, map[string]interface{}{"log_level": "debug"})).Execute()
	if err != nil {
		t.Fatal(err)
	}
	if o.TokenIdentifier != "ak-outpost-"+o.Pk+"-api" || o.RefreshIntervalS != 300 || len(o.ProvidersObj) != 1 {
		t.Errorf("created outpost: %+v", o)
	}
	tok, _, err := e.c.CoreAPI.CoreTokensRetrieve(e.ctx, o.TokenIdentifier).Execute()
	if err != nil || tok.GetExpiring() || tok.GetIntent() != api.INTENTENUM_API || tok.UserObj.Username != "ak-outpost-"+strings.ReplaceAll(o.Pk, "-", "") {
		t.Fatalf("outpost token: %+v, %v", tok, err)
	}
	k1, _, err := e.c.CoreAPI.CoreTokensViewKeyRetrieve(e.ctx, o.TokenIdentifier).Execute()
	if err != nil || len(k1.Key) < 32 {
		t.Fatalf("view_key: %v", err)
	}
	if k2, _, _ := e.c.CoreAPI.CoreTokensViewKeyRetrieve(e.ctx, o.TokenIdentifier).Execute(); k2.Key != k1.Key {
		t.Error("view_key is not stable")
	}
	p, _, err := e.c.ProvidersAPI.ProvidersProxyRetrieve(e.ctx, proxy.Pk).Execute()
	if err != nil || len(p.OutpostSet) != 1 || p.OutpostSet[0] != "Outpost edge" {
		t.Errorf("outpost_set: %v, %v", p.OutpostSet, err)
	}
	l, _, err := e.c.OutpostsAPI.OutpostsInstancesList(e.ctx).ProvidersByPk([]int32{proxy.Pk}).Execute()
	if err != nil || len(l.Results) != 1 || l.Results[0].Name != "edge" {
		t.Errorf("providers_by_pk: %v, %v", l, err)
	}

	if _, err := e.c.OutpostsAPI.OutpostsInstancesDestroy(e.ctx, o.Pk).Execute(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.c.CoreAPI.CoreTokensRetrieve(e.ctx, o.TokenIdentifier).Execute(); err == nil {
		t.Error("the outpost's token outlived it")
	}
	if us, _, _ := e.c.CoreAPI.CoreUsersList(e.ctx).Username(tok.UserObj.Username).Execute(); len(us.Results) != 0 {
		t.Error("the outpost's service account outlived it")
	}
}

func TestEmbeddedOutpost(t *testing.T) {
	e := newEnv(t)
	l, _, err := e.c.OutpostsAPI.OutpostsInstancesList(e.ctx).ManagedIexact("goauthentik.io/outposts/embedded").Execute()
	if err != nil || len(l.Results) != 1 {
		t.Fatalf("embedded outpost: %v, %v", l, err)
	}
	o := l.Results[0]
	if o.Name != "authentik Embedded Outpost" || len(o.Providers) != 0 || o.Type != api.OUTPOSTTYPEENUM_PROXY {
		t.Errorf("embedded outpost: %+v", o)
	}
	_, _, err = e.c.OutpostsAPI.OutpostsInstancesPartialUpdate(e.ctx, o.Pk).PatchedOutpostRequest(api.PatchedOutpostRequest{Name: api.PtrString("renamed")}).Execute()
	if ve := validationError(t, err); ve["name"] == nil {
		t.Errorf("renaming the embedded outpost: %v", ve)
	}
}
