//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	extv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	akv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	nsakv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1"
	nsidentityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

const akBrands = "core/brands"

func newAKBrand(name string, p akv1alpha1.BrandParameters) *akv1alpha1.Brand {
	return &akv1alpha1.Brand{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: akv1alpha1.BrandSpec{ClusterManagedResourceSpec: onAuthentik, ForProvider: p}}
}

func newAKToken(name string, p akv1alpha1.TokenParameters) *akv1alpha1.Token {
	return &akv1alpha1.Token{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: akv1alpha1.TokenSpec{ClusterManagedResourceSpec: onAuthentik, ForProvider: p}}
}

// viewKey reads a token's key from authentik, as view_key answers it.
func viewKey(t *testing.T, identifier string) string {
	t.Helper()
	var v struct{ Key string }
	if _, err := authentikAPI.call(context.Background(), "GET", "/api/v3/"+akTokens+"/"+identifier+"/view_key/", nil, &v); err != nil {
		t.Fatal(err)
	}
	return v.Key
}

// noKeyShown fails the test when the resource's status or events show the key.
func noKeyShown(t *testing.T, mg *akv1alpha1.Token, key string) {
	t.Helper()
	b, err := json.Marshal(get(t, mg).Status)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte(key)) {
		t.Errorf("status of %s holds the token's key", mg.GetName())
	}
	for _, e := range events(t, mg) {
		if strings.Contains(e.Message, key) {
			t.Errorf("event of %s holds the token's key: %s", mg.GetName(), e.Message)
		}
	}
}

func brandByDomain(t *testing.T, domain string) map[string]any {
	t.Helper()
	l := authentikAPI.list(t, akBrands, url.Values{"domain": {domain}})
	if len(l) != 1 {
		t.Fatalf("brands with domain %s: %d", domain, len(l))
	}
	return l[0]
}

// A Brand with flows by reference and by slug and a Token by reference to its User: created
// with their markers, the token's key in the connection Secret only, and a key from a Secret
// set in authentik; updates reach authentik; the User's deletion waits for its Token's.
func TestAuthentikBrandAndToken(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	flow := newAKFlow("ak-brand-login", "e2e-brand-login")
	brand := newAKBrand("ak-brand", akv1alpha1.BrandParameters{Domain: "e2e-brand.example.com", BrandingTitle: ptr("E2E"),
		AuthenticationFlowRef: &xpv2.Reference{Name: "ak-brand-login"}, InvalidationFlow: ptr("default-invalidation-flow"),
		Attributes: akv1alpha1.Attributes{"settings": extv1.JSON{Raw: []byte(`{"locale":"de"}`)}}})
	user := newAKUser("ak-tok-user", "e2e-tok-user")
	tok := newAKToken("ak-tok-api", akv1alpha1.TokenParameters{Identifier: "e2e-tok-api", UserRef: &xpv2.Reference{Name: "ak-tok-user"},
		Description: ptr("CI"), Expiring: ptr(false)})
	tok.Spec.WriteConnectionSecretToReference = &xpv2.SecretReference{Namespace: "crossplane-system", Name: "ak-tok-api-out"}
	create(t, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "crossplane-system", Name: "ak-tok-app-key"}, Data: map[string][]byte{"k": []byte("e2e-chosen-key-1")}})
	app := newAKToken("ak-tok-app", akv1alpha1.TokenParameters{Identifier: "e2e-tok-app", Intent: ptr("app_password"), Username: ptr("e2e-tok-user"),
		KeySecretRef: &identityv1alpha1.SecretKeySelector{SecretReference: identityv1alpha1.SecretReference{Namespace: "crossplane-system", Name: "ak-tok-app-key"}, Key: "k"}})
	app.Spec.WriteConnectionSecretToReference = &xpv2.SecretReference{Namespace: "crossplane-system", Name: "ak-tok-app-out"}
	for _, o := range []resource.Managed{flow, brand, user, tok, app} {
		create(t, o)
	}
	for _, o := range []resource.Managed{flow, brand, user, tok, app} {
		waitReady(t, o)
	}

	b := brandByDomain(t, "e2e-brand.example.com")
	if b["branding_title"] != "E2E" || b["flow_authentication"] != authentikAPI.object(t, "flows/instances", "e2e-brand-login")["pk"] ||
		b["brand_uuid"] != meta.GetExternalName(brand) || akMarkerOf(t, b).Resource == "" {
		t.Errorf("brand: %v", b)
	}
	key := viewKey(t, "e2e-tok-api")
	eventually(t, 30*time.Second, "the key in the connection Secret", func() bool {
		s := connectionSecret(t, "ak-tok-api-out")
		return s["token"] == key && s["identifier"] == "e2e-tok-api" && s["username"] == "e2e-tok-user"
	})
	if viewKey(t, "e2e-tok-app") != "e2e-chosen-key-1" || connectionSecret(t, "ak-tok-app-out")["token"] != "e2e-chosen-key-1" {
		t.Error("the app password's key is not the Secret's")
	}
	noKeyShown(t, tok, key)
	noKeyShown(t, app, "e2e-chosen-key-1")
	if to := authentikAPI.object(t, akTokens, "e2e-tok-api"); !strings.HasPrefix(to["description"].(string), "CI\n[provider-identity: ") || to["expiring"] != false {
		t.Errorf("token: %v", to)
	}

	// Updates: the brand's title, the token's description, the app password's key.
	update(t, brand, func(b *akv1alpha1.Brand) { b.Spec.ForProvider.BrandingTitle = ptr("E2E 2") })
	update(t, tok, func(tk *akv1alpha1.Token) { tk.Spec.ForProvider.Description = ptr("CI runner") })
	update(t, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "crossplane-system", Name: "ak-tok-app-key"}}, func(s *corev1.Secret) {
		s.Data = map[string][]byte{"k": []byte("e2e-chosen-key-2")}
	})
	eventually(t, 60*time.Second, "the updates in authentik", func() bool {
		return brandByDomain(t, "e2e-brand.example.com")["branding_title"] == "E2E 2" &&
			strings.HasPrefix(authentikAPI.object(t, akTokens, "e2e-tok-api")["description"].(string), "CI runner\n") &&
			viewKey(t, "e2e-tok-app") == "e2e-chosen-key-2"
	})
	eventually(t, 30*time.Second, "the new key in the connection Secret", func() bool {
		return connectionSecret(t, "ak-tok-app-out")["token"] == "e2e-chosen-key-2"
	})
	if to := authentikAPI.object(t, akTokens, "e2e-tok-api"); to["intent"] != "api" || to["user_obj"].(map[string]any)["username"] != "e2e-tok-user" {
		t.Errorf("the update moved the token: %v", to)
	}

	// The flow's deletion waits for the brand that uses it; the user's for its tokens.
	for _, o := range []resource.Managed{flow, user, brand, tok, app} {
		if err := kube.Delete(context.Background(), o); err != nil {
			t.Fatal(err)
		}
	}
	for _, o := range []resource.Managed{flow, user, brand, tok, app} {
		waitGone(t, o)
	}
	if len(authentikAPI.list(t, akBrands, url.Values{"domain": {"e2e-brand.example.com"}})) != 0 || authentikAPI.exists(t, akTokens, "e2e-tok-api") {
		t.Error("brand or token still in authentik")
	}
}

