//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	akv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

const akUsers = "core/users"

func newAKUser(name, username string, mutate ...func(*akv1alpha1.User)) *akv1alpha1.User {
	u := &akv1alpha1.User{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: akv1alpha1.UserSpec{
			ClusterManagedResourceSpec: xpv2.ClusterManagedResourceSpec{ProviderConfigReference: &xpv2.Reference{Name: "authentik"}},
			ForProvider:                akv1alpha1.UserParameters{Username: username, Name: ptr("Made by " + name)},
		},
	}
	for _, m := range mutate {
		m(u)
	}
	return u
}

func usersNamed(t *testing.T, username string) []map[string]any {
	t.Helper()
	return authentikAPI.list(t, akUsers, url.Values{"username": {username}, "include_groups": {"false"}})
}

func akPK(obj map[string]any) string { return fmt.Sprint(obj["pk"]) }

// akPasswordSecret creates a Secret holding a password, deleted when the test ends.
func akPasswordSecret(t *testing.T, name, password string) {
	t.Helper()
	create(t, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "crossplane-system", Name: name}, StringData: map[string]string{"password": password}})
}

// A user the provider creates carries its marker, joins groups by reference, gets its
// password from a Secret (set once, again only when the Secret changes, never shown), follows
// spec changes and is deleted with the resource.
func TestAuthentikUserLifecycle(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	const pw1, pw2 = "first-Passw0rd!", "second-Passw0rd!"
	akPasswordSecret(t, "ak-alice-password", pw1)
	grp := newAKGroup("ak-user-group", "e2e-ak-user-group")
	create(t, grp)
	waitReady(t, grp)

	mg := newAKUser("ak-alice", "e2e-ak-alice", func(u *akv1alpha1.User) {
		u.Spec.ForProvider.Email = ptr("alice@example.com")
		u.Spec.ForProvider.Path = ptr("users/e2e")
		u.Spec.ForProvider.Type = ptr("internal")
		u.Spec.ForProvider.GroupRefs = []xpv2.Reference{{Name: grp.Name}}
		u.Spec.ForProvider.Attributes = jsonAttrs("locale", `"en"`)
		u.Spec.ForProvider.PasswordSecretRef = &identityv1alpha1.SecretKeySelector{SecretReference: identityv1alpha1.SecretReference{Namespace: "crossplane-system", Name: "ak-alice-password"}, Key: "password"}
	})
	create(t, mg)
	waitReady(t, mg)
	id := meta.GetExternalName(mg)
	eventually(t, 30*time.Second, "the password to be set", func() bool {
		p, ok := authentikAPI.password(t, id)
		return ok && p == pw1 && get(t, mg).Status.AtProvider.PasswordSecretVersion != ""
	})

	obj := authentikAPI.object(t, akUsers, id)
	want := map[string]any{"username": "e2e-ak-alice", "name": "Made by ak-alice", "email": "alice@example.com", "path": "users/e2e", "type": "internal", "is_active": true}
	for k, v := range want {
		if obj[k] != v {
			t.Errorf("authentik user %s: got %v, want %v", k, obj[k], v)
		}
	}
	if g := fmt.Sprint(obj["groups"]); g != fmt.Sprint([]any{meta.GetExternalName(grp)}) {
		t.Errorf("groups: got %s, want the referenced group %s", g, meta.GetExternalName(grp))
	}
	if m := akMarkerOf(t, obj); m.Installation != installationID || m.Resource != "User.authentik.identity.crossplane.io/ak-alice" || m.Origin != provenance.OriginCreated {
		t.Errorf("marker: got %+v", m)
	}
	if a := mg.Status.AtProvider; a.Provenance != identityv1alpha1.Owned || a.ID != id || a.Username != "e2e-ak-alice" {
		t.Errorf("status.atProvider: got %+v", a)
	}
	// The Secret version the password came from is recorded in authentik, next to the marker.
	if v := akAttributes(obj)[authentik.PasswordVersionAttribute]; v == nil || v != mg.Status.AtProvider.PasswordSecretVersion {
		t.Errorf("password version: attribute %v, status %q", v, mg.Status.AtProvider.PasswordSecretVersion)
	}

	// The password is not sent again while the Secret is unchanged.
	setPassword := "POST /api/v3/core/users/" + id + "/set_password/"
	before := counter.snapshot()
	if before[setPassword] != 1 {
		t.Errorf("set_password sent %d times at creation, want 1", before[setPassword])
	}
	time.Sleep(3 * pollInterval)
	after := counter.snapshot()
	if n := delta(before, after)[setPassword]; n != 0 {
		t.Errorf("set_password sent %d more times with the Secret unchanged", n)
	}

	// A new password in the Secret is sent once.
	sec := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "crossplane-system", Name: "ak-alice-password"}}
	updateWith(t, sec, func() {
		sec.Data = map[string][]byte{"password": []byte(pw2)}
	})
	eventually(t, 30*time.Second, "the new password to be set", func() bool {
		p, _ := authentikAPI.password(t, id)
		return p == pw2
	})
	time.Sleep(2 * pollInterval)
	again := counter.snapshot()
	if n := delta(before, again)[setPassword]; n != 1 {
		t.Errorf("set_password sent %d times for one change of the Secret, want 1", n)
	}

	// The password never shows in the resource or its events.
	get(t, mg)
	for _, s := range []string{fmt.Sprintf("%+v", mg.Status), fmt.Sprintf("%v", mg.GetAnnotations())} {
		if strings.Contains(s, pw1) || strings.Contains(s, pw2) {
			t.Errorf("the password leaks into the resource: %s", s)
		}
	}
	for _, e := range events(t, mg) {
		if strings.Contains(e.Message, pw1) || strings.Contains(e.Message, pw2) {
			t.Errorf("the password leaks into an event: %q", e.Message)
		}
	}

	// Spec changes and drift: email changed in the spec, is_active flipped by hand.
	update(t, mg, func(u *akv1alpha1.User) { u.Spec.ForProvider.Email = ptr("alice@example.org") })
	authentikAPI.patch(t, akUsers, id, map[string]any{"is_active": false})
	eventually(t, 30*time.Second, "the email and is_active to be reconciled", func() bool {
		o := authentikAPI.object(t, akUsers, id)
		return o["email"] == "alice@example.org" && o["is_active"] == true
	})

	if err := kube.Delete(context.Background(), mg); err != nil {
		t.Fatal(err)
	}
	waitGone(t, mg)
	if authentikAPI.exists(t, akUsers, id) {
		t.Fatalf("user %s still exists after its resource was deleted with deletionPolicy Delete", id)
	}
}

