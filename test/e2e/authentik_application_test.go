//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	akv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// An application the provider creates carries its marker on the last line of its description,
// uses its provider by reference, follows spec changes and is deleted with the resource.
func TestAuthentikApplicationLifecycle(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	proxy := newAKProxy("ak-app-proxy", "e2e-app-proxy")
	create(t, proxy)
	app := newAKApplication("ak-app-lifecycle", "e2e-app-lifecycle", func(a *akv1alpha1.Application) {
		fp := &a.Spec.ForProvider
		fp.ProxyProviderRef = &xpv2.Reference{Name: proxy.Name}
		fp.Group = ptr("Tools")
		fp.Publisher = ptr("Platform team")
		fp.LaunchURL = ptr("https://e2e-app-proxy.example.com/home")
		fp.OpenInNewTab = ptr(true)
		fp.PolicyEngineMode = ptr("all")
		fp.Hidden = ptr(false)
	})
	create(t, app)
	waitReady(t, proxy)
	waitReady(t, app)

	if got := meta.GetExternalName(app); got != "e2e-app-lifecycle" {
		t.Fatalf("external name: got %q, want the slug", got)
	}
	obj := authentikAPI.object(t, akApps, "e2e-app-lifecycle")
	rest, m := akDescriptionMarker(t, obj)
	if rest != "made by ak-app-lifecycle" || m.Installation != installationID || m.Resource != "Application.authentik.identity.crossplane.io/ak-app-lifecycle" || m.Origin != provenance.OriginCreated {
		t.Errorf("description %q, marker %+v", obj["meta_description"], m)
	}
	if obj["group"] != "Tools" || obj["meta_publisher"] != "Platform team" || obj["open_in_new_tab"] != true || obj["policy_engine_mode"] != "all" || obj["provider"] == nil {
		t.Errorf("application: %v", obj)
	}
	if p := app.Status.AtProvider; p.Provenance != identityv1alpha1.Owned || p.ProviderID != meta.GetExternalName(proxy) || p.LaunchURL != "https://e2e-app-proxy.example.com/home" {
		t.Errorf("status.atProvider: %+v", p)
	}
	if get(t, proxy).Status.AtProvider.AssignedApplication != "e2e-app-lifecycle" {
		eventually(t, 30*time.Second, "the proxy provider to see its application", func() bool {
			return get(t, proxy).Status.AtProvider.AssignedApplication == "e2e-app-lifecycle"
		})
	}

	updateWith(t, app, func() {
		app.Spec.ForProvider.Description = ptr("Internal tools\nfor the platform team")
		app.Spec.ForProvider.Hidden = ptr(true)
	})
	eventually(t, 30*time.Second, "the description to reach authentik with the marker kept", func() bool {
		o := authentikAPI.object(t, akApps, "e2e-app-lifecycle")
		r, mm, found, err := provenance.ExtractFromText(o["meta_description"].(string))
		return found && err == nil && r == "Internal tools\nfor the platform team" && mm == m && o["meta_hide"] == true
	})

	if err := kube.Delete(context.Background(), app); err != nil {
		t.Fatal(err)
	}
	waitGone(t, app)
	if authentikAPI.exists(t, akApps, "e2e-app-lifecycle") {
		t.Fatal("application still exists after its resource was deleted")
	}
	if !authentikAPI.exists(t, akProxy, meta.GetExternalName(proxy)) {
		t.Fatal("deleting the application deleted its provider")
	}
}

// Case 3: a hand-made application with the same slug is never written under FailOnConflict.
func TestAuthentikApplicationFailOnConflict(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	authentikAPI.seed(t, akApps, map[string]any{"name": "Hand made", "slug": "e2e-app-hand", "meta_description": "tuned by hand", "group": "Legacy"})
	before := authentikAPI.raw(t, akApps, "e2e-app-hand")

	app := newAKApplication("ak-app-hand", "e2e-app-hand")
	create(t, app)
	waitAdoptionRequired(t, app, "authentik application", `"e2e-app-hand"`, "spec.adoptionPolicy: AdoptExisting", `spec.managementPolicies: ["Observe"]`)
	eventually(t, 30*time.Second, "a Warning event", func() bool { return hasEvent(t, app, corev1.EventTypeWarning, "CannotObserveExternalResource") })
	if meta.GetExternalName(app) != "" {
		t.Errorf("external name bound to a hand-made application: %q", meta.GetExternalName(app))
	}
	time.Sleep(3 * pollInterval)
	if after := authentikAPI.raw(t, akApps, "e2e-app-hand"); !bytes.Equal(before, after) {
		t.Fatalf("the hand-made application changed under FailOnConflict:\nbefore %s\nafter  %s", before, after)
	}

	authentikAPI.del(t, akApps, "e2e-app-hand")
	waitReady(t, get(t, app))
	if _, m := akDescriptionMarker(t, authentikAPI.object(t, akApps, "e2e-app-hand")); m.Resource != "Application.authentik.identity.crossplane.io/ak-app-hand" {
		t.Errorf("the application made after the conflict cleared carries marker %+v", m)
	}
}

