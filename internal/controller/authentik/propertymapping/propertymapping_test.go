package propertymapping

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

var kind = authentiktest.Kind[mr, Object]{GroupKind: v1alpha1.PropertyMappingGroupKind.String(), NewDriver: newDriver}

func newMapping(p v1alpha1.PropertyMappingParameters) *v1alpha1.PropertyMapping {
	return &v1alpha1.PropertyMapping{ObjectMeta: metav1.ObjectMeta{Name: "m"}, Spec: v1alpha1.PropertyMappingSpec{ForProvider: p}}
}

func scopeSpec() v1alpha1.PropertyMappingParameters {
	return v1alpha1.PropertyMappingParameters{Name: "e-groups", Expression: "return {}", Scope: &v1alpha1.ScopeMapping{ScopeName: "groups"}}
}

func samlSpec() v1alpha1.PropertyMappingParameters {
	return v1alpha1.PropertyMappingParameters{Name: "e-uid", Expression: "return 1", SAML: &v1alpha1.SAMLPropertyMapping{SAMLName: "uid", FriendlyName: new("User ID")}}
}

// Each type is created through its endpoint once, never written in sync, and a change is one
// PATCH of that type's endpoint.
func TestMappingWritesOnlyWhatDiffers(t *testing.T) {
	cases := map[string]struct {
		spec            v1alpha1.PropertyMappingParameters
		change          func(*v1alpha1.PropertyMappingParameters)
		post, patch     string
		wantAfterChange string
	}{
		"scope": {
			spec: scopeSpec(), change: func(p *v1alpha1.PropertyMappingParameters) { p.Scope.Description = new("Your groups") },
			post: "POST /propertymappings/provider/scope/", patch: "PATCH /propertymappings/provider/scope/{pm_uuid}/",
			wantAfterChange: `"description":"Your groups"`,
		},
		"saml": {
			spec: samlSpec(), change: func(p *v1alpha1.PropertyMappingParameters) { p.SAML.FriendlyName = new("") },
			post: "POST /propertymappings/provider/saml/", patch: "PATCH /propertymappings/provider/saml/{pm_uuid}/",
			wantAfterChange: `"friendly_name":null`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e := authentiktest.New(t)
			mg := newMapping(tc.spec)
			if r, err := kind.Reconcile(e, mg); err != nil || !r.Created {
				t.Fatalf("first reconcile: want a create, got %+v, %v", r, err)
			}
			for range 2 {
				if r, err := kind.Reconcile(e, mg); err != nil || !r.Observation.ResourceUpToDate || r.Updated {
					t.Fatalf("reconcile in sync: want up to date, got %+v, %v", r, err)
				}
			}
			if diff := cmp.Diff(map[string]int{tc.post: 1}, e.Writes()); diff != "" {
				t.Errorf("writes: -want, +got:\n%s", diff)
			}
			tc.change(&mg.Spec.ForProvider)
			e.Server.ResetCounts()
			if r, err := kind.Reconcile(e, mg); err != nil || !r.Updated {
				t.Fatalf("reconcile after a change: want an update, got %+v, %v", r, err)
			}
			if diff := cmp.Diff(map[string]int{tc.patch: 1}, e.Writes()); diff != "" {
				t.Errorf("writes for one change: -want, +got:\n%s", diff)
			}
			path := "propertymappings/provider/" + name
			if raw := string(e.Raw(t, path, meta.GetExternalName(mg))); !strings.Contains(raw, tc.wantAfterChange) {
				t.Errorf("mapping after update: want %s in %s", tc.wantAfterChange, raw)
			}
			if got := mg.Status.AtProvider.Type; !strings.HasSuffix(got, "mapping") {
				t.Errorf("status type: %q", got)
			}
		})
	}
}

