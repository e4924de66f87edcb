package application

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	api "goauthentik.io/api/v3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"

	"github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/authentiktest"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/shared"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

var kind = authentiktest.Kind[mr, api.Application]{
	GroupKind: v1alpha1.ApplicationGroupKind.String(),
	NewDriver: func(c shared.Client) adoption.Driver[mr, api.Application] { return New(c) },
}

func newMR(name string, mut ...func(*v1alpha1.Application)) *v1alpha1.Application {
	mg := &v1alpha1.Application{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: v1alpha1.ApplicationSpec{ForProvider: v1alpha1.ApplicationParameters{
			Name: strings.ToUpper(name[:1]) + name[1:], Slug: name, Description: ptr("made by " + name),
		}},
	}
	for _, m := range mut {
		m(mg)
	}
	return mg
}

func reconcile(t *testing.T, e *authentiktest.Env, mg *v1alpha1.Application) authentiktest.Result {
	t.Helper()
	r, err := kind.Reconcile(e, mg)
	if err != nil {
		t.Fatalf("reconcile %s: %v", mg.Name, err)
	}
	return r
}

func raw(t *testing.T, e *authentiktest.Env, slug string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(e.Raw(t, "core/applications", slug), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func markerOf(t *testing.T, description any) provenance.Marker {
	t.Helper()
	_, m, found, err := provenance.ExtractFromText(description.(string))
	if !found || err != nil {
		t.Fatalf("no readable marker in %q: %v", description, err)
	}
	return m
}

func TestLifecycle(t *testing.T) {
	e := authentiktest.New(t)
	var p map[string]any
	if err := json.Unmarshal(e.Seed(t, "providers/oauth2", map[string]any{"name": "grafana"}), &p); err != nil {
		t.Fatal(err)
	}
	providerID := strconv.Itoa(int(p["pk"].(float64)))

	mg := newMR("grafana", func(mg *v1alpha1.Application) {
		fp := &mg.Spec.ForProvider
		fp.OAuth2ProviderID = &providerID
		fp.Group = ptr("Monitoring")
		fp.LaunchURL = ptr("https://grafana.example.com")
		fp.Hidden = ptr(false)
		fp.OpenInNewTab = ptr(true)
		fp.PolicyEngineMode = ptr("all")
	})
	if r := reconcile(t, e, mg); !r.Created || meta.GetExternalName(mg) != "grafana" {
		t.Fatalf("create: %+v, external name %q", r, meta.GetExternalName(mg))
	}
	got := raw(t, e, "grafana")
	rest, _, _, _ := provenance.ExtractFromText(got["meta_description"].(string))
	m := markerOf(t, got["meta_description"])
	if rest != "made by grafana" || m.Installation != authentiktest.Installation || m.Resource != "Application.authentik.identity.crossplane.io/grafana" || m.Origin != provenance.OriginCreated {
		t.Errorf("description %q, marker %+v", got["meta_description"], m)
	}
	if got["provider"] != p["pk"] || got["group"] != "Monitoring" || got["open_in_new_tab"] != true || got["policy_engine_mode"] != "all" {
		t.Errorf("application fields: %v", got)
	}

	e.Server.ResetCounts()
	for range 3 {
		if r := reconcile(t, e, mg); !r.Observation.ResourceUpToDate || r.Updated {
			t.Fatalf("application in sync reported as changed: %s", r.Observation.Diff)
		}
	}
	if w := e.Writes(); len(w) != 0 {
		t.Fatalf("an application in sync was written: %v", w)
	}
	if mg.Status.AtProvider.ProviderID != providerID || mg.Status.AtProvider.Provenance != identityv1alpha1.Owned || mg.Status.AtProvider.LaunchURL != "https://grafana.example.com" {
		t.Errorf("atProvider: %+v", mg.Status.AtProvider)
	}

	// A new description keeps the marker below it.
	mg.Spec.ForProvider.Description = ptr("Dashboards\nand alerts")
	if r := reconcile(t, e, mg); !r.Updated {
		t.Fatal("description change not written")
	}
	desc := raw(t, e, "grafana")["meta_description"].(string)
	if rest, _, _, _ := provenance.ExtractFromText(desc); rest != "Dashboards\nand alerts" || markerOf(t, desc) != m {
		t.Errorf("description after update: %q", desc)
	}

	ext := kind.External(e)
	if _, err := ext.Observe(e.Ctx, mg); err != nil {
		t.Fatal(err)
	}
	if _, err := ext.Delete(e.Ctx, mg); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Server.Raw("core/applications", "grafana"); err == nil {
		t.Error("application still exists after delete")
	}
	if _, err := e.Server.Raw("providers/oauth2", providerID); err != nil {
		t.Errorf("deleting the application deleted its provider: %v", err)
	}
}

// ADR-0002 case 3: a hand-made application is left byte-identical under FailOnConflict.
func TestHandMadeFailOnConflict(t *testing.T) {
	e := authentiktest.New(t)
	e.Seed(t, "core/applications", map[string]any{"name": "Wiki", "slug": "wiki", "meta_description": "tuned by hand"})
	before := e.Raw(t, "core/applications", "wiki")
	e.Server.ResetCounts()

	mg := newMR("wiki")
	_, err := kind.Reconcile(e, mg)
	var ce *adoption.ConflictError
	if !errors.As(err, &ce) || ce.ForeignInstallation != "" {
		t.Fatalf("want AdoptionRequired, got %v", err)
	}
	for _, want := range []string{"authentik application", `"wiki"`, "spec.adoptionPolicy: AdoptExisting"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message %q lacks %q", err, want)
		}
	}
	// The first create is tried, with nothing looked up before it (adoption.TwinRefuser), and
	// refused by authentik: the only write request, and it changed nothing.
	if w := e.Writes(); !cmp.Equal(w, map[string]int{"POST /core/applications/": 1}) {
		t.Errorf("writes under FailOnConflict: want only the refused first create, got %v", w)
	}
	if after := e.Raw(t, "core/applications", "wiki"); !bytes.Equal(before, after) {
		t.Errorf("hand-made application changed:\nbefore %s\nafter  %s", before, after)
	}
}

// ADR-0002 case 4: another installation's application is never adopted.
func TestForeignInstallation(t *testing.T) {
	e := authentiktest.New(t)
	foreign := provenance.Marker{Installation: "other-cluster", Resource: "Application.authentik.identity.crossplane.io/wiki", Origin: provenance.OriginCreated}
	e.Seed(t, "core/applications", map[string]any{"name": "Wiki", "slug": "wiki", "meta_description": provenance.EmbedInText("theirs", foreign)})
	before := e.Raw(t, "core/applications", "wiki")
	e.Server.ResetCounts()

	mg := newMR("wiki", func(mg *v1alpha1.Application) { mg.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting })
	_, err := kind.Reconcile(e, mg)
	var ce *adoption.ConflictError
	if !errors.As(err, &ce) || ce.ForeignInstallation != "other-cluster" {
		t.Fatalf("want a conflict naming other-cluster, got %v", err)
	}
	if w := e.Writes(); len(w) != 0 {
		t.Errorf("writes to another installation's application: %v", w)
	}
	if after := e.Raw(t, "core/applications", "wiki"); !bytes.Equal(before, after) {
		t.Errorf("another installation's application changed")
	}
}

// ADR-0002 case 5: AdoptExisting stamps the marker; a description the spec does not set is kept.
func TestAdoptExisting(t *testing.T) {
	e := authentiktest.New(t)
	e.Seed(t, "core/applications", map[string]any{"name": "Wiki", "slug": "wiki", "meta_description": "tuned by hand", "group": "Docs"})

	mg := newMR("wiki", func(mg *v1alpha1.Application) {
		mg.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting
		mg.Spec.ForProvider.Description = nil
		mg.Spec.ForProvider.Group = ptr("Knowledge")
	})
	if r := reconcile(t, e, mg); !r.Updated {
		t.Fatalf("adoption did not update: %+v", r)
	}
	got := raw(t, e, "wiki")
	rest, m, found, err := provenance.ExtractFromText(got["meta_description"].(string))
	if !found || err != nil || rest != "tuned by hand" || m.Origin != provenance.OriginAdopted || m.Installation != authentiktest.Installation {
		t.Errorf("adopted description %q (marker %+v, %v)", got["meta_description"], m, err)
	}
	if got["group"] != "Knowledge" {
		t.Errorf("group not reconciled: %v", got["group"])
	}
	r := reconcile(t, e, mg)
	if !r.Observation.ResourceUpToDate || mg.Status.AtProvider.Provenance != identityv1alpha1.Adopted {
		t.Errorf("after adoption: up to date %v, provenance %q", r.Observation.ResourceUpToDate, mg.Status.AtProvider.Provenance)
	}

	// The policy governs acquisition only.
	mg.Spec.AdoptionPolicy = identityv1alpha1.FailOnConflict
	if r := reconcile(t, e, mg); !r.Observation.ResourceUpToDate {
		t.Errorf("an adopted application is no longer managed under FailOnConflict")
	}
}

// ADR-0002 cases 1 and 2: a resource deleted with deletionPolicy Orphan and created again
// recognises its application by the marker, under FailOnConflict.
func TestRecreatedResource(t *testing.T) {
	e := authentiktest.New(t)
	reconcile(t, e, newMR("wiki"))

	again := newMR("wiki", func(mg *v1alpha1.Application) { mg.Spec.ForProvider.Description = ptr("second life") })
	// Its first create is refused (the slug is taken), and the twin, marked as this resource's,
	// is bound in its place: the create makes nothing. The next reconcile updates it.
	e.Server.ResetCounts()
	if r := reconcile(t, e, again); meta.GetExternalName(again) != "wiki" {
		t.Fatalf("recreated resource's first reconcile: %+v, external name %q", r, meta.GetExternalName(again))
	}
	if w := e.Writes(); !cmp.Equal(w, map[string]int{"POST /core/applications/": 1}) {
		t.Fatalf("recreated resource's first reconcile: want only the refused create, got writes %v", w)
	}
	r := reconcile(t, e, again)
	if r.Created || !r.Updated || again.Status.AtProvider.Provenance != identityv1alpha1.Owned {
		t.Fatalf("recreated resource: %+v, provenance %q", r, again.Status.AtProvider.Provenance)
	}
	if rest, _, _, _ := provenance.ExtractFromText(raw(t, e, "wiki")["meta_description"].(string)); rest != "second life" {
		t.Errorf("description: %q", rest)
	}

	// Another resource of this installation with the same slug is a conflict.
	other := newMR("wiki2", func(mg *v1alpha1.Application) { mg.Spec.ForProvider.Slug = "wiki" })
	_, err := kind.Reconcile(e, other)
	var ce *adoption.ConflictError
	if !errors.As(err, &ce) || ce.OtherResource != "Application.authentik.identity.crossplane.io/wiki" {
		t.Fatalf("want a conflict naming the other resource, got %v", err)
	}
}

func TestLostCreateRecovered(t *testing.T) {
	e := authentiktest.New(t)
	m := provenance.Marker{Installation: authentiktest.Installation, Resource: "Application.authentik.identity.crossplane.io/wiki", Origin: provenance.OriginCreated}
	e.Seed(t, "core/applications", map[string]any{"name": "Wiki", "slug": "wiki", "meta_description": provenance.EmbedInText("made by wiki", m)})
	mg := newMR("wiki")
	meta.SetExternalCreatePending(mg, time.Now())
	r := reconcile(t, e, mg)
	if r.Created || meta.GetExternalName(mg) != "wiki" || !r.Observation.ResourceUpToDate {
		t.Fatalf("lost create: %+v", r)
	}
}

func TestProviderAlreadyUsed(t *testing.T) {
	e := authentiktest.New(t)
	var p map[string]any
	if err := json.Unmarshal(e.Seed(t, "providers/oauth2", map[string]any{"name": "shared"}), &p); err != nil {
		t.Fatal(err)
	}
	e.Seed(t, "core/applications", map[string]any{"name": "First", "slug": "first", "provider": p["pk"]})
	id := strconv.Itoa(int(p["pk"].(float64)))
	_, err := kind.Reconcile(e, newMR("second", func(mg *v1alpha1.Application) { mg.Spec.ForProvider.OAuth2ProviderID = &id }))
	if err == nil || !strings.Contains(err.Error(), "Application with this provider already exists.") {
		t.Fatalf("got %v", err)
	}
	if diff := cmp.Diff(map[string]int{"POST /core/applications/": 1}, e.Writes()); diff != "" {
		t.Errorf("writes: %s", diff)
	}
}
