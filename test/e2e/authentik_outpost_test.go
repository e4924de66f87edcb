//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	akv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	nsakv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1"
	nsidentityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

const (
	akLDAP     = "providers/ldap"
	akOutposts = "outposts/instances"
)

func newAKLDAP(name, akName string, mutate ...func(*akv1alpha1.LDAPProvider)) *akv1alpha1.LDAPProvider {
	p := &akv1alpha1.LDAPProvider{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: akv1alpha1.LDAPProviderSpec{
			ClusterManagedResourceSpec: akProviderConfig(),
			ForProvider: akv1alpha1.LDAPProviderParameters{
				Name: akName, AuthorizationFlow: ptr("default-authentication-flow"), InvalidationFlow: ptr("default-invalidation-flow"),
			},
		},
	}
	for _, m := range mutate {
		m(p)
	}
	return p
}

func newAKOutpost(name, akName string, mutate ...func(*akv1alpha1.Outpost)) *akv1alpha1.Outpost {
	o := &akv1alpha1.Outpost{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: akv1alpha1.OutpostSpec{
			ClusterManagedResourceSpec: akProviderConfig(),
			ForProvider:                akv1alpha1.OutpostParameters{Name: akName, Type: "ldap"},
		},
	}
	for _, m := range mutate {
		m(o)
	}
	return o
}

