package importer

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone/keystonetest"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// appCredAnswers is a domain "ci" (ID dc) with a role, a project and two users: bob, whose
// credentials are a hand-made one (roles, expiry, access rules), one this installation
// created, one another installation created, and one this installation adopted (no marker in
// Keystone: its resource says so); and mallory, another installation's user, whose unmarked
// credential may be that installation's too.
func appCredAnswers() map[string]keystonetest.Answer {
	q := "?domain_id=dc"
	return map[string]keystonetest.Answer{
		"GET domains":      {Body: `{"domains": [{"id": "dc", "name": "ci", "enabled": true}]}`},
		"GET projects" + q: {Body: `{"projects": [{"id": "pb", "name": "build", "domain_id": "dc", "parent_id": "dc", "enabled": true}]}`},
		"GET roles" + q:    {Body: `{"roles": [{"id": "rr", "name": "reader", "domain_id": "dc"}]}`},
		"GET users" + q: {Body: `{"users": [{"id": "ub", "name": "bob", "domain_id": "dc", "enabled": true},
			{"id": "um", "name": "mallory", "domain_id": "dc", "enabled": true,
			 "crossplane_provenance": "` + marker("other", "User.keystone.identity.m.crossplane.io/ns/mallory") + `"}]}`},
		"GET users/ub/application_credentials": {Body: `{"application_credentials": [
			{"id": "a1", "name": "deploy", "description": "CI deploys", "unrestricted": false, "project_id": "pb",
			 "roles": [{"id": "rr", "name": "reader"}, {"id": "rg", "name": "member"}], "expires_at": "2031-01-02T03:04:05.678901",
			 "access_rules": [{"id": "x2", "service": "image", "method": "GET", "path": "/v2/images"},
			                  {"id": "x1", "service": "compute", "method": "GET", "path": "/v2.1/servers"}]},
			{"id": "a2", "name": "mine", "description": "[provider-identity: ` + marker("mine", "ApplicationCredential.keystone.identity.m.crossplane.io/team-x/mine") + `]",
			 "unrestricted": false, "project_id": "pb", "roles": [{"id": "rr", "name": "reader"}], "expires_at": null},
			{"id": "a3", "name": "theirs", "description": "[provider-identity: ` + marker("other", "ApplicationCredential.keystone.identity.m.crossplane.io/ns/theirs") + `]",
			 "unrestricted": false, "project_id": "pb", "roles": [{"id": "rr", "name": "reader"}], "expires_at": null},
			{"id": "a4", "name": "adopted", "description": "", "unrestricted": true, "project_id": "pb",
			 "roles": [{"id": "rr", "name": "reader"}], "expires_at": null}]}`},
		"GET users/um/application_credentials": {Body: `{"application_credentials": [
			{"id": "a5", "name": "bot", "description": "", "unrestricted": false, "project_id": "pb", "roles": [{"id": "rr", "name": "reader"}], "expires_at": null}]}`},
	}
}

const wantAppCredDeploy = `# Written by kubectl identity import from Keystone application credential "deploy" of user "bob" (ID a1).
# ` + noteAppCredSecret + `
apiVersion: keystone.identity.m.crossplane.io/v1alpha1
kind: ApplicationCredential
metadata:
  annotations:
    crossplane.io/external-name: a1
  name: bob-deploy
  namespace: team-x
spec:
  forProvider:
    accessRules:
    - method: GET
      path: /v2.1/servers
      service: compute
    - method: GET
      path: /v2/images
      service: image
    description: CI deploys
    expiresAt: "2031-01-02T03:04:05Z"
    name: deploy
    projectRef:
      name: build
    roleIds:
    - rg
    - rr
    unrestricted: false
    userRef:
      name: bob
  managementPolicies:
  - Observe
  providerConfigRef:
    kind: ClusterProviderConfig
    name: keystone
`

// The adopted credential's resource claims it; the user is not imported, so it is named by ID;
// every role has a resource, so the roles are references.
const wantAppCredAdopt = `# Written by kubectl identity import from Keystone application credential "deploy" of user "bob" (ID a1).
# ` + noteAppCredSecret + `
apiVersion: keystone.identity.m.crossplane.io/v1alpha1
kind: ApplicationCredential
metadata:
  annotations:
    crossplane.io/external-name: a1
  name: bob-deploy
  namespace: team-x
spec:
  adoptionPolicy: AdoptExisting
  forProvider:
    accessRules:
    - method: GET
      path: /v2.1/servers
      service: compute
    - method: GET
      path: /v2/images
      service: image
    description: CI deploys
    expiresAt: "2031-01-02T03:04:05Z"
    name: deploy
    projectId: pb
    roleRefs:
    - name: member
    - name: reader
    unrestricted: false
    userId: ub
`

