package importer

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/authentiktest"
)

// seededFlows are the flows a fresh authentik (and the API server) has, by name and slug:
// built-in, so left out unless asked.
var seededFlows = [][2]string{
	{"Welcome to authentik!", "default-authentication-flow"}, {"Logout", "default-invalidation-flow"},
	{"Authorize Application", "default-provider-authorization-explicit-consent"},
	{"Authorize Application", "default-provider-authorization-implicit-consent"},
	{"Logout", "default-provider-invalidation-flow"}, {"Welcome to authentik!", "default-source-authentication"},
	{"Welcome to authentik! Please select a username.", "default-source-enrollment"},
	{"User settings", "default-user-settings-flow"}, {"Change Password", "default-password-change"},
}

func seededFlowSkips() []Skip {
	out := make([]Skip, 0, len(seededFlows))
	for _, f := range seededFlows {
		out = append(out, Skip{Kind: "Flow", Describe: describeAk("flow", f[0], "slug", f[1]), Reason: skipBuiltInFlow})
	}
	return out
}

// akFlowTree is a hand-made login flow: an identification stage that shows a password stage,
// that password stage, a deny, a consent and a logout stage, bindings of the first two and of
// authentik's own login stage into the flow, and a binding of the deny stage into authentik's
// default authentication flow.
func akFlowTree(t *testing.T) (*authentiktest.Env, map[string]string) {
	e := authentiktest.New(t)
	ids := map[string]string{}
	ids["login"] = akSeed(t, e, "flows/instances", map[string]any{"slug": "login", "name": "Login", "title": "Welcome", "designation": "authentication"})
	ids["login-password"] = akSeed(t, e, "stages/password", map[string]any{"name": "login-password",
		"backends": []any{"authentik.core.auth.TokenBackend", "authentik.core.auth.InbuiltBackend"}})
	ids["login-id"] = akSeed(t, e, "stages/identification", map[string]any{"name": "login-id", "user_fields": []any{"username", "email"},
		"password_stage": ids["login-password"], "enrollment_flow": flowPK(t, e, "default-source-enrollment")})
	ids["login-deny"] = akSeed(t, e, "stages/deny", map[string]any{"name": "login-deny", "deny_message": "Go away"})
	ids["login-consent"] = akSeed(t, e, "stages/consent", map[string]any{"name": "login-consent", "mode": "expiring"})
	ids["logout"] = akSeed(t, e, "stages/user_logout", map[string]any{"name": "logout"})
	ids["builtin-login"] = akSeed(t, e, "stages/user_login", map[string]any{"name": "default-authentication-login"})
	for i, s := range []string{"login-id", "login-password", "builtin-login"} {
		ids["bind-"+s] = akSeed(t, e, "flows/bindings", map[string]any{"target": ids["login"], "stage": ids[s], "order": json.Number([]string{"10", "20", "100"}[i])})
	}
	ids["bind-default"] = akSeed(t, e, "flows/bindings", map[string]any{"target": flowPK(t, e, "default-authentication-flow"), "stage": ids["login-deny"], "order": json.Number("5")})
	return e, ids
}

// flowPK is the pk of the flow with the slug.
func flowPK(t *testing.T, e *authentiktest.Env, slug string) string {
	t.Helper()
	var f map[string]any
	if err := json.Unmarshal(e.Raw(t, "flows/instances", slug), &f); err != nil {
		t.Fatal(err)
	}
	return f["pk"].(string)
}

