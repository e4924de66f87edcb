package importer

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-identity/internal/authentikapiserver"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/authentiktest"
)

const wantAkPromptStage = `# Written by kubectl identity import from authentik prompt stage "enroll-form" (pk <form>).
# ` + noteMarkerless + `
apiVersion: authentik.identity.m.crossplane.io/v1alpha1
kind: Stage
metadata:
  annotations:
    crossplane.io/external-name: <form>
  name: enroll-form
  namespace: team-x
spec:
  forProvider:
    name: enroll-form
    prompt:
      promptRefs:
      - name: enroll-email
      - name: enroll-user
      validationPolicyIds:
      - <policy>
  managementPolicies:
  - Observe
  providerConfigRef:
    kind: ClusterProviderConfig
    name: authentik
`

const wantAkPrompt = `# Written by kubectl identity import from authentik prompt "enroll-email" (pk <email>).
# ` + notePromptMarkerless + `
apiVersion: authentik.identity.m.crossplane.io/v1alpha1
kind: Prompt
metadata:
  annotations:
    crossplane.io/external-name: <email>
  name: enroll-email
  namespace: team-x
spec:
  forProvider:
    fieldKey: email
    initialValue: ""
    initialValueExpression: false
    label: Email
    name: enroll-email
    order: 2
    placeholder: ""
    placeholderExpression: false
    required: false
    subText: ""
    type: email
  managementPolicies:
  - Observe
  providerConfigRef:
    kind: ClusterProviderConfig
    name: authentik
`

// Prompts are imported; a prompt stage refers to the imported prompts by reference and to
// policies (not imported) by UUID; a user write stage to its imported group, a validation
// stage to a configuration stage left out (built in) by UUID. authentik's own prompts are left
// out unless asked.
func TestAuthentikImportPromptStages(t *testing.T) {
	e := authentiktest.New(t)
	ids := map[string]string{}
	ids["user"] = akSeed(t, e, "stages/prompt/prompts", map[string]any{"name": "enroll-user", "field_key": "username", "label": "Username", "type": "username", "order": 1})
	ids["email"] = akSeed(t, e, "stages/prompt/prompts", map[string]any{"name": "enroll-email", "field_key": "email", "label": "Email", "type": "email", "order": 2, "required": false})
	ids["builtin"] = akSeed(t, e, "stages/prompt/prompts", map[string]any{"name": "default-source-enrollment-field-username", "field_key": "username", "label": "Username", "type": "username"})
	ids["policy"] = akSeed(t, e, "policies/expression", map[string]any{"name": "enroll-check", "expression": "return True"})
	ids["form"] = akSeed(t, e, "stages/prompt/stages", map[string]any{"name": "enroll-form", "fields": []any{ids["user"], ids["email"]}, "validation_policies": []any{ids["policy"]}})
	ids["group"] = akSeed(t, e, "core/groups", map[string]any{"name": "enrolled"})
	ids["write"] = akSeed(t, e, "stages/user_write", map[string]any{"name": "enroll-write", "create_users_group": ids["group"], "user_type": "internal"})
	ids["cfg"] = akSeed(t, e, "stages/deny", map[string]any{"name": "default-cfg"})
	ids["mfa"] = akSeed(t, e, "stages/authenticator/validate", map[string]any{"name": "enroll-mfa", "device_classes": []any{"totp"},
		"not_configured_action": "configure", "configuration_stages": []any{ids["cfg"]}})
	hide := func(s string) string {
		for k, v := range ids {
			s = strings.ReplaceAll(s, v, "<"+k+">")
		}
		return s
	}
	objs, err := ListAuthentik(context.Background(), e.Client.API, Filter{Kinds: []string{"Prompt", "Stage", "Group"}})
	if err != nil {
		t.Fatal(err)
	}
	p, err := Build(objs, Target{Namespace: "team-x", Mode: ModeObserve, Installation: "mine",
		ProviderConfigRef: &xpv2.ProviderConfigReference{Kind: "ClusterProviderConfig", Name: "authentik"}})
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, f := range p.Files {
		files[f.Name] = hide(string(f.Data))
	}
	if diff := cmp.Diff(wantAkPromptStage, files["stage-enroll-form.yaml"]); diff != "" {
		t.Errorf("prompt stage (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantAkPrompt, files["prompt-enroll-email.yaml"]); diff != "" {
		t.Errorf("prompt (-want +got):\n%s", diff)
	}
	for file, want := range map[string]string{
		"stage-enroll-write.yaml": "createUsersGroupRef:\n        name: enrolled\n",
		"stage-enroll-mfa.yaml":   "configurationStageIds:\n      - <cfg>\n",
	} {
		if !strings.Contains(files[file], want) {
			t.Errorf("%s: want %q in\n%s", file, want, files[file])
		}
	}
	if _, ok := files["prompt-default-source-enrollment-field-username.yaml"]; ok {
		t.Error("authentik's own prompt imported without --include-builtin")
	}
	for _, s := range p.Skipped {
		if strings.Contains(s.Describe, "enroll-") {
			t.Errorf("skipped %+v", s)
		}
	}

	// A failing prompt or prompt stage list is an error naming what was listed.
	for path, want := range map[string]string{"/stages/prompt/prompts/": "prompts", "/stages/prompt/stages/": "prompt stages",
		"/stages/user_write/": "user write stages", "/stages/authenticator/validate/": "authenticator validation stages"} {
		e.Server.InjectFault(authentikapiserver.Fault{Method: "GET", PathPrefix: path, Status: 503})
		if _, err := ListAuthentik(context.Background(), e.Client.API, Filter{Kinds: []string{"Prompt", "Stage"}}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("failing %s: want an error naming %s, got %v", path, want, err)
		}
		e.Server.ClearFaults()
	}
}
