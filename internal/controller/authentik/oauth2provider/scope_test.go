package oauth2provider

import (
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"

	"github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	nsv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/authentiktest"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// teamAMR is a namespaced OAuth2Provider in namespace team-a.
func teamAMR(name string, ref *identityv1alpha1.SecretKeySelector) *nsv1alpha1.OAuth2Provider {
	const namespace = "team-a"
	mg := &nsv1alpha1.OAuth2Provider{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name},
		Spec:       nsv1alpha1.OAuth2ProviderSpec{ForProvider: newMR(name).Spec.ForProvider},
	}
	mg.Spec.ForProvider.ClientSecretSecretRef = ref
	return mg
}

// The client secret is read in the resource's scope: a namespaced OAuth2Provider reads the
// Secret of its own namespace and is refused any other, a cluster-scoped one must name the
// namespace. A refused Secret is never read and nothing is written to authentik.
func TestClientSecretScope(t *testing.T) {
	ref := func(namespace string) *identityv1alpha1.SecretKeySelector {
		return &identityv1alpha1.SecretKeySelector{SecretReference: identityv1alpha1.SecretReference{Namespace: namespace, Name: "app-oauth"}, Key: "secret"}
	}
	cases := map[string]struct {
		mg         mr
		wantSecret string
		wantErr    []string
	}{
		"NamespacedReadsItsOwnNamespace": {
			mg:         teamAMR("app", ref("")),
			wantSecret: "team-a-secret",
		},
		"NamespacedNamingItsOwnNamespace": {
			mg:         teamAMR("app", ref("team-a")),
			wantSecret: "team-a-secret",
		},
		"NamespacedRefusedAnotherNamespace": {
			mg:      teamAMR("app", ref("team-b")),
			wantErr: []string{"OAuth2Provider team-a/app reads Secrets of its own namespace only", "Secret team-b/app-oauth", "put the Secret in namespace team-a"},
		},
		"ClusterNamesTheNamespace": {
			mg:         newMR("app", func(mg *v1alpha1.OAuth2Provider) { mg.Spec.ForProvider.ClientSecretSecretRef = ref("team-b") }),
			wantSecret: "team-b-secret",
		},
		"ClusterWithoutNamespaceRefused": {
			mg:      newMR("app", func(mg *v1alpha1.OAuth2Provider) { mg.Spec.ForProvider.ClientSecretSecretRef = ref("") }),
			wantErr: []string{"OAuth2Provider app names Secret \"app-oauth\" without a namespace"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e := authentiktest.New(t)
			e.Secret(t, "team-a", "app-oauth", map[string]string{"secret": "team-a-secret"})
			e.Secret(t, "team-b", "app-oauth", map[string]string{"secret": "team-b-secret"})
			e.Server.ResetCounts()
			_, err := kind.Reconcile(e, tc.mg)
			if len(tc.wantErr) > 0 {
				if err == nil {
					t.Fatalf("reconcile: got no error, want %q", tc.wantErr)
				}
				for _, w := range tc.wantErr {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q does not say %q", err, w)
					}
				}
				if w := e.Writes(); len(w) != 0 {
					t.Errorf("writes to authentik with a refused Secret: %v", w)
				}
				return
			}
			if err != nil {
				t.Fatalf("reconcile: %v", err)
			}
			if got := raw(t, e, "providers/oauth2", meta.GetExternalName(tc.mg))["client_secret"]; got != tc.wantSecret {
				t.Errorf("client secret: got %v, want %s", got, tc.wantSecret)
			}
		})
	}
}

// A namespaced OAuth2Provider is driven by the same driver: created, then in sync, publishing
// its client credentials, and the marker the engine keeps on it names its namespace.
func TestNamespaced(t *testing.T) {
	e := authentiktest.New(t)
	nsKind := kind
	nsKind.GroupKind = nsv1alpha1.OAuth2ProviderGroupKind.String()
	mg := teamAMR("grafana", nil)
	if r, err := nsKind.Reconcile(e, mg); err != nil || !r.Created {
		t.Fatalf("first reconcile: created %v, %v", r.Created, err)
	}
	r, err := nsKind.Reconcile(e, mg)
	if err != nil || !r.Observation.ResourceUpToDate {
		t.Fatalf("second reconcile: %+v, %v", r.Observation, err)
	}
	if len(r.Connection[ConnClientID]) == 0 || len(r.Connection[ConnClientSecret]) == 0 {
		t.Errorf("connection details: %v", r.Connection)
	}
	if mg.Status.AtProvider.ID != meta.GetExternalName(mg) || mg.Status.AtProvider.Provenance != identityv1alpha1.Owned {
		t.Errorf("atProvider: %+v", mg.Status.AtProvider)
	}
	m, err := provenance.Parse(mg.GetAnnotations()[adoption.AnnotationMarker])
	if want := "OAuth2Provider.authentik.identity.m.crossplane.io/team-a/grafana"; err != nil || m.Resource != want {
		t.Errorf("marker %+v (%v), want resource %s", m, err, want)
	}
}
