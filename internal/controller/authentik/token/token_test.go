package token

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/authentikapiserver"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/authentiktest"
)

var kind = authentiktest.Kind[mr, Object]{GroupKind: v1alpha1.TokenGroupKind.String(), NewDriver: newDriver}

func newToken(p v1alpha1.TokenParameters) *v1alpha1.Token {
	mg := &v1alpha1.Token{ObjectMeta: metav1.ObjectMeta{Name: "t"}, Spec: v1alpha1.TokenSpec{ForProvider: p}}
	mg.Spec.WriteConnectionSecretToReference = &xpv2.SecretReference{Namespace: "ns", Name: "out"}
	return mg
}

func stringsOf(m map[string][]byte) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		out[k] = string(v)
	}
	return out
}

// A token is created with the marker below its description; its key reaches the connection
// details only, read with view_key until the connection Secret holds it and never after; a
// token in sync is never written; a changed description is one PATCH that keeps the user and
// the intent.
func TestTokenKeyToConnectionSecretOnly(t *testing.T) {
	e := authentiktest.New(t)
	e.Seed(t, "core/users", map[string]any{"username": "ci-bot"})
	mg := newToken(v1alpha1.TokenParameters{Identifier: "ci-bot-app", Intent: new("app_password"), Username: new("ci-bot"), Description: new("CI")})
	if r, err := kind.Reconcile(e, mg); err != nil || !r.Created {
		t.Fatalf("first reconcile: want a create, got %+v, %v", r, err)
	}
	v, _, err := e.Client.API.CoreAPI.CoreTokensViewKeyRetrieve(e.Ctx, "ci-bot-app").Execute()
	if err != nil {
		t.Fatal(err)
	}
	r, err := kind.Reconcile(e, mg)
	if err != nil || !r.Observation.ResourceUpToDate {
		t.Fatalf("second reconcile: want up to date, got %+v, %v", r, err)
	}
	want := map[string]string{ConnToken: v.Key, ConnIdentifier: "ci-bot-app", ConnUsername: "ci-bot", ConnURL: e.URL}
	if diff := cmp.Diff(want, stringsOf(r.Connection)); diff != "" {
		t.Errorf("connection details: -want, +got:\n%s", diff)
	}
	// Published: later reconciles read the token and its user, never the key.
	e.Secret(t, "ns", "out", stringsOf(r.Connection))
	e.Server.ResetCounts()
	if r, err := kind.Reconcile(e, mg); err != nil || !r.Observation.ResourceUpToDate || r.Connection == nil {
		t.Fatalf("reconcile in sync: %+v, %v", r, err)
	}
	if diff := cmp.Diff(map[string]int{"GET /core/tokens/{identifier}/": 1, "GET /core/users/": 1}, e.Server.Counts()); diff != "" {
		t.Errorf("requests in sync: -want, +got:\n%s", diff)
	}
	status, err := json.Marshal(mg.Status)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(status), v.Key) || strings.Contains(r.Observation.Diff, v.Key) {
		t.Error("the key shows in status or a diff")
	}
	raw := string(e.Raw(t, "core/tokens", "ci-bot-app"))
	if !strings.Contains(raw, `"description":"CI\n[provider-identity: installation=test-installation`) {
		t.Errorf("token: %s", raw)
	}

	mg.Spec.ForProvider.Description = new("CI runner")
	e.Server.ResetCounts()
	if r, err := kind.Reconcile(e, mg); err != nil || !r.Updated {
		t.Fatalf("after a change: want an update, got %+v, %v", r, err)
	}
	if diff := cmp.Diff(map[string]int{"PATCH /core/tokens/{identifier}/": 1}, e.Writes()); diff != "" {
		t.Errorf("writes: -want, +got:\n%s", diff)
	}
	raw = string(e.Raw(t, "core/tokens", "ci-bot-app"))
	if !strings.Contains(raw, `"intent":"app_password"`) || !strings.Contains(raw, `"username":"ci-bot"`) || !strings.Contains(raw, `CI runner\n[provider-identity:`) {
		t.Errorf("token after the update lost its user or intent: %s", raw)
	}
}