// An LDAP provider served by an LDAP outpost: both Ready; the outpost's API token in the
// connection Secret and nowhere in status or events; a spec change written, nothing written
// in sync; deleting the outpost takes its service account and token, then the provider goes.
func TestAuthentikLDAPOutpost(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	p := newAKLDAP("ak-ldap-dir", "e2e-ldap-dir", func(p *akv1alpha1.LDAPProvider) {
		p.Spec.ForProvider.BaseDN = ptr("DC=e2e,DC=example,DC=com")
		p.Spec.ForProvider.SearchMode = ptr("cached")
	})
	o := newAKOutpost("ak-ldap-outpost", "e2e-ldap-outpost", func(o *akv1alpha1.Outpost) {
		o.Spec.ForProvider.LDAPProviderRefs = []xpv2.Reference{{Name: "ak-ldap-dir"}}
		o.Spec.ForProvider.Config = &akv1alpha1.OutpostConfig{LogLevel: ptr("info"), AuthentikHost: ptr("https://auth.example.com")}
		o.Spec.WriteConnectionSecretToReference = &xpv2.SecretReference{Namespace: "crossplane-system", Name: "e2e-ldap-outpost"}
	})
	create(t, p)
	create(t, o)
	waitReady(t, p)
	waitReady(t, o)
	pid, oid := meta.GetExternalName(p), meta.GetExternalName(o)
	if got := authentikAPI.object(t, akLDAP, pid); got["base_dn"] != "DC=e2e,DC=example,DC=com" || got["search_mode"] != "cached" {
		t.Errorf("LDAP provider: %v", got)
	}
	obj := authentikAPI.object(t, akOutposts, oid)
	cfg := obj["config"].(map[string]any)
	if m := akMarkerOf(t, map[string]any{"attributes": cfg}); m.Resource != "Outpost.authentik.identity.crossplane.io/ak-ldap-outpost" {
		t.Errorf("outpost marker: %+v", m)
	}
	tokenID := "ak-outpost-" + oid + "-api"
	var key string
	eventually(t, 60*time.Second, "the outpost's token in its connection Secret", func() bool {
		s := connectionSecret(t, "e2e-ldap-outpost")
		key = s["token"]
		return key != "" && s["token_identifier"] == tokenID && s["authentik_url"] != ""
	})
	if key != viewKey(t, tokenID) {
		t.Fatal("the published token is not the outpost's")
	}
	got := get(t, o)
	if got.Status.AtProvider.TokenIdentifier != tokenID {
		t.Errorf("status.atProvider.tokenIdentifier %q", got.Status.AtProvider.TokenIdentifier)
	}
	b, err := json.Marshal(got.Status)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), key) {
		t.Error("the token's key is in the outpost's status")
	}
	for _, e := range events(t, o) {
		if strings.Contains(e.Message, key) {
			t.Errorf("the token's key is in event %s", e.Reason)
		}
	}

	time.Sleep(pollInterval)
	before := counter.snapshot()
	time.Sleep(3 * pollInterval)
	// Only these two objects' paths: a bare integer pk would also match another test's user.
	w := map[string]int{}
	for k, v := range authentikWrites(delta(before, counter.snapshot())) {
		if strings.Contains(k, "/outposts/instances/"+oid+"/") || strings.Contains(k, "/providers/ldap/"+pid+"/") {
			w[k] = v
		}
	}
	if len(w) != 0 {
		t.Fatalf("an outpost and provider in sync were written: %v", w)
	}

	updateWith(t, o, func() { o.Spec.ForProvider.Config.LogLevel = ptr("debug") })
	eventually(t, 30*time.Second, "log_level debug in authentik", func() bool {
		return authentikAPI.object(t, akOutposts, oid)["config"].(map[string]any)["log_level"] == "debug"
	})

	sa := authentikAPI.list(t, "core/users", map[string][]string{"username": {"ak-outpost-" + strings.ReplaceAll(oid, "-", "")}})
	if len(sa) != 1 {
		t.Fatalf("service account: %v", sa)
	}
	if err := kube.Delete(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	waitGone(t, o)
	if authentikAPI.exists(t, akOutposts, oid) || authentikAPI.exists(t, "core/tokens", tokenID) || authentikAPI.exists(t, "core/users", akIntPK(sa[0])) {
		t.Error("the outpost, its token or its service account outlived the resource")
	}
	if err := kube.Delete(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	waitGone(t, p)
}

// A hand-made outpost with the name is left byte-identical under FailOnConflict, and taken
// over under AdoptExisting (its marker then in its config); a provider it serves cannot be
// deleted while the outpost is not ours.
func TestAuthentikOutpostConflictAndAdopt(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	prov := authentikAPI.seed(t, akLDAP, map[string]any{"name": "e2e-ldap-hand-dir"})
	hand := authentikAPI.seed(t, akOutposts, map[string]any{"name": "e2e-ldap-hand", "type": "ldap", "providers": []any{prov["pk"]}, "config": map[string]any{"log_level": "warning"}})
	id := hand["pk"].(string)
	t.Cleanup(func() { authentikAPI.del(t, akOutposts, id); authentikAPI.del(t, akLDAP, akIntPK(prov)) })
	before := authentikAPI.raw(t, akOutposts, id)

	o := newAKOutpost("ak-ldap-hand", "e2e-ldap-hand", func(o *akv1alpha1.Outpost) {
		o.Spec.ForProvider.LDAPProviderIDs = []string{akIntPK(prov)}
		o.Spec.ForProvider.Config = &akv1alpha1.OutpostConfig{LogLevel: ptr("info")}
	})
	create(t, o)
	waitAdoptionRequired(t, o, "authentik outpost", `"e2e-ldap-hand"`)
	time.Sleep(2 * pollInterval)
	if !bytes.Equal(before, authentikAPI.raw(t, akOutposts, id)) {
		t.Fatal("the hand-made outpost was changed")
	}

	// Deleting a provider the hand-made outpost serves is refused, naming the outpost.
	p := newAKLDAP("ak-ldap-hand-dir", "e2e-ldap-hand-dir", func(p *akv1alpha1.LDAPProvider) { p.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting })
	create(t, p)
	waitReady(t, p)
	if err := kube.Delete(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	eventually(t, 30*time.Second, "the provider's delete blocked by the outpost", func() bool {
		c := condition(get(t, p), xpv2.TypeSynced)
		return strings.Contains(c.Message, "e2e-ldap-hand")
	})
	if !authentikAPI.exists(t, akLDAP, akIntPK(prov)) {
		t.Fatal("the provider was deleted from under a hand-made outpost")
	}

	updateWith(t, o, func() { o.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting })
	waitReady(t, o)
	eventually(t, 30*time.Second, "the adopted outpost to follow the spec", func() bool {
		c := authentikAPI.object(t, akOutposts, id)["config"].(map[string]any)
		return c["log_level"] == "info" && c["identity.crossplane.io/provenance"] != nil
	})
	// Ours now: the outpost's own delete lets the provider's go through.
	if err := kube.Delete(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	waitGone(t, o)
	waitGone(t, p)
}

// The embedded outpost can be observed (nothing written) and is never deleted.
func TestAuthentikEmbeddedOutpostObserved(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	emb := authentikAPI.list(t, akOutposts, map[string][]string{"managed__iexact": {"goauthentik.io/outposts/embedded"}})
	if len(emb) != 1 {
		t.Fatalf("embedded outpost: %v", emb)
	}
	id := emb[0]["pk"].(string)
	before := authentikAPI.raw(t, akOutposts, id)
	o := newAKOutpost("ak-embedded-observed", "authentik Embedded Outpost", func(o *akv1alpha1.Outpost) {
		o.Spec.ForProvider.Type = "proxy"
		o.Spec.ForProvider.ProxyProviderIDs = []string{"1"}
		o.Spec.ManagementPolicies = xpv2.ManagementPolicies{xpv2.ManagementActionObserve}
	})
	create(t, o)
	waitReady(t, o)
	if a := get(t, o).Status.AtProvider; a.Managed != "goauthentik.io/outposts/embedded" || a.Provenance != identityv1alpha1.Observed || a.ID != id {
		t.Errorf("atProvider: %+v", a)
	}
	if err := kube.Delete(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	waitGone(t, o)
	if !bytes.Equal(before, authentikAPI.raw(t, akOutposts, id)) {
		t.Fatal("observing the embedded outpost changed it")
	}
}

// A namespaced proxy outpost publishes its token to a Secret of its own namespace.
func TestNamespacedAuthentikOutpost(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	const ns = "ak-outpost-ns"
	namespace(t, ns)
	cpc := &nsidentityv1alpha1.ClusterProviderConfig{ObjectMeta: metav1.ObjectMeta{Name: "e2e-ns-outpost"}, Spec: authentikProviderConfig("unused", "authentik-token").Spec}
	create(t, cpc)
	releaseNamespacedProviderConfig(t, cpc)
	onPC := xpv2.ManagedResourceSpec{ProviderConfigReference: nsRef("ClusterProviderConfig", cpc.GetName())}
	p := &nsakv1alpha1.ProxyProvider{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "dash"},
		Spec: nsakv1alpha1.ProxyProviderSpec{ManagedResourceSpec: onPC, ForProvider: nsakv1alpha1.ProxyProviderParameters{
			Name: "e2e-ns-outpost-dash", Mode: "forward_single", ExternalHost: "https://dash.example.com",
			ProviderFlows: nsakv1alpha1.ProviderFlows{AuthorizationFlow: "default-provider-authorization-implicit-consent", InvalidationFlow: "default-provider-invalidation-flow"},
		}},
	}
	onPCSecret := onPC
	onPCSecret.WriteConnectionSecretToReference = &xpv2.LocalSecretReference{Name: "edge-outpost"}
	o := &nsakv1alpha1.Outpost{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "edge"},
		Spec: nsakv1alpha1.OutpostSpec{ManagedResourceSpec: onPCSecret, ForProvider: nsakv1alpha1.OutpostParameters{
			Name: "e2e-ns-outpost-edge", Type: "proxy", ProxyProviderRefs: []xpv2.Reference{{Name: "dash"}},
		}},
	}
	create(t, p)
	create(t, o)
	waitReady(t, o)
	oid := meta.GetExternalName(o)
	eventually(t, 60*time.Second, "the token in team's Secret", func() bool {
		s := &corev1.Secret{}
		if err := kube.Get(context.Background(), types.NamespacedName{Namespace: ns, Name: "edge-outpost"}, s); err != nil {
			return false
		}
		return len(s.Data["token"]) != 0 && string(s.Data["token"]) == viewKey(t, "ak-outpost-"+oid+"-api")
	})
	if err := kube.Delete(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	waitGone(t, o)
	if err := kube.Delete(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	waitGone(t, p)
	if authentikAPI.exists(t, akOutposts, oid) {
		t.Error("the outpost outlived its resource")
	}
}

// Every CEL rule of LDAPProvider and Outpost, and the Application's one-provider rule with
// LDAP, refuses at admission with its message.
func TestAuthentikOutpostValidation(t *testing.T) {
	t.Parallel()
	akReject(t, newAKLDAP("ak-ldap-cel-bind", "x", func(p *akv1alpha1.LDAPProvider) { p.Spec.ForProvider.AuthorizationFlow = nil }),
		"set the bind flow")
	akReject(t, newAKLDAP("ak-ldap-cel-inval", "x", func(p *akv1alpha1.LDAPProvider) { p.Spec.ForProvider.InvalidationFlow = nil }),
		"set the invalidation flow")
	akReject(t, newAKOutpost("ak-outpost-cel-proxy", "x", func(o *akv1alpha1.Outpost) {
		o.Spec.ForProvider.Type = "proxy"
		o.Spec.ForProvider.ProxyProviderIDs = []string{"1"}
		o.Spec.ForProvider.LDAPProviderIDs = []string{"2"}
	}), "a proxy outpost serves proxy providers only")
	akReject(t, newAKOutpost("ak-outpost-cel-ldap", "x", func(o *akv1alpha1.Outpost) {
		o.Spec.ForProvider.LDAPProviderIDs = []string{"2"}
		o.Spec.ForProvider.ProxyProviderIDs = []string{"1"}
	}), "an LDAP outpost serves LDAP providers only")
	akReject(t, newAKOutpost("ak-outpost-cel-none", "x"), "an outpost serves at least one provider")
	akReject(t, newAKOutpost("ak-outpost-cel-radius", "x", func(o *akv1alpha1.Outpost) {
		o.Spec.ForProvider.Type = "radius"
		o.Spec.ForProvider.LDAPProviderIDs = []string{"2"}
	}), "spec.forProvider.type")
	akReject(t, newAKApplication("ak-app-cel-two", "x", func(a *akv1alpha1.Application) {
		a.Spec.ForProvider.LDAPProviderID = ptr("1")
		a.Spec.ForProvider.ProxyProviderID = ptr("2")
	}), "set only one of the oauth2Provider*, samlProvider*, proxyProvider* and ldapProvider* fields")

	// type cannot change (a transition rule: retried on the controller's conflicts).
	o := newAKOutpost("ak-outpost-cel-type", "e2e-outpost-cel-type", func(o *akv1alpha1.Outpost) {
		o.Spec.ForProvider.LDAPProviderIDs = []string{"999999"}
		o.Spec.ManagementPolicies = xpv2.ManagementPolicies{xpv2.ManagementActionObserve}
	})
	create(t, o)
	changeRefused(t, o, func(o *akv1alpha1.Outpost) {
		o.Spec.ForProvider.Type = "proxy"
		o.Spec.ForProvider.LDAPProviderIDs = nil
		o.Spec.ForProvider.ProxyProviderIDs = []string{"1"}
	}, "type cannot be changed")
}