// Case 3 for users: a hand-made user is never written under FailOnConflict.
func TestAuthentikUserFailOnConflict(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	hand := authentikAPI.seed(t, akUsers, map[string]any{"username": "e2e-ak-handmade-user", "name": "Hand Made", "attributes": map[string]any{"owner": "alice"}})
	handID := akPK(hand)
	before := authentikAPI.raw(t, akUsers, handID)

	mg := newAKUser("ak-user-conflict", "e2e-ak-handmade-user")
	create(t, mg)
	eventually(t, 30*time.Second, "Ready=False with reason AdoptionRequired", func() bool {
		c := condition(get(t, mg), xpv2.TypeReady)
		return c.Status == corev1.ConditionFalse && c.Reason == "AdoptionRequired"
	})
	msg := condition(mg, xpv2.TypeReady).Message
	for _, want := range []string{"authentik user", `"e2e-ak-handmade-user"`, "(ID " + handID + ")", "spec.adoptionPolicy: AdoptExisting"} {
		if !strings.Contains(msg, want) {
			t.Errorf("AdoptionRequired message %q does not mention %s", msg, want)
		}
	}
	time.Sleep(3 * pollInterval)
	if after := authentikAPI.raw(t, akUsers, handID); !bytes.Equal(before, after) {
		t.Fatalf("the hand-made user changed under FailOnConflict:\nbefore %s\nafter  %s", before, after)
	}
	if _, set := authentikAPI.password(t, handID); set {
		t.Fatal("a password was set on a hand-made user under FailOnConflict")
	}

	authentikAPI.del(t, akUsers, handID)
	waitReady(t, get(t, mg))
	if id := meta.GetExternalName(mg); id == "" || id == handID {
		t.Fatalf("expected a new user after the conflict cleared, got external name %q", id)
	}
}

