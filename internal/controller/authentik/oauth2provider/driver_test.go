package oauth2provider

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"

	"github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/authentiktest"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/shared"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

var kind = authentiktest.Kind[mr, Observed]{
	GroupKind: v1alpha1.OAuth2ProviderGroupKind.String(),
	NewDriver: func(c shared.Client) adoption.Driver[mr, Observed] { return New(c) },
}

func newMR(name string, mut ...func(*v1alpha1.OAuth2Provider)) *v1alpha1.OAuth2Provider {
	mg := &v1alpha1.OAuth2Provider{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: v1alpha1.OAuth2ProviderSpec{ForProvider: v1alpha1.OAuth2ProviderParameters{
			Name: name,
			ProviderFlows: v1alpha1.ProviderFlows{
				AuthorizationFlow: "default-provider-authorization-implicit-consent",
				InvalidationFlow:  "default-provider-invalidation-flow",
			},
			RedirectURIs: []v1alpha1.RedirectURI{{URL: "https://" + name + ".example.com/callback"}},
		}},
	}
	for _, m := range mut {
		m(mg)
	}
	return mg
}

func reconcile(t *testing.T, e *authentiktest.Env, mg *v1alpha1.OAuth2Provider) authentiktest.Result {
	t.Helper()
	r, err := kind.Reconcile(e, mg)
	if err != nil {
		t.Fatalf("reconcile %s: %v", mg.Name, err)
	}
	return r
}

