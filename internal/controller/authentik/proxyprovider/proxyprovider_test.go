package proxyprovider

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	api "goauthentik.io/api/v3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"

	"github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	nsv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/authentiktest"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/shared"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

func ptr[T any](v T) *T { return &v }

var kind = authentiktest.Kind[mr, Observed]{
	GroupKind: v1alpha1.ProxyProviderGroupKind.String(),
	NewDriver: func(c shared.Client) adoption.Driver[mr, Observed] { return New(c) },
}

func newMR(name string, mut ...func(*v1alpha1.ProxyProvider)) *v1alpha1.ProxyProvider {
	mg := &v1alpha1.ProxyProvider{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: v1alpha1.ProxyProviderSpec{ForProvider: v1alpha1.ProxyProviderParameters{
			Name: name,
			ProviderFlows: v1alpha1.ProviderFlows{
				AuthorizationFlow: "default-provider-authorization-implicit-consent",
				InvalidationFlow:  "default-provider-invalidation-flow",
			},
			Mode:         "forward_single",
			ExternalHost: "https://" + name + ".example.com",
		}},
	}
	for _, m := range mut {
		m(mg)
	}
	return mg
}

func reconcile(t *testing.T, e *authentiktest.Env, mg *v1alpha1.ProxyProvider) authentiktest.Result {
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
	if err := json.Unmarshal(e.Raw(t, "providers/proxy", id), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// The scope mappings authentik adds to every proxy provider are never drift; the spec's own
// mappings are.
func TestCompareIgnoresServerAddedMappings(t *testing.T) {
	serverAdded := []string{"m-openid", "m-email", "m-profile", "m-proxy"}
	observed := func(mappings ...string) api.ProxyProvider {
		p := api.ProxyProvider{Pk: 1, Name: "app", AuthorizationFlow: "authz-pk", InvalidationFlow: "inval-pk", ExternalHost: "https://app", PropertyMappings: mappings}
		p.Mode = ptr(api.PROXYMODE_FORWARD_SINGLE)
		return p
	}
	fp := &v1alpha1.ProxyProviderParameters{Name: "app", Mode: "forward_single", ExternalHost: "https://app"}
	resolved := func(mappings ...string) api.PatchedProxyProviderRequest {
		return api.PatchedProxyProviderRequest{AuthorizationFlow: ptr("authz-pk"), InvalidationFlow: ptr("inval-pk"), PropertyMappings: mappings}
	}
	cases := map[string]struct {
		resolved api.PatchedProxyProviderRequest
		observed api.ProxyProvider
		want     shared.Fields
	}{
		"SpecLeavesMappingsAlone": {
			resolved: resolved(),
			observed: observed("m-openid", "m-email", "m-profile", "m-proxy", "m-hand"),
			want:     shared.Fields{},
		},
		"ServerAddedOnTopOfTheSpec": {
			resolved: resolved("m-offline"),
			observed: observed("m-offline", "m-openid", "m-email", "m-profile", "m-proxy"),
			want:     shared.Fields{},
		},
		"SpecNamesAServerAddedOne": {
			resolved: resolved("m-offline", "m-email"),
			observed: observed("m-offline", "m-openid", "m-email", "m-profile", "m-proxy"),
			want:     shared.Fields{},
		},
		"AMappingAddedByHandIsDrift": {
			resolved: resolved("m-offline"),
			observed: observed("m-offline", "m-hand", "m-openid", "m-email", "m-profile", "m-proxy"),
			want:     shared.Fields{"property_mappings": []any{"m-offline"}},
		},
		"AMissingMappingIsDrift": {
			resolved: resolved("m-offline"),
			observed: observed("m-openid", "m-email", "m-profile", "m-proxy"),
			want:     shared.Fields{"property_mappings": []any{"m-offline"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			want, err := Desired(fp, tc.resolved)
			if err != nil {
				t.Fatal(err)
			}
			c, err := compare(want, tc.observed, serverAdded)
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
	mg := newMR("app", func(mg *v1alpha1.ProxyProvider) {
		fp := &mg.Spec.ForProvider
		fp.Mode = "proxy"
		fp.InternalHost = ptr("http://app.internal:8080")
		fp.InternalHostSSLValidation = ptr(false)
		fp.SkipPathRegex = ptr("^/health$\n^/metrics$")
		fp.BasicAuthEnabled = ptr(true)
		fp.BasicAuthUserAttribute = ptr("app_user")
		fp.BasicAuthPasswordAttribute = ptr("app_password")
		fp.AccessTokenValidity = ptr("hours=8")
		fp.Certificate = ptr("authentik Self-signed Certificate")
		fp.PropertyMappings = []v1alpha1.PropertyMappingSelector{{Managed: ptr("goauthentik.io/providers/oauth2/scope-offline_access")}}
	})
	if r := reconcile(t, e, mg); !r.Created {
		t.Fatalf("not created: %+v", r)
	}
	id := meta.GetExternalName(mg)
	got := raw(t, e, id)
	if n := len(got["property_mappings"].([]any)); n != 5 {
		t.Fatalf("authentik should have added its 4 scope mappings to the spec's 1, got %d", n)
	}
	if got["mode"] != "proxy" || got["internal_host"] != "http://app.internal:8080" || got["basic_auth_enabled"] != true || got["certificate"] == nil {
		t.Errorf("created provider: %v", got)
	}

	e.Server.ResetCounts()
	for range 3 {
		if r := reconcile(t, e, mg); !r.Observation.ResourceUpToDate {
			t.Fatalf("server-added scope mappings counted as drift: %s", r.Observation.Diff)
		}
	}
	if w := e.Writes(); len(w) != 0 {
		t.Fatalf("a proxy provider in sync was written: %v", w)
	}
	if mg.Status.AtProvider.ClientID == "" || mg.Status.AtProvider.Mode != "proxy" {
		t.Errorf("atProvider: %+v", mg.Status.AtProvider)
	}

	// Switch to domain-level forward auth.
	mg.Spec.ForProvider.Mode = "forward_domain"
	mg.Spec.ForProvider.CookieDomain = ptr("example.com")
	mg.Spec.ForProvider.ExternalHost = "https://auth.example.com"
	reconcile(t, e, mg)
	got = raw(t, e, id)
	if got["mode"] != "forward_domain" || got["cookie_domain"] != "example.com" || got["internal_host"] != "http://app.internal:8080" {
		t.Errorf("after update: %v", got)
	}
	if r := reconcile(t, e, mg); !r.Observation.ResourceUpToDate {
		t.Errorf("not up to date after update: %s", r.Observation.Diff)
	}

	ext := kind.External(e)
	if _, err := ext.Observe(e.Ctx, mg); err != nil {
		t.Fatal(err)
	}
	if _, err := ext.Delete(e.Ctx, mg); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Server.Raw("providers/proxy", id); err == nil {
		t.Error("provider still exists after delete")
	}
}

// Proxy providers are found by a case-insensitive filter; only the exact name is ours to judge.
func TestFindIsExact(t *testing.T) {
	e := authentiktest.New(t)
	e.Seed(t, "providers/proxy", map[string]any{"name": "App", "external_host": "https://x"})
	got, err := New(e.Client).Find(e.Ctx, newMR("app"))
	if err != nil || len(got) != 0 {
		t.Fatalf("Find(app) with only App existing: %v, %v", got, err)
	}
	got, err = New(e.Client).Find(e.Ctx, newMR("App"))
	if err != nil || len(got) != 1 || got[0].Provider.Name != "App" {
		t.Fatalf("Find(App): %v, %v", got, err)
	}
}

func TestHandMadeFailOnConflict(t *testing.T) {
	e := authentiktest.New(t)
	var p map[string]any
	if err := json.Unmarshal(e.Seed(t, "providers/proxy", map[string]any{"name": "app", "external_host": "https://hand.example.com"}), &p); err != nil {
		t.Fatal(err)
	}
	id := strconv.Itoa(int(p["pk"].(float64)))
	before := e.Raw(t, "providers/proxy", id)
	e.Server.ResetCounts()
	_, err := kind.Reconcile(e, newMR("app"))
	var ce *adoption.ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("want AdoptionRequired, got %v", err)
	}
	if len(e.Writes()) != 0 || !bytes.Equal(before, e.Raw(t, "providers/proxy", id)) {
		t.Errorf("hand-made proxy provider touched: writes %v", e.Writes())
	}
}

// A namespaced ProxyProvider is driven by the same driver: it is created, then in sync, and the
// marker the engine keeps on the resource (providers carry none) names its namespace.
func TestNamespaced(t *testing.T) {
	e := authentiktest.New(t)
	nsKind := kind
	nsKind.GroupKind = nsv1alpha1.ProxyProviderGroupKind.String()
	mg := &nsv1alpha1.ProxyProvider{
		ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "app"},
		Spec:       nsv1alpha1.ProxyProviderSpec{ForProvider: newMR("app").Spec.ForProvider},
	}
	if r, err := nsKind.Reconcile(e, mg); err != nil || !r.Created {
		t.Fatalf("first reconcile: created %v, %v", r.Created, err)
	}
	id := meta.GetExternalName(mg)
	if got := raw(t, e, id); got["name"] != "app" {
		t.Errorf("created provider: %v", got)
	}
	if r, err := nsKind.Reconcile(e, mg); err != nil || !r.Observation.ResourceUpToDate {
		t.Fatalf("second reconcile: %+v, %v", r.Observation, err)
	}
	if mg.Status.AtProvider.ID != id || mg.Status.AtProvider.Provenance != identityv1alpha1.Owned {
		t.Errorf("atProvider: %+v", mg.Status.AtProvider)
	}
	m, err := provenance.Parse(mg.GetAnnotations()[adoption.AnnotationMarker])
	if want := "ProxyProvider.authentik.identity.m.crossplane.io/team-a/app"; err != nil || m.Resource != want {
		t.Errorf("marker %+v (%v), want resource %s", m, err, want)
	}
}
