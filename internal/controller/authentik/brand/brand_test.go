package brand

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	api "goauthentik.io/api/v3"
	extv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"

	"github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/authentikapiserver"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/authentiktest"
)

var kind = authentiktest.Kind[mr, api.Brand]{GroupKind: v1alpha1.BrandGroupKind.String(), NewDriver: newDriver}

func newBrand(p v1alpha1.BrandParameters) *v1alpha1.Brand {
	return &v1alpha1.Brand{ObjectMeta: metav1.ObjectMeta{Name: "b"}, Spec: v1alpha1.BrandSpec{ForProvider: p}}
}

// A brand is created once with its flows, application and attributes resolved and marked;
// a brand in sync is never written; a change is one PATCH of that field; keys set in
// authentik by others are kept.
func TestBrandWritesOnlyWhatDiffers(t *testing.T) {
	e := authentiktest.New(t)
	app := e.Seed(t, "core/applications", map[string]any{"name": "Portal", "slug": "portal"})
	mg := newBrand(v1alpha1.BrandParameters{
		Domain: "id.example.com", BrandingTitle: new("Example"), AuthenticationFlow: new("default-authentication-flow"),
		DefaultApplication: new("portal"), Attributes: v1alpha1.Attributes{"settings": extv1.JSON{Raw: []byte(`{"locale":"de"}`)}},
	})
	if r, err := kind.Reconcile(e, mg); err != nil || !r.Created {
		t.Fatalf("first reconcile: want a create, got %+v, %v", r, err)
	}
	for range 2 {
		if r, err := kind.Reconcile(e, mg); err != nil || !r.Observation.ResourceUpToDate || r.Updated {
			t.Fatalf("reconcile in sync: want up to date, got %+v, %v", r, err)
		}
	}
	if diff := cmp.Diff(map[string]int{"POST /core/brands/": 1}, e.Writes()); diff != "" {
		t.Errorf("writes: -want, +got:\n%s", diff)
	}
	raw := string(e.Raw(t, "core/brands", meta.GetExternalName(mg)))
	for _, want := range []string{`"identity.crossplane.io/provenance":"installation=test-installation`, `"locale":"de"`, `"branding_title":"Example"`} {
		if !strings.Contains(raw, want) {
			t.Errorf("brand lacks %s: %s", want, raw)
		}
	}
	if !strings.Contains(raw, string(app[bytes.Index(app, []byte(`"pk":"`))+6:][:36])) {
		t.Errorf("brand lacks the application's pk: %s", raw)
	}
	if mg.Status.AtProvider.Flows["authentication"] == "" || mg.Status.AtProvider.DefaultApplicationID == "" {
		t.Errorf("status: %+v", mg.Status.AtProvider)
	}

	mg.Spec.ForProvider.BrandingTitle = new("Example 2")
	e.Server.ResetCounts()
	if r, err := kind.Reconcile(e, mg); err != nil || !r.Updated {
		t.Fatalf("after a change: want an update, got %+v, %v", r, err)
	}
	if diff := cmp.Diff(map[string]int{"PATCH /core/brands/{brand_uuid}/": 1}, e.Writes()); diff != "" {
		t.Errorf("writes for one change: -want, +got:\n%s", diff)
	}
	if raw := string(e.Raw(t, "core/brands", meta.GetExternalName(mg))); !strings.Contains(raw, `"locale":"de"`) || !strings.Contains(raw, `"Example 2"`) {
		t.Errorf("brand after the update: %s", raw)
	}
}