// raw decodes an object as authentik serves it.
func raw(t *testing.T, e *authentiktest.Env, kindPath, id string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(e.Raw(t, kindPath, id), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestLifecycle(t *testing.T) {
	e := authentiktest.New(t)
	mg := newMR("grafana")

	if r := reconcile(t, e, mg); !r.Created {
		t.Fatalf("first reconcile did not create: %+v", r.Observation)
	}
	id := meta.GetExternalName(mg)
	if mg.GetAnnotations()[adoption.AnnotationMarker] == "" {
		t.Errorf("no provenance marker recorded on the resource after create")
	}
	got := raw(t, e, "providers/oauth2", id)
	if diff := cmp.Diff([]any{"authorization_code", "refresh_token"}, got["grant_types"]); diff != "" {
		t.Errorf("a new provider must get grant types (authentik >= 2026.5 rejects every login without): -want +got:\n%s", diff)
	}
	if n := len(got["property_mappings"].([]any)); n != 3 {
		t.Errorf("a new provider must get the openid, email and profile scope mappings, got %d mappings", n)
	}

	r := reconcile(t, e, mg)
	if !r.Observation.ResourceExists || !r.Observation.ResourceUpToDate || r.Created || r.Updated {
		t.Fatalf("second reconcile: %+v (diff %s)", r, r.Observation.Diff)
	}
	if mg.Status.AtProvider.Provenance != identityv1alpha1.Owned || mg.Status.AtProvider.ID != id {
		t.Errorf("atProvider: %+v", mg.Status.AtProvider)
	}
	if string(r.Connection[ConnClientID]) != got["client_id"] || string(r.Connection[ConnClientSecret]) != got["client_secret"] {
		t.Errorf("connection details do not hold the generated client ID and secret")
	}
	if _, ok := r.Connection[ConnIssuerURL]; ok {
		t.Errorf("an issuer URL was published before any application uses the provider")
	}

	// An application now uses the provider: issuer and well-known URLs follow.
	e.Seed(t, "core/applications", map[string]any{"name": "Grafana", "slug": "grafana", "provider": mg.Status.AtProvider.ID})
	r = reconcile(t, e, mg)
	if got, want := string(r.Connection[ConnWellKnownURL]), e.URL+"/application/o/grafana/.well-known/openid-configuration"; got != want {
		t.Errorf("well_known_url: got %q, want %q", got, want)
	}
	if got, want := string(r.Connection[ConnIssuerURL]), e.URL+"/application/o/grafana/"; got != want {
		t.Errorf("issuer_url: got %q, want %q", got, want)
	}

	// A spec change PATCHes exactly that field.
	mg.Spec.ForProvider.AccessTokenValidity = ptr("minutes=10")
	e.Server.ResetCounts()
	if r := reconcile(t, e, mg); !r.Updated {
		t.Fatalf("spec change did not update: %+v", r.Observation)
	}
	if diff := cmp.Diff(map[string]int{"PATCH /providers/oauth2/{id}/": 1}, e.Writes()); diff != "" {
		t.Errorf("writes for one changed field: -want +got:\n%s", diff)
	}
	after := raw(t, e, "providers/oauth2", id)
	if after["access_token_validity"] != "minutes=10" || after["client_secret"] != got["client_secret"] || after["client_id"] != got["client_id"] {
		t.Errorf("after update: validity %v, secret kept %v, id kept %v", after["access_token_validity"], after["client_secret"] == got["client_secret"], after["client_id"] == got["client_id"])
	}

	// The hand-made application using the provider holds the deletion back until it is gone.
	var be *adoption.DeletionBlockedError
	if err := kind.Delete(e, mg); !errors.As(err, &be) {
		t.Fatalf("delete while application grafana uses the provider: got %v, want it blocked", err)
	}
	if _, err := e.Client.API.CoreAPI.CoreApplicationsDestroy(e.Ctx, "grafana").Execute(); err != nil {
		t.Fatal(err)
	}
	if err := kind.Delete(e, mg); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Server.Raw("providers/oauth2", id); err == nil {
		t.Errorf("provider %s still exists after delete", id)
	}
}

// An OAuth2 provider in sync is never written: the Terraform provider's PUT on every run
// rotated nothing but still broke production logins.
func TestInSyncProviderIsNeverWritten(t *testing.T) {
	e := authentiktest.New(t)
	e.Secret(t, "ns", "grafana-oauth", map[string]string{"secret": "from-a-secret"})
	mg := newMR("grafana", func(mg *v1alpha1.OAuth2Provider) {
		fp := &mg.Spec.ForProvider
		fp.ClientID = ptr("grafana")
		fp.ClientSecretSecretRef = &identityv1alpha1.SecretKeySelector{SecretReference: identityv1alpha1.SecretReference{Namespace: "ns", Name: "grafana-oauth"}, Key: "secret"}
		fp.GrantTypes = []string{"refresh_token", "authorization_code"}
		fp.PropertyMappings = []v1alpha1.PropertyMappingSelector{
			{Managed: ptr("goauthentik.io/providers/oauth2/scope-profile")},
			{Name: ptr("authentik default OAuth Mapping: OpenID 'openid'")},
		}
		fp.SigningKey = ptr("authentik Self-signed Certificate")
		fp.AuthenticationFlow = ptr("default-authentication-flow")
		fp.AccessTokenValidity = ptr("minutes=5")
		fp.SubMode = ptr("user_email")
		fp.IssuerMode = ptr("per_provider")
		fp.LogoutURI = ptr("")
	})
	reconcile(t, e, mg)
	if got := raw(t, e, "providers/oauth2", meta.GetExternalName(mg))["client_secret"]; got != "from-a-secret" {
		t.Fatalf("client secret: got %v", got)
	}

	e.Server.ResetCounts()
	for range 5 {
		if r := reconcile(t, e, mg); !r.Observation.ResourceUpToDate || r.Updated {
			t.Fatalf("provider in sync reported as changed: %s", r.Observation.Diff)
		}
	}
	if w := e.Writes(); len(w) != 0 {
		t.Fatalf("an OAuth2 provider in sync was written: %v", w)
	}
	// Each reconcile reads the provider once; the rest resolves the spec's names.
	if got := e.Server.Count("GET", "/providers/oauth2/{id}/"); got != 5 {
		t.Errorf("provider read %d times in 5 reconciles, want 5", got)
	}
}

func TestClientSecretRotation(t *testing.T) {
	e := authentiktest.New(t)
	e.Secret(t, "ns", "app", map[string]string{"secret": "one"})
	mg := newMR("app", func(mg *v1alpha1.OAuth2Provider) {
		mg.Spec.ForProvider.ClientSecretSecretRef = &identityv1alpha1.SecretKeySelector{SecretReference: identityv1alpha1.SecretReference{Namespace: "ns", Name: "app"}, Key: "secret"}
	})
	reconcile(t, e, mg)

	e.UpdateSecret(t, "ns", "app", map[string]string{"secret": "two"})
	r := reconcile(t, e, mg)
	if !r.Updated {
		t.Fatalf("a changed Secret did not update the provider")
	}
	if strings.Contains(r.Observation.Diff, "two") || strings.Contains(r.Observation.Diff, "one") {
		t.Errorf("the diff shows a client secret: %s", r.Observation.Diff)
	}
	if got := raw(t, e, "providers/oauth2", meta.GetExternalName(mg))["client_secret"]; got != "two" {
		t.Errorf("client secret after rotation: got %v", got)
	}
	if r := reconcile(t, e, mg); string(r.Connection[ConnClientSecret]) != "two" {
		t.Errorf("connection secret not rotated")
	}
}

func TestMissingReferences(t *testing.T) {
	cases := map[string]struct {
		mut  func(*v1alpha1.OAuth2Provider)
		want string
	}{
		"Flow": {
			mut:  func(mg *v1alpha1.OAuth2Provider) { mg.Spec.ForProvider.AuthorizationFlow = "no-such-flow" },
			want: `flow "no-such-flow", named in spec.forProvider.authorizationFlow, does not exist in authentik`,
		},
		"SigningKey": {
			mut:  func(mg *v1alpha1.OAuth2Provider) { mg.Spec.ForProvider.SigningKey = ptr("no-such-key") },
			want: `certificate-key pair "no-such-key", named in spec.forProvider.signingKey, does not exist in authentik`,
		},
		"PropertyMapping": {
			mut: func(mg *v1alpha1.OAuth2Provider) {
				mg.Spec.ForProvider.PropertyMappings = []v1alpha1.PropertyMappingSelector{{Managed: ptr("goauthentik.io/providers/oauth2/scope-openid")}, {Name: ptr("nope")}}
			},
			want: `scope mapping named "nope", named in spec.forProvider.propertyMappings[1], does not exist in authentik`,
		},
		"Secret": {
			mut: func(mg *v1alpha1.OAuth2Provider) {
				mg.Spec.ForProvider.ClientSecretSecretRef = &identityv1alpha1.SecretKeySelector{SecretReference: identityv1alpha1.SecretReference{Namespace: "ns", Name: "absent"}, Key: "k"}
			},
			want: "cannot read the client secret from spec.forProvider.clientSecretSecretRef: cannot read Secret ns/absent",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e := authentiktest.New(t)
			mg := newMR("app", tc.mut)
			_, err := kind.Reconcile(e, mg)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("create: got error %v, want one containing %q", err, tc.want)
			}
			if w := e.Writes(); len(w) != 0 {
				t.Errorf("writes despite a missing reference: %v", w)
			}

			// The same for an existing provider: it is observed (not up to date) and not written.
			ok := newMR("app")
			reconcile(t, e, ok)
			tc.mut(ok)
			e.Server.ResetCounts()
			_, err = kind.Reconcile(e, ok)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("update: got error %v, want one containing %q", err, tc.want)
			}
			if w := e.Writes(); len(w) != 0 {
				t.Errorf("writes despite a missing reference: %v", w)
			}
		})
	}
}