// Case 4 for users: another installation's marker is a conflict even under AdoptExisting.
func TestAuthentikUserForeignInstallation(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	hand := authentikAPI.seed(t, akUsers, map[string]any{"username": "e2e-ak-foreign-user", "name": "Foreign", "attributes": map[string]any{
		authentik.MarkerAttribute: akMarker("other-cluster", "User.authentik.identity.crossplane.io/ak-user-foreign"),
	}})
	handID := akPK(hand)
	t.Cleanup(func() { authentikAPI.del(t, akUsers, handID) })
	before := authentikAPI.raw(t, akUsers, handID)

	mg := newAKUser("ak-user-foreign", "e2e-ak-foreign-user", func(u *akv1alpha1.User) { u.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting })
	create(t, mg)
	eventually(t, 30*time.Second, "AdoptionRequired naming the other installation", func() bool {
		c := condition(get(t, mg), xpv2.TypeReady)
		return c.Reason == "AdoptionRequired" && strings.Contains(c.Message, `"other-cluster"`)
	})
	time.Sleep(2 * pollInterval)
	if after := authentikAPI.raw(t, akUsers, handID); !bytes.Equal(before, after) {
		t.Fatalf("a user of another installation changed:\nbefore %s\nafter  %s", before, after)
	}
}

// Case 5 for users: AdoptExisting stamps the marker, reconciles the managed fields and keeps
// the attributes and fields the spec does not set.
func TestAuthentikUserAdoptExisting(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	hand := authentikAPI.seed(t, akUsers, map[string]any{"username": "e2e-ak-adopt-user", "name": "Old Name", "email": "old@example.com", "path": "users/legacy",
		"attributes": map[string]any{"locale": "en", "settings": map[string]any{"theme": "dark"}}})
	handID := akPK(hand)
	mg := newAKUser("ak-user-adopt", "e2e-ak-adopt-user", func(u *akv1alpha1.User) {
		u.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting
		u.Spec.ForProvider.Email = ptr("new@example.com")
		u.Spec.ForProvider.Attributes = jsonAttrs("locale", `"de"`)
	})
	create(t, mg)
	waitReady(t, mg)
	eventually(t, 30*time.Second, "provenance Adopted", func() bool {
		return get(t, mg).Status.AtProvider.Provenance == identityv1alpha1.Adopted
	})
	if got := meta.GetExternalName(mg); got != handID {
		t.Fatalf("external name: got %q, want the adopted user %q", got, handID)
	}
	obj := authentikAPI.object(t, akUsers, handID)
	a := akAttributes(obj)
	if obj["email"] != "new@example.com" || obj["name"] != "Made by ak-user-adopt" || obj["path"] != "users/legacy" ||
		a["locale"] != "de" || fmt.Sprint(a["settings"]) != "map[theme:dark]" {
		t.Errorf("adopted user not reconciled to the spec, or unmanaged fields changed: %v", obj)
	}
	if m := akMarkerOf(t, obj); m.Origin != provenance.OriginAdopted || m.Installation != installationID {
		t.Errorf("adoption marker: got %+v", m)
	}
	if !eventRecorded(t, mg, "AdoptedExternalResource") {
		t.Errorf("no AdoptedExternalResource event")
	}
}

