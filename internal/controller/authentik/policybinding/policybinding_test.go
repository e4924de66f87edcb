package policybinding

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	api "goauthentik.io/api/v3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"

	"github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/authentikapiserver"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/authentiktest"
)

var kind = authentiktest.Kind[mr, api.PolicyBinding]{GroupKind: v1alpha1.PolicyBindingGroupKind.String(), NewDriver: newDriver}

func decode(t *testing.T, b []byte) map[string]any {
	t.Helper()
	m := map[string]any{}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// seeded are the objects a binding test binds and targets.
type seeded struct {
	group, policy, user, appPBM, flowPBM, fsb string
}

func bindingEnv(t *testing.T) (*authentiktest.Env, seeded) {
	t.Helper()
	e := authentiktest.New(t)
	var s seeded
	s.group = decode(t, e.Seed(t, "core/groups", map[string]any{"name": "e-admins"}))["pk"].(string)
	s.policy = decode(t, e.Seed(t, "policies/expression", map[string]any{"name": "e-pol", "expression": "return True"}))["pk"].(string)
	s.user = strconv.Itoa(int(decode(t, e.Seed(t, "core/users", map[string]any{"username": "e-alice", "name": "Alice"}))["pk"].(float64)))
	s.appPBM = decode(t, e.Seed(t, "core/applications", map[string]any{"name": "e-app", "slug": "e-app"}))["pbm_uuid"].(string)
	flow := decode(t, e.Seed(t, "flows/instances", map[string]any{"slug": "e-flow", "name": "f", "title": "f", "designation": "authentication"}))
	s.flowPBM = flow["policybindingmodel_ptr_id"].(string)
	st := decode(t, e.Seed(t, "stages/deny", map[string]any{"name": "e-deny"}))
	s.fsb = decode(t, e.Seed(t, "flows/bindings", map[string]any{"target": flow["pk"], "stage": st["pk"], "order": 10}))["pk"].(string)
	return e, s
}

func newBinding(p v1alpha1.PolicyBindingParameters) *v1alpha1.PolicyBinding {
	return &v1alpha1.PolicyBinding{ObjectMeta: metav1.ObjectMeta{Name: "b"}, Spec: v1alpha1.PolicyBindingSpec{ForProvider: p}}
}

// Every subject on every target type: created once, never written in sync, and a change is one
// PATCH that carries the target and the subject (authentik validates them from the request).
func TestBindingWritesOnlyWhatDiffers(t *testing.T) {
	cases := map[string]struct {
		spec   func(s seeded) v1alpha1.PolicyBindingParameters
		target func(s seeded) string
	}{
		"group on application": {
			spec: func(s seeded) v1alpha1.PolicyBindingParameters {
				return v1alpha1.PolicyBindingParameters{GroupID: &s.group, Application: new("e-app")}
			},
			target: func(s seeded) string { return s.appPBM },
		},
		"policy on flow": {
			spec: func(s seeded) v1alpha1.PolicyBindingParameters {
				return v1alpha1.PolicyBindingParameters{PolicyID: &s.policy, Flow: new("e-flow")}
			},
			target: func(s seeded) string { return s.flowPBM },
		},
		"user on flow-stage binding": {
			spec: func(s seeded) v1alpha1.PolicyBindingParameters {
				return v1alpha1.PolicyBindingParameters{UserID: &s.user, FlowStageBindingID: &s.fsb, Order: 3}
			},
			target: func(s seeded) string { return s.fsb },
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e, s := bindingEnv(t)
			mg := newBinding(tc.spec(s))
			if r, err := kind.Reconcile(e, mg); err != nil || !r.Created {
				t.Fatalf("first reconcile: want a create, got %+v, %v", r, err)
			}
			if r, err := kind.Reconcile(e, mg); err != nil || !r.Observation.ResourceUpToDate {
				t.Fatalf("reconcile in sync: want up to date, got %+v, %v", r, err)
			}
			if diff := cmp.Diff(map[string]int{"POST /policies/bindings/": 1}, e.Writes()); diff != "" {
				t.Errorf("writes: -want, +got:\n%s", diff)
			}
			if got := mg.Status.AtProvider.Target; got != tc.target(s) {
				t.Errorf("status target: want %s, got %s", tc.target(s), got)
			}
			mg.Spec.ForProvider.Negate = new(true)
			mg.Spec.ForProvider.Timeout = new(int32(5))
			e.Server.ResetCounts()
			if r, err := kind.Reconcile(e, mg); err != nil || !r.Updated {
				t.Fatalf("reconcile after a change: want an update, got %+v, %v", r, err)
			}
			if r, err := kind.Reconcile(e, mg); err != nil || !r.Observation.ResourceUpToDate {
				t.Fatalf("reconcile after the update: want up to date, got %+v, %v", r, err)
			}
			if diff := cmp.Diff(map[string]int{"PATCH /policies/bindings/{policy_binding_uuid}/": 1}, e.Writes()); diff != "" {
				t.Errorf("writes: -want, +got:\n%s", diff)
			}
			raw := string(e.Raw(t, "policies/bindings", meta.GetExternalName(mg)))
			for _, want := range []string{`"negate":true`, `"timeout":5`} {
				if !strings.Contains(raw, want) {
					t.Errorf("want %s in %s", want, raw)
				}
			}
		})
	}
}

