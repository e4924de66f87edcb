package ldapprovider

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

	"github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	nsv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/authentikapiserver"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/authentiktest"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/shared"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

func ptr[T any](v T) *T { return &v }

var kind = authentiktest.Kind[mr, Observed]{
	GroupKind: v1alpha1.LDAPProviderGroupKind.String(),
	NewDriver: func(c shared.Client) adoption.Driver[mr, Observed] { return New(c) },
}

// newMR is the LDAPProvider "directory" every test uses.
func newMR(mut ...func(*v1alpha1.LDAPProvider)) *v1alpha1.LDAPProvider {
	const name = "directory"
	mg := &v1alpha1.LDAPProvider{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: v1alpha1.LDAPProviderSpec{ForProvider: v1alpha1.LDAPProviderParameters{
			Name:              name,
			AuthorizationFlow: ptr("default-authentication-flow"),
			InvalidationFlow:  ptr("default-invalidation-flow"),
		}},
	}
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
	if err := json.Unmarshal(e.Raw(t, "providers/ldap", id), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestLifecycle(t *testing.T) {
	e := authentiktest.New(t)
	mg := newMR(func(mg *v1alpha1.LDAPProvider) {
		fp := &mg.Spec.ForProvider
		fp.BaseDN = ptr("DC=ldap,DC=example,DC=com")
		fp.BindMode = ptr("cached")
		fp.SearchMode = ptr("cached")
		fp.MFASupport = ptr(false)
		fp.UIDStartNumber = ptr(int32(5000))
		fp.Certificate = ptr("authentik Self-signed Certificate")
		fp.TLSServerName = ptr("ldap.example.com")
	})
	if r := reconcile(t, e, mg); !r.Created {
		t.Fatalf("not created: %+v", r)
	}
	id := meta.GetExternalName(mg)
	got := raw(t, e, id)
	want := map[string]any{"base_dn": "DC=ldap,DC=example,DC=com", "bind_mode": "cached", "search_mode": "cached", "mfa_support": false,
		"uid_start_number": float64(5000), "gid_start_number": float64(4000), "tls_server_name": "ldap.example.com"}
	for k, v := range want {
		if diff := cmp.Diff(v, got[k]); diff != "" {
			t.Errorf("%s: -want +got:\n%s", k, diff)
		}
	}
	if got["certificate"] == nil {
		t.Error("certificate not set")
	}

	e.Server.ResetCounts()
	for range 3 {
		if r := reconcile(t, e, mg); !r.Observation.ResourceUpToDate {
			t.Fatalf("not up to date: %s", r.Observation.Diff)
		}
	}
	if w := e.Writes(); len(w) != 0 {
		t.Fatalf("an LDAP provider in sync was written: %v", w)
	}
	if a := mg.Status.AtProvider; a.ID != id || a.BaseDN != "DC=ldap,DC=example,DC=com" || a.Provenance != identityv1alpha1.Owned {
		t.Errorf("atProvider: %+v", a)
	}

	// A change by hand to a managed field is reverted with a PATCH of that field alone; an
	// unmanaged one stays.
	pk, err := shared.ParsePK(id)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.Client.API.ProvidersAPI.ProvidersLdapPartialUpdate(e.Ctx, pk).PatchedLDAPProviderRequest(api.PatchedLDAPProviderRequest{
		BindMode: ptr(api.LDAPAPIACCESSMODE_DIRECT), GidStartNumber: ptr(int32(7000))}).Execute(); err != nil {
		t.Fatal(err)
	}
	e.Server.ResetCounts()
	if r := reconcile(t, e, mg); !r.Updated {
		t.Fatalf("drift not corrected: %+v", r.Observation)
	}
	if got := raw(t, e, id); got["bind_mode"] != "cached" || got["gid_start_number"] != float64(7000) {
		t.Errorf("after update: %v", got)
	}
	if diff := cmp.Diff(map[string]int{"PATCH /providers/ldap/{id}/": 1}, e.Writes()); diff != "" {
		t.Errorf("writes: -want +got:\n%s", diff)
	}

	if err := kind.Delete(e, mg); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Server.Raw("providers/ldap", id); err == nil {
		t.Error("provider still exists after delete")
	}
}

// The bind and invalidation flows come from references; until they resolve nothing is written.
func TestUnresolvedFlow(t *testing.T) {
	cases := map[string]struct {
		mut     func(*v1alpha1.LDAPProvider)
		wantErr string
	}{
		"NoBindFlow": {
			mut:     func(mg *v1alpha1.LDAPProvider) { mg.Spec.ForProvider.AuthorizationFlow = nil },
			wantErr: "spec.forProvider.authorizationFlow of LDAPProvider \"directory\" is not set",
		},
		"NoInvalidationFlow": {
			mut:     func(mg *v1alpha1.LDAPProvider) { mg.Spec.ForProvider.InvalidationFlow = nil },
			wantErr: "spec.forProvider.invalidationFlow of LDAPProvider \"directory\" is not set",
		},
		"EmptyInvalidationFlow": {
			mut:     func(mg *v1alpha1.LDAPProvider) { mg.Spec.ForProvider.InvalidationFlow = ptr("") },
			wantErr: `spec.forProvider.invalidationFlow "" is not an authentik slug`,
		},
		"MissingFlow": {
			mut:     func(mg *v1alpha1.LDAPProvider) { mg.Spec.ForProvider.AuthorizationFlow = ptr("no-such-flow") },
			wantErr: `flow "no-such-flow", named in spec.forProvider.authorizationFlow, does not exist`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e := authentiktest.New(t)
			_, err := kind.Reconcile(e, newMR(tc.mut))
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("got %v, want an error containing %q", err, tc.wantErr)
			}
			if w := e.Writes(); len(w) != 0 {
				t.Errorf("writes: %v", w)
			}
		})
	}
}

