package flowstagebinding

import (
	"bytes"
	"encoding/json"
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

var kind = authentiktest.Kind[mr, api.FlowStageBinding]{GroupKind: v1alpha1.FlowStageBindingGroupKind.String(), NewDriver: newDriver}

func decode(t *testing.T, b []byte) map[string]any {
	t.Helper()
	m := map[string]any{}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// bindingEnv seeds a flow and a stage and returns a binding of them at order 10.
func bindingEnv(t *testing.T) (*authentiktest.Env, *v1alpha1.FlowStageBinding, string) {
	t.Helper()
	e := authentiktest.New(t)
	flow := decode(t, e.Seed(t, "flows/instances", map[string]any{"slug": "e-flow", "name": "f", "title": "f", "designation": "authentication"}))
	st := decode(t, e.Seed(t, "stages/user_login", map[string]any{"name": "e-login"}))
	mg := &v1alpha1.FlowStageBinding{ObjectMeta: metav1.ObjectMeta{Name: "b"}, Spec: v1alpha1.FlowStageBindingSpec{
		ForProvider: v1alpha1.FlowStageBindingParameters{Flow: new("e-flow"), StageID: new(st["pk"].(string)), Order: 10}}}
	return e, mg, flow["pk"].(string)
}

// A binding is created once, never written in sync, and a change is one PATCH; turning
// re-evaluation off sends evaluate_on_plan along, which authentik needs in the same request.
func TestBindingWritesOnlyWhatDiffers(t *testing.T) {
	e, mg, flowPK := bindingEnv(t)
	if r, err := kind.Reconcile(e, mg); err != nil || !r.Created {
		t.Fatalf("first reconcile: want a create, got %+v, %v", r, err)
	}
	if r, err := kind.Reconcile(e, mg); err != nil || !r.Observation.ResourceUpToDate {
		t.Fatalf("reconcile in sync: want up to date, got %+v, %v", r, err)
	}
	if diff := cmp.Diff(map[string]int{"POST /flows/bindings/": 1}, e.Writes()); diff != "" {
		t.Errorf("writes: -want, +got:\n%s", diff)
	}
	if got := mg.Status.AtProvider.FlowID; got != flowPK {
		t.Errorf("status flowId: want %s, got %s", flowPK, got)
	}
	mg.Spec.ForProvider.EvaluateOnPlan = new(true)
	mg.Spec.ForProvider.ReEvaluatePolicies = new(false)
	mg.Spec.ForProvider.InvalidResponseAction = new("restart")
	e.Server.ResetCounts()
	if r, err := kind.Reconcile(e, mg); err != nil || !r.Updated {
		t.Fatalf("reconcile after a change: want an update, got %+v, %v", r, err)
	}
	if r, err := kind.Reconcile(e, mg); err != nil || !r.Observation.ResourceUpToDate {
		t.Fatalf("reconcile after the update: want up to date, got %+v, %v", r, err)
	}
	// Only re-evaluation changes now: the PATCH must still carry evaluate_on_plan.
	mg.Spec.ForProvider.ReEvaluatePolicies = new(true)
	if _, err := kind.Reconcile(e, mg); err != nil {
		t.Fatal(err)
	}
	mg.Spec.ForProvider.ReEvaluatePolicies = new(false)
	if r, err := kind.Reconcile(e, mg); err != nil || !r.Updated {
		t.Fatalf("turning re-evaluation off alone: want an update, got %+v, %v", r, err)
	}
	if diff := cmp.Diff(map[string]int{"PATCH /flows/bindings/{fsb_uuid}/": 3}, e.Writes()); diff != "" {
		t.Errorf("writes: -want, +got:\n%s", diff)
	}
	raw := string(e.Raw(t, "flows/bindings", meta.GetExternalName(mg)))
	for _, want := range []string{`"re_evaluate_policies":false`, `"evaluate_on_plan":true`, `"invalid_response_action":"restart"`} {
		if !strings.Contains(raw, want) {
			t.Errorf("want %s in %s", want, raw)
		}
	}
}

// A hand-made binding of the same stage into the same flow at the same order is left
// byte-identical under FailOnConflict.
func TestBindingHandMadeLeftAlone(t *testing.T) {
	e, mg, flowPK := bindingEnv(t)
	b := decode(t, e.Seed(t, "flows/bindings", map[string]any{"target": flowPK, "stage": *mg.Spec.ForProvider.StageID, "order": 10}))
	before := e.Raw(t, "flows/bindings", b["pk"].(string))
	if _, err := kind.Reconcile(e, mg); err == nil {
		t.Fatal("want a conflict")
	}
	if after := e.Raw(t, "flows/bindings", b["pk"].(string)); !bytes.Equal(before, after) {
		t.Errorf("hand-made binding changed:\n%s\n%s", before, after)
	}
	if w := e.Writes(); len(w) != 0 {
		t.Errorf("writes: want none, got %v", w)
	}
}

// Failures are reported and write nothing: each call, a missing flow, an unresolved reference.
func TestBindingFailures(t *testing.T) {
	cases := map[string]struct {
		mutate       func(*v1alpha1.FlowStageBindingParameters)
		method, path string
		want         string
	}{
		"list":        {method: "GET", path: "/flows/bindings/", want: "e-flow"},
		"create":      {method: "POST", path: "/flows/bindings/", want: "e-flow"},
		"flow lookup": {method: "GET", path: "/flows/instances/", want: "e-flow"},
		"no flow":     {mutate: func(p *v1alpha1.FlowStageBindingParameters) { p.Flow = new("e-nope") }, want: `flow "e-nope"`},
		"unresolved":  {mutate: func(p *v1alpha1.FlowStageBindingParameters) { p.Flow = nil }, want: "flowRef"},
		"no stage":    {mutate: func(p *v1alpha1.FlowStageBindingParameters) { p.StageID = nil }, want: "stageRef"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e, mg, _ := bindingEnv(t)
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

// A binding's deletion waits while policy bindings on it would go with it.
func TestBindingDependents(t *testing.T) {
	e, mg, _ := bindingEnv(t)
	if _, err := kind.Reconcile(e, mg); err != nil {
		t.Fatal(err)
	}
	g := decode(t, e.Seed(t, "core/groups", map[string]any{"name": "e-g"}))
	e.Seed(t, "policies/bindings", map[string]any{"target": meta.GetExternalName(mg), "group": g["pk"], "order": 0})
	if err := kind.Delete(e, mg); err == nil || !strings.Contains(err.Error(), "e-g") {
		t.Errorf("delete with a policy binding on it: want it refused naming the group, got %v", err)
	}
	if _, err := e.Server.Raw("flows/bindings", meta.GetExternalName(mg)); err != nil {
		t.Errorf("binding deleted despite its dependents: %v", err)
	}
}
