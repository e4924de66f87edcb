package outpost

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	api "goauthentik.io/api/v3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	nsv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/authentikapiserver"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/authentiktest"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/shared"
)

func ptr[T any](v T) *T { return &v }

var kind = authentiktest.Kind[mr, Observed]{
	GroupKind: v1alpha1.OutpostGroupKind.String(),
	NewDriver: func(c shared.Client) adoption.Driver[mr, Observed] { return New(c) },
}

// proxyProvider seeds a proxy provider and returns its ID.
func proxyProvider(t *testing.T, e *authentiktest.Env, name string) string {
	t.Helper()
	var p map[string]any
	if err := json.Unmarshal(e.Seed(t, "providers/proxy", map[string]any{"name": name, "external_host": "https://" + name + ".example.com", "mode": "forward_single"}), &p); err != nil {
		t.Fatal(err)
	}
	return strconv.Itoa(int(p["pk"].(float64)))
}

func newMR(name string, providers []string, mut ...func(*v1alpha1.Outpost)) *v1alpha1.Outpost {
	mg := &v1alpha1.Outpost{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: v1alpha1.OutpostSpec{ForProvider: v1alpha1.OutpostParameters{
			Name: name, Type: "proxy", ProxyProviderIDs: providers,
		}},
	}
	mg.Spec.WriteConnectionSecretToReference = &xpv2.SecretReference{Namespace: "crossplane-system", Name: name + "-outpost"}
	for _, m := range mut {
		m(mg)
	}
	return mg
}

func reconcile(t *testing.T, e *authentiktest.Env, mg mr) authentiktest.Result {
	t.Helper()
	r, err := kind.Reconcile(e, mg)
	if err != nil {
		t.Fatalf("reconcile %s: %v", mg.GetName(), err)
	}
	return r
}

