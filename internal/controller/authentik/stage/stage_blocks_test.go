package stage

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"

	"github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/authentikapiserver"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/authentiktest"
)

// seeded are the objects the new blocks name, made by hand in authentik.
type seeded struct{ prompt, prompt2, policy, group, cfgStage string }

func seed(t *testing.T, e *authentiktest.Env) seeded {
	t.Helper()
	pk := func(b []byte) string { return decode(t, b)["pk"].(string) }
	return seeded{
		prompt:   pk(e.Seed(t, "stages/prompt/prompts", map[string]any{"name": "e-p1", "field_key": "username", "label": "Username", "type": "username"})),
		prompt2:  pk(e.Seed(t, "stages/prompt/prompts", map[string]any{"name": "e-p2", "field_key": "email", "label": "Email", "type": "email"})),
		policy:   pk(e.Seed(t, "policies/expression", map[string]any{"name": "e-pol", "expression": "return True"})),
		group:    pk(e.Seed(t, "core/groups", map[string]any{"name": "e-g"})),
		cfgStage: pk(e.Seed(t, "stages/deny", map[string]any{"name": "e-cfg"})),
	}
}

// The authenticator validation, user write and prompt blocks: created once through their own
// endpoint, in sync afterwards (names and IDs resolved, lists compared as sets), one PATCH
// per change.
func TestStageBlocksWriteOnlyWhatDiffers(t *testing.T) {
	cases := map[string]struct {
		spec   func(s seeded) v1alpha1.StageParameters
		path   string
		change func(s seeded, p *v1alpha1.StageParameters)
		want   func(s seeded) string
	}{
		"authenticatorValidation": {
			spec: func(s seeded) v1alpha1.StageParameters {
				return v1alpha1.StageParameters{Name: "e-mfa", AuthenticatorValidation: &v1alpha1.AuthenticatorValidationStage{
					DeviceClasses: []string{"webauthn", "totp"}, NotConfiguredAction: new("configure"),
					ConfigurationStages: []string{"e-cfg"}, LastAuthThreshold: new("hours=1"),
					WebAuthnHints: []string{"security-key"}, OTPThrottling: &v1alpha1.OTPThrottling{TOTP: new("0.5")},
				}}
			},
			path: "stages/authenticator/validate",
			// Changing the action alone still carries the configuration stages authentik checks.
			change: func(_ seeded, p *v1alpha1.StageParameters) {
				p.AuthenticatorValidation.NotConfiguredAction = new("deny")
				p.AuthenticatorValidation.DeviceClasses = []string{"totp", "webauthn", "static"}
			},
			want: func(s seeded) string { return `"not_configured_action":"deny"` },
		},
		"userWrite": {
			spec: func(s seeded) v1alpha1.StageParameters {
				return v1alpha1.StageParameters{Name: "e-write", UserWrite: &v1alpha1.UserWriteStage{
					UserCreationMode: new("always_create"), CreateUsersGroupID: new(s.group), UserType: new("internal"),
				}}
			},
			path:   "stages/user_write",
			change: func(_ seeded, p *v1alpha1.StageParameters) { p.UserWrite.CreateUsersGroupID = new("") },
			want:   func(s seeded) string { return `"create_users_group":null` },
		},
		"prompt": {
			spec: func(s seeded) v1alpha1.StageParameters {
				return v1alpha1.StageParameters{Name: "e-prompt", Prompt: &v1alpha1.PromptStage{
					Prompts: []string{"e-p1"}, PromptIDs: []string{s.prompt2, s.prompt}, ValidationPolicies: []string{"e-pol"},
				}}
			},
			path:   "stages/prompt/stages",
			change: func(s seeded, p *v1alpha1.StageParameters) { p.Prompt.PromptIDs = nil },
			want:   func(s seeded) string { return `"fields":["` + s.prompt + `"]` },
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e := authentiktest.New(t)
			s := seed(t, e)
			mg := newStage(tc.spec(s))
			if r, err := kind.Reconcile(e, mg); err != nil || !r.Created {
				t.Fatalf("first reconcile: want a create, got %+v, %v", r, err)
			}
			for range 2 {
				if r, err := kind.Reconcile(e, mg); err != nil || !r.Observation.ResourceUpToDate {
					t.Fatalf("reconcile in sync: want up to date, got %+v, %v", r, err)
				}
			}
			if diff := cmp.Diff(map[string]int{"POST /" + tc.path + "/": 1}, e.Writes()); diff != "" {
				t.Errorf("writes: -want, +got:\n%s", diff)
			}
			tc.change(s, &mg.Spec.ForProvider)
			e.Server.ResetCounts()
			if r, err := kind.Reconcile(e, mg); err != nil || !r.Updated {
				t.Fatalf("reconcile after a change: want an update, got %+v, %v", r, err)
			}
			if r, err := kind.Reconcile(e, mg); err != nil || !r.Observation.ResourceUpToDate {
				t.Fatalf("reconcile after the update: want up to date, got %+v, %v", r, err)
			}
			if diff := cmp.Diff(map[string]int{"PATCH /" + tc.path + "/{stage_uuid}/": 1}, e.Writes()); diff != "" {
				t.Errorf("writes for one change: -want, +got:\n%s", diff)
			}
			if raw := string(e.Raw(t, tc.path, meta.GetExternalName(mg))); !strings.Contains(raw, tc.want(s)) {
				t.Errorf("want %s in %s", tc.want(s), raw)
			}
		})
	}
}

