//go:build e2e

package e2e

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	akv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	nsakv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// Every CEL rule of Token (Brand has none beyond its patterns) refuses what it must, with its
// message, against the real API server.
func TestCELAuthentikBrandToken(t *testing.T) {
	t.Parallel()
	token := func(name string, p akv1alpha1.TokenParameters) *akv1alpha1.Token {
		tk := newAKToken(name, p)
		tk.Spec.ProviderConfigReference = nowhere
		return tk
	}
	key := &identityv1alpha1.SecretKeySelector{SecretReference: identityv1alpha1.SecretReference{Namespace: "crossplane-system", Name: "k"}, Key: "k"}
	out := &xpv2.SecretReference{Namespace: "crossplane-system", Name: "out"}
	withOut := func(tk *akv1alpha1.Token) *akv1alpha1.Token {
		tk.Spec.WriteConnectionSecretToReference = out
		return tk
	}
	fp := "spec.forProvider"
	refused := map[string]struct {
		obj        client.Object
		path, want string
	}{
		"token-no-user": {token("cel-ak-tok-nouser", akv1alpha1.TokenParameters{Identifier: "x"}), fp, "a token needs its user"},
		"token-user-twice": {token("cel-ak-tok-twice", akv1alpha1.TokenParameters{Identifier: "x", Username: ptr("u"), UserID: ptr("3")}),
			fp, "name the token's user once"},
		"token-api-expires": {token("cel-ak-tok-exp", akv1alpha1.TokenParameters{Identifier: "x", Username: ptr("u"), Expires: &metav1.Time{Time: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)}}),
			fp, "expires applies to app passwords only"},
		"token-intent-recovery": {token("cel-ak-tok-intent", akv1alpha1.TokenParameters{Identifier: "x", Username: ptr("u"), Intent: ptr("recovery")}),
			fp + ".intent", "Unsupported value"},
		"token-identifier-slash": {token("cel-ak-tok-id", akv1alpha1.TokenParameters{Identifier: "a/b", Username: ptr("u")}), fp + ".identifier", "should match"},
		"token-key-without-connection-secret": {token("cel-ak-tok-key", akv1alpha1.TokenParameters{Identifier: "x", Username: ptr("u"), KeySecretRef: key}),
			"spec", "keySecretRef needs writeConnectionSecretToRef"},
		"token-cluster-key-no-namespace": {withOut(token("cel-ak-tok-keyns", akv1alpha1.TokenParameters{Identifier: "x", Username: ptr("u"),
			KeySecretRef: &identityv1alpha1.SecretKeySelector{SecretReference: identityv1alpha1.SecretReference{Name: "k"}, Key: "k"}})),
			fp, "keySecretRef.namespace is required"},
		"ns-token-key-namespace": {&nsakv1alpha1.Token{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "cel-ak-ns-tok"},
			Spec: nsakv1alpha1.TokenSpec{ManagedResourceSpec: xpv2.ManagedResourceSpec{ProviderConfigReference: nsRef("ClusterProviderConfig", celNoProviderConfig),
				WriteConnectionSecretToReference: &xpv2.LocalSecretReference{Name: "out"}},
				ForProvider: nsakv1alpha1.TokenParameters{Identifier: "x", Username: ptr("u"), KeySecretRef: key}}}, fp, "keySecretRef.namespace must not be set"},
		"brand-domain-space": {func() client.Object {
			b := newAKBrand("cel-ak-brand-domain", akv1alpha1.BrandParameters{Domain: "a b"})
			b.Spec.ProviderConfigReference = nowhere
			return b
		}(), fp + ".domain", "should match"},
	}
	for name, tc := range refused {
		t.Run(name, func(t *testing.T) {
			refusedField(t, tc.obj, tc.path, tc.want)
		})
	}

	// Transition rules: the identifier and the intent cannot change.
	t.Run("token-identifier-change", func(t *testing.T) {
		tk := token("cel-ak-tok-idchange", akv1alpha1.TokenParameters{Identifier: "cel-x", Username: ptr("u")})
		celAcceptedPaused(t, tk)
		changeRefused(t, tk, func(tk *akv1alpha1.Token) { tk.Spec.ForProvider.Identifier = "cel-y" }, "identifier cannot be changed")
	})
	t.Run("token-intent-change", func(t *testing.T) {
		tk := token("cel-ak-tok-intentchange", akv1alpha1.TokenParameters{Identifier: "cel-z", Username: ptr("u"), Intent: ptr("api")})
		celAcceptedPaused(t, tk)
		changeRefused(t, tk, func(tk *akv1alpha1.Token) { tk.Spec.ForProvider.Intent = ptr("app_password") }, "intent cannot be changed")
	})
}