// A hand-made mapping with the name is left byte-identical; a name held by a mapping of the
// other type is refused with a message saying so.
func TestMappingHandMadeAndOtherType(t *testing.T) {
	e := authentiktest.New(t)
	raw := e.Seed(t, "propertymappings/provider/scope", map[string]any{"name": "e-groups", "expression": "return 2", "scope_name": "groups"})
	hm := map[string]any{}
	if err := json.Unmarshal(raw, &hm); err != nil {
		t.Fatal(err)
	}
	before := e.Raw(t, "propertymappings/provider/scope", hm["pk"].(string))
	if _, err := kind.Reconcile(e, newMapping(scopeSpec())); err == nil || !strings.Contains(err.Error(), "e-groups") {
		t.Fatalf("want a conflict naming the mapping, got %v", err)
	}
	if after := e.Raw(t, "propertymappings/provider/scope", hm["pk"].(string)); !bytes.Equal(before, after) {
		t.Errorf("hand-made mapping changed:\n%s\n%s", before, after)
	}
	other := samlSpec()
	other.Name = "e-groups"
	_, err := kind.Reconcile(e, newMapping(other))
	if err == nil || !strings.Contains(err.Error(), "another type") {
		t.Fatalf("a SAML mapping named like a scope mapping: want the other type named, got %v", err)
	}
	// The one request is the create authentik refused.
	if diff := cmp.Diff(map[string]int{"POST /propertymappings/provider/saml/": 1}, e.Writes()); diff != "" {
		t.Errorf("writes: -want, +got:\n%s", diff)
	}
}

// Every call's failure is reported, naming the mapping.
func TestMappingFailures(t *testing.T) {
	cases := map[string]struct {
		method, path string
		existing     bool
		change       bool
		delete       bool
	}{
		"list":      {method: "GET", path: "/propertymappings/provider/scope/"},
		"create":    {method: "POST", path: "/propertymappings/provider/scope/"},
		"retrieve":  {method: "GET", path: "/propertymappings/provider/scope/", existing: true},
		"patch":     {method: "PATCH", path: "/propertymappings/provider/scope/", existing: true, change: true},
		"providers": {method: "GET", path: "/providers/saml/", existing: true, delete: true},
		"delete":    {method: "DELETE", path: "/propertymappings/provider/scope/", existing: true, delete: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e := authentiktest.New(t)
			mg := newMapping(scopeSpec())
			if tc.existing {
				if _, err := kind.Reconcile(e, mg); err != nil {
					t.Fatal(err)
				}
			}
			if tc.change {
				mg.Spec.ForProvider.Expression = "return 3"
			}
			e.Server.InjectFault(authentikapiserver.Fault{Method: tc.method, PathPrefix: tc.path, Status: 503})
			var err error
			if tc.delete {
				err = kind.Delete(e, mg)
			} else {
				_, err = kind.Reconcile(e, mg)
			}
			if err == nil || !strings.Contains(err.Error(), "e-groups") && !strings.Contains(err.Error(), meta.GetExternalName(mg)) {
				t.Errorf("want an error naming the mapping, got %v", err)
			}
		})
	}
}

// A mapping a provider uses is not deleted: authentik would drop it from the provider.
func TestMappingDependents(t *testing.T) {
	e := authentiktest.New(t)
	mg := newMapping(samlSpec())
	if _, err := kind.Reconcile(e, mg); err != nil {
		t.Fatal(err)
	}
	pk := meta.GetExternalName(mg)
	e.Seed(t, "providers/saml", map[string]any{"name": "e-sp", "acs_url": "https://sp.example/acs", "property_mappings": []any{pk}})
	err := kind.Delete(e, mg)
	if err == nil || !strings.Contains(err.Error(), "e-sp") {
		t.Fatalf("delete while a provider uses the mapping: want it refused naming the provider, got %v", err)
	}
	if _, err := e.Server.Raw("propertymappings/provider/saml", pk); err != nil {
		t.Errorf("mapping deleted despite its provider: %v", err)
	}
}