// Case 4: another installation's application is a conflict even under AdoptExisting.
func TestAuthentikApplicationForeignInstallation(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	foreign := provenance.Marker{Installation: "other-cluster", Resource: "Application.authentik.identity.crossplane.io/theirs", Origin: provenance.OriginCreated}
	authentikAPI.seed(t, akApps, map[string]any{"name": "Theirs", "slug": "e2e-app-foreign", "meta_description": provenance.EmbedInText("theirs", foreign)})
	t.Cleanup(func() { authentikAPI.del(t, akApps, "e2e-app-foreign") })
	before := authentikAPI.raw(t, akApps, "e2e-app-foreign")

	app := newAKApplication("ak-app-foreign", "e2e-app-foreign", func(a *akv1alpha1.Application) { a.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting })
	create(t, app)
	waitAdoptionRequired(t, app, `"other-cluster"`, `"e2e-app-foreign"`)
	time.Sleep(2 * pollInterval)
	if after := authentikAPI.raw(t, akApps, "e2e-app-foreign"); !bytes.Equal(before, after) {
		t.Fatalf("another installation's application changed:\nbefore %s\nafter  %s", before, after)
	}
}

// Case 5: AdoptExisting stamps the marker below the existing description (kept, since the
// spec does not set one), reconciles the managed fields and records the adoption.
func TestAuthentikApplicationAdoptExisting(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	authentikAPI.seed(t, akApps, map[string]any{"name": "Old name", "slug": "e2e-app-adopt", "meta_description": "written by a person", "meta_publisher": "kept"})
	app := newAKApplication("ak-app-adopt", "e2e-app-adopt", func(a *akv1alpha1.Application) {
		a.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting
		a.Spec.ForProvider.Description = nil
	})
	create(t, app)
	waitReady(t, app)
	eventually(t, 30*time.Second, "provenance Adopted", func() bool { return get(t, app).Status.AtProvider.Provenance == identityv1alpha1.Adopted })
	obj := authentikAPI.object(t, akApps, "e2e-app-adopt")
	rest, m := akDescriptionMarker(t, obj)
	if rest != "written by a person" || m.Origin != provenance.OriginAdopted || m.Installation != installationID {
		t.Errorf("adopted description %q, marker %+v", obj["meta_description"], m)
	}
	if obj["name"] != "App e2e-app-adopt" || obj["meta_publisher"] != "kept" {
		t.Errorf("adopted application: name %v, publisher %v", obj["name"], obj["meta_publisher"])
	}
	if !eventRecorded(t, app, "AdoptedExternalResource") {
		t.Errorf("no AdoptedExternalResource event")
	}
}

// Cases 1 and 2: an application resource deleted with deletionPolicy Orphan and created again
// recognises its application by the marker in authentik, under FailOnConflict.
func TestAuthentikApplicationRecreatedResource(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	app := newAKApplication("ak-app-recreated", "e2e-app-recreated", func(a *akv1alpha1.Application) { a.Spec.DeletionPolicy = xpv2.DeletionOrphan })
	if err := kube.Create(context.Background(), app); err != nil {
		t.Fatal(err)
	}
	waitReady(t, app)
	t.Cleanup(func() { authentikAPI.del(t, akApps, "e2e-app-recreated") })
	if err := kube.Delete(context.Background(), app); err != nil {
		t.Fatal(err)
	}
	waitGone(t, app)
	if !authentikAPI.exists(t, akApps, "e2e-app-recreated") {
		t.Fatal("deletionPolicy Orphan deleted the application")
	}

	again := newAKApplication("ak-app-recreated", "e2e-app-recreated", func(a *akv1alpha1.Application) { a.Spec.ForProvider.Description = ptr("second life") })
	create(t, again)
	waitReady(t, again)
	if p := again.Status.AtProvider.Provenance; p != identityv1alpha1.Owned {
		t.Errorf("provenance: got %q, want Owned", p)
	}
	eventually(t, 30*time.Second, "the update to reach authentik", func() bool {
		r, _, _, _ := provenance.ExtractFromText(authentikAPI.object(t, akApps, "e2e-app-recreated")["meta_description"].(string))
		return r == "second life"
	})
}

func TestAuthentikApplicationValidation(t *testing.T) {
	t.Parallel()
	akReject(t, newAKApplication("ak-app-cel-two", "x", func(a *akv1alpha1.Application) {
		a.Spec.ForProvider.OAuth2ProviderRef = &xpv2.Reference{Name: "a"}
		a.Spec.ForProvider.SAMLProviderID = ptr("3")
	}), "an application has at most one provider")
	akReject(t, newAKApplication("ak-app-cel-slug", "not a slug"), "spec.forProvider.slug")
	akReject(t, newAKApplication("ak-app-cel-id", "x", func(a *akv1alpha1.Application) {
		a.Spec.ForProvider.ProxyProviderID = ptr("twelve")
	}), "spec.forProvider.proxyProviderId")

	// The slug identifies the application: it cannot change.
	celUpdateRefused(t, newAKApplication("ak-app-cel-immutable", "e2e-app-immutable"), func(a *akv1alpha1.Application) {
		a.Spec.ForProvider.Slug = "e2e-app-renamed"
	}, "slug cannot be changed")
}

// The examples are valid against the CRDs and their validation rules (server-side dry run).
func TestAuthentikApplicationExamples(t *testing.T) {
	t.Parallel()
	for _, f := range []string{"application.yaml", "oauth2provider.yaml", "samlprovider.yaml", "proxyprovider.yaml"} {
		out := kubectlRun(t, "apply", "--dry-run=server", "-f", filepath.Join("..", "..", "examples", "authentik", f))
		if !strings.Contains(out, "(server dry run)") {
			t.Errorf("%s: %s", f, out)
		}
	}
}