func raw(t *testing.T, e *authentiktest.Env, id string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(e.Raw(t, "outposts/instances", id), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// publish stands in for the managed reconciler: it stores the connection details.
func publish(t *testing.T, e *authentiktest.Env, mg *v1alpha1.Outpost, cd map[string][]byte) {
	t.Helper()
	data := map[string]string{}
	for k, v := range cd {
		data[k] = string(v)
	}
	e.Secret(t, mg.Spec.WriteConnectionSecretToReference.Namespace, mg.Spec.WriteConnectionSecretToReference.Name, data)
}

func TestLifecycle(t *testing.T) {
	e := authentiktest.New(t)
	p1, p2 := proxyProvider(t, e, "app-1"), proxyProvider(t, e, "app-2")
	mg := newMR("edge", []string{p1}, func(mg *v1alpha1.Outpost) {
		mg.Spec.ForProvider.Config = &v1alpha1.OutpostConfig{LogLevel: ptr("debug"), AuthentikHost: ptr("https://auth.example.com"), KubernetesReplicas: ptr(int32(2))}
	})
	if r := reconcile(t, e, mg); !r.Created {
		t.Fatalf("not created: %+v", r)
	}
	id := meta.GetExternalName(mg)
	got := raw(t, e, id)
	cfg := got["config"].(map[string]any)
	if cfg["log_level"] != "debug" || cfg["kubernetes_replicas"] != float64(2) || cfg["identity.crossplane.io/provenance"] == nil {
		t.Errorf("created config: %v", cfg)
	}

	// The first observation publishes the token authentik made for the outpost.
	r := reconcile(t, e, mg)
	if !r.Observation.ResourceUpToDate {
		t.Fatalf("not up to date after create: %s", r.Observation.Diff)
	}
	tokenID := "ak-outpost-" + id + "-api"
	if string(r.Connection[ConnTokenIdentifier]) != tokenID || len(r.Connection[ConnToken]) == 0 || string(r.Connection[ConnURL]) != e.URL {
		t.Fatalf("connection details: %v", keys(r.Connection))
	}
	if mg.Status.AtProvider.TokenIdentifier != tokenID || mg.Status.AtProvider.Provenance != identityv1alpha1.Owned {
		t.Errorf("atProvider: %+v", mg.Status.AtProvider)
	}
	if strings.Contains(toJSON(t, mg.Status), string(r.Connection[ConnToken])) {
		t.Error("the token's key is in the status")
	}
	publish(t, e, mg, r.Connection)

	// In sync: nothing written, and the key is taken from the Secret, not asked for again.
	e.Server.ResetCounts()
	for range 3 {
		if r := reconcile(t, e, mg); !r.Observation.ResourceUpToDate || len(r.Connection[ConnToken]) == 0 {
			t.Fatalf("steady state: %s, %v", r.Observation.Diff, keys(r.Connection))
		}
	}
	if w := e.Writes(); len(w) != 0 {
		t.Errorf("an outpost in sync was written: %v", w)
	}
	if n := e.Server.Count("GET", "/core/tokens/{identifier}/view_key/"); n != 0 {
		t.Errorf("view_key called %d times with the key already published", n)
	}

	// A managed key changed by hand is reverted; a key set by hand that the spec does not
	// manage is kept; the second provider is added.
	if _, _, err := e.Client.API.OutpostsAPI.OutpostsInstancesPartialUpdate(e.Ctx, id).PatchedOutpostRequest(api.PatchedOutpostRequest{
		Config: merge(cfg, map[string]any{"log_level": "error", "docker_network": "hand"})}).Execute(); err != nil {
		t.Fatal(err)
	}
	mg.Spec.ForProvider.ProxyProviderIDs = []string{p2, p1}
	if r := reconcile(t, e, mg); !r.Updated {
		t.Fatalf("not updated: %+v", r.Observation)
	}
	got = raw(t, e, id)
	cfg = got["config"].(map[string]any)
	if cfg["log_level"] != "debug" || cfg["docker_network"] != "hand" || len(got["providers"].([]any)) != 2 {
		t.Errorf("after update: %v", got)
	}
	if r := reconcile(t, e, mg); !r.Observation.ResourceUpToDate {
		t.Errorf("provider order counted as drift: %s", r.Observation.Diff)
	}

	// Delete takes the service account and its token.
	if err := kind.Delete(e, mg); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Server.Raw("outposts/instances", id); err == nil {
		t.Error("outpost still exists")
	}
	if _, err := e.Server.Raw("core/tokens", tokenID); err == nil {
		t.Error("the outpost's token survived it")
	}
}

// A token authentik made again (a new UUID) is read again; a failing read is reported.
func TestTokenDetails(t *testing.T) {
	cases := map[string]struct {
		secret  func(id string) map[string][]byte
		fault   *authentikapiserver.Fault
		wantErr string
		viewKey int
	}{
		"NoSecretYet": {viewKey: 1},
		"StaleTokenUUID": {
			secret: func(id string) map[string][]byte {
				return map[string][]byte{ConnToken: []byte("old"), ConnTokenIdentifier: []byte("ak-outpost-" + id + "-api"), ConnTokenUUID: []byte("other")}
			},
			viewKey: 1,
		},
		"TokenReadFails": {
			fault:   &authentikapiserver.Fault{Method: "GET", PathPrefix: "/core/tokens/", Status: 503},
			wantErr: `cannot read the API token "ak-outpost-`,
		},
		"ViewKeyFails": {
			fault:   &authentikapiserver.Fault{Method: "GET", PathPrefix: "/core/tokens/ak-outpost-", Status: 503, Times: 2},
			wantErr: "cannot read the",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e := authentiktest.New(t)
			mg := newMR("edge", []string{proxyProvider(t, e, "app")})
			reconcile(t, e, mg)
			id := meta.GetExternalName(mg)
			if tc.secret != nil {
				publish(t, e, mg, tc.secret(id))
			}
			if tc.fault != nil {
				e.Server.InjectFault(*tc.fault)
			}
			e.Server.ResetCounts()
			r, err := kind.Reconcile(e, mg)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("got %v, want an error containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if n := e.Server.Count("GET", "/core/tokens/{identifier}/view_key/"); n != tc.viewKey || string(r.Connection[ConnToken]) == "old" {
				t.Errorf("view_key called %d times (want %d), token %q", n, tc.viewKey, r.Connection[ConnToken])
			}
		})
	}
}

// Hand-made outposts: AdoptionRequired and byte-identical under FailOnConflict; the embedded
// outpost is adopted only under AdoptExisting and is never deleted.
func TestHandMadeAndEmbedded(t *testing.T) {
	e := authentiktest.New(t)
	p := proxyProvider(t, e, "app")
	var hand map[string]any
	if err := json.Unmarshal(e.Seed(t, "outposts/instances", map[string]any{"name": "edge", "type": "proxy", "providers": []any{json.Number(p)}, "config": map[string]any{"log_level": "info"}}), &hand); err != nil {
		t.Fatal(err)
	}
	before := e.Raw(t, "outposts/instances", hand["pk"].(string))
	e.Server.ResetCounts()
	_, err := kind.Reconcile(e, newMR("edge", []string{p}))
	var ce *adoption.ConflictError
	if !errors.As(err, &ce) || len(e.Writes()) != 0 || !bytes.Equal(before, e.Raw(t, "outposts/instances", hand["pk"].(string))) {
		t.Fatalf("hand-made outpost: %v, writes %v", err, e.Writes())
	}

	emb := newMR("authentik Embedded Outpost", []string{p}, func(mg *v1alpha1.Outpost) { mg.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting })
	if _, err := kind.Reconcile(e, emb); err != nil {
		t.Fatal(err)
	}
	if r := reconcile(t, e, emb); !r.Observation.ResourceUpToDate || emb.Status.AtProvider.Managed != Embedded || emb.Status.AtProvider.Provenance != identityv1alpha1.Adopted {
		t.Fatalf("embedded outpost after adoption: %+v %s", emb.Status.AtProvider, r.Observation.Diff)
	}
	err = kind.Delete(e, emb)
	if err == nil || !strings.Contains(err.Error(), "is authentik's embedded outpost") {
		t.Fatalf("deleting the embedded outpost: %v", err)
	}
	if _, err := e.Server.Raw("outposts/instances", meta.GetExternalName(emb)); err != nil {
		t.Errorf("embedded outpost deleted: %v", err)
	}
}

// Tokens someone made for the outpost's service account go with it: the delete waits.
func TestDeleteWithForeignToken(t *testing.T) {
	e := authentiktest.New(t)
	mg := newMR("edge", []string{proxyProvider(t, e, "app")})
	reconcile(t, e, mg)
	id := meta.GetExternalName(mg)
	sa := ServiceAccount(id)
	l, _, err := e.Client.API.CoreAPI.CoreUsersList(e.Ctx).Username(sa).Execute()
	if err != nil || len(l.Results) != 1 {
		t.Fatalf("service account %s: %v", sa, err)
	}
	e.Seed(t, "core/tokens", map[string]any{"identifier": "by-hand", "intent": "api", "user": l.Results[0].Pk})
	err = kind.Delete(e, mg)
	var be *adoption.DeletionBlockedError
	if !errors.As(err, &be) || !strings.Contains(mg.GetCondition(adoption.TypeDeletionBlocked).Message, "by-hand") {
		t.Fatalf("got %v (%s), want the delete blocked naming the token", err, mg.GetCondition(adoption.TypeDeletionBlocked).Message)
	}
	e.Server.InjectFault(authentikapiserver.Fault{Method: "GET", PathPrefix: "/core/tokens/", Status: 503})
	if _, err := New(e.Client).Dependents(e.Ctx, mg, Observed{Outpost: api.Outpost{Pk: id, Name: "edge"}}); err == nil || !strings.Contains(err.Error(), "cannot list the API tokens of the service account") {
		t.Errorf("token list failure: %v", err)
	}
}

func TestValidate(t *testing.T) {
	cases := map[string]struct {
		mut     func(*v1alpha1.Outpost)
		wantErr string
	}{
		"NoProviders":       {mut: func(mg *v1alpha1.Outpost) { mg.Spec.ForProvider.ProxyProviderIDs = nil }, wantErr: "serves no provider yet"},
		"LDAPWithProxyOnly": {mut: func(mg *v1alpha1.Outpost) { mg.Spec.ForProvider.Type = "ldap" }, wantErr: "ldapProviderRefs"},
		"BadHost": {mut: func(mg *v1alpha1.Outpost) {
			mg.Spec.ForProvider.Config = &v1alpha1.OutpostConfig{AuthentikHost: ptr("ftp://x")}
		}, wantErr: "spec.forProvider.config.authentikHost"},
		"BadProviderID": {mut: func(mg *v1alpha1.Outpost) { mg.Spec.ForProvider.ProxyProviderIDs = []string{"x"} }, wantErr: `provider ID "x"`},
		"WrongTypeForAuthentik": {mut: func(mg *v1alpha1.Outpost) {
			mg.Spec.ForProvider.Type = "ldap"
			mg.Spec.ForProvider.LDAPProviderIDs = mg.Spec.ForProvider.ProxyProviderIDs
		}, wantErr: "Outpost type ldap can't be used with ProxyProvider providers"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e := authentiktest.New(t)
			_, err := kind.Reconcile(e, newMR("edge", []string{proxyProvider(t, e, "app")}, tc.mut))
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("got %v, want an error containing %q", err, tc.wantErr)
			}
		})
	}
}

