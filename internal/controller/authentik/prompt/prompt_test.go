package prompt

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"

	"github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/authentikapiserver"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/authentiktest"
)

var kind = authentiktest.Kind[mr, Object]{GroupKind: v1alpha1.PromptGroupKind.String(), NewDriver: newDriver}

func newPrompt(p v1alpha1.PromptParameters) *v1alpha1.Prompt {
	return &v1alpha1.Prompt{ObjectMeta: metav1.ObjectMeta{Name: "p"}, Spec: v1alpha1.PromptSpec{ForProvider: p}}
}

func params() v1alpha1.PromptParameters {
	return v1alpha1.PromptParameters{Name: "e-user", FieldKey: "username", Label: "Username", Type: "username"}
}

func pkOf(t *testing.T, b []byte) string {
	t.Helper()
	m := map[string]any{}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m["pk"].(string)
}

// A prompt is created once, never written while in sync (authentik's defaults are not drift),
// and each change is one PATCH of the changed field only.
func TestPromptWritesOnlyWhatDiffers(t *testing.T) {
	cases := map[string]struct {
		change func(*v1alpha1.PromptParameters)
		want   string
	}{
		"label":       {change: func(p *v1alpha1.PromptParameters) { p.Label = "User name" }, want: `"label":"User name"`},
		"required":    {change: func(p *v1alpha1.PromptParameters) { p.Required = new(false) }, want: `"required":false`},
		"order":       {change: func(p *v1alpha1.PromptParameters) { p.Order = new(int32(-3)) }, want: `"order":-3`},
		"placeholder": {change: func(p *v1alpha1.PromptParameters) { p.Placeholder = new("you") }, want: `"placeholder":"you"`},
		"expression": {change: func(p *v1alpha1.PromptParameters) {
			p.InitialValue, p.InitialValueExpression = new("return 'x'"), new(true)
		}, want: `"initial_value_expression":true`},
		"sub text": {change: func(p *v1alpha1.PromptParameters) { p.SubText = new("line1\nline2") }, want: `"sub_text":"line1\nline2"`},
		"type":     {change: func(p *v1alpha1.PromptParameters) { p.Type = "text" }, want: `"type":"text"`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e := authentiktest.New(t)
			mg := newPrompt(params())
			if r, err := kind.Reconcile(e, mg); err != nil || !r.Created {
				t.Fatalf("first reconcile: want a create, got %+v, %v", r, err)
			}
			for range 2 {
				if r, err := kind.Reconcile(e, mg); err != nil || !r.Observation.ResourceUpToDate {
					t.Fatalf("reconcile in sync: want up to date, got %+v, %v", r, err)
				}
			}
			tc.change(&mg.Spec.ForProvider)
			e.Server.ResetCounts()
			if r, err := kind.Reconcile(e, mg); err != nil || !r.Updated {
				t.Fatalf("reconcile after a change: want an update, got %+v, %v", r, err)
			}
			if r, err := kind.Reconcile(e, mg); err != nil || !r.Observation.ResourceUpToDate {
				t.Fatalf("reconcile after the update: want up to date, got %+v, %v", r, err)
			}
			if diff := cmp.Diff(map[string]int{"PATCH /stages/prompt/prompts/{prompt_uuid}/": 1}, e.Writes()); diff != "" {
				t.Errorf("writes for one change: -want, +got:\n%s", diff)
			}
			if raw := string(e.Raw(t, "stages/prompt/prompts", meta.GetExternalName(mg))); !strings.Contains(raw, tc.want) {
				t.Errorf("want %s in %s", tc.want, raw)
			}
		})
	}
}

// A hand-made prompt with the name is left byte-identical under FailOnConflict and adopted
// (then managed) under AdoptExisting.
func TestPromptHandMade(t *testing.T) {
	e := authentiktest.New(t)
	pk := pkOf(t, e.Seed(t, "stages/prompt/prompts", map[string]any{"name": "e-user", "field_key": "username", "label": "Mine", "type": "text"}))
	before := e.Raw(t, "stages/prompt/prompts", pk)
	if _, err := kind.Reconcile(e, newPrompt(params())); err == nil {
		t.Fatal("FailOnConflict: want a conflict")
	}
	if after := e.Raw(t, "stages/prompt/prompts", pk); !bytes.Equal(before, after) {
		t.Errorf("hand-made prompt changed:\n%s\n%s", before, after)
	}
	mg := newPrompt(params())
	mg.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting
	if _, err := kind.Reconcile(e, mg); err != nil {
		t.Fatalf("AdoptExisting: %v", err)
	}
	if _, err := kind.Reconcile(e, mg); err != nil {
		t.Fatal(err)
	}
	if got := meta.GetExternalName(mg); got != pk {
		t.Errorf("adopted external name %q, want %q", got, pk)
	}
	if raw := string(e.Raw(t, "stages/prompt/prompts", pk)); !strings.Contains(raw, `"label":"Username"`) {
		t.Errorf("adopted prompt not brought to the spec: %s", raw)
	}
	if mg.Status.AtProvider.Provenance != identityv1alpha1.Adopted {
		t.Errorf("provenance %q, want Adopted", mg.Status.AtProvider.Provenance)
	}
}

