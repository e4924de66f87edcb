package importer

import (
	"context"
	"net/url"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone/keystonetest"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

func marker(installation, resource string) string {
	return provenance.Marker{Installation: installation, Resource: resource, Origin: provenance.OriginCreated}.Encode()
}

// team is a hand-made domain "team" (ID dt): projects web and its child api, a project of
// another installation, groups devs and one this installation manages from namespace team-x,
// a user named by e-mail, and assignments on the domain and its projects, one on the system
// scope, one already managed by a resource and one on another domain (not in scope).
func team() map[string]keystonetest.Answer {
	q := "?" + url.Values{"domain_id": {"dt"}}.Encode()
	return map[string]keystonetest.Answer{
		"GET domains": {Body: `{"domains": [{"id": "dt", "name": "team", "description": "The team", "enabled": true},
			{"id": "default", "name": "Default", "enabled": true}]}`},
		"GET projects" + q: {Body: `{"projects": [
			{"id": "pw", "name": "web", "domain_id": "dt", "parent_id": "dt", "enabled": true, "tags": ["x"]},
			{"id": "pa", "name": "api", "domain_id": "dt", "parent_id": "pw", "enabled": false, "description": ""},
			{"id": "pf", "name": "theirs", "domain_id": "dt", "parent_id": "dt", "enabled": true,
			 "crossplane_provenance": "` + marker("other", "Project.keystone.identity.m.crossplane.io/ns/theirs") + `"}]}`},
		"GET roles" + q: {Body: `{"roles": [{"id": "rt", "name": "team-admin", "domain_id": "dt"}]}`},
		"GET limits": {Body: `{"limits": [
			{"id": "lw", "project_id": "pw", "domain_id": null, "service_id": "sc", "region_id": null, "resource_name": "cores", "resource_limit": 40,
			 "description": "web needs more\n[provider-identity: ` + marker("other", "Limit.keystone.identity.m.crossplane.io/ns/x") + `]"},
			{"id": "ld", "project_id": null, "domain_id": "dt", "service_id": "sc", "region_id": "RegionOne", "resource_name": "cores", "resource_limit": 200},
			{"id": "lx", "project_id": "pelsewhere", "service_id": "sc", "resource_name": "cores", "resource_limit": 1}]}`},
		"GET groups" + q: {Body: `{"groups": [{"id": "gd", "name": "devs", "domain_id": "dt", "description": "Developers"},
			{"id": "gm", "name": "ours", "domain_id": "dt", "crossplane_provenance": "` + marker("mine", "Group.keystone.identity.m.crossplane.io/team-x/ours-already") + `"}]}`},
		"GET users" + q: {Body: `{"users": [{"id": "ua", "name": "alice@example.com", "domain_id": "dt", "enabled": true,
			"email": "alice@example.com", "default_project_id": "pw", "options": {"ignore_password_expiry": true, "multi_factor_auth_rules": [["password", "totp"]]},
			"password_expires_at": null}]}`},
		"GET users/ua/application_credentials": {Body: `{"application_credentials": []}`},
		"GET groups/gd/users": {Body: `{"users": [{"id": "ua", "name": "alice@example.com", "domain_id": "dt", "enabled": true},
			{"id": "um", "name": "mallory", "domain_id": "default", "enabled": true,
			 "crossplane_provenance": "` + marker("other", "User.keystone.identity.m.crossplane.io/ns/mallory") + `"}]}`},
		"GET groups/gm/users": {Body: `{"users": [{"id": "ua", "name": "alice@example.com", "domain_id": "dt", "enabled": true}]}`},
		"GET role_inferences": {Body: `{"role_inferences": [
			{"prior_role": {"id": "rt", "name": "team-admin"}, "implies": [{"id": "rm", "name": "member"}]},
			{"prior_role": {"id": "radmin", "name": "admin"}, "implies": [{"id": "rm", "name": "member"}]}]}`},
		"GET role_assignments?include_names=true": {Body: `{"role_assignments": [
			{"role": {"id": "rm", "name": "member"}, "user": {"id": "ua", "name": "alice@example.com"}, "scope": {"project": {"id": "pw", "name": "web"}}},
			{"role": {"id": "rt", "name": "team-admin"}, "group": {"id": "gd", "name": "devs"}, "scope": {"domain": {"id": "dt", "name": "team"}, "OS-INHERIT:inherited_to": "projects"}},
			{"role": {"id": "rm", "name": "member"}, "group": {"id": "gm", "name": "ours"}, "scope": {"project": {"id": "pa", "name": "api"}}},
			{"role": {"id": "rm", "name": "member"}, "user": {"id": "ua", "name": "alice@example.com"}, "scope": {"project": {"id": "pother", "name": "elsewhere"}}},
			{"role": {"id": "rm", "name": "member"}, "user": {"id": "ua", "name": "alice@example.com"}, "scope": {"domain": {"id": "default", "name": "Default"}}}]}`},
		"GET domains/dt/config": {Body: `{"config": {"identity": {"driver": "ldap"}, "ldap": {"url": "ldap://ldap.example.com", "user": "cn=admin,dc=example,dc=com",
			"suffix": "dc=example,dc=com", "user_tree_dn": "ou=People,dc=example,dc=com", "user_enabled_invert": "true", "user_enabled_default": "false"}}}`},
		"GET OS-FEDERATION/identity_providers": {Body: `{"identity_providers": [
			{"id": "corp", "domain_id": "dt", "description": "Corporate SSO", "enabled": true, "remote_ids": ["https://sso.example.com"]},
			{"id": "theirs-idp", "domain_id": "dt", "description": "[provider-identity: ` + marker("other", "IdentityProvider.keystone.identity.m.crossplane.io/ns/x") + `]", "enabled": true, "remote_ids": []},
			{"id": "elsewhere", "domain_id": "default", "enabled": false}]}`},
		"GET OS-FEDERATION/identity_providers/corp/protocols":       {Body: `{"protocols": [{"id": "openid", "idp_id": "corp", "mapping_id": "corp-map", "remote_id_attribute": "HTTP_OIDC_ISS"}]}`},
		"GET OS-FEDERATION/identity_providers/theirs-idp/protocols": {Body: `{"protocols": []}`},
		"GET OS-FEDERATION/mappings": {Body: `{"mappings": [
			{"id": "corp-map", "rules": [{"local": [{"user": {"name": "{0}"}}, {"group": {"id": "gd"}}], "remote": [{"type": "REMOTE_USER"}]}]},
			{"id": "unused", "rules": [{"local": [{"user": {"name": "{0}"}}], "remote": [{"type": "REMOTE_USER"}]}]}]}`},
	}
}

const (
	wantProjectAPIObserve = `# Written by kubectl identity import from Keystone project "api" (ID pa).
apiVersion: keystone.identity.m.crossplane.io/v1alpha1
kind: Project
metadata:
  annotations:
    crossplane.io/external-name: pa
  name: api
  namespace: team-x
spec:
  forProvider:
    domainRef:
      name: team
    enabled: false
    name: api
    parentRef:
      name: web
  managementPolicies:
  - Observe
  providerConfigRef:
    kind: ClusterProviderConfig
    name: keystone
`
	wantUserAdopt = `# Written by kubectl identity import from Keystone user "alice@example.com" (ID ua).
# ` + notePassword + `
apiVersion: keystone.identity.m.crossplane.io/v1alpha1
kind: User
metadata:
  annotations:
    crossplane.io/external-name: ua
  name: alice-example-com-` + "844bc172" + `
  namespace: team-x
spec:
  adoptionPolicy: AdoptExisting
  forProvider:
    defaultProjectRef:
      name: web
    domainRef:
      name: team
    email: alice@example.com
    enabled: true
    name: alice@example.com
    options:
      ignorePasswordExpiry: true
      multiFactorAuthRules:
      - - password
        - totp
  providerConfigRef:
    kind: ClusterProviderConfig
    name: keystone
`
	// A domain's limit: the domain is referenced; with --domain no registered limit is listed.
	wantDomainLimitObserve = `# Written by kubectl identity import from Keystone limit "cores" (ID ld).
apiVersion: keystone.identity.m.crossplane.io/v1alpha1
kind: Limit
metadata:
  annotations:
    crossplane.io/external-name: ld
  name: cores
  namespace: team-x
spec:
  forProvider:
    domainRef:
      name: team
    regionId: RegionOne
    resourceLimit: 200
    resourceName: cores
    serviceId: sc
  managementPolicies:
  - Observe
  providerConfigRef:
    kind: ClusterProviderConfig
    name: keystone
`
	// The group is managed by a resource of team-x: the assignment references it; the global
	// role member is not listed under --domain, so it is named by ID.
	wantAssignmentObserve = `# Written by kubectl identity import from Keystone role assignment of role "member" (ID rm) to group "ours" (ID gm) on project "api" (ID pa).
apiVersion: keystone.identity.m.crossplane.io/v1alpha1
kind: RoleAssignment
metadata:
  annotations:
    crossplane.io/external-name: project/pa/group/gm/role/rm
  name: ours-member-api
  namespace: team-x
spec:
  forProvider:
    groupRef:
      name: ours-already
    projectRef:
      name: api
    roleId: rm
  managementPolicies:
  - Observe
  providerConfigRef:
    kind: ClusterProviderConfig
    name: keystone
`
)

const (
	// Under --domain the global role member is not listed: the rule names it by ID.
	wantImpliedRoleObserve = `# Written by kubectl identity import from Keystone implied-role rule: role "team-admin" (ID rt) implies role "member" (ID rm).
apiVersion: keystone.identity.m.crossplane.io/v1alpha1
kind: ImpliedRole
metadata:
  annotations:
    crossplane.io/external-name: rt/rm
  name: team-admin-implies-member
  namespace: team-x
spec:
  forProvider:
    impliedRoleId: rm
    priorRoleRef:
      name: team-admin
  managementPolicies:
  - Observe
  providerConfigRef:
    kind: ClusterProviderConfig
    name: keystone
`
	// The group is this installation's, which proves nothing about the membership: it is
	// imported, and the group referenced by the resource that manages it.
	wantMembershipObserve = `# Written by kubectl identity import from Keystone group membership of user "alice@example.com" (ID ua) in group "ours" (ID gm).
apiVersion: keystone.identity.m.crossplane.io/v1alpha1
kind: GroupMembership
metadata:
  annotations:
    crossplane.io/external-name: gm/ua
  name: ours-alice-example-com-2cd5e95c
  namespace: team-x
spec:
  forProvider:
    groupRef:
      name: ours-already
    userRef:
      name: alice-example-com-844bc172
  managementPolicies:
  - Observe
  providerConfigRef:
    kind: ClusterProviderConfig
    name: keystone
`
)

func TestKeystoneImport(t *testing.T) {
	pc := &xpv2.ProviderConfigReference{Kind: "ClusterProviderConfig", Name: "keystone"}
	foreign := Skip{Kind: "Project", Describe: `Keystone project "theirs" (ID pf)`, Refused: true,
		Reason: `carries the provenance marker of another installation, "other" (resource Project.keystone.identity.m.crossplane.io/ns/theirs): it is that installation's to manage, and no manifest was written for it`}
	foreignIdP := Skip{Kind: "IdentityProvider", Describe: `Keystone identity provider "theirs-idp"`, Refused: true,
		Reason: `carries the provenance marker of another installation, "other" (resource IdentityProvider.keystone.identity.m.crossplane.io/ns/x): it is that installation's to manage, and no manifest was written for it`}
	managed := Skip{Kind: "Group", Describe: `Keystone group "ours" (ID gm)`,
		Reason: "is already managed by this installation (resource Group.keystone.identity.m.crossplane.io/team-x/ours-already): skipped"}
	claimedAssignment := Skip{Kind: "RoleAssignment", Describe: `Keystone role assignment of role "team-admin" (ID rt) to group "devs" (ID gd) on domain "team" (ID dt), inherited to its projects`,
		Reason: "is already managed by RoleAssignment team-x/devs-admin in the cluster: skipped"}
	foreignLimit := Skip{Kind: "Limit", Describe: `Keystone limit "cores" (ID lw)`, Refused: true,
		Reason: `carries the provenance marker of another installation, "other" (resource Limit.keystone.identity.m.crossplane.io/ns/x): it is that installation's to manage, and no manifest was written for it`}
	allFiles := make([]string, 0, 17)
	allFiles = append(allFiles, "domain-team.yaml", "domainconfig-team.yaml", "group-devs.yaml", "identityprovider-corp.yaml",
		"limit-cores.yaml", "mapping-corp-map.yaml", "project-api.yaml", "project-web.yaml", "protocol-corp-openid.yaml",
		"role-team-admin.yaml", "roleassignment-alice-example-com-member-web-e632569f.yaml", "roleassignment-devs-team-admin-team-inherited.yaml",
		"roleassignment-ours-member-api.yaml", "user-alice-example-com-844bc172.yaml", "groupmembership-devs-alice-example-com-"+suffix("gd/ua")+".yaml", "groupmembership-ours-alice-example-com-"+suffix("gm/ua")+".yaml",
		"impliedrole-team-admin-implies-member.yaml")
	slices.Sort(allFiles)
	// A membership has no marker; its user's tells it may be another installation's.
	foreignMember := Skip{Kind: "GroupMembership", Describe: `Keystone group membership of user "mallory" (ID um) in group "devs" (ID gd)`, Refused: true,
		Reason: `its user "mallory" (ID um) carries the provenance marker of another installation, "other" (resource User.keystone.identity.m.crossplane.io/ns/mallory): it may be that installation's to manage, and no manifest was written for it`}
	cases := map[string]struct {
		filter    Filter
		target    Target
		wantFiles []string
		wantSkips []Skip
		// wantText holds the exact text of some files.
		wantText map[string]string
	}{
		"Observe": {
			filter: Filter{Domain: "team"}, target: Target{Namespace: "team-x", Mode: ModeObserve, ProviderConfigRef: pc, Installation: "mine"},
			wantFiles: allFiles, wantSkips: []Skip{managed, foreignMember, foreignIdP, foreignLimit, foreign},
			wantText: map[string]string{"project-api.yaml": wantProjectAPIObserve, "roleassignment-ours-member-api.yaml": wantAssignmentObserve,
				"limit-cores.yaml": wantDomainLimitObserve, "impliedrole-team-admin-implies-member.yaml": wantImpliedRoleObserve,
				"groupmembership-ours-alice-example-com-" + suffix("gm/ua") + ".yaml": wantMembershipObserve},
		},
		"AdoptAll": {
			filter: Filter{Domain: "team"}, target: Target{Namespace: "team-x", Mode: ModeAdopt, ProviderConfigRef: pc, Installation: "mine"},
			wantFiles: allFiles, wantSkips: []Skip{managed, foreignMember, foreignIdP, foreignLimit, foreign},
			wantText: map[string]string{"user-alice-example-com-844bc172.yaml": wantUserAdopt},
		},
		"AdoptOnlyReviewed": {
			filter:    Filter{Domain: "team", Kinds: []string{"user", "project"}},
			target:    Target{Namespace: "team-x", Mode: ModeAdopt, ProviderConfigRef: pc, Installation: "mine", Only: map[string]map[string]bool{"User": {"ua": true}}},
			wantFiles: []string{"user-alice-example-com-844bc172.yaml"},
			wantSkips: []Skip{
				{Kind: "Project", Describe: `Keystone project "api" (ID pa)`, Reason: reasonNotReviewed},
				foreign,
				{Kind: "Project", Describe: `Keystone project "web" (ID pw)`, Reason: reasonNotReviewed},
			},
		},
		"ClaimedAssignment": {
			filter: Filter{Domain: "team", Kinds: []string{"roleassignment"}},
			target: Target{Namespace: "team-x", Mode: ModeObserve, Installation: "mine",
				Claimed: map[string]map[string]string{"RoleAssignment": {"domain/dt/group/gd/role/rt/inherited": "team-x/devs-admin"}}},
			wantFiles: []string{"roleassignment-alice-example-com-member-web-e632569f.yaml", "roleassignment-ours-member-api.yaml"},
			wantSkips: []Skip{claimedAssignment},
		},
		"UnknownInstallation": {
			filter:    Filter{Domain: "team", Kinds: []string{"group"}},
			target:    Target{Namespace: "team-x", Mode: ModeObserve},
			wantFiles: []string{"group-devs.yaml"},
			wantSkips: []Skip{{Kind: "Group", Describe: `Keystone group "ours" (ID gm)`, Refused: true,
				Reason: `carries a provenance marker of installation "mine" (resource Group.keystone.identity.m.crossplane.io/team-x/ours-already), and this run does not know its own installation ID: connect through a ProviderConfig, or pass --installation-id, to tell whether it is this installation's`}},
		},
		"ClaimedFacts": {
			filter: Filter{Domain: "team", Kinds: []string{"GroupMembership", "ImpliedRole"}, Name: "devs-*"},
			target: Target{Namespace: "team-x", Mode: ModeAdopt, Installation: "mine",
				Claimed: map[string]map[string]string{"GroupMembership": {"gd/ua": "/alice-in-devs"}}},
			wantFiles: []string{},
			wantSkips: []Skip{{Kind: "GroupMembership", Describe: `Keystone group membership of user "alice@example.com" (ID ua) in group "devs" (ID gd)`,
				Reason: "is already managed by GroupMembership /alice-in-devs in the cluster: skipped"}, foreignMember},
		},
		"NamePattern": {
			filter:    Filter{Domain: "team", Kinds: []string{"project"}, Name: "w*"},
			target:    Target{Namespace: "team-x", Mode: ModeObserve, Installation: "mine"},
			wantFiles: []string{"project-web.yaml"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			for run := range 2 { // a second run gives the same plan
				objs, err := ListKeystone(context.Background(), &keystonetest.API{Answers: team()}, tc.filter)
				if err != nil {
					t.Fatal(err)
				}
				p, err := Build(objs, tc.target)
				if err != nil {
					t.Fatal(err)
				}
				names := []string{}
				for _, f := range p.Files {
					names = append(names, f.Name)
					if want, ok := tc.wantText[f.Name]; ok {
						if diff := cmp.Diff(want, string(f.Data)); diff != "" {
							t.Errorf("run %d: %s (-want +got):\n%s", run, f.Name, diff)
						}
					}
				}
				if diff := cmp.Diff(tc.wantFiles, names); diff != "" {
					t.Errorf("run %d: files (-want +got):\n%s", run, diff)
				}
				if diff := cmp.Diff(tc.wantSkips, p.Skipped, cmpEmpty()); diff != "" {
					t.Errorf("run %d: skipped (-want +got):\n%s", run, diff)
				}
			}
		})
	}
}