const (
	wantAkStageLoginID = `# Written by kubectl identity import from authentik identification stage "login-id" (pk <login-id>).
# ` + noteMarkerless + `
apiVersion: authentik.identity.m.crossplane.io/v1alpha1
kind: Stage
metadata:
  annotations:
    crossplane.io/external-name: <login-id>
  name: login-id
  namespace: team-x
spec:
  forProvider:
    identification:
      caseInsensitiveMatching: true
      enableRememberMe: false
      enrollmentFlow: default-source-enrollment
      passwordStage: login-password
      pretendUserExists: true
      showMatchedUser: true
      showSourceLabels: false
      userFields:
      - email
      - username
    name: login-id
  managementPolicies:
  - Observe
  providerConfigRef:
    kind: ClusterProviderConfig
    name: authentik
`
	wantAkFlowLogin = `# Written by kubectl identity import from authentik flow "Login" (slug login).
# ` + noteMarkerless + `
apiVersion: authentik.identity.m.crossplane.io/v1alpha1
kind: Flow
metadata:
  annotations:
    crossplane.io/external-name: login
  name: login
  namespace: team-x
spec:
  adoptionPolicy: AdoptExisting
  forProvider:
    authentication: none
    compatibilityMode: false
    deniedAction: message_continue
    designation: authentication
    layout: stacked
    name: Login
    policyEngineMode: any
    slug: login
    title: Welcome
  providerConfigRef:
    kind: ClusterProviderConfig
    name: authentik
`
	// The password stage is managed by a resource of the namespace: referenced by it.
	wantAkBindingPassword = `# Written by kubectl identity import from authentik flow-stage binding of stage "login-password" into flow "login" at order 20 (pk <bind-login-password>).
# ` + noteMarkerless + `
apiVersion: authentik.identity.m.crossplane.io/v1alpha1
kind: FlowStageBinding
metadata:
  annotations:
    crossplane.io/external-name: <bind-login-password>
  name: login-login-password
  namespace: team-x
spec:
  forProvider:
    evaluateOnPlan: false
    flowRef:
      name: login
    invalidResponseAction: retry
    order: 20
    policyEngineMode: any
    reEvaluatePolicies: true
    stageRef:
      name: pw-already
  managementPolicies:
  - Observe
  providerConfigRef:
    kind: ClusterProviderConfig
    name: authentik
`
	// authentik's own login stage is not imported: named by its UUID.
	wantAkBindingBuiltIn = `# Written by kubectl identity import from authentik flow-stage binding of stage "default-authentication-login" into flow "login" at order 100 (pk <bind-builtin-login>).
# ` + noteMarkerless + `
apiVersion: authentik.identity.m.crossplane.io/v1alpha1
kind: FlowStageBinding
metadata:
  annotations:
    crossplane.io/external-name: <bind-builtin-login>
  name: login-default-authentication-login
  namespace: team-x
spec:
  forProvider:
    evaluateOnPlan: false
    flowRef:
      name: login
    invalidResponseAction: retry
    order: 100
    policyEngineMode: any
    reEvaluatePolicies: true
    stageId: <builtin-login>
  managementPolicies:
  - Observe
  providerConfigRef:
    kind: ClusterProviderConfig
    name: authentik
`
	// Without the flow's resource the binding names the flow by slug.
	wantAkBindingAlone = `# Written by kubectl identity import from authentik flow-stage binding of stage "login-id" into flow "login" at order 10 (pk <bind-login-id>).
# ` + noteMarkerless + `
apiVersion: authentik.identity.m.crossplane.io/v1alpha1
kind: FlowStageBinding
metadata:
  annotations:
    crossplane.io/external-name: <bind-login-id>
  name: login-login-id
  namespace: team-x
spec:
  adoptionPolicy: AdoptExisting
  forProvider:
    evaluateOnPlan: false
    flow: login
    invalidResponseAction: retry
    order: 10
    policyEngineMode: any
    reEvaluatePolicies: true
    stageRef:
      name: login-id
`
)

