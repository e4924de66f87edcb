package importer

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	api "goauthentik.io/api/v3"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-identity/internal/authentikapiserver"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/authentiktest"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// akSeed stores an object in the in-memory authentik and returns its primary key.
func akSeed(t *testing.T, e *authentiktest.Env, kind string, obj map[string]any) string {
	t.Helper()
	var out map[string]any
	if err := json.Unmarshal(e.Seed(t, kind, obj), &out); err != nil {
		t.Fatal(err)
	}
	switch pk := out["pk"].(type) {
	case string:
		return pk
	case float64:
		return itoa(int32(pk))
	}
	t.Fatalf("%s has no pk: %v", kind, out)
	return ""
}

// akTree is a hand-made authentik: groups staff and its child juniors, a group of another
// installation and one this installation manages from namespace team-x, a user in staff and
// in the managed group, an outpost's service account, an OAuth2 provider used by application
// wiki, a SAML provider without an application, and an application of another installation
// with its proxy provider.
func akTree(t *testing.T) (*authentiktest.Env, map[string]string) {
	e := authentiktest.New(t)
	ids := map[string]string{}
	ids["staff"] = akSeed(t, e, "core/groups", map[string]any{"name": "staff", "attributes": map[string]any{"team": "platform", "n": 3}})
	ids["juniors"] = akSeed(t, e, "core/groups", map[string]any{"name": "juniors", "parents": []any{ids["staff"]}})
	ids["theirs"] = akSeed(t, e, "core/groups", map[string]any{"name": "theirs",
		"attributes": map[string]any{"identity.crossplane.io/provenance": marker("other", "Group.authentik.identity.m.crossplane.io/ns/theirs")}})
	ids["ours"] = akSeed(t, e, "core/groups", map[string]any{"name": "ours",
		"attributes": map[string]any{"identity.crossplane.io/provenance": marker("mine", "Group.authentik.identity.m.crossplane.io/team-x/ours-already")}})
	ids["alice"] = akSeed(t, e, "core/users", map[string]any{"username": "alice", "name": "Alice", "email": "alice@example.com",
		"groups": []any{ids["staff"], ids["ours"]}, "attributes": map[string]any{"identity.crossplane.io/password-secret-version": "x", "desk": "4F"}})
	ids["outpost"] = akSeed(t, e, "core/users", map[string]any{"username": "ak-outpost-1", "type": "service_account", "path": "goauthentik.io/outposts"})
	ids["wiki-provider"] = akSeed(t, e, "providers/oauth2", map[string]any{"name": "wiki",
		"redirect_uris": []any{map[string]any{"matching_mode": "strict", "url": "https://wiki.example.com/cb"}}})
	ids["sso"] = akSeed(t, e, "providers/saml", map[string]any{"name": "sso", "acs_url": "https://sp.example.com/acs"})
	ids["foreign-proxy"] = akSeed(t, e, "providers/proxy", map[string]any{"name": "foreign-proxy", "external_host": "https://app.example.com", "mode": "forward_single"})
	akSeed(t, e, "core/applications", map[string]any{"name": "Wiki", "slug": "wiki", "provider": json.Number(ids["wiki-provider"]),
		"meta_description": "The wiki"})
	akSeed(t, e, "core/applications", map[string]any{"name": "Theirs", "slug": "theirs-app", "provider": json.Number(ids["foreign-proxy"]),
		"meta_description": provenance.EmbedInText("", provenance.Marker{Installation: "other", Resource: "Application.authentik.identity.m.crossplane.io/ns/x", Origin: provenance.OriginCreated})})
	ids["mine-oauth"] = akSeed(t, e, "providers/oauth2", map[string]any{"name": "mine-oauth"})
	akSeed(t, e, "core/applications", map[string]any{"name": "Mine", "slug": "mine-app", "provider": json.Number(ids["mine-oauth"]),
		"meta_description": provenance.EmbedInText("", provenance.Marker{Installation: "mine", Resource: "Application.authentik.identity.m.crossplane.io/team-x/mine", Origin: provenance.OriginCreated})})
	l, _, err := e.Client.API.CoreAPI.CoreBrandsList(context.Background()).Domain("authentik-default").Execute()
	if err != nil || len(l.Results) != 1 {
		t.Fatalf("the default brand: %v, %v", l, err)
	}
	ids["default-brand"] = l.Results[0].BrandUuid
	return e, ids
}