func TestNamespaced(t *testing.T) {
	e := authentiktest.New(t)
	nsKind := authentiktest.Kind[mr, Observed]{GroupKind: nsv1alpha1.OutpostGroupKind.String(), NewDriver: kind.NewDriver}
	mg := &nsv1alpha1.Outpost{
		ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "edge"},
		Spec:       nsv1alpha1.OutpostSpec{ForProvider: newMR("edge", []string{proxyProvider(t, e, "app")}).Spec.ForProvider},
	}
	mg.Spec.WriteConnectionSecretToReference = &xpv2.LocalSecretReference{Name: "edge-outpost"}
	if r, err := nsKind.Reconcile(e, mg); err != nil || !r.Created {
		t.Fatalf("first reconcile: %v", err)
	}
	r, err := nsKind.Reconcile(e, mg)
	if err != nil || !r.Observation.ResourceUpToDate || len(r.Connection[ConnToken]) == 0 {
		t.Fatalf("second reconcile: %+v, %v", r.Observation, err)
	}
}

func keys(cd map[string][]byte) []string {
	out := make([]string, 0, len(cd))
	for k := range cd {
		out = append(out, k)
	}
	return out
}

func merge(a, b map[string]any) map[string]any {
	out := map[string]any{}
	for _, m := range []map[string]any{a, b} {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

func toJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var _ = cmp.Diff