func TestKeystoneImportApplicationCredentials(t *testing.T) {
	pc := &xpv2.ProviderConfigReference{Kind: "ClusterProviderConfig", Name: "keystone"}
	mine := Skip{Kind: kindApplicationCredential, Describe: `Keystone application credential "mine" of user "bob" (ID a2)`,
		Reason: "is already managed by this installation (resource ApplicationCredential.keystone.identity.m.crossplane.io/team-x/mine): skipped"}
	theirs := Skip{Kind: kindApplicationCredential, Describe: `Keystone application credential "theirs" of user "bob" (ID a3)`, Refused: true,
		Reason: `carries the provenance marker of another installation, "other" (resource ApplicationCredential.keystone.identity.m.crossplane.io/ns/theirs): it is that installation's to manage, and no manifest was written for it`}
	adopted := Skip{Kind: kindApplicationCredential, Describe: `Keystone application credential "adopted" of user "bob" (ID a4)`,
		Reason: "is already managed by ApplicationCredential team-x/adopted in the cluster: skipped"}
	mallorys := Skip{Kind: kindApplicationCredential, Describe: `Keystone application credential "bot" of user "mallory" (ID a5)`, Refused: true,
		Reason: `its user "mallory" carries the provenance marker of another installation, "other" (resource User.keystone.identity.m.crossplane.io/ns/mallory): it may be that installation's to manage, and no manifest was written for it`}
	claimed := map[string]map[string]string{kindApplicationCredential: {"a4": "team-x/adopted"}}
	cases := map[string]struct {
		filter    Filter
		target    Target
		wantFiles map[string]string
		wantSkips []Skip
	}{
		"ObserveWithUsersAndProjects": {
			filter:    Filter{Kinds: []string{"ApplicationCredential", "User", "Project"}, Domain: "ci", Name: "b*"},
			target:    Target{Namespace: "team-x", Mode: ModeObserve, ProviderConfigRef: pc, Installation: "mine", Claimed: claimed},
			wantFiles: map[string]string{"applicationcredential-bob-deploy.yaml": wantAppCredDeploy, "project-build.yaml": "", "user-bob.yaml": ""},
			wantSkips: []Skip{adopted, mine, theirs},
		},
		"AdoptWithRoles": {
			filter: Filter{Kinds: []string{"ApplicationCredential"}, Domain: "ci"},
			target: Target{Namespace: "team-x", Mode: ModeAdopt, Installation: "mine",
				Claimed: claimed},
			wantFiles: map[string]string{"applicationcredential-bob-deploy.yaml": wantAppCredAdopt},
			wantSkips: []Skip{adopted, mallorys, mine, theirs},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			objs, err := ListKeystone(context.Background(), &keystonetest.API{Answers: appCredAnswers()}, tc.filter)
			if err != nil {
				t.Fatal(err)
			}
			if name == "AdoptWithRoles" {
				// Both roles are managed by resources of the namespace.
				objs = append(objs, claimedRole("rr", "reader"), claimedRole("rg", "member"))
			}
			p, err := Build(objs, tc.target)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for _, f := range p.Files {
				got[f.Name] = ""
				if tc.wantFiles[f.Name] != "" {
					got[f.Name] = string(f.Data)
				}
			}
			if diff := cmp.Diff(tc.wantFiles, got); diff != "" {
				t.Errorf("files (-want +got):\n%s", diff)
			}
			var skips []Skip
			for _, s := range p.Skipped {
				if s.Kind == kindApplicationCredential {
					skips = append(skips, s)
				}
			}
			if diff := cmp.Diff(tc.wantSkips, skips, cmpEmpty()); diff != "" {
				t.Errorf("skipped (-want +got):\n%s", diff)
			}
		})
	}
}

// claimedRole is a role this installation manages from a resource of namespace team-x named
// after it: referenced by that resource, never written.
func claimedRole(id, name string) *Object {
	o := keystoneObject(kindRole, "role", id, name, "")
	o.Marker = &provenance.Marker{Installation: "mine", Origin: provenance.OriginCreated, Resource: "Role.keystone.identity.m.crossplane.io/team-x/" + name}
	return o
}

// A user's credentials that cannot be listed fail the import, naming the user; without the kind
// no credential is listed at all (no request per user).
func TestKeystoneImportApplicationCredentialsErrors(t *testing.T) {
	answers := appCredAnswers()
	answers["GET users/um/application_credentials"] = keystonetest.Answer{Status: 403}
	_, err := ListKeystone(context.Background(), &keystonetest.API{Answers: answers}, Filter{Kinds: []string{"ApplicationCredential"}, Domain: "ci"})
	want := `cannot list the application credentials of Keystone user "mallory" (ID um)`
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("err = %v, want it to start with %q", err, want)
	}
	// --name selects bob's credentials only: mallory's are not asked for.
	if _, err := ListKeystone(context.Background(), &keystonetest.API{Answers: answers}, Filter{Kinds: []string{"ApplicationCredential"}, Domain: "ci", Name: "bob-*"}); err != nil {
		t.Errorf("bob's credentials alone: %v", err)
	}
	delete(answers, "GET users/ub/application_credentials")
	delete(answers, "GET users/um/application_credentials")
	if _, err := ListKeystone(context.Background(), &keystonetest.API{Answers: answers}, Filter{Kinds: []string{"User"}, Domain: "ci"}); err != nil {
		t.Errorf("users alone: %v", err)
	}
}

func TestLiteralPrefix(t *testing.T) {
	cases := map[string]string{"": "", "bob-ci": "bob-ci", "bob-*": "bob-", "b?b-*": "b", "[ab]*": "", `a\*`: "a"}
	for pattern, want := range cases {
		if got := literalPrefix(pattern); got != want {
			t.Errorf("literalPrefix(%q) = %q, want %q", pattern, got, want)
		}
	}
}