// A key from keySecretRef is set right after the create and whenever the Secret changes (with
// set_key alone); it is compared with the published one without view_key.
func TestTokenKeyFromSecret(t *testing.T) {
	e := authentiktest.New(t)
	u := e.Seed(t, "core/users", map[string]any{"username": "svc"})
	var user struct{ Pk json.Number }
	if err := json.Unmarshal(u, &user); err != nil {
		t.Fatal(err)
	}
	e.Secret(t, "ns", "key", map[string]string{"k": "first-key"})
	mg := newToken(v1alpha1.TokenParameters{Identifier: "svc-api", UserID: new(user.Pk.String()), Expiring: new(false),
		KeySecretRef: &identityv1alpha1.SecretKeySelector{SecretReference: identityv1alpha1.SecretReference{Namespace: "ns", Name: "key"}, Key: "k"}})
	if r, err := kind.Reconcile(e, mg); err != nil || !r.Created {
		t.Fatalf("create: %+v, %v", r, err)
	}
	if diff := cmp.Diff(map[string]int{"POST /core/tokens/": 1, "POST /core/tokens/{identifier}/set_key/": 1}, e.Writes()); diff != "" {
		t.Errorf("writes of the create: -want, +got:\n%s", diff)
	}
	e.Secret(t, "ns", "out", map[string]string{ConnToken: "first-key"})
	e.Server.ResetCounts()
	if r, err := kind.Reconcile(e, mg); err != nil || !r.Observation.ResourceUpToDate || string(r.Connection[ConnToken]) != "first-key" {
		t.Fatalf("in sync: %+v, %v", r, err)
	}
	if n := e.Server.Counts()["GET /core/tokens/{identifier}/view_key/"]; n != 0 {
		t.Errorf("view_key in sync: %d", n)
	}
	e.UpdateSecret(t, "ns", "key", map[string]string{"k": "second-key"})
	e.Server.ResetCounts()
	r, err := kind.Reconcile(e, mg)
	if err != nil || !r.Updated || strings.Contains(r.Observation.Diff, "key") && strings.Contains(r.Observation.Diff, "second-key") {
		t.Fatalf("a new key in the Secret: want an update, got %+v, %v", r, err)
	}
	if diff := cmp.Diff(map[string]int{"POST /core/tokens/{identifier}/set_key/": 1}, e.Writes()); diff != "" {
		t.Errorf("writes for a new key: -want, +got:\n%s", diff)
	}
	if v, _, err := e.Client.API.CoreAPI.CoreTokensViewKeyRetrieve(e.Ctx, "svc-api").Execute(); err != nil || v.Key != "second-key" {
		t.Errorf("authentik's key: %v, %v", v, err)
	}
}