// A hand-made brand and token with the resources' keys are left byte-identical
// (FailOnConflict), and so is authentik's default brand; an observe-only resource never
// writes; AdoptExisting takes each over.
func TestAuthentikBrandTokenConflictAdoptObserve(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	hb := authentikAPI.seed(t, akBrands, map[string]any{"domain": "e2e-hand-brand.example.com", "branding_title": "Hand"})
	hu := authentikAPI.seed(t, akUsers, map[string]any{"username": "e2e-hand-tok-user"})
	authentikAPI.seed(t, akTokens, map[string]any{"identifier": "e2e-hand-tok", "intent": "app_password", "user": hu["pk"], "description": "by hand"})
	t.Cleanup(func() {
		authentikAPI.del(t, akBrands, hb["brand_uuid"].(string))
		authentikAPI.del(t, akUsers, jsonNumber(hu["pk"]))
	})
	def := brandByDomain(t, "authentik-default")
	defID := def["brand_uuid"].(string)
	before := map[string][]byte{"brand": authentikAPI.raw(t, akBrands, hb["brand_uuid"].(string)), "token": authentikAPI.raw(t, akTokens, "e2e-hand-tok"),
		"default": authentikAPI.raw(t, akBrands, defID)}

	b := newAKBrand("ak-hand-brand", akv1alpha1.BrandParameters{Domain: "e2e-hand-brand.example.com", BrandingTitle: ptr("Ours")})
	tk := newAKToken("ak-hand-tok", akv1alpha1.TokenParameters{Identifier: "e2e-hand-tok", Intent: ptr("app_password"), Username: ptr("e2e-hand-tok-user"), Description: ptr("ours")})
	d := newAKBrand("ak-default-brand", akv1alpha1.BrandParameters{Domain: "authentik-default", BrandingTitle: ptr("Not yours")})
	b.SetDeletionPolicy(xpv2.DeletionOrphan)
	tk.SetDeletionPolicy(xpv2.DeletionOrphan)
	create(t, b)
	create(t, tk)
	create(t, d)
	waitAdoptionRequired(t, b, "authentik brand", "e2e-hand-brand.example.com")
	waitAdoptionRequired(t, tk, "authentik token", "e2e-hand-tok")
	waitAdoptionRequired(t, d, "authentik brand", "authentik-default")

	obs := newAKToken("ak-hand-tok-observe", akv1alpha1.TokenParameters{Identifier: "e2e-hand-tok", Intent: ptr("app_password"), Username: ptr("e2e-hand-tok-user"), Description: ptr("other")})
	obs.Spec.ManagementPolicies = xpv2.ManagementPolicies{xpv2.ManagementActionObserve}
	create(t, obs)
	waitReady(t, obs)
	if got := get(t, obs).Status.AtProvider.Provenance; got != identityv1alpha1.Observed {
		t.Errorf("observe-only provenance: got %q", got)
	}
	time.Sleep(2 * time.Second)
	after := map[string][]byte{"brand": authentikAPI.raw(t, akBrands, hb["brand_uuid"].(string)), "token": authentikAPI.raw(t, akTokens, "e2e-hand-tok"),
		"default": authentikAPI.raw(t, akBrands, defID)}
	for k := range before {
		if !bytes.Equal(before[k], after[k]) {
			t.Errorf("hand-made %s changed:\n%s\n%s", k, before[k], after[k])
		}
	}
	if err := kube.Delete(context.Background(), obs); err != nil {
		t.Fatal(err)
	}
	waitGone(t, obs)
	if err := kube.Delete(context.Background(), d); err != nil {
		t.Fatal(err)
	}
	waitGone(t, d)
	if !authentikAPI.exists(t, akTokens, "e2e-hand-tok") || !bytes.Equal(before["default"], authentikAPI.raw(t, akBrands, defID)) {
		t.Fatal("deleting an observe-only or refused resource touched authentik")
	}

	updateWith(t, b, func() { b.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting })
	updateWith(t, tk, func() { tk.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting })
	waitReady(t, b)
	waitReady(t, tk)
	eventually(t, 30*time.Second, "the adopted objects to follow their specs", func() bool {
		to := authentikAPI.object(t, akTokens, "e2e-hand-tok")
		return authentikAPI.object(t, akBrands, hb["brand_uuid"].(string))["branding_title"] == "Ours" &&
			strings.HasPrefix(to["description"].(string), "ours\n[provider-identity: ") && to["intent"] == "app_password"
	})
	if meta.GetExternalName(b) != hb["brand_uuid"] || meta.GetExternalName(tk) != "e2e-hand-tok" {
		t.Errorf("adopted other objects: %s, %s", meta.GetExternalName(b), meta.GetExternalName(tk))
	}
}