// authentik's default brand carries no marker: a Brand with its domain is refused and writes
// nothing; adopting it explicitly writes the marker alone; a second default brand is refused
// naming the one that is.
func TestBrandDefaultBrand(t *testing.T) {
	e := authentiktest.New(t)
	l, _, err := e.Client.API.CoreAPI.CoreBrandsList(e.Ctx).Domain("authentik-default").Execute()
	if err != nil || len(l.Results) != 1 {
		t.Fatal(l, err)
	}
	id := l.Results[0].BrandUuid
	before := e.Raw(t, "core/brands", id)
	mg := newBrand(v1alpha1.BrandParameters{Domain: "authentik-default"})
	if _, err := kind.Reconcile(e, mg); err == nil || !strings.Contains(err.Error(), "authentik-default") {
		t.Fatalf("the default brand without adoption: want a conflict, got %v", err)
	}
	if w := e.Writes(); len(w) != 0 || !bytes.Equal(before, e.Raw(t, "core/brands", id)) {
		t.Errorf("the default brand was written: %v", w)
	}

	other := newBrand(v1alpha1.BrandParameters{Domain: "second.example.com", Default: new(true)})
	other.Name = "other"
	_, err = kind.Reconcile(e, other)
	if err == nil || !strings.Contains(err.Error(), `brand "authentik-default"`) || !strings.Contains(err.Error(), "one default brand") {
		t.Errorf("a second default brand: want the default one named, got %v", err)
	}

	mg.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting
	if r, err := kind.Reconcile(e, mg); err != nil || !r.Updated {
		t.Fatalf("adopting the default brand: want an update, got %+v, %v", r, err)
	}
	after := e.Raw(t, "core/brands", id)
	if !strings.Contains(string(after), authentik.MarkerAttribute) || !strings.Contains(string(after), `"default":true`) {
		t.Errorf("adopted default brand: %s", after)
	}
}

// Every call's failure names the brand or the field; a missing flow or application names the
// spec field and writes nothing.
func TestBrandFailures(t *testing.T) {
	e := authentiktest.New(t)
	for name, p := range map[string]v1alpha1.BrandParameters{
		"missing flow":        {Domain: "x.example.com", RecoveryFlow: new("nope")},
		"missing application": {Domain: "x.example.com", DefaultApplication: new("nope")},
		"reserved attribute":  {Domain: "x.example.com", Attributes: v1alpha1.Attributes{authentik.MarkerAttribute: extv1.JSON{Raw: []byte(`"x"`)}}},
		"blank title":         {Domain: "x.example.com", BrandingTitle: new(" ")},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := kind.Reconcile(e, newBrand(p))
			if err == nil {
				t.Fatal("want an error")
			}
			if w := e.Writes(); len(w) != 0 {
				t.Errorf("writes: %v", w)
			}
		})
	}
	mg := newBrand(v1alpha1.BrandParameters{Domain: "f.example.com"})
	if _, err := kind.Reconcile(e, mg); err != nil {
		t.Fatal(err)
	}
	id := meta.GetExternalName(mg)
	mg.Spec.ForProvider.BrandingTitle = new("T")
	for name, f := range map[string]authentikapiserver.Fault{
		"retrieve": {Method: "GET", PathPrefix: "/core/brands/" + id, Status: 503},
		"patch":    {Method: "PATCH", PathPrefix: "/core/brands/", Status: 503},
		"flow":     {Method: "GET", PathPrefix: "/flows/instances/", Status: 503},
	} {
		t.Run(name, func(t *testing.T) {
			if name == "flow" {
				mg.Spec.ForProvider.RecoveryFlow = new("default-authentication-flow")
				defer func() { mg.Spec.ForProvider.RecoveryFlow = nil }()
			}
			e.Server.InjectFault(f)
			defer e.Server.ClearFaults()
			if _, err := kind.Reconcile(e, mg); err == nil || !strings.Contains(err.Error(), "brand") && !strings.Contains(err.Error(), "flow") {
				t.Errorf("want an error naming the brand or flow, got %v", err)
			}
		})
	}
	e.Server.InjectFault(authentikapiserver.Fault{Method: "POST", PathPrefix: "/core/brands/", Status: 503})
	if _, err := kind.Reconcile(e, newBrand(v1alpha1.BrandParameters{Domain: "g.example.com"})); err == nil || !strings.Contains(err.Error(), "g.example.com") {
		t.Errorf("create failure: want an error naming the domain, got %v", err)
	}
	e.Server.InjectFault(authentikapiserver.Fault{Method: "DELETE", PathPrefix: "/core/brands/", Status: 503})
	if err := kind.Delete(e, mg); err == nil || !strings.Contains(err.Error(), "f.example.com") {
		t.Errorf("delete failure: want an error naming the domain, got %v", err)
	}
	e.Server.ClearFaults()
	if err := kind.Delete(e, mg); err != nil {
		t.Fatal(err)
	}
}