// ADR-0002 case 3: a hand-made provider with the same name is never touched under
// FailOnConflict.
func TestHandMadeProviderFailOnConflict(t *testing.T) {
	e := authentiktest.New(t)
	e.Seed(t, "providers/oauth2", map[string]any{"name": "grafana", "client_id": "hand", "access_token_validity": "hours=7"})
	id := grafanaID(t, e)
	before := e.Raw(t, "providers/oauth2", id)
	e.Server.ResetCounts()

	mg := newMR("grafana")
	for range 3 {
		_, err := kind.Reconcile(e, mg)
		var ce *adoption.ConflictError
		if !asConflict(err, &ce) || ce.ForeignInstallation != "" || ce.OtherResource != "" {
			t.Fatalf("want AdoptionRequired for a hand-made provider, got %v", err)
		}
		for _, want := range []string{"authentik OAuth2 provider", `"grafana"`, "ID " + id, "spec.adoptionPolicy: AdoptExisting"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("message %q lacks %q", err, want)
			}
		}
	}
	if w := e.Writes(); len(w) != 0 {
		t.Errorf("writes under FailOnConflict: %v", w)
	}
	if after := e.Raw(t, "providers/oauth2", id); !bytes.Equal(before, after) {
		t.Errorf("hand-made provider changed:\nbefore %s\nafter  %s", before, after)
	}
	if meta.GetExternalName(mg) != "" {
		t.Errorf("external name bound to a foreign provider")
	}
}