// Cases 1 and 2 for users: deleted with deletionPolicy Orphan and created again, the resource
// recognises its own user by the marker and manages it; its password, unchanged, is not sent
// again.
func TestAuthentikUserRecreatedResource(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	akPasswordSecret(t, "ak-recreated-password", "recreated-Passw0rd")
	ref := &identityv1alpha1.SecretKeySelector{SecretReference: identityv1alpha1.SecretReference{Namespace: "crossplane-system", Name: "ak-recreated-password"}, Key: "password"}
	mg := newAKUser("ak-user-recreated", "e2e-ak-recreated-user", func(u *akv1alpha1.User) {
		u.Spec.DeletionPolicy = xpv2.DeletionOrphan
		u.Spec.ForProvider.PasswordSecretRef = ref
	})
	if err := kube.Create(context.Background(), mg); err != nil {
		t.Fatal(err)
	}
	waitReady(t, mg)
	id := meta.GetExternalName(mg)
	eventually(t, 30*time.Second, "the password to be set", func() bool {
		p, _ := authentikAPI.password(t, id)
		return p == "recreated-Passw0rd"
	})
	setPassword := "POST /api/v3/core/users/" + id + "/set_password/"
	t.Cleanup(func() { authentikAPI.del(t, akUsers, id) })
	if err := kube.Delete(context.Background(), mg); err != nil {
		t.Fatal(err)
	}
	waitGone(t, mg)
	if !authentikAPI.exists(t, akUsers, id) {
		t.Fatalf("deletionPolicy Orphan deleted the user")
	}

	again := newAKUser("ak-user-recreated", "e2e-ak-recreated-user", func(u *akv1alpha1.User) {
		u.Spec.ForProvider.Name = ptr("Second Life")
		u.Spec.ForProvider.PasswordSecretRef = ref
	})
	create(t, again)
	waitReady(t, again)
	if got := meta.GetExternalName(again); got != id {
		t.Fatalf("recreated resource bound %q, want its own user %q", got, id)
	}
	if p := again.Status.AtProvider.Provenance; p != identityv1alpha1.Owned {
		t.Errorf("provenance: got %q, want Owned", p)
	}
	eventually(t, 30*time.Second, "the update to reach authentik", func() bool {
		return authentikAPI.object(t, akUsers, id)["name"] == "Second Life"
	})
	if n := len(usersNamed(t, "e2e-ak-recreated-user")); n != 1 {
		t.Errorf("%d users named e2e-ak-recreated-user, want 1", n)
	}
	time.Sleep(pollInterval)
	if c := counter.snapshot(); c[setPassword] != 1 {
		t.Errorf("set_password sent %d times for one unchanged Secret across the re-created resource, want 1", c[setPassword])
	}
}

// managementPolicies [Observe] reads an existing user, never writes it (nor its password)
// and never deletes it.
func TestAuthentikUserObserveOnly(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	akPasswordSecret(t, "ak-observed-password", "never-Sent-1")
	hand := authentikAPI.seed(t, akUsers, map[string]any{"username": "e2e-ak-observed-user", "name": "Observed", "email": "obs@example.com"})
	handID := akPK(hand)
	t.Cleanup(func() { authentikAPI.del(t, akUsers, handID) })
	before := authentikAPI.raw(t, akUsers, handID)

	mg := newAKUser("ak-user-observed", "e2e-ak-observed-user", func(u *akv1alpha1.User) {
		u.Spec.ManagementPolicies = xpv2.ManagementPolicies{xpv2.ManagementActionObserve}
		u.Spec.ForProvider.PasswordSecretRef = &identityv1alpha1.SecretKeySelector{SecretReference: identityv1alpha1.SecretReference{Namespace: "crossplane-system", Name: "ak-observed-password"}, Key: "password"}
	})
	create(t, mg)
	waitReady(t, mg)
	if a := mg.Status.AtProvider; a.Provenance != identityv1alpha1.Observed || a.ID != handID || a.Email != "obs@example.com" || a.Name != "Observed" {
		t.Fatalf("status.atProvider: got %+v", a)
	}
	time.Sleep(2 * pollInterval)
	if after := authentikAPI.raw(t, akUsers, handID); !bytes.Equal(before, after) {
		t.Fatalf("an observed user was written:\nbefore %s\nafter  %s", before, after)
	}
	if _, set := authentikAPI.password(t, handID); set {
		t.Fatal("a password was set on an observed user")
	}
	if c := condition(get(t, mg), xpv2.TypeSynced); c.Status != corev1.ConditionTrue {
		t.Errorf("Synced: got %s (%s), want True", c.Status, c.Message)
	}
	if err := kube.Delete(context.Background(), mg); err != nil {
		t.Fatal(err)
	}
	waitGone(t, mg)
	if !authentikAPI.exists(t, akUsers, handID) {
		t.Fatal("an observed user was deleted")
	}
}

