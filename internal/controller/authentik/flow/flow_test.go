package flow

import (
	"bytes"
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

var kind = authentiktest.Kind[mr, api.Flow]{GroupKind: v1alpha1.FlowGroupKind.String(), NewDriver: newDriver}

func newFlow(p v1alpha1.FlowParameters) *v1alpha1.Flow {
	return &v1alpha1.Flow{ObjectMeta: metav1.ObjectMeta{Name: "f"}, Spec: v1alpha1.FlowSpec{ForProvider: p}}
}

func login() v1alpha1.FlowParameters {
	return v1alpha1.FlowParameters{Name: "Login", Slug: "e-login", Title: "Welcome", Designation: "authentication"}
}

// A created flow is written once, a flow in sync never (server defaults for unset fields are
// not drift), and a change is one PATCH of that field alone.
func TestFlowWritesOnlyWhatDiffers(t *testing.T) {
	e := authentiktest.New(t)
	mg := newFlow(login())
	if r, err := kind.Reconcile(e, mg); err != nil || !r.Created {
		t.Fatalf("first reconcile: want a create, got %+v, %v", r, err)
	}
	if got := meta.GetExternalName(mg); got != "e-login" {
		t.Fatalf("external name: want the slug, got %q", got)
	}
	for range 2 {
		if r, err := kind.Reconcile(e, mg); err != nil || !r.Observation.ResourceUpToDate || r.Updated {
			t.Fatalf("reconcile in sync: want up to date, got %+v, %v", r, err)
		}
	}
	if diff := cmp.Diff(map[string]int{"POST /flows/instances/": 1}, e.Writes()); diff != "" {
		t.Errorf("writes: -want, +got:\n%s", diff)
	}
	mg.Spec.ForProvider.Layout = new("sidebar_left")
	mg.Spec.ForProvider.CompatibilityMode = new(true)
	e.Server.ResetCounts()
	if r, err := kind.Reconcile(e, mg); err != nil || !r.Updated {
		t.Fatalf("reconcile after a change: want an update, got %+v, %v", r, err)
	}
	if r, err := kind.Reconcile(e, mg); err != nil || !r.Observation.ResourceUpToDate {
		t.Fatalf("reconcile after the update: want up to date, got %+v, %v", r, err)
	}
	if diff := cmp.Diff(map[string]int{"PATCH /flows/instances/{slug}/": 1}, e.Writes()); diff != "" {
		t.Errorf("writes for one change: -want, +got:\n%s", diff)
	}
	raw := string(e.Raw(t, "flows/instances", "e-login"))
	for _, want := range []string{`"layout":"sidebar_left"`, `"compatibility_mode":true`, `"title":"Welcome"`} {
		if !strings.Contains(raw, want) {
			t.Errorf("flow after update: want %s in %s", want, raw)
		}
	}
}

// A hand-made flow with the slug is left byte-identical under FailOnConflict.
func TestFlowHandMadeLeftAlone(t *testing.T) {
	e := authentiktest.New(t)
	e.Seed(t, "flows/instances", map[string]any{"slug": "e-login", "name": "mine", "title": "mine", "designation": "authentication"})
	before := e.Raw(t, "flows/instances", "e-login")
	_, err := kind.Reconcile(e, newFlow(login()))
	if err == nil || !strings.Contains(err.Error(), "e-login") {
		t.Fatalf("want a conflict naming the flow, got %v", err)
	}
	if after := e.Raw(t, "flows/instances", "e-login"); !bytes.Equal(before, after) {
		t.Errorf("hand-made flow changed:\n%s\n%s", before, after)
	}
	if w := e.Writes(); len(w) != 0 {
		t.Errorf("writes: want none, got %v", w)
	}
}

// Every call's failure is reported, naming the flow, and nothing else is written.
func TestFlowFailures(t *testing.T) {
	cases := map[string]struct {
		method, path string
		existing     bool
		change       bool
	}{
		"list":     {method: "GET", path: "/flows/instances/"},
		"create":   {method: "POST", path: "/flows/instances/"},
		"retrieve": {method: "GET", path: "/flows/instances/e-login/", existing: true},
		"patch":    {method: "PATCH", path: "/flows/instances/e-login/", existing: true, change: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e := authentiktest.New(t)
			mg := newFlow(login())
			if tc.existing {
				if _, err := kind.Reconcile(e, mg); err != nil {
					t.Fatal(err)
				}
			}
			if tc.change {
				mg.Spec.ForProvider.Title = "Other"
			}
			e.Server.InjectFault(authentikapiserver.Fault{Method: tc.method, PathPrefix: tc.path, Status: 503})
			_, err := kind.Reconcile(e, mg)
			if err == nil || !strings.Contains(err.Error(), "e-login") {
				t.Errorf("want an error naming the flow, got %v", err)
			}
		})
	}
}