const (
	wantAkGroupJuniors = `# Written by kubectl identity import from authentik group "juniors" (pk <juniors>).
apiVersion: authentik.identity.m.crossplane.io/v1alpha1
kind: Group
metadata:
  annotations:
    crossplane.io/external-name: <juniors>
  name: juniors
  namespace: team-x
spec:
  forProvider:
    isSuperuser: false
    name: juniors
    parentRefs:
    - name: staff
    roles: []
  managementPolicies:
  - Observe
  providerConfigRef:
    kind: ClusterProviderConfig
    name: authentik
`
	// The marker and the password's Secret version are the provider's own attributes: never
	// in a spec. The managed group is referenced by its resource.
	wantAkUserAdopt = `# Written by kubectl identity import from authentik user "alice" (pk 3).
# ` + noteUserPassword + `
apiVersion: authentik.identity.m.crossplane.io/v1alpha1
kind: User
metadata:
  annotations:
    crossplane.io/external-name: "3"
  name: alice
  namespace: team-x
spec:
  adoptionPolicy: AdoptExisting
  forProvider:
    attributes:
      desk: 4F
    email: alice@example.com
    groupRefs:
    - name: ours-already
    - name: staff
    isActive: true
    name: Alice
    path: users
    type: internal
    username: alice
  providerConfigRef:
    kind: ClusterProviderConfig
    name: authentik
`
	wantAkApplication = `# Written by kubectl identity import from authentik application "Wiki" (slug wiki).
apiVersion: authentik.identity.m.crossplane.io/v1alpha1
kind: Application
metadata:
  annotations:
    crossplane.io/external-name: wiki
  name: wiki
  namespace: team-x
spec:
  forProvider:
    description: The wiki
    hidden: false
    name: Wiki
    oauth2ProviderRef:
      name: wiki
    openInNewTab: false
    policyEngineMode: any
    slug: wiki
  managementPolicies:
  - Observe
  providerConfigRef:
    kind: ClusterProviderConfig
    name: authentik
`
	// Without its provider's resource, an application names the provider by ID.
	wantAkApplicationAlone = `# Written by kubectl identity import from authentik application "Wiki" (slug wiki).
apiVersion: authentik.identity.m.crossplane.io/v1alpha1
kind: Application
metadata:
  annotations:
    crossplane.io/external-name: wiki
  name: wiki
  namespace: team-x
spec:
  forProvider:
    description: The wiki
    hidden: false
    name: Wiki
    oauth2ProviderId: "1"
    openInNewTab: false
    policyEngineMode: any
    slug: wiki
  managementPolicies:
  - Observe
`
)

