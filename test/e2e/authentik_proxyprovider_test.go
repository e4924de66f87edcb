//go:build e2e

package e2e

import (
	"context"
	"testing"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	akv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// authentik adds its own scope mappings to every proxy provider on each write: they are not
// drift, so a proxy provider in sync is never written. Spec changes still are.
func TestAuthentikProxyServerAddedMappings(t *testing.T) {
	// Not parallel: akWritesTo matches an integer pk anywhere in a path, so writes to another
	// test's user with the same pk (users have their own sequence) would count.
	authentikAPI.noNewViolations(t)
	p := newAKProxy("ak-proxy-app", "e2e-proxy-app", func(p *akv1alpha1.ProxyProvider) {
		fp := &p.Spec.ForProvider
		fp.Mode = "proxy"
		fp.InternalHost = ptr("http://app.internal:8080")
		fp.SkipPathRegex = ptr("^/healthz$")
		fp.BasicAuthEnabled = ptr(true)
		fp.BasicAuthUserAttribute = ptr("app_user")
		fp.AccessTokenValidity = ptr("hours=8")
		fp.PropertyMappings = []akv1alpha1.PropertyMappingSelector{{Managed: ptr("goauthentik.io/providers/oauth2/scope-offline_access")}}
	})
	create(t, p)
	waitReady(t, p)
	id := meta.GetExternalName(p)
	if n := len(authentikAPI.object(t, akProxy, id)["property_mappings"].([]any)); n != 5 {
		t.Fatalf("authentik should have added its 4 scope mappings to the spec's one: %d", n)
	}
	if get(t, p).Status.AtProvider.ClientID == "" {
		t.Errorf("status.atProvider.clientId is empty")
	}

	time.Sleep(pollInterval)
	before := counter.snapshot()
	time.Sleep(4 * pollInterval)
	after := counter.snapshot()
	if w := akWritesTo(delta(before, after), id); len(w) != 0 {
		t.Fatalf("a proxy provider in sync was written (server-added scope mappings taken for drift?): %v", w)
	}

	updateWith(t, p, func() {
		p.Spec.ForProvider.Mode = "forward_domain"
		p.Spec.ForProvider.CookieDomain = ptr("example.com")
	})
	eventually(t, 30*time.Second, "forward_domain mode in authentik", func() bool {
		o := authentikAPI.object(t, akProxy, id)
		return o["mode"] == "forward_domain" && o["cookie_domain"] == "example.com"
	})
}

// Proxy providers carry no marker in authentik: a resource deleted with deletionPolicy Orphan
// and created again must opt in with AdoptExisting to take its provider back; until then the
// provider is left alone.
func TestAuthentikProxyRecreatedResourceNeedsAdoption(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	p := newAKProxy("ak-proxy-orphan", "e2e-proxy-orphan", func(p *akv1alpha1.ProxyProvider) { p.Spec.DeletionPolicy = xpv2.DeletionOrphan })
	if err := kube.Create(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	waitReady(t, p)
	id := meta.GetExternalName(p)
	t.Cleanup(func() { authentikAPI.del(t, akProxy, id) })
	if err := kube.Delete(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	waitGone(t, p)

	again := newAKProxy("ak-proxy-orphan", "e2e-proxy-orphan", func(p *akv1alpha1.ProxyProvider) {
		p.Spec.ForProvider.SkipPathRegex = ptr("^/public/")
	})
	create(t, again)
	waitAdoptionRequired(t, again, "authentik proxy provider", `"e2e-proxy-orphan"`, "ID "+id)
	if authentikAPI.object(t, akProxy, id)["skip_path_regex"] != "" {
		t.Fatal("the orphaned provider was written before adoption")
	}

	updateWith(t, again, func() {
		again.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting
	})
	waitReady(t, again)
	if meta.GetExternalName(again) != id {
		t.Fatalf("adopted %q, want the orphaned provider %s", meta.GetExternalName(again), id)
	}
	eventually(t, 30*time.Second, "the adopted provider to follow the spec", func() bool {
		return authentikAPI.object(t, akProxy, id)["skip_path_regex"] == "^/public/"
	})
}

func TestAuthentikProxyValidation(t *testing.T) {
	t.Parallel()
	akReject(t, newAKProxy("ak-proxy-cel-internal", "x", func(p *akv1alpha1.ProxyProvider) {
		p.Spec.ForProvider.Mode = "proxy"
	}), "mode proxy forwards to internalHost: set it")
	akReject(t, newAKProxy("ak-proxy-cel-domain", "x", func(p *akv1alpha1.ProxyProvider) {
		p.Spec.ForProvider.Mode = "forward_domain"
	}), "mode forward_domain authenticates every host under cookieDomain: set it")
	akReject(t, newAKProxy("ak-proxy-cel-mode", "x", func(p *akv1alpha1.ProxyProvider) {
		p.Spec.ForProvider.Mode = "reverse"
	}), "spec.forProvider.mode")
}