// A hand-made token with the identifier is left byte-identical; adopting it writes the marker
// with its user and intent; every call's failure names the token.
func TestTokenConflictAdoptFailures(t *testing.T) {
	e := authentiktest.New(t)
	e.Seed(t, "core/users", map[string]any{"username": "dora"})
	l, _, err := e.Client.API.CoreAPI.CoreUsersList(e.Ctx).Username("dora").Execute()
	if err != nil {
		t.Fatal(err)
	}
	e.Seed(t, "core/tokens", map[string]any{"identifier": "dora-app", "intent": "app_password", "user": json.Number(strconv.Itoa(int(l.Results[0].Pk))), "description": "by hand"})
	before := e.Raw(t, "core/tokens", "dora-app")
	mg := newToken(v1alpha1.TokenParameters{Identifier: "dora-app", Intent: new("app_password"), Username: new("dora")})
	if _, err := kind.Reconcile(e, mg); err == nil || !strings.Contains(err.Error(), "dora-app") {
		t.Fatalf("hand-made token: want a conflict, got %v", err)
	}
	if w := e.Writes(); len(w) != 0 || !bytes.Equal(before, e.Raw(t, "core/tokens", "dora-app")) {
		t.Errorf("the hand-made token was written: %v", w)
	}
	mg.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting
	if r, err := kind.Reconcile(e, mg); err != nil || !r.Updated {
		t.Fatalf("adopt: %+v, %v", r, err)
	}
	raw := string(e.Raw(t, "core/tokens", "dora-app"))
	if !strings.Contains(raw, `by hand\n[provider-identity:`) || !strings.Contains(raw, `"intent":"app_password"`) || !strings.Contains(raw, `"username":"dora"`) {
		t.Errorf("adopted token: %s", raw)
	}
	if meta.GetExternalName(mg) != "dora-app" {
		t.Errorf("external name %q", meta.GetExternalName(mg))
	}

	cases := map[string]authentikapiserver.Fault{
		"retrieve": {Method: "GET", PathPrefix: "/core/tokens/dora-app/", Status: 503},
		"users":    {Method: "GET", PathPrefix: "/core/users/", Status: 503},
		"view_key": {Method: "GET", PathPrefix: "/core/tokens/dora-app/view_key/", Status: 503},
	}
	for name, f := range cases {
		t.Run(name, func(t *testing.T) {
			e.Server.InjectFault(f)
			defer e.Server.ClearFaults()
			if _, err := kind.Reconcile(e, mg); err == nil || !strings.Contains(err.Error(), "dora") {
				t.Errorf("want an error naming the token, got %v", err)
			}
		})
	}
	for name, p := range map[string]v1alpha1.TokenParameters{
		"missing user":   {Identifier: "x-api", Username: new("nobody")},
		"no user":        {Identifier: "x-api"},
		"missing Secret": {Identifier: "x-api", Username: new("dora"), KeySecretRef: &identityv1alpha1.SecretKeySelector{SecretReference: identityv1alpha1.SecretReference{Namespace: "ns", Name: "none"}, Key: "k"}},
		"bad intent":     {Identifier: "x-api", Username: new("dora"), Intent: new("recovery")},
	} {
		t.Run(name, func(t *testing.T) {
			e.Server.ResetCounts()
			if _, err := kind.Reconcile(e, newToken(p)); err == nil || !strings.Contains(err.Error(), "x-api") {
				t.Errorf("want an error naming the token, got %v", err)
			}
			if w := e.Writes(); len(w) != 0 {
				t.Errorf("writes: %v", w)
			}
		})
	}
	t.Run("set_key", func(t *testing.T) {
		e.Secret(t, "ns", "k2", map[string]string{"k": "v"})
		p := v1alpha1.TokenParameters{Identifier: "y-api", Username: new("dora"), KeySecretRef: &identityv1alpha1.SecretKeySelector{SecretReference: identityv1alpha1.SecretReference{Namespace: "ns", Name: "k2"}, Key: "k"}}
		e.Server.InjectFault(authentikapiserver.Fault{Method: "POST", PathPrefix: "/core/tokens/y-api/set_key/", Status: 503})
		defer e.Server.ClearFaults()
		if _, err := kind.Reconcile(e, newToken(p)); err == nil || !strings.Contains(err.Error(), "y-api") {
			t.Errorf("want an error naming the token, got %v", err)
		}
	})
	e.Server.InjectFault(authentikapiserver.Fault{Method: "DELETE", PathPrefix: "/core/tokens/", Status: 503})
	if err := kind.Delete(e, mg); err == nil || !strings.Contains(err.Error(), "dora-app") {
		t.Errorf("delete failure: %v", err)
	}
	e.Server.ClearFaults()
	if err := kind.Delete(e, mg); err != nil {
		t.Fatal(err)
	}
}