// ADR-0002 case 5: AdoptExisting takes the provider over, recording the marker on the resource,
// and writes nothing when the provider already matches the spec.
func TestAdoptExisting(t *testing.T) {
	e := authentiktest.New(t)
	e.Seed(t, "providers/oauth2", map[string]any{
		"name": "grafana", "grant_types": []string{"authorization_code"},
		"redirect_uris": []map[string]any{{"matching_mode": "strict", "url": "https://grafana.example.com/callback"}},
	})
	id := grafanaID(t, e)
	e.Server.ResetCounts()

	mg := newMR("grafana", func(mg *v1alpha1.OAuth2Provider) { mg.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting })
	r := reconcile(t, e, mg)
	if !r.Updated || meta.GetExternalName(mg) != id {
		t.Fatalf("adoption: %+v, external name %q", r, meta.GetExternalName(mg))
	}
	if w := e.Writes(); len(w) != 0 {
		t.Errorf("adopting a provider that matches the spec wrote to it: %v", w)
	}
	m, err := provenance.Parse(mg.GetAnnotations()[adoption.AnnotationMarker])
	if err != nil || m.Origin != provenance.OriginAdopted || m.Installation != authentiktest.Installation {
		t.Fatalf("marker on the resource: %+v, %v", m, err)
	}
	r = reconcile(t, e, mg)
	if mg.Status.AtProvider.Provenance != identityv1alpha1.Adopted || !r.Observation.ResourceUpToDate {
		t.Errorf("after adoption: provenance %q, up to date %v", mg.Status.AtProvider.Provenance, r.Observation.ResourceUpToDate)
	}

	// Adoption reconciles fields that differ.
	other := newMR("other")
	e.Seed(t, "providers/oauth2", map[string]any{"name": "other", "access_token_validity": "hours=9"})
	other.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting
	other.Spec.ForProvider.AccessTokenValidity = ptr("hours=1")
	reconcile(t, e, other)
	if got := raw(t, e, "providers/oauth2", meta.GetExternalName(other))["access_token_validity"]; got != "hours=1" {
		t.Errorf("adopted provider not reconciled: %v", got)
	}
}