func TestAuthentikImportFlows(t *testing.T) {
	pc := &xpv2.ProviderConfigReference{Kind: "ClusterProviderConfig", Name: "authentik"}
	flowKinds := []string{"Flow", "Stage", "FlowStageBinding"}
	builtInStage := Skip{Kind: "Stage", Describe: `authentik user login stage "default-authentication-login" (pk <builtin-login>)`, Reason: skipBuiltInFlow}
	builtInBinding := Skip{Kind: "FlowStageBinding", Describe: `authentik flow-stage binding of stage "login-deny" into flow "default-authentication-flow" at order 5 (pk <bind-default>)`,
		Reason: `binds into flow "default-authentication-flow", which authentik ships: left out; pass --include-builtin to import it`}
	claimedStage := Skip{Kind: "Stage", Describe: `authentik password stage "login-password" (pk <login-password>)`,
		Reason: "is already managed by Stage team-x/pw-already in the cluster: skipped"}
	files := []string{"flow-login.yaml", "flowstagebinding-login-default-authentication-login.yaml", "flowstagebinding-login-login-id.yaml",
		"flowstagebinding-login-login-password.yaml", "stage-login-consent.yaml", "stage-login-deny.yaml", "stage-login-id.yaml", "stage-logout.yaml"}
	cases := map[string]struct {
		filter    Filter
		target    Target
		wantFiles []string
		wantSkips []Skip
		wantText  map[string]string
	}{
		"Observe": {
			filter: Filter{Kinds: flowKinds},
			target: Target{Namespace: "team-x", Mode: ModeObserve, ProviderConfigRef: pc, Installation: "mine",
				Claimed: map[string]map[string]string{"Stage": {"<login-password>": "team-x/pw-already"}}},
			wantFiles: files,
			wantSkips: append(seededFlowSkips(), builtInStage, builtInBinding, claimedStage),
			wantText: map[string]string{"stage-login-id.yaml": wantAkStageLoginID, "flowstagebinding-login-login-password.yaml": wantAkBindingPassword,
				"flowstagebinding-login-default-authentication-login.yaml": wantAkBindingBuiltIn},
		},
		"AdoptFlow": {
			filter:    Filter{Kinds: []string{"flow"}, Name: "log*"},
			target:    Target{Namespace: "team-x", Mode: ModeAdopt, ProviderConfigRef: pc, Installation: "mine"},
			wantFiles: []string{"flow-login.yaml"},
			wantText:  map[string]string{"flow-login.yaml": wantAkFlowLogin},
		},
		"BindingsAndStagesOnly": {
			filter:    Filter{Kinds: []string{"Stage", "FlowStageBinding"}, Name: "login-*"},
			target:    Target{Namespace: "team-x", Mode: ModeAdopt, Installation: "mine"},
			wantFiles: []string{"flowstagebinding-login-default-authentication-login.yaml", "flowstagebinding-login-login-id.yaml", "flowstagebinding-login-login-password.yaml", "stage-login-consent.yaml", "stage-login-deny.yaml", "stage-login-id.yaml", "stage-login-password.yaml"},
			wantText:  map[string]string{"flowstagebinding-login-login-id.yaml": wantAkBindingAlone},
		},
		"IncludeBuiltIn": {
			filter:    Filter{Kinds: []string{"Stage", "FlowStageBinding"}, Name: "default-*", BuiltIn: true},
			target:    Target{Namespace: "team-x", Mode: ModeObserve, Installation: "mine"},
			wantFiles: []string{"flowstagebinding-default-authentication-flow-login-deny.yaml", "stage-default-authentication-login.yaml"},
		},
	}
	e, ids := akFlowTree(t)
	pairs := make([]string, 0, 2*len(ids))
	for k, v := range ids {
		pairs = append(pairs, "<"+k+">", v)
	}
	fill := strings.NewReplacer(pairs...)
	hide := func(s string) string {
		for k, v := range ids {
			s = strings.ReplaceAll(s, v, "<"+k+">")
		}
		return s
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			for k, m := range tc.target.Claimed {
				filled := map[string]string{}
				for id, r := range m {
					filled[fill.Replace(id)] = r
				}
				tc.target.Claimed[k] = filled
			}
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
				if diff := cmp.Diff(tc.wantFiles, names); diff != "" {
					t.Errorf("run %d: files (-want +got):\n%s", run, diff)
				}
				for i := range p.Skipped {
					p.Skipped[i].Describe = hide(p.Skipped[i].Describe)
				}
				want := slices.Clone(tc.wantSkips)
				slices.SortFunc(want, func(a, b Skip) int { return strings.Compare(a.Kind+"\x00"+a.Describe, b.Kind+"\x00"+b.Describe) })
				if diff := cmp.Diff(want, p.Skipped, cmpopts.EquateEmpty()); diff != "" {
					t.Errorf("run %d: skipped (-want +got):\n%s", run, diff)
				}
			}
		})
	}
}
