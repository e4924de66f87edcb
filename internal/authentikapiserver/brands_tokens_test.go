package authentikapiserver

import (
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	api "goauthentik.io/api/v3"
)

// The default brand is seeded as authentik's blueprint makes it; domains are unique; only one
// brand can be the default, checked only when a request sets default; a brand's flow is
// cleared when the flow is deleted.
func TestBrands(t *testing.T) {
	e := newEnv(t)
	l, _, err := e.c.CoreAPI.CoreBrandsList(e.ctx).Default_(true).Execute()
	if err != nil || len(l.Results) != 1 || l.Results[0].Domain != "authentik-default" || l.Results[0].GetFlowAuthentication() == "" {
		t.Fatalf("seeded default brand: %+v, %v", l, err)
	}
	def := l.Results[0]

	req := api.NewBrandRequest("a.example.com")
	req.SetAttributes(map[string]any{"k": "v"})
	b, _, err := e.c.CoreAPI.CoreBrandsCreate(e.ctx).BrandRequest(*req).Execute()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]any{"authentik", false, map[string]any{"k": "v"}}, []any{b.GetBrandingTitle(), b.GetDefault(), b.Attributes}); diff != "" {
		t.Errorf("defaults: -want +got:\n%s", diff)
	}
	if _, resp, _ := e.c.CoreAPI.CoreBrandsCreate(e.ctx).BrandRequest(*api.NewBrandRequest("a.example.com")).Execute(); status(resp) != http.StatusBadRequest {
		t.Errorf("duplicate domain: %d, want 400", status(resp))
	}
	second := api.NewBrandRequest("b.example.com")
	second.SetDefault(true)
	if _, resp, _ := e.c.CoreAPI.CoreBrandsCreate(e.ctx).BrandRequest(*second).Execute(); status(resp) != http.StatusBadRequest {
		t.Errorf("second default brand: %d, want 400", status(resp))
	}
	// The default brand may say default: true of itself; a PATCH without default is not checked.
	if _, _, err := e.c.CoreAPI.CoreBrandsPartialUpdate(e.ctx, def.BrandUuid).PatchedBrandRequest(api.PatchedBrandRequest{Default: new(true)}).Execute(); err != nil {
		t.Errorf("default brand saying default again: %v", err)
	}
	if _, _, err := e.c.CoreAPI.CoreBrandsPartialUpdate(e.ctx, b.BrandUuid).PatchedBrandRequest(api.PatchedBrandRequest{BrandingTitle: new("A")}).Execute(); err != nil {
		t.Errorf("PATCH without default: %v", err)
	}

	f := e.seedMap(t, "flows/instances", map[string]any{"slug": "brand-flow", "name": "n", "title": "t", "designation": "recovery"})
	fpk := f["pk"].(string)
	if _, _, err := e.c.CoreAPI.CoreBrandsPartialUpdate(e.ctx, b.BrandUuid).PatchedBrandRequest(api.PatchedBrandRequest{FlowRecovery: *api.NewNullableString(&fpk)}).Execute(); err != nil {
		t.Fatal(err)
	}
	if l, _, err := e.c.CoreAPI.CoreBrandsList(e.ctx).FlowRecovery(fpk).Execute(); err != nil || len(l.Results) != 1 {
		t.Errorf("?flow_recovery: %+v, %v", l, err)
	}
	e.del(t, "flows/instances", "brand-flow")
	got, _, err := e.c.CoreAPI.CoreBrandsRetrieve(e.ctx, b.BrandUuid).Execute()
	if err != nil || got.GetFlowRecovery() != "" {
		t.Errorf("brand after its flow was deleted: %+v, %v", got, err)
	}
	if v := e.s.Violations(); len(v) != 0 {
		t.Errorf("violations: %v", v)
	}
}

// view_key shows the key no token rendering has; set_key replaces it; a PATCH without user
// or intent moves the token to the requester and makes it an API token, whose expiry every
// write resets; an app password cannot expire beyond the default duration.
func TestTokenKeysAndPatch(t *testing.T) {
	e := newEnv(t)
	u := e.seedMap(t, "core/users", map[string]any{"username": "carol"})
	upk := int32(u["pk"].(float64))
	req := api.NewTokenRequest("carol-app")
	req.SetUser(upk)
	req.SetIntent(api.INTENTENUM_APP_PASSWORD)
	if _, _, err := e.c.CoreAPI.CoreTokensCreate(e.ctx).TokenRequest(*req).Execute(); err != nil {
		t.Fatal(err)
	}
	v, _, err := e.c.CoreAPI.CoreTokensViewKeyRetrieve(e.ctx, "carol-app").Execute()
	if err != nil || len(v.Key) != tokenKeyLength {
		t.Fatalf("view_key: %+v, %v", v, err)
	}
	if _, err := e.c.CoreAPI.CoreTokensSetKeyCreate(e.ctx, "carol-app").TokenSetKeyRequest(*api.NewTokenSetKeyRequest("chosen")).Execute(); err != nil {
		t.Fatal(err)
	}
	if v, _, err := e.c.CoreAPI.CoreTokensViewKeyRetrieve(e.ctx, "carol-app").Execute(); err != nil || v.Key != "chosen" {
		t.Errorf("view_key after set_key: %+v, %v", v, err)
	}
	if _, resp, _ := e.c.CoreAPI.CoreTokensViewKeyRetrieve(e.ctx, "nope").Execute(); status(resp) != http.StatusNotFound {
		t.Errorf("view_key of a missing token: %d", status(resp))
	}

	far := time.Now().Add(48 * time.Hour)
	if _, resp, _ := e.c.CoreAPI.CoreTokensPartialUpdate(e.ctx, "carol-app").PatchedTokenRequest(api.PatchedTokenRequest{
		User: &upk, Intent: api.INTENTENUM_APP_PASSWORD.Ptr(), Expires: *api.NewNullableTime(&far)}).Execute(); status(resp) != http.StatusBadRequest {
		t.Errorf("app password beyond the maximum lifetime: %d, want 400", status(resp))
	}
	tok, _, err := e.c.CoreAPI.CoreTokensPartialUpdate(e.ctx, "carol-app").PatchedTokenRequest(api.PatchedTokenRequest{Description: new("d")}).Execute()
	if err != nil {
		t.Fatal(err)
	}
	if tok.GetIntent() != api.INTENTENUM_API || tok.UserObj.Username != "akadmin" {
		t.Errorf("PATCH without user and intent: intent %q, user %q; want api, akadmin", tok.GetIntent(), tok.UserObj.Username)
	}
	if in := time.Until(tok.GetExpires()); in < 29*time.Minute || in > 31*time.Minute {
		t.Errorf("API token expiry after a write: in %s, want the default duration", in)
	}
	if v := e.s.Violations(); len(v) != 0 {
		t.Errorf("violations: %v", v)
	}
}