// A flow's deletion waits while it would take stage bindings, policy bindings or providers
// with it, or change stages that link it; each listed, and each list's failure reported.
func TestFlowDependents(t *testing.T) {
	e := authentiktest.New(t)
	mg := newFlow(login())
	if _, err := kind.Reconcile(e, mg); err != nil {
		t.Fatal(err)
	}
	f := map[string]any{}
	if err := jsonUnmarshal(e.Raw(t, "flows/instances", "e-login"), &f); err != nil {
		t.Fatal(err)
	}
	pk := f["pk"].(string)
	st := map[string]any{}
	if err := jsonUnmarshal(e.Seed(t, "stages/deny", map[string]any{"name": "e-deny"}), &st); err != nil {
		t.Fatal(err)
	}
	e.Seed(t, "flows/bindings", map[string]any{"target": pk, "stage": st["pk"], "order": 10})
	e.Seed(t, "stages/identification", map[string]any{"name": "e-id", "user_fields": []any{"username"}, "recovery_flow": pk})
	e.Seed(t, "providers/proxy", map[string]any{"name": "e-proxy", "external_host": "https://x.example", "authorization_flow": pk})
	grp := map[string]any{}
	if err := jsonUnmarshal(e.Seed(t, "core/groups", map[string]any{"name": "e-g"}), &grp); err != nil {
		t.Fatal(err)
	}
	e.Seed(t, "policies/bindings", map[string]any{"target": pk, "group": grp["pk"], "order": 0})

	obs, err := kind.External(e).Observe(e.Ctx, mg)
	if err != nil || !obs.ResourceExists {
		t.Fatal(obs, err)
	}
	ds, err := newDriver(e.Client).(*external).Dependents(e.Ctx, mg, mustGet(t, e, "e-login"))
	if err != nil {
		t.Fatal(err)
	}
	types := make([]string, 0, len(ds))
	for _, d := range ds {
		types = append(types, d.Type)
	}
	want := []string{"authentik flow-stage binding", "authentik policy binding", "authentik provider (Proxy Provider)", "authentik stage"}
	if diff := cmp.Diff(want, types); diff != "" {
		t.Errorf("dependents: -want, +got:\n%s", diff)
	}
	if err := kind.Delete(e, mg); err == nil {
		t.Error("delete with dependents: want it refused")
	}
	if _, err := e.Server.Raw("flows/instances", "e-login"); err != nil {
		t.Errorf("flow deleted despite its dependents: %v", err)
	}
	for _, path := range []string{"/flows/bindings/", "/policies/bindings/", "/providers/all/", "/stages/identification/", "/stages/password/"} {
		t.Run("failing "+path, func(t *testing.T) {
			e.Server.InjectFault(authentikapiserver.Fault{PathPrefix: path, Status: 503, Times: 1})
			defer e.Server.ClearFaults()
			if _, err := newDriver(e.Client).(*external).Dependents(e.Ctx, mg, mustGet(t, e, "e-login")); err == nil || !strings.Contains(err.Error(), "e-login") {
				t.Errorf("want an error naming the flow, got %v", err)
			}
		})
	}
}

func mustGet(t *testing.T, e *authentiktest.Env, slug string) api.Flow {
	t.Helper()
	f, err := newDriver(e.Client).Get(e.Ctx, nil, slug)
	if err != nil {
		t.Fatal(err)
	}
	return f
}
