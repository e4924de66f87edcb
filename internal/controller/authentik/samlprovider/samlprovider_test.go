package samlprovider

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
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/authentiktest"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/shared"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

func ptr[T any](v T) *T { return &v }

var kind = authentiktest.Kind[mr, Observed]{
	GroupKind: v1alpha1.SAMLProviderGroupKind.String(),
	NewDriver: func(c shared.Client) adoption.Driver[mr, Observed] { return New(c) },
}

// wikiMR is the SAMLProvider "wiki" of these tests.
func wikiMR(mut ...func(*v1alpha1.SAMLProvider)) *v1alpha1.SAMLProvider {
	const name = "wiki"
	mg := &v1alpha1.SAMLProvider{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: v1alpha1.SAMLProviderSpec{ForProvider: v1alpha1.SAMLProviderParameters{
			Name: name,
			ProviderFlows: v1alpha1.ProviderFlows{
				AuthorizationFlow: "default-provider-authorization-explicit-consent",
				InvalidationFlow:  "default-provider-invalidation-flow",
			},
			ACSURL: "https://" + name + ".example.com/saml/acs",
		}},
	}
	for _, m := range mut {
		m(mg)
	}
	return mg
}

func reconcile(t *testing.T, e *authentiktest.Env, mg *v1alpha1.SAMLProvider) authentiktest.Result {
	t.Helper()
	r, err := kind.Reconcile(e, mg)
	if err != nil {
		t.Fatalf("reconcile %s: %v", mg.Name, err)
	}
	return r
}

