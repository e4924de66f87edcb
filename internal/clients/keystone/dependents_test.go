package keystone

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/gophercloud/gophercloud/v2"

	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// cannedKeystone serves canned answers by path and query, and counts what it was asked.
func cannedKeystone(t *testing.T, answers map[string]string) *gophercloud.ServiceClient {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := answers[r.URL.RequestURI()]
		if !ok {
			t.Errorf("unexpected request %s", r.URL.RequestURI())
			w.WriteHeader(http.StatusNotFound)
			return
		}
		if body == "404" {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		if body == "500" {
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	pc := &gophercloud.ProviderClient{HTTPClient: *srv.Client()}
	return &gophercloud.ServiceClient{ProviderClient: pc, Endpoint: srv.URL + "/v3/"}
}

func TestDependents(t *testing.T) {
	ours := provenance.Marker{Installation: "i", Resource: "Project.keystone.identity.crossplane.io/p", Origin: provenance.OriginCreated}
	limitMarker := provenance.Marker{Installation: "i", Resource: "Limit.keystone.identity.m.crossplane.io/team-a/cores", Origin: provenance.OriginCreated}
	projectKind, raKind := "Project.keystone.identity.crossplane.io", "RoleAssignment.keystone.identity.crossplane.io"
	shadow := "7222ca5a55fd6f1b2a47b4013b6ae7c21ae5723fdf7823e33d2c8fb27b83d7fc"
	cases := map[string]struct {
		answers map[string]string
		list    func(context.Context, *gophercloud.ServiceClient) ([]adoption.Dependent, error)
		want    []adoption.Dependent
		wantErr bool
	}{
		"ProjectsWithAndWithoutMarkers": {
			answers: map[string]string{"/v3/projects?domain_id=d": `{"projects": [
				{"id": "1", "name": "a", "crossplane_provenance": "` + ours.Encode() + `"},
				{"id": "2", "name": "b"},
				{"id": "3", "name": "c", "crossplane_provenance": 5}]}`},
			list: func(ctx context.Context, sc *gophercloud.ServiceClient) ([]adoption.Dependent, error) {
				return ProjectsInDomain(ctx, sc, "d")
			},
			want: []adoption.Dependent{
				{Description: adoption.Description{ID: "1", Type: typeProject, Key: "a", Marker: &ours}, Kind: projectKind, ExternalName: "1"},
				{Description: adoption.Description{ID: "2", Type: typeProject, Key: "b"}, Kind: projectKind, ExternalName: "2"},
				{Description: adoption.Description{ID: "3", Type: typeProject, Key: "c"}, Kind: projectKind, ExternalName: "3"},
			},
		},
		"ShadowUsersStandForWhatWasGrantedToThem": {
			answers: map[string]string{
				"/v3/users?domain_id=d": `{"users": [{"id": "0123456789abcdef0123456789abcdef", "name": "local"},
					{"id": "` + shadow + `", "name": "alice"}, {"id": "` + strings.Repeat("b", 64) + `", "name": "bob"}]}`,
				"/v3/role_assignments?include_names=true&user.id=" + shadow: `{"role_assignments": [
					{"role": {"id": "r", "name": "reader"}, "user": {"id": "` + shadow + `", "name": "alice"}, "scope": {"project": {"id": "p", "name": "web"}}}]}`,
				"/v3/role_assignments?include_names=true&user.id=" + strings.Repeat("b", 64): `{"role_assignments": []}`,
			},
			list: func(ctx context.Context, sc *gophercloud.ServiceClient) ([]adoption.Dependent, error) {
				return UsersInDomain(ctx, sc, "d")
			},
			want: []adoption.Dependent{
				{Description: adoption.Description{ID: "0123456789abcdef0123456789abcdef", Type: typeUser, Key: "local"},
					Kind: "User.keystone.identity.crossplane.io", ExternalName: "0123456789abcdef0123456789abcdef"},
				{Description: adoption.Description{ID: "project/p/user/" + shadow + "/role/r", Type: typeAssignment, Key: "role reader to user alice on project web", Markerless: true},
					Kind: raKind, ExternalName: "project/p/user/" + shadow + "/role/r"},
			},
		},
		"TruncatedListStillBlocks": {
			answers: map[string]string{"/v3/groups?domain_id=d": `{"groups": [{"id": "1", "name": "a"}], "truncated": true, "links": {}}`},
			list: func(ctx context.Context, sc *gophercloud.ServiceClient) ([]adoption.Dependent, error) {
				return GroupsInDomain(ctx, sc, "d")
			},
			want: []adoption.Dependent{
				{Description: adoption.Description{ID: "1", Type: typeGroup, Key: "a"}, Kind: "Group.keystone.identity.crossplane.io", ExternalName: "1"},
				{Description: adoption.Description{ID: "unknown", Type: typeGroup, Key: "more, not listed: Keystone truncated the list at its list_limit"}},
			},
		},
		"AssignmentsBecomeRoleAssignmentKeys": {
			answers: map[string]string{"/v3/role_assignments?include_names=true&role.id=r": `{"role_assignments": [
				{"role": {"id": "r", "name": "member"}, "group": {"id": "g", "name": "team"}, "scope": {"project": {"id": "p", "name": "web"}}},
				{"role": {"id": "r", "name": "member"}, "user": {"id": "u", "name": "bob"}, "scope": {"domain": {"id": "d", "name": "acme"}, "OS-INHERIT:inherited_to": "projects"}},
				{"role": {"id": "r", "name": "member"}, "user": {"id": "u", "name": "bob"}, "scope": {"system": {"all": true}}}]}`},
			list: func(ctx context.Context, sc *gophercloud.ServiceClient) ([]adoption.Dependent, error) {
				return Assignments(ctx, sc, url.Values{"role.id": {"r"}})
			},
			want: []adoption.Dependent{
				{Description: adoption.Description{ID: "project/p/group/g/role/r", Type: typeAssignment, Key: "role member to group team on project web", Markerless: true},
					Kind: raKind, ExternalName: "project/p/group/g/role/r"},
				{Description: adoption.Description{ID: "domain/d/user/u/role/r/inherited", Type: typeAssignment,
					Key: "role member to user bob on domain acme, inherited to its projects", Markerless: true},
					Kind: raKind, ExternalName: "domain/d/user/u/role/r/inherited"},
				{Description: adoption.Description{ID: "system/all/user/u/role/r", Type: typeAssignment, Key: "role member to user bob on system all", Markerless: true}},
			},
		},
		"NoDomainConfig": {
			answers: map[string]string{"/v3/domains/d/config": "404"},
			list: func(ctx context.Context, sc *gophercloud.ServiceClient) ([]adoption.Dependent, error) {
				return DomainConfigOf(ctx, sc, "d")
			},
		},
		"IdentityProvidersOfOtherDomainsAreNotDependents": {
			answers: map[string]string{"/v3/OS-FEDERATION/identity_providers": `{"identity_providers": [
				{"id": "mine", "domain_id": "d", "description": "x\n[provider-identity: ` + ours.Encode() + `]"},
				{"id": "theirs", "domain_id": "e"}]}`},
			list: func(ctx context.Context, sc *gophercloud.ServiceClient) ([]adoption.Dependent, error) {
				return IdentityProvidersInDomain(ctx, sc, "d")
			},
			want: []adoption.Dependent{{Description: adoption.Description{ID: "mine", Type: typeIdP, Key: "mine", Marker: &ours},
				Kind: "IdentityProvider.keystone.identity.crossplane.io", ExternalName: "mine"}},
		},
		"ImpliedRulesEitherSide": {
			answers: map[string]string{"/v3/role_inferences": `{"role_inferences": [
				{"prior_role": {"id": "r", "name": "admin"}, "implies": [{"id": "m", "name": "member"}]},
				{"prior_role": {"id": "o", "name": "owner"}, "implies": [{"id": "r", "name": "admin"}, {"id": "x", "name": "other"}]}]}`},
			list: func(ctx context.Context, sc *gophercloud.ServiceClient) ([]adoption.Dependent, error) {
				return ImpliedRoleRules(ctx, sc, "r")
			},
			want: []adoption.Dependent{
				{Description: adoption.Description{ID: "r/m", Type: typeInference, Key: "admin implies member", Markerless: true},
					Kind: "ImpliedRole.keystone.identity.crossplane.io", ExternalName: "r/m"},
				{Description: adoption.Description{ID: "o/r", Type: typeInference, Key: "owner implies admin", Markerless: true},
					Kind: "ImpliedRole.keystone.identity.crossplane.io", ExternalName: "o/r"},
			},
		},
		"MembershipsOfAUser": {
			answers: map[string]string{"/v3/users/u/groups": `{"groups": [{"id": "g", "name": "team"}]}`},
			list: func(ctx context.Context, sc *gophercloud.ServiceClient) ([]adoption.Dependent, error) {
				return GroupsOfUser(ctx, sc, "u", "bob")
			},
			want: []adoption.Dependent{{Description: adoption.Description{ID: "g/u", Type: typeMembership, Key: "user bob in group team", Markerless: true},
				Kind: "GroupMembership.keystone.identity.crossplane.io", ExternalName: "g/u"}},
		},
		"MembersOfAGroup": {
			answers: map[string]string{"/v3/groups/g/users": `{"users": [{"id": "u", "name": "bob"}, {"id": "v", "name": "carol"}]}`},
			list: func(ctx context.Context, sc *gophercloud.ServiceClient) ([]adoption.Dependent, error) {
				return MembersOfGroup(ctx, sc, "g", "team")
			},
			want: []adoption.Dependent{
				{Description: adoption.Description{ID: "g/u", Type: typeMembership, Key: "user bob in group team", Markerless: true},
					Kind: "GroupMembership.keystone.identity.crossplane.io", ExternalName: "g/u"},
				{Description: adoption.Description{ID: "g/v", Type: typeMembership, Key: "user carol in group team", Markerless: true},
					Kind: "GroupMembership.keystone.identity.crossplane.io", ExternalName: "g/v"},
			},
		},
		"ApplicationCredentialsOfAUser": {
			answers: map[string]string{"/v3/users/u/application_credentials": `{"application_credentials": [{"id": "c", "name": "ci"},` +
				`{"id": "d", "name": "cd", "description": "ours\n[provider-identity: ` + limitMarker.Encode() + `]"}]}`},
			list: func(ctx context.Context, sc *gophercloud.ServiceClient) ([]adoption.Dependent, error) {
				return ApplicationCredentialsOf(ctx, sc, "u")
			},
			want: []adoption.Dependent{
				{Description: adoption.Description{ID: "c", Type: typeAppCred, Key: "ci", Markerless: true},
					Kind: "ApplicationCredential.keystone.identity.crossplane.io", ExternalName: "c"},
				{Description: adoption.Description{ID: "d", Type: typeAppCred, Key: "cd", Marker: &limitMarker}},
			},
		},
		"NoRegisteredLimitsNoLimitsRead": {
			answers: map[string]string{"/v3/registered_limits": `{"registered_limits": []}`},
			list: func(ctx context.Context, sc *gophercloud.ServiceClient) ([]adoption.Dependent, error) {
				return LimitsOf(ctx, sc, "p")
			},
		},
		"RegisteredLimitsUnreadable": {
			answers: map[string]string{"/v3/registered_limits": "500"},
			list: func(ctx context.Context, sc *gophercloud.ServiceClient) ([]adoption.Dependent, error) {
				return LimitsOf(ctx, sc, "p")
			},
			wantErr: true,
		},
		"LimitsOfAProject": {
			answers: map[string]string{"/v3/registered_limits": `{"registered_limits": [{"id": "r", "resource_name": "cores"}]}`,
				"/v3/limits?project_id=p": `{"limits": [{"id": "l", "resource_name": "cores"},` +
					`{"id": "m", "resource_name": "ram", "description": "hand\n[provider-identity: ` + limitMarker.Encode() + `]"}]}`},
			list: func(ctx context.Context, sc *gophercloud.ServiceClient) ([]adoption.Dependent, error) {
				return LimitsOf(ctx, sc, "p")
			},
			want: []adoption.Dependent{{Description: adoption.Description{ID: "l", Type: typeLimit, Key: "cores"}},
				{Description: adoption.Description{ID: "m", Type: typeLimit, Key: "ram", Marker: &limitMarker}}},
		},
		"KeystoneFails": {
			answers: map[string]string{"/v3/users?idp_id=i": "500"},
			list: func(ctx context.Context, sc *gophercloud.ServiceClient) ([]adoption.Dependent, error) {
				return FederatedUsers(ctx, sc, "i")
			},
			wantErr: true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := tc.list(context.Background(), cannedKeystone(t, tc.answers))
			if (err != nil) != tc.wantErr {
				t.Fatalf("error: got %v, want error %v", err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}
