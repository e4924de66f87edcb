package authentikapiserver

import (
	"encoding/json"
	"net/http"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	api "goauthentik.io/api/v3"
)

// seedMap seeds an object and returns it decoded.
func (e *env) seedMap(t *testing.T, kind string, obj map[string]any) map[string]any {
	t.Helper()
	b, err := e.s.Seed(kind, obj)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// obj reads an object as GET answers it.
func (e *env) obj(t *testing.T, kind, id string) map[string]any {
	t.Helper()
	b, err := e.s.Raw(kind, id)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// del deletes an object through the API.
func (e *env) del(t *testing.T, kind, id string) {
	t.Helper()
	if code, b := e.do(t, http.MethodDelete, APIPrefix+"/"+kind+"/"+id+"/", "Bearer "+e.s.Token(), ""); code != http.StatusNoContent {
		t.Fatalf("DELETE %s %s: %d %s", kind, id, code, b)
	}
}

// patch changes an object through the API.
func (e *env) patch(t *testing.T, kind, id string, body map[string]any) {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	if code, out := e.do(t, http.MethodPatch, APIPrefix+"/"+kind+"/"+id+"/", "Bearer "+e.s.Token(), string(b)); code != http.StatusOK {
		t.Fatalf("PATCH %s %s: %d %s", kind, id, code, out)
	}
}

func (e *env) exists(kind, id string) bool {
	_, err := e.s.Raw(kind, id)
	return err == nil
}

// bindingPKs returns the sorted pks of a list call's bindings.
func bindingPKs(t *testing.T) func(*api.PaginatedPolicyBindingList, *http.Response, error) []string {
	return func(l *api.PaginatedPolicyBindingList, _ *http.Response, err error) []string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		out := make([]string, 0, len(l.Results))
		for _, b := range l.Results {
			out = append(out, b.Pk)
		}
		sort.Strings(out)
		return out
	}
}

func sorted(s ...string) []string {
	sort.Strings(s)
	return s
}

func TestPolicyBindings(t *testing.T) {
	e := newEnv(t)
	app := e.seedMap(t, "core/applications", map[string]any{"name": "A", "slug": "a"})
	other := e.seedMap(t, "core/applications", map[string]any{"name": "B", "slug": "b"})
	g := e.seedMap(t, "core/groups", map[string]any{"name": "g"})
	u := e.seedMap(t, "core/users", map[string]any{"username": "u"})

	byGroup, _, err := e.c.PoliciesAPI.PoliciesBindingsCreate(e.ctx).PolicyBindingRequest(api.PolicyBindingRequest{
		Target: app["pbm_uuid"].(string), Order: 0, Group: *api.NewNullableString(ptr(g["pk"].(string)))}).Execute()
	if err != nil {
		t.Fatal(err)
	}
	if byGroup.GroupObj.Get() == nil || byGroup.GroupObj.Get().Name != "g" || byGroup.GetTimeout() != 30 || !byGroup.GetEnabled() {
		t.Errorf("binding as created: %+v", byGroup)
	}
	byUser := e.seedMap(t, "policies/bindings", map[string]any{"target": app["pk"], "order": 1, "user": u["pk"]})
	onOther := e.seedMap(t, "policies/bindings", map[string]any{"target": other["pk"], "order": 0, "group": g["pk"]})

	got := bindingPKs(t)(e.c.PoliciesAPI.PoliciesBindingsList(e.ctx).Target(app["pbm_uuid"].(string)).Execute())
	if diff := cmp.Diff(sorted(byGroup.Pk, byUser["pk"].(string)), got); diff != "" {
		t.Errorf("?target=: -want +got:\n%s", diff)
	}
	got = bindingPKs(t)(e.c.PoliciesAPI.PoliciesBindingsList(e.ctx).PolicyIsnull(true).Execute())
	if len(got) != 3 {
		t.Errorf("?policy__isnull=true: %v, want all three", got)
	}

	// Exactly one of policy, group and user.
	_, resp, _ := e.c.PoliciesAPI.PoliciesBindingsCreate(e.ctx).PolicyBindingRequest(api.PolicyBindingRequest{Target: app["pk"].(string), Order: 5}).Execute()
	if status(resp) != http.StatusBadRequest {
		t.Errorf("binding without policy, group or user: %d, want 400", status(resp))
	}

	// Deleting the user deletes its binding; deleting the application its bindings; the other
	// application's binding stays until its group goes.
	e.del(t, "core/users", keyOf(u["pk"]))
	if e.exists("policies/bindings", byUser["pk"].(string)) {
		t.Error("the user's binding outlived the user")
	}
	e.del(t, "core/applications", "a")
	if e.exists("policies/bindings", byGroup.Pk) {
		t.Error("the application's binding outlived the application")
	}
	if !e.exists("policies/bindings", onOther["pk"].(string)) {
		t.Fatal("another application's binding went with the first application")
	}
	e.del(t, "core/groups", g["pk"].(string))
	if e.exists("policies/bindings", onOther["pk"].(string)) {
		t.Error("the group's binding outlived the group")
	}
	if v := e.s.Violations(); len(v) != 0 {
		t.Errorf("violations: %v", v)
	}
}

func TestTokens(t *testing.T) {
	e := newEnv(t)
	u := e.seedMap(t, "core/users", map[string]any{"username": "alice"})
	other := e.seedMap(t, "core/users", map[string]any{"username": "alice2"})
	req := api.NewTokenRequest("alice-api")
	req.SetUser(int32(u["pk"].(float64)))
	tok, _, err := e.c.CoreAPI.CoreTokensCreate(e.ctx).TokenRequest(*req).Execute()
	if err != nil {
		t.Fatal(err)
	}
	if tok.GetIntent() != api.INTENTENUM_API || tok.UserObj.Username != "alice" {
		t.Errorf("token as created: intent %q, user %q", tok.GetIntent(), tok.UserObj.Username)
	}
	e.seedMap(t, "core/tokens", map[string]any{"identifier": "alice2-api", "intent": "api", "user": other["pk"]})

	bad := api.NewTokenRequest("recovery")
	bad.SetIntent(api.INTENTENUM_RECOVERY)
	if _, resp, _ := e.c.CoreAPI.CoreTokensCreate(e.ctx).TokenRequest(*bad).Execute(); status(resp) != http.StatusBadRequest {
		t.Errorf("recovery token through the API: %d, want 400", status(resp))
	}

	l, _, err := e.c.CoreAPI.CoreTokensList(e.ctx).UserUsername("alice").Execute()
	if err != nil || len(l.Results) != 1 || l.Results[0].Identifier != "alice-api" {
		t.Fatalf("?user__username=alice: %+v, %v", l, err)
	}
	l, _, err = e.c.CoreAPI.CoreTokensList(e.ctx).Search("alice").Execute()
	if err != nil || len(l.Results) != 2 {
		t.Fatalf("?search=alice finds both users' tokens: %+v, %v", l, err)
	}

	e.del(t, "core/users", keyOf(u["pk"]))
	if e.exists("core/tokens", "alice-api") {
		t.Error("the token outlived its user")
	}
	if !e.exists("core/tokens", "alice2-api") {
		t.Error("another user's token went with the user")
	}
	if v := e.s.Violations(); len(v) != 0 {
		t.Errorf("violations: %v", v)
	}
}

// Deleting an application deletes its backchannel providers, entitlements and bindings, and
// leaves its provider, detached. Deleting a group detaches its children.
func TestDeleteCascades(t *testing.T) {
	e := newEnv(t)
	main := e.seedMap(t, "providers/oauth2", map[string]any{"name": "main"})
	bc := e.seedMap(t, "providers/oauth2", map[string]any{"name": "bc"})
	app := e.seedMap(t, "core/applications", map[string]any{"name": "A", "slug": "a", "provider": main["pk"], "backchannel_providers": []any{bc["pk"]}})
	ent, _, err := e.c.CoreAPI.CoreApplicationEntitlementsCreate(e.ctx).ApplicationEntitlementRequest(*api.NewApplicationEntitlementRequest("admin", app["pk"].(string))).Execute()
	if err != nil {
		t.Fatal(err)
	}
	g := e.seedMap(t, "core/groups", map[string]any{"name": "g"})
	onEnt := e.seedMap(t, "policies/bindings", map[string]any{"target": ent.PbmUuid, "order": 0, "group": g["pk"]})
	if l, _, err := e.c.CoreAPI.CoreApplicationEntitlementsList(e.ctx).App(app["pk"].(string)).Execute(); err != nil || len(l.Results) != 1 {
		t.Fatalf("?app=: %+v, %v", l, err)
	}
	bcRead, _, err := e.c.ProvidersAPI.ProvidersOauth2Retrieve(e.ctx, int32(bc["pk"].(float64))).Execute()
	if err != nil || bcRead.GetAssignedBackchannelApplicationSlug() != "a" {
		t.Fatalf("backchannel provider: %+v, %v", bcRead, err)
	}

	// A backchannel provider belongs to one application.
	e.seedMap(t, "core/applications", map[string]any{"name": "B", "slug": "b"})
	e.patch(t, "core/applications", "b", map[string]any{"backchannel_providers": []any{bc["pk"]}})
	if l := list(e.obj(t, "core/applications", "a")["backchannel_providers"]); len(l) != 0 {
		t.Errorf("application a still lists the provider b took: %v", l)
	}
	e.patch(t, "core/applications", "a", map[string]any{"backchannel_providers": []any{bc["pk"]}})

	e.del(t, "core/applications", "a")
	for _, gone := range []struct{ kind, id string }{
		{"providers/oauth2", keyOf(bc["pk"])}, {"core/application_entitlements", ent.PbmUuid}, {"policies/bindings", onEnt["pk"].(string)},
	} {
		if e.exists(gone.kind, gone.id) {
			t.Errorf("%s %s outlived the application", gone.kind, gone.id)
		}
	}
	if !e.exists("providers/oauth2", keyOf(main["pk"])) {
		t.Error("the application's provider went with it")
	}

	parent := e.seedMap(t, "core/groups", map[string]any{"name": "parent"})
	child := e.seedMap(t, "core/groups", map[string]any{"name": "child", "parents": []any{parent["pk"], g["pk"]}})
	if c := list(e.obj(t, "core/groups", parent["pk"].(string))["children"]); len(c) != 1 || c[0] != child["pk"] {
		t.Fatalf("children of parent: %v", c)
	}
	e.del(t, "core/groups", parent["pk"].(string))
	if diff := cmp.Diff([]any{g["pk"]}, list(e.obj(t, "core/groups", child["pk"].(string))["parents"])); diff != "" {
		t.Errorf("child's parents after its parent was deleted: -want +got:\n%s", diff)
	}
	if v := e.s.Violations(); len(v) != 0 {
		t.Errorf("violations: %v", v)
	}
}
