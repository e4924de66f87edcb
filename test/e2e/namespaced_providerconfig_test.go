//go:build e2e

package e2e

import (
	"context"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	nsidentityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// The three ProviderConfig kinds share one spec; admission decides what a Secret selector's
// namespace means: a namespaced ProviderConfig reads its own namespace and must name none, on
// every selector; a ClusterProviderConfig and the legacy ProviderConfig must name one.
func TestCELProviderConfigSecretNamespace(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const ns = "e2e-pc-cel-secrets"
	namespace(t, ns)
	sel := func(namespace string) identityv1alpha1.SecretKeySelector {
		return identityv1alpha1.SecretKeySelector{SecretReference: identityv1alpha1.SecretReference{Namespace: namespace, Name: "s"}, Key: "k"}
	}
	ca := func(namespace string) *identityv1alpha1.TLSConfig {
		s := sel(namespace)
		return &identityv1alpha1.TLSConfig{CABundleSecretRef: &s}
	}
	password := func(secret, caSecret string) identityv1alpha1.ProviderConfigSpec {
		spec := keystoneSpec(secret, "s")
		if caSecret != "-" {
			spec.Keystone.TLS = ca(caSecret)
		}
		return spec
	}
	appCred := func(secret string) identityv1alpha1.ProviderConfigSpec {
		spec := keystoneSpec("", "s")
		spec.Keystone.Password = nil
		spec.Keystone.ApplicationCredential = &identityv1alpha1.KeystoneApplicationCredentialAuth{ID: "ac", SecretRef: sel(secret)}
		return spec
	}
	token := func(secret, caSecret string) identityv1alpha1.ProviderConfigSpec {
		a := &identityv1alpha1.AuthentikConfig{URL: "https://authentik.example.com", TokenSecretRef: sel(secret)}
		if caSecret != "-" {
			a.TLS = ca(caSecret)
		}
		return identityv1alpha1.ProviderConfigSpec{Authentik: a}
	}
	namespaced := func(spec identityv1alpha1.ProviderConfigSpec) client.Object {
		return &nsidentityv1alpha1.ProviderConfig{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "pc"}, Spec: spec}
	}
	cluster := func(spec identityv1alpha1.ProviderConfigSpec) client.Object {
		return &nsidentityv1alpha1.ClusterProviderConfig{ObjectMeta: metav1.ObjectMeta{Name: "e2e-pc-cel-secrets"}, Spec: spec}
	}
	legacy := func(spec identityv1alpha1.ProviderConfigSpec) client.Object {
		return &identityv1alpha1.ProviderConfig{ObjectMeta: metav1.ObjectMeta{Name: "e2e-pc-cel-secrets"}, Spec: spec}
	}
	const (
		forbidden = ".namespace must not be set: a namespaced ProviderConfig reads its Secrets in its own namespace; put the Secret there and leave out namespace, or use a ClusterProviderConfig"
		required  = ".namespace is required: a ClusterProviderConfig names the namespace of each Secret it reads"
		legacyReq = ".namespace is required: a cluster-scoped ProviderConfig names the namespace of each Secret it reads"
	)
	cases := map[string]struct {
		obj  client.Object
		want string // "" when admitted
	}{
		"NamespacedWithoutNamespace":          {obj: namespaced(password("", ""))},
		"NamespacedAuthentikWithoutNamespace": {obj: namespaced(token("", ""))},
		"NamespacedPasswordNamespace":         {obj: namespaced(password(ns, "-")), want: "spec.keystone.password.passwordSecretRef" + forbidden},
		"NamespacedApplicationCredential":     {obj: namespaced(appCred(ns)), want: "spec.keystone.applicationCredential.secretRef" + forbidden},
		"NamespacedKeystoneCA":                {obj: namespaced(password("", ns)), want: "spec.keystone.tls.caBundleSecretRef" + forbidden},
		"NamespacedToken":                     {obj: namespaced(token(ns, "-")), want: "spec.authentik.tokenSecretRef" + forbidden},
		"NamespacedAuthentikCA":               {obj: namespaced(token("", ns)), want: "spec.authentik.tls.caBundleSecretRef" + forbidden},
		"ClusterWithNamespace":                {obj: cluster(password(ns, ns))},
		"ClusterPasswordWithout":              {obj: cluster(password("", "-")), want: "spec.keystone.password.passwordSecretRef" + required},
		"ClusterApplicationCredentialWithout": {obj: cluster(appCred("")), want: "spec.keystone.applicationCredential.secretRef" + required},
		"ClusterKeystoneCAWithout":            {obj: cluster(password(ns, "")), want: "spec.keystone.tls.caBundleSecretRef" + required},
		"ClusterTokenWithout":                 {obj: cluster(token("", "-")), want: "spec.authentik.tokenSecretRef" + required},
		"ClusterAuthentikCAWithout":           {obj: cluster(token(ns, "")), want: "spec.authentik.tls.caBundleSecretRef" + required},
		"LegacyWithNamespace":                 {obj: legacy(token(ns, ns))},
		"LegacyPasswordWithout":               {obj: legacy(password("", "-")), want: "spec.keystone.password.passwordSecretRef" + legacyReq},
		"LegacyTokenWithout":                  {obj: legacy(token("", "-")), want: "spec.authentik.tokenSecretRef" + legacyReq},
	}
	for name, tc := range cases {
		// Server-side dry run: admission only, nothing is stored or reconciled.
		err := kube.Create(ctx, tc.obj, client.DryRunAll)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: refused: %v", name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: got %v, want a refusal containing %q", name, err, tc.want)
		}
	}
}