// Every failing call is reported naming the provider; nothing is half-written.
func TestInjectedFailures(t *testing.T) {
	cases := map[string]struct {
		fault   authentikapiserver.Fault
		wantErr string
	}{
		"List":   {authentikapiserver.Fault{Method: "GET", PathPrefix: "/providers/ldap/", Status: 503}, `cannot look up authentik LDAP providers named "directory"`},
		"Flow":   {authentikapiserver.Fault{Method: "GET", PathPrefix: "/flows/instances/", Status: 503}, `cannot read flow "default-authentication-flow"`},
		"Create": {authentikapiserver.Fault{Method: "POST", PathPrefix: "/providers/ldap/", Status: 500}, `cannot create authentik LDAP provider "directory"`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e := authentiktest.New(t)
			e.Server.InjectFault(tc.fault)
			_, err := kind.Reconcile(e, newMR())
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("got %v, want an error containing %q", err, tc.wantErr)
			}
		})
	}
}

// A hand-made provider with the name is AdoptionRequired under FailOnConflict, left
// byte-identical; under AdoptExisting it is taken over with the spec's fields.
func TestHandMade(t *testing.T) {
	for _, policy := range []identityv1alpha1.AdoptionPolicy{identityv1alpha1.FailOnConflict, identityv1alpha1.AdoptExisting} {
		t.Run(string(policy), func(t *testing.T) {
			e := authentiktest.New(t)
			var p map[string]any
			if err := json.Unmarshal(e.Seed(t, "providers/ldap", map[string]any{"name": "directory", "base_dn": "DC=hand"}), &p); err != nil {
				t.Fatal(err)
			}
			id := strconv.Itoa(int(p["pk"].(float64)))
			before := e.Raw(t, "providers/ldap", id)
			mg := newMR(func(mg *v1alpha1.LDAPProvider) {
				mg.Spec.ForProvider.BaseDN = ptr("DC=ours")
				mg.Spec.AdoptionPolicy = policy
			})
			_, err := kind.Reconcile(e, mg)
			var ce *adoption.ConflictError
			if policy == identityv1alpha1.FailOnConflict {
				if !errors.As(err, &ce) || !bytes.Equal(before, e.Raw(t, "providers/ldap", id)) {
					t.Fatalf("want AdoptionRequired and the provider untouched, got %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r := reconcile(t, e, mg); !r.Observation.ResourceUpToDate {
				t.Fatalf("adopted provider not up to date: %s", r.Observation.Diff)
			}
			if got := raw(t, e, id); got["base_dn"] != "DC=ours" || meta.GetExternalName(mg) != id || mg.Status.AtProvider.Provenance != identityv1alpha1.Adopted {
				t.Errorf("after adoption: %v, external name %q, %+v", got, meta.GetExternalName(mg), mg.Status.AtProvider)
			}
		})
	}
}

// An outpost serving the provider is changed by its delete: the engine refuses while a
// hand-made one (or the embedded outpost) serves it.
func TestDeleteWhileAnOutpostServesIt(t *testing.T) {
	e := authentiktest.New(t)
	mg := newMR()
	reconcile(t, e, mg)
	pk, err := shared.ParsePK(meta.GetExternalName(mg))
	if err != nil {
		t.Fatal(err)
	}
	e.Seed(t, "outposts/instances", map[string]any{"name": "ldap-hand", "type": "ldap", "providers": []any{pk}, "config": map[string]any{}})
	err = kind.Delete(e, mg)
	var be *adoption.DeletionBlockedError
	if !errors.As(err, &be) {
		t.Fatalf("got %v, want the deletion blocked", err)
	}
	if m := mg.GetCondition(adoption.TypeDeletionBlocked).Message; !strings.Contains(m, `authentik outpost "ldap-hand`) {
		t.Errorf("DeletionBlocked message %q does not name the outpost", m)
	}
	if _, err := e.Server.Raw("providers/ldap", meta.GetExternalName(mg)); err != nil {
		t.Errorf("provider deleted although an outpost serves it: %v", err)
	}
}

func TestNamespaced(t *testing.T) {
	e := authentiktest.New(t)
	nsKind := authentiktest.Kind[mr, Observed]{GroupKind: nsv1alpha1.LDAPProviderGroupKind.String(), NewDriver: kind.NewDriver}
	mg := &nsv1alpha1.LDAPProvider{
		ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "directory"},
		Spec:       nsv1alpha1.LDAPProviderSpec{ForProvider: newMR().Spec.ForProvider},
	}
	if r, err := nsKind.Reconcile(e, mg); err != nil || !r.Created {
		t.Fatalf("first reconcile: created %v, %v", r.Created, err)
	}
	if r, err := nsKind.Reconcile(e, mg); err != nil || !r.Observation.ResourceUpToDate {
		t.Fatalf("second reconcile: %+v, %v", r.Observation, err)
	}
	m, err := provenance.Parse(mg.GetAnnotations()[adoption.AnnotationMarker])
	if want := "LDAPProvider.authentik.identity.m.crossplane.io/team-a/directory"; err != nil || m.Resource != want {
		t.Errorf("marker %+v (%v), want resource %s", m, err, want)
	}
}
