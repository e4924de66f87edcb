//go:build e2e

package e2e

import (
	"bytes"
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	akv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
)

// authentik deletes or detaches more than the object asked for: an application takes its
// policy bindings, a provider is unset on the application using it, a group's children lose
// it as a parent, a user takes its tokens. These tests make such objects by hand around
// objects the provider owns and check that deleting the owner's resource changes nothing, says
// what is in the way, and goes ahead by itself once the way is clear.

const (
	akBindings = "policies/bindings"
	akTokens   = "core/tokens"
)

// An owned application with a hand-made policy binding (of a hand-made group) is not deleted:
// deleting it would delete the binding, and with the last binding gone the application would
// be open to everyone. Once the binding is removed by hand, the deletion goes ahead.
func TestAuthentikApplicationDeletionBlockedByBinding(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	app := newAKApplication("ak-casc-app", "e2e-casc-app")
	create(t, app)
	waitReady(t, app)
	pbm := authentikAPI.object(t, akApps, "e2e-casc-app")["pbm_uuid"].(string)
	g := authentikAPI.seed(t, akGroups, map[string]any{"name": "e2e-casc-app-staff"})
	t.Cleanup(func() { authentikAPI.del(t, akGroups, g["pk"].(string)) })
	b := authentikAPI.seed(t, akBindings, map[string]any{"target": pbm, "order": 7, "group": g["pk"]})
	bindingID := b["pk"].(string)
	t.Cleanup(func() { authentikAPI.del(t, akBindings, bindingID) })
	before := authentikAPI.raw(t, akApps, "e2e-casc-app")

	deleteResource(t, app)
	waitDeletionBlocked(t, app, adoption.ReasonForeignDependents,
		`authentik application "e2e-casc-app"`, "authentik policy binding", `group \"e2e-casc-app-staff\"`, "ID "+bindingID,
		"not created or adopted by this installation", "spec.deletionPolicy: Orphan")
	time.Sleep(2 * pollInterval)
	if !bytes.Equal(before, authentikAPI.raw(t, akApps, "e2e-casc-app")) {
		t.Fatal("the application changed while its deletion was refused")
	}
	if !authentikAPI.exists(t, akBindings, bindingID) {
		t.Fatal("the hand-made binding is gone")
	}

	authentikAPI.del(t, akBindings, bindingID)
	waitGone(t, app)
	if authentikAPI.exists(t, akApps, "e2e-casc-app") {
		t.Error("the application outlived its resource once nothing was in the way")
	}
}

// An owned provider that a hand-made application uses is not deleted: authentik would unset
// the application's provider. The application keeps it; once the application no longer uses
// the provider, the deletion goes ahead.
func TestAuthentikProviderKeptForHandMadeApplication(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	p := newAKOAuth2("ak-casc-oauth2", "e2e-casc-oauth2")
	create(t, p)
	waitReady(t, p)
	id := meta.GetExternalName(p)
	pk := authentikAPI.object(t, akOAuth2, id)["pk"]
	authentikAPI.seed(t, akApps, map[string]any{"name": "Hand", "slug": "e2e-casc-oauth2-hand", "provider": pk})
	t.Cleanup(func() { authentikAPI.del(t, akApps, "e2e-casc-oauth2-hand") })
	before := authentikAPI.raw(t, akApps, "e2e-casc-oauth2-hand")

	deleteResource(t, p)
	waitDeletionBlocked(t, p, adoption.ReasonForeignDependents,
		`authentik OAuth2 provider "e2e-casc-oauth2" (ID `+id+")", `authentik application "e2e-casc-oauth2-hand"`,
		"not created or adopted by this installation")
	time.Sleep(2 * pollInterval)
	if !bytes.Equal(before, authentikAPI.raw(t, akApps, "e2e-casc-oauth2-hand")) {
		t.Fatal("the hand-made application changed while the provider's deletion was refused")
	}
	if !authentikAPI.exists(t, akOAuth2, id) {
		t.Fatal("the provider is gone")
	}

	authentikAPI.patch(t, akApps, "e2e-casc-oauth2-hand", map[string]any{"provider": nil})
	waitGone(t, p)
	if authentikAPI.exists(t, akOAuth2, id) {
		t.Error("the provider outlived its resource once nothing used it")
	}
}

