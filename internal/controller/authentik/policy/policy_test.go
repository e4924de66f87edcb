package policy

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"

	"github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/authentikapiserver"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/authentiktest"
)

var kind = authentiktest.Kind[mr, Object]{GroupKind: v1alpha1.PolicyGroupKind.String(), NewDriver: newDriver}

func newPolicy(p v1alpha1.PolicyParameters) *v1alpha1.Policy {
	return &v1alpha1.Policy{ObjectMeta: metav1.ObjectMeta{Name: "p"}, Spec: v1alpha1.PolicySpec{ForProvider: p}}
}

func decode(t *testing.T, b []byte) map[string]any {
	t.Helper()
	m := map[string]any{}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// Each type is created through its own endpoint, written once, never again while in sync
// (server defaults are not drift), and a change is one PATCH.
func TestPolicyTypesWriteOnlyWhatDiffers(t *testing.T) {
	cases := map[string]struct {
		spec   v1alpha1.PolicyParameters
		path   string
		change func(*v1alpha1.PolicyParameters)
		want   string
	}{
		"expression": {
			spec:   v1alpha1.PolicyParameters{Name: "e-expr", Expression: &v1alpha1.ExpressionPolicy{Expression: "return True"}},
			path:   "policies/expression",
			change: func(p *v1alpha1.PolicyParameters) { p.Expression.Expression = "return False" },
			want:   `"expression":"return False"`,
		},
		"password": {
			spec: v1alpha1.PolicyParameters{Name: "e-pw", Password: &v1alpha1.PasswordPolicy{
				LengthMin: new(int32(12)), CheckZxcvbn: new(true), ErrorMessage: new("too weak")}},
			path:   "policies/password",
			change: func(p *v1alpha1.PolicyParameters) { p.Password.AmountDigits = new(int32(2)) },
			want:   `"amount_digits":2`,
		},
		// authentik validates the checks from the request: a threshold-only change carries them.
		"reputation": {
			spec:   v1alpha1.PolicyParameters{Name: "e-rep", Reputation: &v1alpha1.ReputationPolicy{CheckIP: new(false)}},
			path:   "policies/reputation",
			change: func(p *v1alpha1.PolicyParameters) { p.Reputation.Threshold = new(int32(-10)) },
			want:   `"threshold":-10`,
		},
		"eventMatcher": {
			spec:   v1alpha1.PolicyParameters{Name: "e-em", EventMatcher: &v1alpha1.EventMatcherPolicy{Action: new("login_failed"), App: new("authentik.core")}},
			path:   "policies/event_matcher",
			change: func(p *v1alpha1.PolicyParameters) { p.EventMatcher.App = new("") },
			want:   `"app":null`,
		},
		"passwordExpiry": {
			spec:   v1alpha1.PolicyParameters{Name: "e-exp", PasswordExpiry: &v1alpha1.PasswordExpiryPolicy{Days: 90}},
			path:   "policies/password_expiry",
			change: func(p *v1alpha1.PolicyParameters) { p.ExecutionLogging = new(true) },
			want:   `"execution_logging":true`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e := authentiktest.New(t)
			mg := newPolicy(tc.spec)
			if r, err := kind.Reconcile(e, mg); err != nil || !r.Created {
				t.Fatalf("first reconcile: want a create, got %+v, %v", r, err)
			}
			if r, err := kind.Reconcile(e, mg); err != nil || !r.Observation.ResourceUpToDate {
				t.Fatalf("reconcile in sync: want up to date, got %+v, %v", r, err)
			}
			if diff := cmp.Diff(map[string]int{"POST /" + tc.path + "/": 1}, e.Writes()); diff != "" {
				t.Errorf("writes: -want, +got:\n%s", diff)
			}
			tc.change(&mg.Spec.ForProvider)
			e.Server.ResetCounts()
			if r, err := kind.Reconcile(e, mg); err != nil || !r.Updated {
				t.Fatalf("reconcile after a change: want an update, got %+v, %v", r, err)
			}
			if r, err := kind.Reconcile(e, mg); err != nil || !r.Observation.ResourceUpToDate {
				t.Fatalf("reconcile after the update: want up to date, got %+v, %v", r, err)
			}
			if diff := cmp.Diff(map[string]int{"PATCH /" + tc.path + "/{policy_uuid}/": 1}, e.Writes()); diff != "" {
				t.Errorf("writes for one change: -want, +got:\n%s", diff)
			}
			if raw := string(e.Raw(t, tc.path, meta.GetExternalName(mg))); !strings.Contains(raw, tc.want) {
				t.Errorf("want %s in %s", tc.want, raw)
			}
		})
	}
}

