package stage

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

var kind = authentiktest.Kind[mr, Object]{GroupKind: v1alpha1.StageGroupKind.String(), NewDriver: newDriver}

func newStage(p v1alpha1.StageParameters) *v1alpha1.Stage {
	return &v1alpha1.Stage{ObjectMeta: metav1.ObjectMeta{Name: "s"}, Spec: v1alpha1.StageSpec{ForProvider: p}}
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
// (server defaults and set order are not drift), and a change is one PATCH.
func TestStageTypesWriteOnlyWhatDiffers(t *testing.T) {
	cases := map[string]struct {
		spec   v1alpha1.StageParameters
		path   string
		change func(*v1alpha1.StageParameters)
		want   string
	}{
		"identification": {
			spec: v1alpha1.StageParameters{Name: "e-id", Identification: &v1alpha1.IdentificationStage{
				UserFields: []string{"username", "email"}, PasswordStage: new("e-pw"), RecoveryFlow: new("default-password-change")}},
			path:   "stages/identification",
			change: func(p *v1alpha1.StageParameters) { p.Identification.PasswordStage = new("") },
			want:   `"password_stage":null`,
		},
		"password": {
			spec: v1alpha1.StageParameters{Name: "e-pw2", Password: &v1alpha1.PasswordStage{
				Backends: []string{"authentik.core.auth.InbuiltBackend"}, FailedAttemptsBeforeCancel: new(int32(3))}},
			path:   "stages/password",
			change: func(p *v1alpha1.StageParameters) { p.Password.FailedAttemptsBeforeCancel = new(int32(7)) },
			want:   `"failed_attempts_before_cancel":7`,
		},
		"userLogin": {
			spec:   v1alpha1.StageParameters{Name: "e-login", UserLogin: &v1alpha1.UserLoginStage{SessionDuration: new("hours=8")}},
			path:   "stages/user_login",
			change: func(p *v1alpha1.StageParameters) { p.UserLogin.TerminateOtherSessions = new(true) },
			want:   `"terminate_other_sessions":true`,
		},
		"userLogout": {
			spec:   v1alpha1.StageParameters{Name: "e-logout", UserLogout: &v1alpha1.UserLogoutStage{}},
			path:   "stages/user_logout",
			change: func(p *v1alpha1.StageParameters) { p.Name = "e-logout2" },
			want:   `"name":"e-logout2"`,
		},
		"deny": {
			spec:   v1alpha1.StageParameters{Name: "e-deny", Deny: &v1alpha1.DenyStage{Message: new("no")}},
			path:   "stages/deny",
			change: func(p *v1alpha1.StageParameters) { p.Deny.Message = new("never") },
			want:   `"deny_message":"never"`,
		},
		"consent": {
			spec:   v1alpha1.StageParameters{Name: "e-consent", Consent: &v1alpha1.ConsentStage{Mode: new("expiring")}},
			path:   "stages/consent",
			change: func(p *v1alpha1.StageParameters) { p.Consent.ConsentExpireIn = new("days=1") },
			want:   `"consent_expire_in":"days=1"`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e := authentiktest.New(t)
			e.Seed(t, "stages/password", map[string]any{"name": "e-pw", "backends": []any{"authentik.core.auth.InbuiltBackend"}})
			mg := newStage(tc.spec)
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
			tc.change(&mg.Spec.ForProvider)
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
			if raw := string(e.Raw(t, tc.path, meta.GetExternalName(mg))); !strings.Contains(raw, tc.want) {
				t.Errorf("want %s in %s", tc.want, raw)
			}
		})
	}
}

// A hand-made stage with the name is left byte-identical; one of another type is an error
// saying so, since names are unique across stage types.
func TestStageHandMadeLeftAlone(t *testing.T) {
	e := authentiktest.New(t)
	pk := decode(t, e.Seed(t, "stages/deny", map[string]any{"name": "e-deny", "deny_message": "mine"}))["pk"].(string)
	before := e.Raw(t, "stages/deny", pk)
	if _, err := kind.Reconcile(e, newStage(v1alpha1.StageParameters{Name: "e-deny", Deny: &v1alpha1.DenyStage{Message: new("ours")}})); err == nil {
		t.Fatal("same type: want a conflict")
	}
	_, err := kind.Reconcile(e, newStage(v1alpha1.StageParameters{Name: "e-deny", UserLogout: &v1alpha1.UserLogoutStage{}}))
	if err == nil || !strings.Contains(err.Error(), "Deny Stage") {
		t.Fatalf("other type: want an error naming the other type, got %v", err)
	}
	if after := e.Raw(t, "stages/deny", pk); !bytes.Equal(before, after) {
		t.Errorf("hand-made stage changed:\n%s\n%s", before, after)
	}
	if w := e.Writes(); len(w) != 0 {
		t.Errorf("writes: want none, got %v", w)
	}
}