// At steady state each user costs one GET per poll and nothing else, its password included.
func TestAuthentikUserSteadyStateRequests(t *testing.T) {
	// Not parallel: it checks every write to authentik at steady state, other tests' too.
	authentikAPI.noNewViolations(t)
	akPasswordSecret(t, "ak-steady-password", "steady-Passw0rd")
	const n = 4
	mgs := make([]*akv1alpha1.User, n)
	for i := range mgs {
		mgs[i] = newAKUser(fmt.Sprintf("ak-user-steady-%d", i), fmt.Sprintf("e2e-ak-steady-user-%d", i), func(u *akv1alpha1.User) {
			u.Spec.ForProvider.PasswordSecretRef = &identityv1alpha1.SecretKeySelector{SecretReference: identityv1alpha1.SecretReference{Namespace: "crossplane-system", Name: "ak-steady-password"}, Key: "password"}
		})
	}
	createAll(t, mgs...)
	paths := make([]string, 0, len(mgs))
	for _, mg := range mgs {
		waitReady(t, mg)
		eventually(t, 30*time.Second, "the password to be set", func() bool { return get(t, mg).Status.AtProvider.PasswordSecretVersion != "" })
		paths = append(paths, "GET /api/v3/core/users/"+meta.GetExternalName(mg)+"/")
	}
	time.Sleep(pollInterval)
	before := counter.snapshot()
	window := 5 * pollInterval
	time.Sleep(window)
	after := counter.snapshot()
	d := delta(before, after)
	polls := int(window / pollInterval)
	// The users poll together, so they read through shared lists (a page of users, keyed by
	// its path) or alone: between them at most one read per user per poll, allowing one poll
	// of jitter, and at least one read.
	reads := d["GET /api/v3/core/users/"]
	for _, p := range paths {
		if got := d[p]; got > polls+1 {
			t.Errorf("%s: %d in %s, want at most about %d (one per poll)", p, got, window, polls)
		}
		reads += d[p]
		delete(d, p)
	}
	if reads == 0 || reads > n*(polls+1) {
		t.Errorf("%d reads of users (single or listed) in %s, want between 1 and %d", reads, window, n*(polls+1))
	}
	if w := authentikWrites(d); len(w) != 0 {
		t.Errorf("writes to authentik at steady state: %v", w)
	}
}