func raw(t *testing.T, e *authentiktest.Env, id string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(e.Raw(t, "providers/saml", id), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestCompare(t *testing.T) {
	observed := func() api.SAMLProvider {
		p := api.SAMLProvider{
			Pk: 3, Name: "wiki", AuthorizationFlow: "authz-pk", InvalidationFlow: "inval-pk",
			PropertyMappings: []string{"m-upn", "m-email"}, AcsUrl: "https://wiki/acs",
			SlsUrl: ptr(""), Audience: ptr(""), IssuerOverride: ptr(""),
			SpBinding: ptr(api.SAMLBINDINGSENUM_REDIRECT), SignAssertion: ptr(true), SignResponse: ptr(false),
			SignatureAlgorithm: ptr(api.SignatureAlgorithmEnum("http://www.w3.org/2001/04/xmldsig-more#rsa-sha256")),
			DigestAlgorithm:    ptr(api.DigestAlgorithmEnum("http://www.w3.org/2001/04/xmlenc#sha256")),
		}
		p.SigningKp.Set(ptr("kp"))
		p.VerificationKp.Set(nil)
		return p
	}
	resolved := func(mut ...func(*api.PatchedSAMLProviderRequest)) api.PatchedSAMLProviderRequest {
		r := api.PatchedSAMLProviderRequest{AuthorizationFlow: ptr("authz-pk"), InvalidationFlow: ptr("inval-pk")}
		for _, m := range mut {
			m(&r)
		}
		return r
	}
	spec := func(mut ...func(*v1alpha1.SAMLProviderParameters)) *v1alpha1.SAMLProviderParameters {
		fp := &v1alpha1.SAMLProviderParameters{Name: "wiki", ACSURL: "https://wiki/acs"}
		for _, m := range mut {
			m(fp)
		}
		return fp
	}
	cases := map[string]struct {
		spec     *v1alpha1.SAMLProviderParameters
		resolved api.PatchedSAMLProviderRequest
		want     shared.Fields
	}{
		"InSync": {spec: spec(), resolved: resolved(), want: shared.Fields{}},
		"MappingsAreASet": {
			spec:     spec(),
			resolved: resolved(func(r *api.PatchedSAMLProviderRequest) { r.PropertyMappings = []string{"m-email", "m-upn"} }),
			want:     shared.Fields{},
		},
		"KeysByName": {
			spec: spec(),
			resolved: resolved(func(r *api.PatchedSAMLProviderRequest) {
				r.SigningKp.Set(ptr("kp"))
				r.VerificationKp.Set(ptr("sp-cert"))
			}),
			want: shared.Fields{"verification_kp": "sp-cert"},
		},
		"Algorithms": {
			spec: spec(func(fp *v1alpha1.SAMLProviderParameters) {
				fp.SignatureAlgorithm = ptr("http://www.w3.org/2001/04/xmldsig-more#rsa-sha256")
				fp.DigestAlgorithm = ptr("http://www.w3.org/2001/04/xmlenc#sha512")
			}),
			resolved: resolved(),
			want:     shared.Fields{"digest_algorithm": "http://www.w3.org/2001/04/xmlenc#sha512"},
		},
		"URLsAndBindings": {
			spec: spec(func(fp *v1alpha1.SAMLProviderParameters) {
				fp.ACSURL = "https://wiki/new-acs"
				fp.SLSURL = ptr("https://wiki/sls")
				fp.SPBinding = ptr("post")
				fp.Audience = ptr("")
				fp.Issuer = ptr("https://idp.example.com")
			}),
			resolved: resolved(),
			want: shared.Fields{
				"acs_url": "https://wiki/new-acs", "sls_url": "https://wiki/sls", "sp_binding": "post", "issuer_override": "https://idp.example.com",
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			want, err := Desired(tc.spec, tc.resolved)
			if err != nil {
				t.Fatal(err)
			}
			c, err := compare(want, observed())
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, c.Changed); diff != "" {
				t.Errorf("changed fields: -want +got:\n%s", diff)
			}
		})
	}
}

func TestLifecycle(t *testing.T) {
	e := authentiktest.New(t)
	mg := wikiMR(func(mg *v1alpha1.SAMLProvider) {
		fp := &mg.Spec.ForProvider
		fp.SigningKey = ptr("authentik Self-signed Certificate")
		fp.VerificationKey = ptr("")
		fp.SPBinding = ptr("post")
		fp.Audience = ptr("https://wiki.example.com")
		fp.PropertyMappings = []v1alpha1.PropertyMappingSelector{
			{Managed: ptr("goauthentik.io/providers/saml/email")},
			{Name: ptr("authentik default SAML Mapping: Username")},
		}
		fp.NameIDMapping = &v1alpha1.PropertyMappingSelector{Managed: ptr("goauthentik.io/providers/saml/email")}
		fp.SignatureAlgorithm = ptr("http://www.w3.org/2001/04/xmldsig-more#rsa-sha512")
		fp.AssertionValidNotOnOrAfter = ptr("minutes=10")
		fp.SessionValidNotOnOrAfter = ptr("hours=8")
		fp.SignResponse = ptr(true)
		mg.Spec.WriteConnectionSecretToReference = &xpv2.SecretReference{Namespace: "ns", Name: "wiki-saml"}
	})
	if r := reconcile(t, e, mg); !r.Created {
		t.Fatalf("not created: %+v", r)
	}
	id := meta.GetExternalName(mg)
	got := raw(t, e, id)
	if got["sp_binding"] != "post" || got["signing_kp"] == nil || got["name_id_mapping"] == nil || len(got["property_mappings"].([]any)) != 2 || got["sign_response"] != true {
		t.Errorf("created provider: %v", got)
	}

	e.Server.ResetCounts()
	r := reconcile(t, e, mg)
	if !r.Observation.ResourceUpToDate || len(e.Writes()) != 0 {
		t.Fatalf("in-sync provider: %s, writes %v", r.Observation.Diff, e.Writes())
	}
	if _, ok := r.Connection[ConnMetadata]; ok {
		t.Errorf("metadata published before any application uses the provider")
	}
	if e.Server.Count("GET", "/providers/saml/{id}/metadata/") != 0 {
		t.Errorf("metadata asked for although authentik serves none without an application")
	}

	e.Seed(t, "core/applications", map[string]any{"name": "Wiki", "slug": "wiki", "provider": id})
	r = reconcile(t, e, mg)
	md := string(r.Connection[ConnMetadata])
	if !strings.Contains(md, "EntityDescriptor") || !strings.Contains(md, "X509Certificate") {
		t.Errorf("metadata connection detail: %q", md)
	}
	if mg.Status.AtProvider.EntityID == "" || mg.Status.AtProvider.AssignedApplication != "wiki" {
		t.Errorf("atProvider: %+v", mg.Status.AtProvider)
	}

	mg.Spec.ForProvider.ACSURL = "https://wiki.example.com/new-acs"
	e.Server.ResetCounts()
	reconcile(t, e, mg)
	if diff := cmp.Diff(map[string]int{"PATCH /providers/saml/{id}/": 1}, e.Writes()); diff != "" {
		t.Errorf("writes: %s", diff)
	}
	if raw(t, e, id)["acs_url"] != "https://wiki.example.com/new-acs" {
		t.Errorf("acs_url not updated")
	}

	// The hand-made application using the provider holds the deletion back until it is gone.
	var be *adoption.DeletionBlockedError
	if err := kind.Delete(e, mg); !errors.As(err, &be) {
		t.Fatalf("delete while application wiki uses the provider: got %v, want it blocked", err)
	}
	if _, err := e.Client.API.CoreAPI.CoreApplicationsDestroy(e.Ctx, "wiki").Execute(); err != nil {
		t.Fatal(err)
	}
	if err := kind.Delete(e, mg); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Server.Raw("providers/saml", id); err == nil {
		t.Error("provider still exists after delete")
	}
}

func TestHandMadeFailOnConflict(t *testing.T) {
	e := authentiktest.New(t)
	var p map[string]any
	if err := json.Unmarshal(e.Seed(t, "providers/saml", map[string]any{"name": "wiki", "acs_url": "https://hand/acs"}), &p); err != nil {
		t.Fatal(err)
	}
	id := strconv.Itoa(int(p["pk"].(float64)))
	before := e.Raw(t, "providers/saml", id)
	e.Server.ResetCounts()
	_, err := kind.Reconcile(e, wikiMR())
	var ce *adoption.ConflictError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "authentik SAML provider") {
		t.Fatalf("want AdoptionRequired, got %v", err)
	}
	if len(e.Writes()) != 0 || !bytes.Equal(before, e.Raw(t, "providers/saml", id)) {
		t.Errorf("hand-made SAML provider touched: writes %v", e.Writes())
	}
}