// Switching what is bound (a group instead of a policy) is one PATCH that clears the policy.
func TestBindingSubjectChange(t *testing.T) {
	e, s := bindingEnv(t)
	mg := newBinding(v1alpha1.PolicyBindingParameters{PolicyID: &s.policy, Application: new("e-app")})
	if _, err := kind.Reconcile(e, mg); err != nil {
		t.Fatal(err)
	}
	mg.Spec.ForProvider.PolicyID, mg.Spec.ForProvider.GroupID = nil, &s.group
	if r, err := kind.Reconcile(e, mg); err != nil || !r.Updated {
		t.Fatalf("want an update, got %+v, %v", r, err)
	}
	raw := string(e.Raw(t, "policies/bindings", meta.GetExternalName(mg)))
	if !strings.Contains(raw, `"policy":null`) || !strings.Contains(raw, `"group":"`+s.group+`"`) {
		t.Errorf("want the group bound and no policy: %s", raw)
	}
}

// A hand-made binding of the same group on the same application at the same order is left
// byte-identical under FailOnConflict; two of them are ambiguous.
func TestBindingHandMadeLeftAlone(t *testing.T) {
	e, s := bindingEnv(t)
	b := decode(t, e.Seed(t, "policies/bindings", map[string]any{"target": s.appPBM, "group": s.group, "order": 0}))
	before := e.Raw(t, "policies/bindings", b["pk"].(string))
	mg := newBinding(v1alpha1.PolicyBindingParameters{GroupID: &s.group, Application: new("e-app")})
	if _, err := kind.Reconcile(e, mg); err == nil {
		t.Fatal("want a conflict")
	}
	if after := e.Raw(t, "policies/bindings", b["pk"].(string)); !bytes.Equal(before, after) {
		t.Errorf("hand-made binding changed:\n%s\n%s", before, after)
	}
	e.Seed(t, "policies/bindings", map[string]any{"target": s.appPBM, "group": s.group, "order": 0})
	if _, err := kind.Reconcile(e, mg); err == nil || !strings.Contains(err.Error(), "external-name") {
		t.Errorf("two matching bindings: want an ambiguity naming the external name, got %v", err)
	}
	if w := e.Writes(); len(w) != 0 {
		t.Errorf("writes: want none, got %v", w)
	}
}

// Failures are reported and write nothing: each call, a missing target, an unresolved
// reference.
func TestBindingFailures(t *testing.T) {
	cases := map[string]struct {
		mutate       func(*v1alpha1.PolicyBindingParameters)
		method, path string
		want         string
	}{
		"list":      {method: "GET", path: "/policies/bindings/", want: `application "e-app"`},
		"create":    {method: "POST", path: "/policies/bindings/", want: `application "e-app"`},
		"app read":  {method: "GET", path: "/core/applications/", want: `application "e-app"`},
		"flow read": {mutate: func(p *v1alpha1.PolicyBindingParameters) { p.Application, p.Flow = nil, new("e-flow") }, method: "GET", path: "/flows/instances/", want: `flow "e-flow"`},
		"fsb read": {mutate: func(p *v1alpha1.PolicyBindingParameters) {
			p.Application, p.FlowStageBindingID = nil, new("00000000-0000-4000-8000-000000000000")
		}, want: "flowStageBindingId"},
		"no app":     {mutate: func(p *v1alpha1.PolicyBindingParameters) { p.Application = new("e-nope") }, want: `application "e-nope"`},
		"no target":  {mutate: func(p *v1alpha1.PolicyBindingParameters) { p.Application = nil }, want: "no target yet"},
		"no subject": {mutate: func(p *v1alpha1.PolicyBindingParameters) { p.GroupID = nil }, want: "nothing to bind yet"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e, s := bindingEnv(t)
			mg := newBinding(v1alpha1.PolicyBindingParameters{GroupID: &s.group, Application: new("e-app")})
			if tc.mutate != nil {
				tc.mutate(&mg.Spec.ForProvider)
			}
			if tc.path != "" {
				e.Server.InjectFault(authentikapiserver.Fault{Method: tc.method, PathPrefix: tc.path, Status: 503})
			}
			_, err := kind.Reconcile(e, mg)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("want an error with %q, got %v", tc.want, err)
			}
			if w := e.Writes(); len(w) != 0 && tc.method != "POST" {
				t.Errorf("writes: want none, got %v", w)
			}
		})
	}
}

// A PATCH's failure is reported naming the binding.
func TestBindingUpdateFails(t *testing.T) {
	e, s := bindingEnv(t)
	mg := newBinding(v1alpha1.PolicyBindingParameters{GroupID: &s.group, Application: new("e-app")})
	if _, err := kind.Reconcile(e, mg); err != nil {
		t.Fatal(err)
	}
	mg.Spec.ForProvider.Enabled = new(false)
	e.Server.InjectFault(authentikapiserver.Fault{Method: "PATCH", PathPrefix: "/policies/bindings/", Status: 503})
	if _, err := kind.Reconcile(e, mg); err == nil || !strings.Contains(err.Error(), meta.GetExternalName(mg)) {
		t.Errorf("want an error naming the binding, got %v", err)
	}
}

// authentik shows the target of a flow's bindings as the flow's own pk, which differs from the
// policy binding model's UUID the binding was made with: either is the same target.
func TestBindingTargetShownAsOwnPK(t *testing.T) {
	e := &external{
		want:   map[string]any{"target": "pbm-uuid", "policy": nil, "group": "g", "user": nil, "order": float64(0)},
		target: target{pbm: "pbm-uuid", pk: "flow-pk"},
	}
	b := api.PolicyBinding{Pk: "b", Target: "flow-pk", Order: 0}
	b.SetGroup("g")
	b.SetPolicyNil()
	b.SetUserNil()
	c, err := e.compare(b)
	if err != nil || !c.UpToDate() {
		t.Errorf("target shown as the flow's pk: want up to date, got %+v, %v", c, err)
	}
	b.Target = "another"
	if c, err := e.compare(b); err != nil || c.UpToDate() {
		t.Errorf("another target: want a difference, got %+v, %v", c, err)
	}
}