// ADR-0002 case 4: a provider used by an application that another installation manages is
// that installation's, even under AdoptExisting.
func TestForeignInstallation(t *testing.T) {
	e := authentiktest.New(t)
	e.Seed(t, "providers/oauth2", map[string]any{"name": "grafana"})
	id := grafanaID(t, e)
	foreign := provenance.Marker{Installation: "other-cluster", Resource: "Application.authentik.identity.crossplane.io/grafana", Origin: provenance.OriginCreated}
	e.Seed(t, "core/applications", map[string]any{"name": "Grafana", "slug": "grafana", "provider": id, "meta_description": provenance.EmbedInText("Dashboards", foreign)})
	before := e.Raw(t, "providers/oauth2", id)
	e.Server.ResetCounts()

	mg := newMR("grafana", func(mg *v1alpha1.OAuth2Provider) { mg.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting })
	_, err := kind.Reconcile(e, mg)
	var ce *adoption.ConflictError
	if !asConflict(err, &ce) || ce.ForeignInstallation != "other-cluster" {
		t.Fatalf("want a conflict naming other-cluster, got %v", err)
	}
	if w := e.Writes(); len(w) != 0 {
		t.Errorf("writes to another installation's provider: %v", w)
	}
	if after := e.Raw(t, "providers/oauth2", id); !bytes.Equal(before, after) {
		t.Errorf("another installation's provider changed")
	}
}

// Providers carry no marker in authentik: a resource deleted with deletionPolicy Orphan and
// created again cannot prove the provider is its own, and asks for AdoptExisting.
func TestRecreatedResourceNeedsAdoption(t *testing.T) {
	e := authentiktest.New(t)
	first := newMR("grafana")
	reconcile(t, e, first)
	id := meta.GetExternalName(first)

	again := newMR("grafana")
	_, err := kind.Reconcile(e, again)
	var ce *adoption.ConflictError
	if !asConflict(err, &ce) {
		t.Fatalf("want AdoptionRequired, got %v", err)
	}
	again.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting
	reconcile(t, e, again)
	if meta.GetExternalName(again) != id {
		t.Errorf("adopted %q, want %q", meta.GetExternalName(again), id)
	}
}

// A create whose result was lost is recognised by the pending-create annotation: no second
// provider, no conflict.
func TestLostCreateRecovered(t *testing.T) {
	e := authentiktest.New(t)
	e.Seed(t, "providers/oauth2", map[string]any{"name": "grafana"})
	id := grafanaID(t, e)
	mg := newMR("grafana")
	meta.SetExternalCreatePending(mg, metav1.Now().Time)
	r := reconcile(t, e, mg)
	if r.Created || meta.GetExternalName(mg) != id || mg.Status.AtProvider.Provenance != identityv1alpha1.Owned {
		t.Fatalf("lost create: %+v, external name %q, provenance %q", r, meta.GetExternalName(mg), mg.Status.AtProvider.Provenance)
	}
}

func TestNameTakenByAnotherProviderType(t *testing.T) {
	e := authentiktest.New(t)
	e.Seed(t, "providers/saml", map[string]any{"name": "grafana", "acs_url": "https://sp.example.com/acs"})
	_, err := kind.Reconcile(e, newMR("grafana"))
	if err == nil || !strings.Contains(err.Error(), "provider names are unique across all types") {
		t.Fatalf("got %v", err)
	}
}

// grafanaID returns the ID of the OAuth2 provider "grafana" that the driver tests make, read by
// hand.
func grafanaID(t *testing.T, e *authentiktest.Env) string {
	t.Helper()
	const name = "grafana"
	l, _, err := e.Client.API.ProvidersAPI.ProvidersOauth2List(e.Ctx).Name(name).Execute()
	if err != nil || len(l.Results) != 1 {
		t.Fatalf("provider %q: %v", name, err)
	}
	return strconv.Itoa(int(l.Results[0].Pk))
}

func asConflict(err error, target **adoption.ConflictError) bool {
	return errors.As(err, target)
}