func TestAuthentikImport(t *testing.T) {
	pc := &xpv2.ProviderConfigReference{Kind: "ClusterProviderConfig", Name: "authentik"}
	const foreignReason = `carries the provenance marker of another installation, "other" (resource %s): it is that installation's to manage, and no manifest was written for it`
	const foreignAppReason = `its application "theirs-app" carries the provenance marker of another installation, "other" (resource %s): it may be that installation's to manage, and no manifest was written for it`
	refused := func(kind, describe, resource string) Skip {
		return Skip{Kind: kind, Describe: describe, Refused: true, Reason: strings.Replace(foreignReason, "%s", resource, 1)}
	}
	foreignApp := refused("Application", `authentik application "Theirs" (slug theirs-app)`, "Application.authentik.identity.m.crossplane.io/ns/x")
	foreignGroup := refused("Group", `authentik group "theirs" (pk <theirs>)`, "Group.authentik.identity.m.crossplane.io/ns/theirs")
	// A provider has no marker: the one of the application using it tells it is another's.
	foreignProxy := Skip{Kind: "ProxyProvider", Describe: `authentik proxy provider "foreign-proxy" (ID 3)`, Refused: true,
		Reason: strings.Replace(foreignAppReason, "%s", "Application.authentik.identity.m.crossplane.io/ns/x", 1)}
	managedApp := Skip{Kind: "Application", Describe: `authentik application "Mine" (slug mine-app)`,
		Reason: "is already managed by this installation (resource Application.authentik.identity.m.crossplane.io/team-x/mine): skipped"}
	managedGroup := Skip{Kind: "Group", Describe: `authentik group "ours" (pk <ours>)`,
		Reason: "is already managed by this installation (resource Group.authentik.identity.m.crossplane.io/team-x/ours-already): skipped"}
	builtIn := func(kind, describe string) Skip { return Skip{Kind: kind, Describe: describe, Reason: skipBuiltIn} }
	adminsSkip, akadmin := builtIn("Group", `authentik group "authentik Admins" (pk <admins>)`), builtIn("User", `authentik user "akadmin" (pk 1)`)
	outpost := builtIn("User", `authentik user "ak-outpost-1" (pk 4)`)
	// The embedded outpost's service account (pk 2), named after the outpost's UUID.
	embeddedSA := Skip{Kind: "User", Describe: `authentik user "<embedded-sa>" (pk 2)`, Reason: unsupportedInternalSA}
	embedded := Skip{Kind: "Outpost", Describe: `authentik outpost "authentik Embedded Outpost" (ID <embedded>)`, Reason: skipEmbedded}
	defaultBrand := Skip{Kind: "Brand", Describe: `authentik brand "authentik-default" (brand_uuid <default-brand>)`, Reason: skipDefaultBrand}
	claimedProvider := Skip{Kind: "OAuth2Provider", Describe: `authentik OAuth2 provider "wiki" (ID 1)`,
		Reason: "is already managed by OAuth2Provider team-y/wiki in the cluster: skipped"}
	// The provider of this installation's application is no more this installation's than
	// any unmarked one (ADR 0002): it is imported.
	all := []string{"application-wiki.yaml", "group-juniors.yaml", "group-staff.yaml", "oauth2provider-mine-oauth.yaml",
		"oauth2provider-wiki.yaml", "samlprovider-sso.yaml", "user-alice.yaml"}
	cases := map[string]struct {
		filter    Filter
		target    Target
		wantFiles []string
		wantSkips []Skip
		wantText  map[string]string
	}{
		"Observe": {
			// The kinds of the first import, and two whose only objects are authentik's own; the later
			// kinds have tests of their own.
			filter:    Filter{Kinds: []string{"Group", "User", "OAuth2Provider", "SAMLProvider", "ProxyProvider", "Application", "Flow", "Stage", "FlowStageBinding", "Outpost", "Brand"}},
			target:    Target{Namespace: "team-x", Mode: ModeObserve, ProviderConfigRef: pc, Installation: "mine"},
			wantFiles: all,
			wantSkips: append([]Skip{managedApp, foreignApp, adminsSkip, managedGroup, foreignGroup, foreignProxy, outpost, embeddedSA, embedded, akadmin, defaultBrand}, seededFlowSkips()...),
			wantText:  map[string]string{"group-juniors.yaml": wantAkGroupJuniors, "application-wiki.yaml": wantAkApplication},
		},
		"Adopt": {
			filter:    Filter{Kinds: []string{"user", "group"}},
			target:    Target{Namespace: "team-x", Mode: ModeAdopt, ProviderConfigRef: pc, Installation: "mine"},
			wantFiles: []string{"group-juniors.yaml", "group-staff.yaml", "user-alice.yaml"},
			wantSkips: []Skip{adminsSkip, managedGroup, foreignGroup, outpost, embeddedSA, akadmin},
			wantText:  map[string]string{"user-alice.yaml": wantAkUserAdopt},
		},
		"IncludeBuiltIn": {
			filter:    Filter{Kinds: []string{"Group", "User"}, BuiltIn: true},
			target:    Target{Namespace: "team-x", Mode: ModeObserve, Installation: "mine"},
			wantFiles: []string{"group-authentik-admins-<admins-suffix>.yaml", "group-juniors.yaml", "group-staff.yaml", "user-ak-outpost-1.yaml", "user-akadmin.yaml", "user-alice.yaml"},
			wantSkips: []Skip{managedGroup, foreignGroup, embeddedSA},
		},
		"OnlyApplications": {
			filter:    Filter{Kinds: []string{"application"}, Name: "w*"},
			target:    Target{Namespace: "team-x", Mode: ModeObserve, Installation: "mine"},
			wantFiles: []string{"application-wiki.yaml"},
			wantText:  map[string]string{"application-wiki.yaml": wantAkApplicationAlone},
		},
		"ClaimedProvider": {
			filter: Filter{Kinds: []string{"OAuth2Provider", "Application"}, Name: "wiki"},
			target: Target{Namespace: "team-x", Mode: ModeObserve, Installation: "mine",
				Claimed: map[string]map[string]string{"OAuth2Provider": {"1": "team-y/wiki"}}},
			wantFiles: []string{"application-wiki.yaml"},
			wantSkips: []Skip{claimedProvider},
			wantText:  map[string]string{"application-wiki.yaml": wantAkApplicationAlone},
		},
	}
	e, ids := akTree(t)
	var admins string
	for _, g := range mustList(t, e) {
		if g.Name == "authentik Admins" {
			admins = g.ID
		}
	}
	pairs := make([]string, 0, 4+2*len(ids))
	pairs = append(pairs, "<admins-suffix>", suffix(admins), "<admins>", admins)
	for k, v := range ids {
		pairs = append(pairs, "<"+k+">", v)
	}
	fill := strings.NewReplacer(pairs...)
	// Group pks are random UUIDs; the integer IDs of users and providers count from 1.
	hide := func(s string) string {
		for k, v := range ids {
			if len(v) == 36 {
				s = strings.ReplaceAll(s, v, "<"+k+">")
			}
		}
		s = strings.ReplaceAll(s, embeddedOutpost(t, e), "<embedded>")
		return strings.ReplaceAll(strings.ReplaceAll(s, admins, "<admins>"), embeddedSAName(t, e), "<embedded-sa>")
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			for run := range 2 { // a second run gives the same plan
				objs, err := ListAuthentik(context.Background(), e.Client.API, tc.filter)
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
						if diff := cmp.Diff(want, hide(string(f.Data))); diff != "" {
							t.Errorf("run %d: %s (-want +got):\n%s", run, f.Name, diff)
						}
					}
				}
				want := make([]string, 0, len(tc.wantFiles))
				for _, f := range tc.wantFiles {
					want = append(want, fill.Replace(f))
				}
				if diff := cmp.Diff(want, names); diff != "" {
					t.Errorf("run %d: files (-want +got):\n%s", run, diff)
				}
				for i := range p.Skipped {
					p.Skipped[i].Describe = hide(p.Skipped[i].Describe)
				}
				slices.SortFunc(p.Skipped, func(a, b Skip) int { return strings.Compare(a.Kind+"\x00"+a.Describe, b.Kind+"\x00"+b.Describe) })
				wantSkips := slices.Clone(tc.wantSkips)
				slices.SortFunc(wantSkips, func(a, b Skip) int { return strings.Compare(a.Kind+"\x00"+a.Describe, b.Kind+"\x00"+b.Describe) })
				if diff := cmp.Diff(wantSkips, p.Skipped, cmpopts.EquateEmpty()); diff != "" {
					t.Errorf("run %d: skipped (-want +got):\n%s", run, diff)
				}
			}
		})
	}
}

