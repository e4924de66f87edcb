package authentik

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	api "goauthentik.io/api/v3"

	"github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/authentikapiserver"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// dependentsEnv is an API server holding one application "app" with a group binding and a
// user binding, a group "g" with a child and two members, a user "alice" with tokens, and
// objects of others around them that no list may return.
type dependentsEnv struct {
	s                                   *authentikapiserver.Server
	c                                   *api.APIClient
	appPBM, groupPK, childPK            string
	alicePK, bobPK                      int32
	groupBinding, userBinding, foreignB string
	entitlement                         string
	ours                                provenance.Marker
}

// tokenMarker is the marker of a token our Token manages; tokenKind that kind.
var (
	tokenMarker = provenance.Marker{Installation: "inst", Resource: "Token.authentik.identity.crossplane.io/team-a/app", Origin: provenance.OriginCreated}
	tokenKind   = "Token.authentik.identity.crossplane.io"
)

func newDependentsEnv(t *testing.T) *dependentsEnv {
	t.Helper()
	s := startServer(t)
	e := &dependentsEnv{s: s.Server, c: s.client(nil),
		ours: provenance.Marker{Installation: "i", Resource: "User.authentik.identity.crossplane.io/alice", Origin: provenance.OriginCreated}}
	seed := s.seed
	app := seed("core/applications", map[string]any{"name": "App", "slug": "app"})
	other := seed("core/applications", map[string]any{"name": "Other", "slug": "other"})
	e.appPBM = app["pbm_uuid"].(string)
	g := seed("core/groups", map[string]any{"name": "g"})
	e.groupPK = g["pk"].(string)
	e.childPK = seed("core/groups", map[string]any{"name": "child", "parents": []any{e.groupPK}})["pk"].(string)
	alice := seed("core/users", map[string]any{"username": "alice", "groups": []any{e.groupPK}, "attributes": map[string]any{MarkerAttribute: e.ours.Encode()}})
	bob := seed("core/users", map[string]any{"username": "bob", "groups": []any{e.groupPK}})
	seed("core/users", map[string]any{"username": "alice2"})
	e.alicePK, e.bobPK = int32(alice["pk"].(float64)), int32(bob["pk"].(float64))
	e.groupBinding = seed("policies/bindings", map[string]any{"target": e.appPBM, "order": 0, "group": e.groupPK})["pk"].(string)
	e.userBinding = seed("policies/bindings", map[string]any{"target": e.appPBM, "order": 1, "user": alice["pk"]})["pk"].(string)
	e.foreignB = seed("policies/bindings", map[string]any{"target": other["pk"], "order": 0, "user": bob["pk"]})["pk"].(string)
	e.entitlement = seed("core/application_entitlements", map[string]any{"name": "admin", "app": e.appPBM})["pbm_uuid"].(string)
	seed("core/application_entitlements", map[string]any{"name": "admin", "app": other["pk"]})
	seed("core/tokens", map[string]any{"identifier": "alice-api", "intent": "api", "user": alice["pk"]})
	seed("core/tokens", map[string]any{"identifier": "alice-app", "intent": "app_password", "user": alice["pk"], "description": "LDAP\n[provider-identity: " + tokenMarker.Encode() + "]"})
	seed("core/tokens", map[string]any{"identifier": "alice-recovery", "intent": "recovery", "user": alice["pk"]})
	seed("core/tokens", map[string]any{"identifier": "alice2-api", "intent": "api", "user": seed("core/users", map[string]any{"username": "xalice"})["pk"]})
	return e
}