// The resource's record (annotation and external name) proves ownership of the provider with
// that ID only: when someone deletes it and makes a same-named provider by hand, the new one
// is not taken over.
func TestReplacedProviderIsNotOurs(t *testing.T) {
	e := authentiktest.New(t)
	mg := newMR("grafana")
	reconcile(t, e, mg)
	old := meta.GetExternalName(mg)
	if _, err := e.Client.API.ProvidersAPI.ProvidersOauth2Destroy(e.Ctx, mustPK(t, old)).Execute(); err != nil {
		t.Fatal(err)
	}
	e.Seed(t, "providers/oauth2", map[string]any{"name": "grafana", "client_id": "by-hand"})
	id := grafanaID(t, e)
	before := e.Raw(t, "providers/oauth2", id)
	e.Server.ResetCounts()

	_, err := kind.Reconcile(e, mg)
	var ce *adoption.ConflictError
	if !asConflict(err, &ce) || ce.Object.ID != id {
		t.Fatalf("want AdoptionRequired for the same-named provider %s, got %v", id, err)
	}
	if w := e.Writes(); len(w) != 0 {
		t.Errorf("writes to a provider that replaced ours: %v", w)
	}
	if !bytes.Equal(before, e.Raw(t, "providers/oauth2", id)) {
		t.Errorf("the provider that replaced ours changed")
	}
	if meta.GetExternalName(mg) != old {
		t.Errorf("external name rebound to %q", meta.GetExternalName(mg))
	}
}

func mustPK(t *testing.T, id string) int32 {
	t.Helper()
	pk, err := shared.ParsePK(id)
	if err != nil {
		t.Fatal(err)
	}
	return pk
}

// A provider adopted under AdoptExisting after it replaced the one the resource had created
// is adopted, not owned: the resource's record must say so (hole 9). Before the fix the
// annotation kept the old provider's "created" marker and the adopted one reported Owned.
func TestReplacedProviderAdoptedIsAdopted(t *testing.T) {
	e := authentiktest.New(t)
	mg := newMR("grafana")
	reconcile(t, e, mg)
	if _, err := e.Client.API.ProvidersAPI.ProvidersOauth2Destroy(e.Ctx, mustPK(t, meta.GetExternalName(mg))).Execute(); err != nil {
		t.Fatal(err)
	}
	e.Seed(t, "providers/oauth2", map[string]any{"name": "grafana", "client_id": "by-hand"})
	id := grafanaID(t, e)
	mg.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting

	if r := reconcile(t, e, mg); !r.Updated {
		t.Fatalf("the same-named provider was not adopted: %+v", r)
	}
	if got := meta.GetExternalName(mg); got != id {
		t.Fatalf("external name: got %q, want the adopted provider %s", got, id)
	}
	m, err := provenance.Parse(mg.GetAnnotations()[adoption.AnnotationMarker])
	if err != nil || m.Origin != provenance.OriginAdopted {
		t.Errorf("annotation after adoption: %+v, %v; want origin adopted", m, err)
	}
	reconcile(t, e, mg)
	if got := mg.Status.AtProvider.Provenance; got != identityv1alpha1.Adopted {
		t.Errorf("provenance of the adopted provider: got %q, want %q", got, identityv1alpha1.Adopted)
	}
}

// A deletion resolves nothing of the spec: no flow, key or scope-mapping lookups, only the
// provider, what its delete would take with it, and the delete.
func TestDeletionResolvesNothing(t *testing.T) {
	e := authentiktest.New(t)
	mg := newMR("grafana")
	if r := reconcile(t, e, mg); !r.Created {
		t.Fatalf("first reconcile did not create: %+v", r.Observation)
	}
	now := metav1.Now()
	mg.SetDeletionTimestamp(&now)
	e.Server.ResetCounts()
	if err := kind.Delete(e, mg); err != nil {
		t.Fatal(err)
	}
	for req := range e.Server.Counts() {
		for _, lookup := range []string{"/flows/", "/crypto/", "/propertymappings/"} {
			if strings.Contains(req, lookup) {
				t.Errorf("the deletion looked up %s (all requests: %v)", req, e.Server.Counts())
			}
		}
	}
	if diff := cmp.Diff(map[string]int{"DELETE /providers/oauth2/{id}/": 1}, e.Writes()); diff != "" {
		t.Errorf("writes of the deletion: -want +got:\n%s", diff)
	}
}