// The namespaced kinds: a Brand and a Token of a User of the namespace, the key in the
// connection Secret of the namespace; deleted together.
func TestNamespacedAuthentikBrandToken(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	const ns = "ak-brandtok"
	namespace(t, ns)
	cpc := &nsidentityv1alpha1.ClusterProviderConfig{ObjectMeta: metav1.ObjectMeta{Name: "e2e-ak-brandtok"}, Spec: authentikProviderConfig("unused", "authentik-token").Spec}
	create(t, cpc)
	releaseNamespacedProviderConfig(t, cpc)
	onPC := xpv2.ManagedResourceSpec{ProviderConfigReference: nsRef("ClusterProviderConfig", cpc.GetName())}
	u := &nsakv1alpha1.User{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "bot"}, Spec: nsakv1alpha1.UserSpec{ManagedResourceSpec: onPC,
		ForProvider: nsakv1alpha1.UserParameters{Username: "e2e-ns-tok-bot"}}}
	tk := &nsakv1alpha1.Token{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "bot-api"}, Spec: nsakv1alpha1.TokenSpec{ManagedResourceSpec: onPC,
		ForProvider: nsakv1alpha1.TokenParameters{Identifier: "e2e-ns-tok-api", UserRef: &xpv2.Reference{Name: "bot"}, Expiring: ptr(false)}}}
	tk.Spec.WriteConnectionSecretToReference = &xpv2.LocalSecretReference{Name: "bot-api"}
	b := &nsakv1alpha1.Brand{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "site"}, Spec: nsakv1alpha1.BrandSpec{ManagedResourceSpec: onPC,
		ForProvider: nsakv1alpha1.BrandParameters{Domain: "e2e-ns-brand.example.com", BrandingTitle: ptr("NS")}}}
	create(t, u)
	create(t, tk)
	create(t, b)
	waitReady(t, u)
	waitReady(t, tk)
	waitReady(t, b)
	key := viewKey(t, "e2e-ns-tok-api")
	eventually(t, 30*time.Second, "the key in the namespace's connection Secret", func() bool {
		s := &corev1.Secret{}
		return kube.Get(context.Background(), types.NamespacedName{Namespace: ns, Name: "bot-api"}, s) == nil && string(s.Data["token"]) == key
	})
	if brandByDomain(t, "e2e-ns-brand.example.com")["branding_title"] != "NS" {
		t.Error("namespaced brand not in authentik")
	}
	b2, err := json.Marshal(get(t, tk).Status)
	if err != nil || bytes.Contains(b2, []byte(key)) {
		t.Errorf("status of the namespaced token holds the key (or %v)", err)
	}
	for _, o := range []resource.Managed{u, tk, b} {
		if err := kube.Delete(context.Background(), o); err != nil {
			t.Fatal(err)
		}
	}
	for _, o := range []resource.Managed{u, tk, b} {
		waitGone(t, o)
	}
	if authentikAPI.exists(t, akTokens, "e2e-ns-tok-api") {
		t.Error("namespaced token still in authentik")
	}
}
