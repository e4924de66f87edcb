//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	akv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// Helpers of the Application and provider tests (authentik_application_test.go,
// authentik_oauth2provider_test.go, authentik_samlprovider_test.go,
// authentik_proxyprovider_test.go).

const (
	akApps   = "core/applications"
	akOAuth2 = "providers/oauth2"
	akSAML   = "providers/saml"
	akProxy  = "providers/proxy"
)

func akProviderConfig() xpv2.ClusterManagedResourceSpec {
	return xpv2.ClusterManagedResourceSpec{ProviderConfigReference: &xpv2.Reference{Name: "authentik"}}
}

func akFlows() akv1alpha1.ProviderFlows {
	return akv1alpha1.ProviderFlows{
		AuthorizationFlow: "default-provider-authorization-implicit-consent",
		InvalidationFlow:  "default-provider-invalidation-flow",
	}
}

func newAKOAuth2(name, akName string, mutate ...func(*akv1alpha1.OAuth2Provider)) *akv1alpha1.OAuth2Provider {
	p := &akv1alpha1.OAuth2Provider{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: akv1alpha1.OAuth2ProviderSpec{
			ClusterManagedResourceSpec: akProviderConfig(),
			ForProvider: akv1alpha1.OAuth2ProviderParameters{
				Name: akName, ProviderFlows: akFlows(),
				RedirectURIs: []akv1alpha1.RedirectURI{{URL: "https://" + akName + ".example.com/oauth/callback"}},
			},
		},
	}
	for _, m := range mutate {
		m(p)
	}
	return p
}

func newAKSAML(name, akName string, mutate ...func(*akv1alpha1.SAMLProvider)) *akv1alpha1.SAMLProvider {
	p := &akv1alpha1.SAMLProvider{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: akv1alpha1.SAMLProviderSpec{
			ClusterManagedResourceSpec: akProviderConfig(),
			ForProvider: akv1alpha1.SAMLProviderParameters{
				Name: akName, ProviderFlows: akFlows(), ACSURL: "https://" + akName + ".example.com/saml/acs",
			},
		},
	}
	for _, m := range mutate {
		m(p)
	}
	return p
}

func newAKProxy(name, akName string, mutate ...func(*akv1alpha1.ProxyProvider)) *akv1alpha1.ProxyProvider {
	p := &akv1alpha1.ProxyProvider{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: akv1alpha1.ProxyProviderSpec{
			ClusterManagedResourceSpec: akProviderConfig(),
			ForProvider: akv1alpha1.ProxyProviderParameters{
				Name: akName, ProviderFlows: akFlows(), Mode: "forward_single", ExternalHost: "https://" + akName + ".example.com",
			},
		},
	}
	for _, m := range mutate {
		m(p)
	}
	return p
}

func newAKApplication(name, slug string, mutate ...func(*akv1alpha1.Application)) *akv1alpha1.Application {
	a := &akv1alpha1.Application{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: akv1alpha1.ApplicationSpec{
			ClusterManagedResourceSpec: akProviderConfig(),
			ForProvider:                akv1alpha1.ApplicationParameters{Name: "App " + slug, Slug: slug, Description: ptr("made by " + name)},
		},
	}
	for _, m := range mutate {
		m(a)
	}
	return a
}

// akPK renders a seeded object's integer pk as the external name does.
func akIntPK(obj map[string]any) string {
	return fmt.Sprint(int64(obj["pk"].(float64)))
}

// akDescriptionMarker reads the marker on the last line of an application's description.
func akDescriptionMarker(t *testing.T, obj map[string]any) (string, provenance.Marker) {
	t.Helper()
	rest, m, found, err := provenance.ExtractFromText(fmt.Sprint(obj["meta_description"]))
	if !found || err != nil {
		t.Fatalf("no readable marker in the description %q: %v", obj["meta_description"], err)
	}
	return rest, m
}

// waitAdoptionRequired waits for Ready=False with reason AdoptionRequired and a message that
// mentions every want.
func waitAdoptionRequired(t *testing.T, mg resource.Managed, want ...string) {
	t.Helper()
	eventually(t, 30*time.Second, mg.GetName()+" to report AdoptionRequired", func() bool {
		c := condition(get(t, mg), xpv2.TypeReady)
		if c.Status != corev1.ConditionFalse || c.Reason != "AdoptionRequired" {
			return false
		}
		for _, w := range want {
			if !strings.Contains(c.Message, w) {
				return false
			}
		}
		return true
	})
}

// connectionSecret reads a connection Secret in crossplane-system.
func connectionSecret(t *testing.T, name string) map[string]string {
	t.Helper()
	s := &corev1.Secret{}
	if err := kube.Get(context.Background(), types.NamespacedName{Namespace: "crossplane-system", Name: name}, s); err != nil {
		return nil
	}
	out := map[string]string{}
	for k, v := range s.Data {
		out[k] = string(v)
	}
	return out
}

// providersNamed lists the providers of a type with exactly this name.
func providersNamed(t *testing.T, kind, name string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, p := range authentikAPI.list(t, kind, url.Values{"search": {name}}) {
		if p["name"] == name {
			out = append(out, p)
		}
	}
	return out
}

// akWritesTo returns the provider's writes to paths containing one of the IDs.
func akWritesTo(d map[string]int, ids ...string) map[string]int {
	out := map[string]int{}
	for k, v := range authentikWrites(d) {
		for _, id := range ids {
			if strings.Contains(k, "/"+id+"/") {
				out[k] = v
			}
		}
	}
	return out
}