// A missing name, a selector that found nothing, a bad throttling factor or a failing lookup is
// an error naming what to fix, and nothing is written.
func TestStageBlockFailures(t *testing.T) {
	prompt := func(p *v1alpha1.PromptStage) v1alpha1.StageParameters {
		return v1alpha1.StageParameters{Name: "e-prompt", Prompt: p}
	}
	cases := map[string]struct {
		spec         v1alpha1.StageParameters
		method, path string
		want         string
	}{
		"missing prompt":  {spec: prompt(&v1alpha1.PromptStage{Prompts: []string{"e-nope"}}), want: `prompt "e-nope", named in spec.forProvider.prompt.prompts`},
		"missing policy":  {spec: prompt(&v1alpha1.PromptStage{Prompts: []string{"e-p1"}, ValidationPolicies: []string{"e-nope"}}), want: `policy "e-nope"`},
		"no prompts":      {spec: prompt(&v1alpha1.PromptStage{PromptIDs: []string{}}), want: "shows no prompt"},
		"prompt lookup":   {spec: prompt(&v1alpha1.PromptStage{Prompts: []string{"e-p1"}}), method: "GET", path: "/stages/prompt/prompts/", want: `cannot look up the prompt named "e-p1"`},
		"policy lookup":   {spec: prompt(&v1alpha1.PromptStage{Prompts: []string{"e-p1"}, ValidationPolicies: []string{"e-pol"}}), method: "GET", path: "/policies/all/", want: `cannot look up the policy named "e-pol"`},
		"bad prompt id":   {spec: prompt(&v1alpha1.PromptStage{PromptIDs: []string{"nope"}}), want: "spec.forProvider.prompt.promptIds"},
		"missing cfg":     {spec: v1alpha1.StageParameters{Name: "e-mfa", AuthenticatorValidation: &v1alpha1.AuthenticatorValidationStage{ConfigurationStages: []string{"e-nope"}}}, want: `stage "e-nope"`},
		"bad throttling":  {spec: v1alpha1.StageParameters{Name: "e-mfa", AuthenticatorValidation: &v1alpha1.AuthenticatorValidationStage{OTPThrottling: &v1alpha1.OTPThrottling{SMS: new("x")}}}, want: "otpThrottling.sms"},
		"bad group id":    {spec: v1alpha1.StageParameters{Name: "e-w", UserWrite: &v1alpha1.UserWriteStage{CreateUsersGroupID: new("g")}}, want: "createUsersGroupId"},
		"create refused":  {spec: v1alpha1.StageParameters{Name: "e-w", UserWrite: &v1alpha1.UserWriteStage{}}, method: "POST", path: "/stages/user_write/", want: `cannot create authentik userWrite stage "e-w"`},
		"bad path tmpl":   {spec: v1alpha1.StageParameters{Name: "e-w", UserWrite: &v1alpha1.UserWriteStage{UserPathTemplate: new("a\nb")}}, want: "userPathTemplate"},
		"bad policy name": {spec: prompt(&v1alpha1.PromptStage{Prompts: []string{"e-p1"}, ValidationPolicies: []string{" x"}}), want: "prompt.validationPolicies"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e := authentiktest.New(t)
			seed(t, e)
			if tc.path != "" {
				e.Server.InjectFault(authentikapiserver.Fault{Method: tc.method, PathPrefix: tc.path, Status: 503})
			}
			before := e.Writes()
			_, err := kind.Reconcile(e, newStage(tc.spec))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("want an error with %q, got %v", tc.want, err)
			}
			if diff := cmp.Diff(before, e.Writes()); diff != "" && tc.method != "POST" {
				t.Errorf("writes: -before, +after:\n%s", diff)
			}
		})
	}
}

// A stage offered as a configuration stage is a dependent: deleting it would take it out of
// the validation stage's list. Failures to list are errors naming the stage.
func TestStageConfigurationDependents(t *testing.T) {
	e := authentiktest.New(t)
	s := seed(t, e)
	mg := newStage(v1alpha1.StageParameters{Name: "e-cfg2", Deny: &v1alpha1.DenyStage{}})
	if _, err := kind.Reconcile(e, mg); err != nil {
		t.Fatal(err)
	}
	pk := meta.GetExternalName(mg)
	e.Seed(t, "stages/authenticator/validate", map[string]any{"name": "e-mfa", "configuration_stages": []any{pk, s.cfgStage}})
	o, err := newDriver(e.Client).Get(e.Ctx, mg, pk)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := newDriver(e.Client).(*external).Dependents(e.Ctx, mg, o)
	if err != nil || len(ds) != 1 || ds[0].Key != "e-mfa" {
		t.Fatalf("dependents: want the validation stage e-mfa, got %+v, %v", ds, err)
	}
	if err := kind.Delete(e, mg); err == nil {
		t.Error("delete with a validation stage using it: want it refused")
	}
	e.Server.InjectFault(authentikapiserver.Fault{PathPrefix: "/stages/authenticator/validate/", Status: 503, Times: 1})
	if _, err := newDriver(e.Client).(*external).Dependents(e.Ctx, mg, o); err == nil || !strings.Contains(err.Error(), "e-cfg2") {
		t.Errorf("failing list: want an error naming the stage, got %v", err)
	}
}