// Every call's failure is reported naming the stage; a spec naming a missing flow or
// password stage, or no type at all, writes nothing.
func TestStageFailures(t *testing.T) {
	id := func() v1alpha1.StageParameters {
		return v1alpha1.StageParameters{Name: "e-id", Identification: &v1alpha1.IdentificationStage{UserFields: []string{"email"}}}
	}
	cases := map[string]struct {
		spec         func() v1alpha1.StageParameters
		method, path string
		existing     bool
		want         string
	}{
		"list":     {spec: id, method: "GET", path: "/stages/all/", want: "e-id"},
		"create":   {spec: id, method: "POST", path: "/stages/identification/", want: "e-id"},
		"retrieve": {spec: id, method: "GET", path: "/stages/identification/", existing: true, want: "cannot read authentik identification stage"},
		"no type":  {spec: func() v1alpha1.StageParameters { return v1alpha1.StageParameters{Name: "e-x"} }, want: "exactly one"},
		"no flow":  {spec: func() v1alpha1.StageParameters { p := id(); p.Identification.RecoveryFlow = new("e-nope"); return p }, want: `flow "e-nope"`},
		"no pw":    {spec: func() v1alpha1.StageParameters { p := id(); p.Identification.PasswordStage = new("e-nope"); return p }, want: `stage "e-nope"`},
		"bad name": {spec: func() v1alpha1.StageParameters { p := id(); p.Name = " e-id"; return p }, want: "spec.forProvider.name"},
		"flow fault": {spec: func() v1alpha1.StageParameters {
			p := id()
			p.Identification.RecoveryFlow = new("default-password-change")
			return p
		}, method: "GET", path: "/flows/instances/", want: "default-password-change"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e := authentiktest.New(t)
			mg := newStage(tc.spec())
			if tc.existing {
				if _, err := kind.Reconcile(e, mg); err != nil {
					t.Fatal(err)
				}
			}
			if tc.path != "" {
				e.Server.InjectFault(authentikapiserver.Fault{Method: tc.method, PathPrefix: tc.path, Status: 503})
			}
			before := e.Writes()
			_, err := kind.Reconcile(e, mg)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("want an error with %q, got %v", tc.want, err)
			}
			if diff := cmp.Diff(before, e.Writes()); diff != "" && tc.method != "POST" {
				t.Errorf("writes: -before, +after:\n%s", diff)
			}
		})
	}
}

// A stage's deletion waits while flows bind it or identification stages show it.
func TestStageDependents(t *testing.T) {
	e := authentiktest.New(t)
	mg := newStage(v1alpha1.StageParameters{Name: "e-pw", Password: &v1alpha1.PasswordStage{Backends: []string{"authentik.core.auth.InbuiltBackend"}}})
	if _, err := kind.Reconcile(e, mg); err != nil {
		t.Fatal(err)
	}
	pk := meta.GetExternalName(mg)
	flow := decode(t, e.Raw(t, "flows/instances", "default-authentication-flow"))["pk"]
	e.Seed(t, "flows/bindings", map[string]any{"target": flow, "stage": pk, "order": 20})
	e.Seed(t, "stages/identification", map[string]any{"name": "e-id", "user_fields": []any{"email"}, "password_stage": pk})
	o, err := newDriver(e.Client).Get(e.Ctx, mg, pk)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := newDriver(e.Client).(*external).Dependents(e.Ctx, mg, o)
	if err != nil {
		t.Fatal(err)
	}
	keys := make([]string, 0, len(ds))
	for _, d := range ds {
		keys = append(keys, d.Type+": "+d.Key)
	}
	want := []string{`authentik flow-stage binding: stage "e-pw" in flow ` + flow.(string) + " at order 20", "authentik stage: e-id"}
	if diff := cmp.Diff(want, keys); diff != "" {
		t.Errorf("dependents: -want, +got:\n%s", diff)
	}
	if err := kind.Delete(e, mg); err == nil {
		t.Error("delete with dependents: want it refused")
	}
	for _, path := range []string{"/flows/bindings/", "/stages/identification/"} {
		e.Server.InjectFault(authentikapiserver.Fault{PathPrefix: path, Status: 503, Times: 1})
		if _, err := newDriver(e.Client).(*external).Dependents(e.Ctx, mg, o); err == nil || !strings.Contains(err.Error(), "e-pw") {
			t.Errorf("failing %s: want an error naming the stage, got %v", path, err)
		}
		e.Server.ClearFaults()
	}
}