// embeddedOutpost is the embedded outpost's UUID.
func embeddedOutpost(t *testing.T, e *authentiktest.Env) string {
	t.Helper()
	l, _, err := e.Client.API.OutpostsAPI.OutpostsInstancesList(context.Background()).ManagedIexact("goauthentik.io/outposts/embedded").Execute()
	if err != nil || len(l.Results) != 1 {
		t.Fatalf("the embedded outpost: %v, %v", l, err)
	}
	return l.Results[0].Pk
}

// embeddedSAName is the username of the embedded outpost's service account.
func embeddedSAName(t *testing.T, e *authentiktest.Env) string {
	t.Helper()
	l, _, err := e.Client.API.CoreAPI.CoreUsersList(context.Background()).Type_([]api.UserTypeEnum{api.USERTYPEENUM_INTERNAL_SERVICE_ACCOUNT}).Execute()
	if err != nil || len(l.Results) != 1 {
		t.Fatalf("the embedded outpost's service account: %v, %v", l, err)
	}
	return l.Results[0].Username
}

func mustList(t *testing.T, e *authentiktest.Env) []*Object {
	t.Helper()
	objs, err := ListAuthentik(context.Background(), e.Client.API, Filter{Kinds: []string{"group"}, BuiltIn: true})
	if err != nil {
		t.Fatal(err)
	}
	return objs
}

// Filters authentik cannot answer and failed reads are errors: an import must never leave
// objects out quietly.
func TestAuthentikImportErrors(t *testing.T) {
	e, _ := akTree(t)
	cases := map[string]struct {
		filter Filter
		fault  *authentikapiserver.Fault
		want   string
	}{
		"Domain":       {filter: Filter{Domain: "team"}, want: errAkDomain},
		"KeystoneKind": {filter: Filter{Kinds: []string{"Project"}}, want: `--kind "Project" is not an authentik kind this command imports (Group, PropertyMapping, CertificateKeyPair, User, OAuth2Provider, SAMLProvider, ProxyProvider, LDAPProvider, Outpost, Application, Flow, Prompt, Stage, FlowStageBinding, Brand, Token, Policy, PolicyBinding)`},
		"ListFails": {fault: &authentikapiserver.Fault{Method: "GET", PathPrefix: "/providers/saml/", Status: 503},
			want: "cannot list authentik SAML providers"},
		"StagesFail": {filter: Filter{Kinds: []string{"Stage"}}, fault: &authentikapiserver.Fault{Method: "GET", PathPrefix: "/stages/password/", Status: 500},
			want: "cannot list authentik password stages"},
		"BindingsFail": {filter: Filter{Kinds: []string{"FlowStageBinding"}}, fault: &authentikapiserver.Fault{Method: "GET", PathPrefix: "/flows/bindings/", Status: 500},
			want: "cannot list authentik flow-stage bindings"},
		"FlowsFail": {fault: &authentikapiserver.Fault{Method: "GET", PathPrefix: "/flows/instances/", Status: 500},
			want: "cannot list authentik flows"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e.Server.ClearFaults()
			if tc.fault != nil {
				e.Server.InjectFault(*tc.fault)
			}
			_, err := ListAuthentik(context.Background(), e.Client.API, tc.filter)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("err = %v, want it to start with %q", err, tc.want)
			}
		})
	}
	e.Server.ClearFaults()
}