func TestMissingMapping(t *testing.T) {
	e := authentiktest.New(t)
	_, err := kind.Reconcile(e, wikiMR(func(mg *v1alpha1.SAMLProvider) {
		mg.Spec.ForProvider.NameIDMapping = &v1alpha1.PropertyMappingSelector{Managed: ptr("goauthentik.io/providers/saml/nope")}
	}))
	want := `SAML property mapping with managed identifier "goauthentik.io/providers/saml/nope", named in spec.forProvider.nameIdMapping, does not exist`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v", err)
	}
}

// A namespaced SAMLProvider is driven by the same driver: it publishes the IdP metadata when it
// names a connection Secret (of its own namespace, a LocalSecretReference), and the marker the
// engine keeps on it names its namespace.
func TestNamespaced(t *testing.T) {
	e := authentiktest.New(t)
	nsKind := kind
	nsKind.GroupKind = nsv1alpha1.SAMLProviderGroupKind.String()
	mg := &nsv1alpha1.SAMLProvider{
		ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "wiki"},
		Spec:       nsv1alpha1.SAMLProviderSpec{ForProvider: wikiMR().Spec.ForProvider},
	}
	mg.Spec.ForProvider.SigningKey = ptr("authentik Self-signed Certificate")
	mg.Spec.WriteConnectionSecretToReference = &xpv2.LocalSecretReference{Name: "wiki-saml"}
	if r, err := nsKind.Reconcile(e, mg); err != nil || !r.Created {
		t.Fatalf("first reconcile: created %v, %v", r.Created, err)
	}
	id := meta.GetExternalName(mg)
	e.Seed(t, "core/applications", map[string]any{"name": "Wiki", "slug": "wiki", "provider": id})
	r, err := nsKind.Reconcile(e, mg)
	if err != nil || !r.Observation.ResourceUpToDate {
		t.Fatalf("second reconcile: %+v, %v", r.Observation, err)
	}
	if md := string(r.Connection[ConnMetadata]); !strings.Contains(md, "EntityDescriptor") {
		t.Errorf("metadata connection detail of a namespaced provider: %q", md)
	}
	if mg.Status.AtProvider.ID != id || mg.Status.AtProvider.AssignedApplication != "wiki" {
		t.Errorf("atProvider: %+v", mg.Status.AtProvider)
	}
	m, err := provenance.Parse(mg.GetAnnotations()[adoption.AnnotationMarker])
	if want := "SAMLProvider.authentik.identity.m.crossplane.io/team-a/wiki"; err != nil || m.Resource != want {
		t.Errorf("marker %+v (%v), want resource %s", m, err, want)
	}
}