// A failing authentik (5xx) on an update makes the resource Synced=False with a clear message;
// once authentik recovers the update goes through, without a duplicate user.
func TestAuthentikUserFault(t *testing.T) {
	// Not parallel: authentik's faults are server-wide and clearFaults clears them all.
	authentikAPI.noNewViolations(t)
	mg := newAKUser("ak-user-fault", "e2e-ak-fault-user", func(u *akv1alpha1.User) { u.Spec.ForProvider.Email = ptr("before@example.com") })
	create(t, mg)
	waitReady(t, mg)
	id := meta.GetExternalName(mg)

	authentikAPI.fault(t, map[string]any{"method": "PATCH", "path_prefix": "/core/users/" + id + "/", "status": 502})
	updateWith(t, mg, func() {
		mg.Spec.ForProvider.Email = ptr("after@example.com")
	})
	eventually(t, 30*time.Second, "Synced=False explaining the failed update", func() bool {
		c := condition(get(t, mg), xpv2.TypeSynced)
		return c.Status == corev1.ConditionFalse && strings.Contains(c.Message, `cannot update authentik user "e2e-ak-fault-user" (pk `+id+`)`)
	})
	if msg := condition(mg, xpv2.TypeSynced).Message; !strings.Contains(msg, "PATCH /api/v3/core/users/"+id+"/") || !strings.Contains(msg, "502") {
		t.Errorf("Synced=False message %q should name the request and authentik's 502", msg)
	}
	authentikAPI.clearFaults(t)
	eventually(t, 60*time.Second, "the update to go through once authentik recovers", func() bool {
		return authentikAPI.object(t, akUsers, id)["email"] == "after@example.com"
	})
	waitReady(t, mg)
	if n := len(usersNamed(t, "e2e-ak-fault-user")); n != 1 {
		t.Fatalf("%d users named e2e-ak-fault-user, want 1", n)
	}
}

// A password Secret that does not exist is named in Synced=False; the user is still managed,
// and gets its password as soon as the Secret appears.
func TestAuthentikUserMissingPasswordSecret(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	mg := newAKUser("ak-user-nopw", "e2e-ak-nopw-user", func(u *akv1alpha1.User) {
		u.Spec.ForProvider.PasswordSecretRef = &identityv1alpha1.SecretKeySelector{SecretReference: identityv1alpha1.SecretReference{Namespace: "crossplane-system", Name: "ak-late-password"}, Key: "password"}
	})
	create(t, mg)
	eventually(t, 30*time.Second, "Synced=False naming the missing Secret", func() bool {
		c := condition(get(t, mg), xpv2.TypeSynced)
		return c.Status == corev1.ConditionFalse && strings.Contains(c.Message, "cannot read the password Secret crossplane-system/ak-late-password")
	})
	id := meta.GetExternalName(mg)
	if id == "" {
		t.Fatal("the user was not created while its password Secret is missing")
	}
	akPasswordSecret(t, "ak-late-password", "late-Passw0rd")
	eventually(t, 60*time.Second, "the password to be set once the Secret exists", func() bool {
		p, _ := authentikAPI.password(t, id)
		return p == "late-Passw0rd"
	})
	waitReady(t, mg)
}

// Schema and CEL validation refuse what authentik would refuse, before anything is reconciled.
func TestAuthentikUserValidation(t *testing.T) {
	t.Parallel()
	akReject(t, newAKUser("ak-invalid-email", "e2e-x", func(u *akv1alpha1.User) { u.Spec.ForProvider.Email = ptr("not an address") }),
		"email must be an address like someone@example.com")
	akReject(t, newAKUser("ak-invalid-type", "e2e-x", func(u *akv1alpha1.User) { u.Spec.ForProvider.Type = ptr("internal_service_account") }),
		"spec.forProvider.type")
	akReject(t, newAKUser("ak-invalid-path", "e2e-x", func(u *akv1alpha1.User) { u.Spec.ForProvider.Path = ptr("/users/") }),
		"spec.forProvider.path")
	akReject(t, newAKUser("ak-invalid-username", "has space"), "spec.forProvider.username")
	// An empty email is allowed: authentik's users may have none.
	ok := newAKUser("ak-valid-empty-email", "e2e-ak-empty-email", func(u *akv1alpha1.User) {
		u.Spec.ForProvider.Email = ptr("")
		u.Spec.ManagementPolicies = xpv2.ManagementPolicies{xpv2.ManagementActionObserve}
	})
	if err := kube.Create(context.Background(), ok); err != nil {
		t.Fatalf("an empty email was refused: %v", err)
	}
	_ = kube.Delete(context.Background(), ok)
	waitGone(t, ok)
}