// A provider and the application using it, both ours, deleted together: the provider waits
// for the application's resource (found by the application's marker) instead of detaching
// it, silently for its first minute and then saying so, then goes.
func TestAuthentikProviderWaitsForItsApplication(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	p := newAKOAuth2("ak-casc-pair", "e2e-casc-pair")
	create(t, p)
	waitReady(t, p)
	id := meta.GetExternalName(p)
	app := newAKApplication("ak-casc-pair-app", "e2e-casc-pair", func(a *akv1alpha1.Application) {
		a.Spec.ForProvider.OAuth2ProviderRef = &xpv2.Reference{Name: "ak-casc-pair"}
	})
	create(t, app)
	waitReady(t, app)
	eventually(t, 30*time.Second, "the application to use the provider", func() bool {
		return fmt.Sprint(authentikAPI.object(t, akApps, "e2e-casc-pair")["provider"]) == id
	})

	// authentik refuses to delete the application for a while, so the provider surely finds it
	// being deleted by its resource.
	authentikAPI.fault(t, map[string]any{"method": "DELETE", "path_prefix": "/core/applications/e2e-casc-pair/", "status": 503})
	deleteResource(t, app)
	deleteResource(t, p)
	quietWhileWaiting(t, p, 10*time.Second)
	waitDeletionBlocked(t, p, adoption.ReasonDependentsDeleting, `authentik application "e2e-casc-pair"`,
		"being deleted by Application.authentik.identity.crossplane.io/ak-casc-pair-app", "goes ahead by itself")
	if !authentikAPI.exists(t, akOAuth2, id) {
		t.Fatal("the provider went while its application was still there")
	}
	authentikAPI.clearFaults(t)
	waitGone(t, app)
	waitGone(t, p)
	if authentikAPI.exists(t, akOAuth2, id) {
		t.Error("the provider outlived its resource")
	}
}

// An owned group with a hand-made child group is not deleted: the child would lose its
// parent (and what it inherits). Once the child is detached by hand, the deletion goes ahead.
func TestAuthentikGroupDeletionBlockedByChild(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	g := newAKGroup("ak-casc-group", "e2e-casc-group")
	create(t, g)
	waitReady(t, g)
	pk := meta.GetExternalName(g)
	child := authentikAPI.seed(t, akGroups, map[string]any{"name": "e2e-casc-group-child", "parents": []any{pk}})
	childPK := child["pk"].(string)
	t.Cleanup(func() { authentikAPI.del(t, akGroups, childPK) })
	before := authentikAPI.raw(t, akGroups, childPK)

	deleteResource(t, g)
	waitDeletionBlocked(t, g, adoption.ReasonForeignDependents, `authentik group "e2e-casc-group-child" (ID `+childPK)
	time.Sleep(2 * pollInterval)
	if !bytes.Equal(before, authentikAPI.raw(t, akGroups, childPK)) {
		t.Fatal("the child group changed while its parent's deletion was refused")
	}
	authentikAPI.patch(t, akGroups, childPK, map[string]any{"parents": []any{}})
	waitGone(t, g)
	if authentikAPI.exists(t, akGroups, pk) {
		t.Error("the group outlived its resource once nothing was in the way")
	}
}

// An owned user with a hand-made API token is not deleted: the token would go with it.
func TestAuthentikUserDeletionBlockedByToken(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	u := newAKUser("ak-casc-user", "e2e-casc-user")
	create(t, u)
	waitReady(t, u)
	pk := meta.GetExternalName(u)
	authentikAPI.seed(t, akTokens, map[string]any{"identifier": "e2e-casc-user-ci", "intent": "api", "user": authentikAPI.object(t, akUsers, pk)["pk"]})
	t.Cleanup(func() { authentikAPI.del(t, akTokens, "e2e-casc-user-ci") })

	deleteResource(t, u)
	waitDeletionBlocked(t, u, adoption.ReasonForeignDependents, `authentik token "api token e2e-casc-user-ci of user e2e-casc-user"`)
	if l := authentikAPI.list(t, akTokens, url.Values{"identifier": {"e2e-casc-user-ci"}}); len(l) != 1 {
		t.Fatalf("the hand-made token: %v", l)
	}
	authentikAPI.del(t, akTokens, "e2e-casc-user-ci")
	waitGone(t, u)
	if authentikAPI.exists(t, akUsers, pk) {
		t.Error("the user outlived its resource once nothing was in the way")
	}
}