// A hand-made policy with the name is left byte-identical; one of another type is an error
// saying so, since names are unique across policy types.
func TestPolicyHandMadeLeftAlone(t *testing.T) {
	e := authentiktest.New(t)
	pk := decode(t, e.Seed(t, "policies/expression", map[string]any{"name": "e-mine", "expression": "return True"}))["pk"].(string)
	before := e.Raw(t, "policies/expression", pk)
	if _, err := kind.Reconcile(e, newPolicy(v1alpha1.PolicyParameters{Name: "e-mine", Expression: &v1alpha1.ExpressionPolicy{Expression: "return False"}})); err == nil {
		t.Fatal("same type: want a conflict")
	}
	_, err := kind.Reconcile(e, newPolicy(v1alpha1.PolicyParameters{Name: "e-mine", PasswordExpiry: &v1alpha1.PasswordExpiryPolicy{Days: 1}}))
	if err == nil || !strings.Contains(err.Error(), "Expression Policy") {
		t.Fatalf("other type: want an error naming the other type, got %v", err)
	}
	if after := e.Raw(t, "policies/expression", pk); !bytes.Equal(before, after) {
		t.Errorf("hand-made policy changed:\n%s\n%s", before, after)
	}
	if w := e.Writes(); len(w) != 0 {
		t.Errorf("writes: want none, got %v", w)
	}
}

// Every call's failure is reported naming the policy; a spec without a type writes nothing.
func TestPolicyFailures(t *testing.T) {
	expr := func() v1alpha1.PolicyParameters {
		return v1alpha1.PolicyParameters{Name: "e-x", Expression: &v1alpha1.ExpressionPolicy{Expression: "return True"}}
	}
	cases := map[string]struct {
		spec         func() v1alpha1.PolicyParameters
		method, path string
		existing     bool
		want         string
	}{
		"list":     {spec: expr, method: "GET", path: "/policies/all/", want: "e-x"},
		"create":   {spec: expr, method: "POST", path: "/policies/expression/", want: "e-x"},
		"retrieve": {spec: expr, method: "GET", path: "/policies/expression/", existing: true, want: "cannot read authentik expression policy"},
		"update": {spec: func() v1alpha1.PolicyParameters { p := expr(); p.ExecutionLogging = new(true); return p },
			method: "PATCH", path: "/policies/expression/", existing: true, want: "cannot update authentik expression policy"},
		"no type":  {spec: func() v1alpha1.PolicyParameters { return v1alpha1.PolicyParameters{Name: "e-x"} }, want: "exactly one"},
		"bad name": {spec: func() v1alpha1.PolicyParameters { p := expr(); p.Name = " e-x"; return p }, want: "spec.forProvider.name"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e := authentiktest.New(t)
			mg := newPolicy(expr())
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

// A policy's deletion waits while bindings of it would go with it, and names them.
func TestPolicyDependents(t *testing.T) {
	e := authentiktest.New(t)
	mg := newPolicy(v1alpha1.PolicyParameters{Name: "e-dep", Expression: &v1alpha1.ExpressionPolicy{Expression: "return True"}})
	if _, err := kind.Reconcile(e, mg); err != nil {
		t.Fatal(err)
	}
	pk := meta.GetExternalName(mg)
	app := decode(t, e.Seed(t, "core/applications", map[string]any{"name": "e-app", "slug": "e-app"}))
	e.Seed(t, "policies/bindings", map[string]any{"target": app["pbm_uuid"], "policy": pk, "order": 5})
	if err := kind.Delete(e, mg); err == nil || !strings.Contains(err.Error(), `policy "e-dep"`) {
		t.Errorf("delete with a binding: want it refused naming the binding, got %v", err)
	}
	if _, err := e.Server.Raw("policies/expression", pk); err != nil {
		t.Errorf("policy deleted despite its binding: %v", err)
	}
	e.Server.InjectFault(authentikapiserver.Fault{PathPrefix: "/policies/bindings/", Status: 503})
	o, err := newDriver(e.Client).Get(e.Ctx, mg, pk)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := newDriver(e.Client).(*external).Dependents(e.Ctx, mg, o); err == nil || !strings.Contains(err.Error(), "e-dep") {
		t.Errorf("failing binding list: want an error naming the policy, got %v", err)
	}
}

// A policy a prompt stage validates with is a dependent too: deleting it would silently drop
// the check from the stage.
func TestPolicyPromptStageDependents(t *testing.T) {
	e := authentiktest.New(t)
	mg := newPolicy(v1alpha1.PolicyParameters{Name: "e-val", Expression: &v1alpha1.ExpressionPolicy{Expression: "return True"}})
	if _, err := kind.Reconcile(e, mg); err != nil {
		t.Fatal(err)
	}
	pk := meta.GetExternalName(mg)
	p := decode(t, e.Seed(t, "stages/prompt/prompts", map[string]any{"name": "e-p", "field_key": "k", "label": "K", "type": "text"}))
	e.Seed(t, "stages/prompt/stages", map[string]any{"name": "e-enroll", "fields": []any{p["pk"]}, "validation_policies": []any{pk}})
	o, err := newDriver(e.Client).Get(e.Ctx, mg, pk)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := newDriver(e.Client).(*external).Dependents(e.Ctx, mg, o)
	if err != nil || len(ds) != 1 || ds[0].Key != "e-enroll" {
		t.Fatalf("dependents: want the prompt stage e-enroll, got %+v, %v", ds, err)
	}
	if err := kind.Delete(e, mg); err == nil {
		t.Error("delete while a prompt stage validates with it: want it refused")
	}
	e.Server.InjectFault(authentikapiserver.Fault{PathPrefix: "/stages/prompt/stages/", Status: 503})
	if _, err := newDriver(e.Client).(*external).Dependents(e.Ctx, mg, o); err == nil || !strings.Contains(err.Error(), "e-val") {
		t.Errorf("failing prompt stage list: want an error naming the policy, got %v", err)
	}
}