// Every call's failure names the prompt; a spec that breaks authentik's rules writes nothing.
func TestPromptFailures(t *testing.T) {
	cases := map[string]struct {
		spec         func() v1alpha1.PromptParameters
		method, path string
		existing     bool
		want         string
	}{
		"list":      {spec: params, method: "GET", path: "/stages/prompt/prompts/", want: `cannot look up authentik prompts named "e-user"`},
		"create":    {spec: params, method: "POST", path: "/stages/prompt/prompts/", want: `cannot create authentik prompt "e-user"`},
		"retrieve":  {spec: params, method: "GET", path: "/stages/prompt/prompts/", existing: true, want: "cannot read authentik prompt"},
		"patch":     {spec: func() v1alpha1.PromptParameters { p := params(); p.Label = "Other"; return p }, method: "PATCH", path: "/stages/prompt/prompts/", existing: true, want: `cannot update authentik prompt "e-user"`},
		"bad name":  {spec: func() v1alpha1.PromptParameters { p := params(); p.Name = " e"; return p }, want: "spec.forProvider.name"},
		"bad key":   {spec: func() v1alpha1.PromptParameters { p := params(); p.FieldKey = "user name"; return p }, want: "spec.forProvider.fieldKey"},
		"bad label": {spec: func() v1alpha1.PromptParameters { p := params(); p.Label = "a\tb"; return p }, want: "spec.forProvider.label"},
		"bad text":  {spec: func() v1alpha1.PromptParameters { p := params(); p.SubText = new("\x1b"); return p }, want: "spec.forProvider.subText"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e := authentiktest.New(t)
			mg := newPrompt(params())
			if tc.existing {
				if _, err := kind.Reconcile(e, mg); err != nil {
					t.Fatal(err)
				}
			}
			mg.Spec.ForProvider = tc.spec()
			if tc.path != "" {
				e.Server.InjectFault(authentikapiserver.Fault{Method: tc.method, PathPrefix: tc.path, Status: 503})
			}
			before := e.Writes()
			_, err := kind.Reconcile(e, mg)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("want an error with %q, got %v", tc.want, err)
			}
			if diff := cmp.Diff(before, e.Writes()); diff != "" && tc.method != "POST" && tc.method != "PATCH" {
				t.Errorf("writes: -before, +after:\n%s", diff)
			}
		})
	}
}

// A prompt's deletion is refused while a prompt stage shows it; the stage is named, and a
// failure to list the stages is an error naming the prompt.
func TestPromptDependents(t *testing.T) {
	e := authentiktest.New(t)
	mg := newPrompt(params())
	if _, err := kind.Reconcile(e, mg); err != nil {
		t.Fatal(err)
	}
	pk := meta.GetExternalName(mg)
	e.Seed(t, "stages/prompt/stages", map[string]any{"name": "e-enroll", "fields": []any{pk}})
	if _, err := kind.Reconcile(e, mg); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"e-enroll"}, mg.Status.AtProvider.Stages); diff != "" {
		t.Errorf("status stages: -want, +got:\n%s", diff)
	}
	o, err := newDriver(e.Client).Get(e.Ctx, mg, pk)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := newDriver(e.Client).(*external).Dependents(e.Ctx, mg, o)
	if err != nil || len(ds) != 1 || ds[0].Key != "e-enroll" || ds[0].ExternalName == "" {
		t.Fatalf("dependents: want the prompt stage e-enroll, got %+v, %v", ds, err)
	}
	if err := kind.Delete(e, mg); err == nil {
		t.Error("delete while a prompt stage shows it: want it refused")
	}
	e.Raw(t, "stages/prompt/prompts", pk) // still there
	e.Server.InjectFault(authentikapiserver.Fault{PathPrefix: "/stages/prompt/stages/", Status: 503, Times: 1})
	if _, err := newDriver(e.Client).(*external).Dependents(e.Ctx, mg, o); err == nil || !strings.Contains(err.Error(), "e-user") {
		t.Errorf("failing list: want an error naming the prompt, got %v", err)
	}
	e.Server.ClearFaults()
	// Without dependents the prompt goes.
	e2 := authentiktest.New(t)
	gone := newPrompt(params())
	if _, err := kind.Reconcile(e2, gone); err != nil {
		t.Fatal(err)
	}
	if err := kind.Delete(e2, gone); err != nil {
		t.Errorf("delete without dependents: %v", err)
	}
}