func TestDependentLists(t *testing.T) {
	e := newDependentsEnv(t)
	ctx := context.Background()
	binding := func(id, key string) adoption.Dependent {
		return adoption.Dependent{Description: adoption.Description{ID: id, Type: TypeBinding, Key: key, Markerless: true},
			Kind: v1alpha1.PolicyBindingGroupKind.String(), ExternalName: id}
	}
	aliceID := strconv.Itoa(int(e.alicePK))
	bobID := strconv.Itoa(int(e.bobPK))
	cases := map[string]struct {
		list    func() ([]adoption.Dependent, error)
		fault   string
		want    []adoption.Dependent
		wantErr string
	}{
		"BindingsOnTarget": {
			list: func() ([]adoption.Dependent, error) { return BindingsOnTarget(ctx, e.c, e.appPBM, `application "app"`) },
			want: []adoption.Dependent{
				binding(e.groupBinding, `group "g" on application "app", order 0`),
				binding(e.userBinding, `user "alice" on application "app", order 1`),
			},
		},
		"BindingsOnTargetFails": {
			list:    func() ([]adoption.Dependent, error) { return BindingsOnTarget(ctx, e.c, e.appPBM, `application "app"`) },
			fault:   "/policies/bindings/",
			wantErr: `cannot list the authentik policy bindings of application "app"`,
		},
		"BindingsOfGroup": {
			list: func() ([]adoption.Dependent, error) { return BindingsOfGroup(ctx, e.c, e.groupPK, "g") },
			want: []adoption.Dependent{binding(e.groupBinding, `group "g" of group "g" to target `+e.appPBM+", order 0")},
		},
		"BindingsOfGroupFails": {
			list:    func() ([]adoption.Dependent, error) { return BindingsOfGroup(ctx, e.c, e.groupPK, "g") },
			fault:   "/policies/bindings/",
			wantErr: `cannot list the authentik policy bindings of group "g"`,
		},
		"BindingsOfUser": {
			list: func() ([]adoption.Dependent, error) { return BindingsOfUser(ctx, e.c, e.alicePK, "alice") },
			want: []adoption.Dependent{binding(e.userBinding, `user "alice" of user "alice" to target `+e.appPBM+", order 1")},
		},
		"TokensOfUserSkipOneTimeLinksAndOtherUsers": {
			list: func() ([]adoption.Dependent, error) { return TokensOfUser(ctx, e.c, e.alicePK, "alice") },
			want: []adoption.Dependent{
				{Description: adoption.Description{ID: "alice-api", Type: typeToken, Key: "api token alice-api of user alice"}, Kind: tokenKind, ExternalName: "alice-api"},
				{Description: adoption.Description{ID: "alice-app", Type: typeToken, Key: "app_password token alice-app of user alice", Marker: &tokenMarker}, Kind: tokenKind, ExternalName: "alice-app"},
			},
		},
		"TokensOfUserFails": {
			list:    func() ([]adoption.Dependent, error) { return TokensOfUser(ctx, e.c, e.alicePK, "alice") },
			fault:   "/core/tokens/",
			wantErr: `cannot list the authentik tokens of user "alice"`,
		},
		"EntitlementsOf": {
			list: func() ([]adoption.Dependent, error) { return EntitlementsOf(ctx, e.c, e.appPBM, "app") },
			want: []adoption.Dependent{{Description: adoption.Description{ID: e.entitlement, Type: typeEntitlement, Key: "admin of application app", Markerless: true}}},
		},
		"EntitlementsOfFails": {
			list:    func() ([]adoption.Dependent, error) { return EntitlementsOf(ctx, e.c, e.appPBM, "app") },
			fault:   "/core/application_entitlements/",
			wantErr: `cannot list the entitlements of authentik application "app"`,
		},
		"ChildGroups": {
			list: func() ([]adoption.Dependent, error) { return ChildGroups(ctx, e.c, e.groupPK, "g") },
			want: []adoption.Dependent{{Description: adoption.Description{ID: e.childPK, Type: TypeGroup, Key: "child"},
				Kind: "Group.authentik.identity.crossplane.io", ExternalName: e.childPK}},
		},
		"ChildGroupsFails": {
			list:    func() ([]adoption.Dependent, error) { return ChildGroups(ctx, e.c, e.groupPK, "g") },
			fault:   "/core/groups/",
			wantErr: `cannot read the child groups of authentik group "g"`,
		},
		"MembersOfGroupJudgedByTheirUsers": {
			list: func() ([]adoption.Dependent, error) { return MembersOfGroup(ctx, e.c, e.groupPK, "g") },
			want: []adoption.Dependent{
				{Description: adoption.Description{ID: aliceID + "@" + e.groupPK, Type: typeMembership, Key: "user alice in group g", Marker: &e.ours},
					Kind: "User.authentik.identity.crossplane.io", ExternalName: aliceID},
				{Description: adoption.Description{ID: bobID + "@" + e.groupPK, Type: typeMembership, Key: "user bob in group g"},
					Kind: "User.authentik.identity.crossplane.io", ExternalName: bobID},
			},
		},
		"MembersOfGroupFails": {
			list:    func() ([]adoption.Dependent, error) { return MembersOfGroup(ctx, e.c, e.groupPK, "g") },
			fault:   "/core/users/",
			wantErr: `cannot list the members of authentik group "g"`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if tc.fault != "" {
				e.s.InjectFault(authentikapiserver.Fault{PathPrefix: tc.fault, Status: 503, Times: 1})
				defer e.s.ClearFaults()
			}
			got, err := tc.list()
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error: got %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			byID := cmpopts.SortSlices(func(a, b adoption.Dependent) bool { return a.ID < b.ID })
			if diff := cmp.Diff(tc.want, got, byID, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
	if v := e.s.Violations(); len(v) != 0 {
		t.Errorf("requests authentik's openapi document rejects: %v", v)
	}
}

func TestAssignedApplication(t *testing.T) {
	m := &provenance.Marker{Installation: "i", Resource: "Application.authentik.identity.crossplane.io/a", Origin: provenance.OriginCreated}
	want := adoption.Dependent{Description: adoption.Description{ID: "grafana", Type: TypeApplication, Key: "grafana", Marker: m},
		Kind: "Application.authentik.identity.crossplane.io", ExternalName: "grafana"}
	if diff := cmp.Diff(want, AssignedApplication("grafana", m)); diff != "" {
		t.Errorf("-want +got:\n%s", diff)
	}
}
