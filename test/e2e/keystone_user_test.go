//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gophercloud/gophercloud/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	ksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// newKeystoneUser returns a User in Keystone's Default domain.
func newKeystoneUser(name, keystoneName string, mutate ...func(*ksv1alpha1.User)) *ksv1alpha1.User {
	u := &ksv1alpha1.User{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: ksv1alpha1.UserSpec{
			ClusterManagedResourceSpec: xpv2.ClusterManagedResourceSpec{ProviderConfigReference: &xpv2.Reference{Name: "keystone"}},
			ForProvider:                ksv1alpha1.UserParameters{Name: keystoneName, DomainID: ptr("default")},
		},
	}
	for _, m := range mutate {
		m(u)
	}
	return u
}

// randomPassword returns a fresh password, so that finding it anywhere proves a leak.
func randomPassword(t *testing.T, prefix string) string {
	t.Helper()
	b := make([]byte, 12)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return prefix + "-" + hex.EncodeToString(b)
}

// passwordSecret creates a Secret holding a password under the key "password".
func passwordSecret(t *testing.T, name, password string) *corev1.Secret {
	t.Helper()
	s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "crossplane-system", Name: name}, StringData: map[string]string{"password": password}}
	create(t, s)
	return s
}

func passwordKey(s *corev1.Secret) *identityv1alpha1.SecretKeySelector {
	return &identityv1alpha1.SecretKeySelector{SecretReference: identityv1alpha1.SecretReference{Namespace: s.Namespace, Name: s.Name}, Key: "password"}
}

// keystoneUserToken asks Keystone for a token as the user, optionally scoped to a project, and
// returns the HTTP status: 201 when the password works (and, scoped, the user has a role on
// the project), 401 otherwise.
func keystoneUserToken(t *testing.T, userID, password, projectID string) int {
	t.Helper()
	auth := map[string]any{"identity": map[string]any{"methods": []string{"password"},
		"password": map[string]any{"user": map[string]any{"id": userID, "password": password}}}}
	if projectID != "" {
		auth["scope"] = map[string]any{"project": map[string]any{"id": projectID}}
	}
	return tokenStatus(t, auth)
}

// waitPasswordSent waits until the resource records that the Secret's current version was sent.
func waitPasswordSent(t *testing.T, mg *ksv1alpha1.User, s *corev1.Secret) {
	t.Helper()
	get(t, s)
	eventually(t, 60*time.Second, "the password of Secret "+s.Name+" (resourceVersion "+s.ResourceVersion+") to be sent", func() bool {
		f := get(t, mg).Status.AtProvider.PasswordFingerprint
		return f != nil && f.UID == string(s.UID) && f.ResourceVersion == s.ResourceVersion && f.Namespace == s.Namespace && f.Name == s.Name && f.Key == "password"
	})
}

// assertNowhere fails when any of the secrets appears in the resource as the API server holds
// it (every field, as YAML) or in any event of the cluster.
func assertNowhere(t *testing.T, mg *ksv1alpha1.User, secrets ...string) {
	t.Helper()
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(ksv1alpha1.UserGroupVersionKind)
	if err := kube.Get(context.Background(), keyOf(mg), u); err != nil {
		t.Fatal(err)
	}
	y, err := yaml.Marshal(u.Object)
	if err != nil {
		t.Fatal(err)
	}
	l := &corev1.EventList{}
	if err := kube.List(context.Background(), l); err != nil {
		t.Fatal(err)
	}
	if len(events(t, mg)) == 0 {
		t.Errorf("no events recorded for %s: nothing was checked", mg.GetName())
	}
	for _, s := range secrets {
		if strings.Contains(string(y), s) {
			t.Errorf("the password appears in the resource's YAML:\n%s", y)
		}
		for _, e := range l.Items {
			if strings.Contains(e.Message, s) || strings.Contains(e.Reason, s) {
				t.Errorf("the password appears in event %s/%s: %s", e.Namespace, e.Name, e.Message)
			}
		}
	}
	if !strings.Contains(string(y), "passwordFingerprint") {
		t.Errorf("the resource's YAML has no passwordFingerprint, so it was checked before anything was sent:\n%s", y)
	}
	if p := os.Getenv("E2E_LOG"); p != "" {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range secrets {
			if bytes.Contains(b, []byte(s)) {
				t.Errorf("the password appears in the controller log %s", p)
			}
		}
	}
}

// A user with a password from a Secret: created in a Domain referenced by domainRef, its
// password works, is sent once, is sent again only when the Secret changes, and appears in no
// status, event or condition. Deleting the resource deletes the user.
func TestUserPasswordLifecycle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dom := readyDomain(t, "user-lifecycle-domain", "e2e-user-lifecycle")

	first, second := randomPassword(t, "first"), randomPassword(t, "second")
	sec := passwordSecret(t, "user-lifecycle-password", first)
	mg := newKeystoneUser("user-lifecycle", "e2e-alice", func(u *ksv1alpha1.User) {
		fp := &u.Spec.ForProvider
		fp.DomainID, fp.DomainRef = nil, &xpv2.Reference{Name: dom.Name}
		fp.Email, fp.Description, fp.PasswordSecretRef = ptr("alice@example.com"), ptr("made by user-lifecycle"), passwordKey(sec)
	})
	start := counter.snapshot()
	create(t, mg)
	waitReady(t, mg)
	waitPasswordSent(t, mg, sec)
	if _, ok := mg.GetAnnotations()["keystone.identity.crossplane.io/password-sent-on-create"]; !ok {
		t.Errorf("the create did not record what it sent")
	}

	id := meta.GetExternalName(mg)
	raw := keystone.raw(t, "users", id)
	for k, want := range map[string]any{"name": "e2e-alice", "email": "alice@example.com", "description": "made by user-lifecycle", "domain_id": meta.GetExternalName(get(t, dom))} {
		if got := field(t, raw, "user", k); got != want {
			t.Errorf("Keystone user %s: got %v, want %v", k, got, want)
		}
	}
	m, err := provenance.Parse(field(t, raw, "user", "crossplane_provenance").(string))
	if err != nil || m.Installation != installationID || m.Resource != "User.keystone.identity.crossplane.io/user-lifecycle" || m.Origin != provenance.OriginCreated {
		t.Errorf("marker: got %+v, %v", m, err)
	}
	if p := mg.Status.AtProvider.Provenance; p != identityv1alpha1.Owned {
		t.Errorf("provenance: got %q, want Owned", p)
	}
	if got := keystoneUserToken(t, id, first, ""); got != http.StatusCreated {
		t.Fatalf("a token with the Secret's password: HTTP %d, want 201", got)
	}

	// The create sent the password; it is not sent again, neither right after the create nor
	// at steady state.
	patches := "PATCH /v3/users/" + id
	time.Sleep(3 * pollInterval)
	after := counter.snapshot()
	if n := delta(start, after)[patches]; n != 0 {
		t.Fatalf("%d PATCHes of the user since it was created, want none", n)
	}

	// Rotation: a new value in the Secret is sent once, and only the new password works.
	get(t, sec)
	sec.StringData = map[string]string{"password": second}
	if err := kube.Update(ctx, sec); err != nil {
		t.Fatal(err)
	}
	waitPasswordSent(t, mg, sec)
	time.Sleep(2 * pollInterval)
	rotated := counter.snapshot()
	if n := delta(after, rotated)[patches]; n != 1 {
		t.Errorf("%d PATCHes of the user for one rotation, want 1", n)
	}
	if got := keystoneUserToken(t, id, second, ""); got != http.StatusCreated {
		t.Errorf("a token with the rotated password: HTTP %d, want 201", got)
	}
	if got := keystoneUserToken(t, id, first, ""); got != http.StatusUnauthorized {
		t.Errorf("a token with the old password: HTTP %d, want 401", got)
	}
	assertNowhere(t, mg, first, second)

	// Drift on a managed field is corrected without re-sending the password.
	keystone.patch(t, "users", "user", id, map[string]any{"email": "changed@example.com"})
	eventually(t, 30*time.Second, "the email to be restored", func() bool {
		return field(t, keystone.raw(t, "users", id), "user", "email") == "alice@example.com"
	})
	if got := keystoneUserToken(t, id, second, ""); got != http.StatusCreated {
		t.Errorf("a token after the drift was corrected: HTTP %d, want 201 (the password must stay)", got)
	}

	if err := kube.Delete(ctx, mg); err != nil {
		t.Fatal(err)
	}
	waitGone(t, mg)
	if keystone.exists(t, "users", id) {
		t.Fatalf("user %s still exists after its resource was deleted", id)
	}
}

// A same-named user made by hand is never written under FailOnConflict, its password least of
// all; the resource proceeds by itself once the hand-made user is gone.
func TestUserConflictFailOnConflict(t *testing.T) {
	t.Parallel()
	handPassword := randomPassword(t, "hand")
	handID := keystone.post(t, "users", "user", map[string]any{"name": "e2e-handmade-user", "domain_id": "default",
		"description": "tuned by hand", "email": "hand@example.com", "password": handPassword})
	t.Cleanup(func() { keystone.del(t, "users", handID) })
	before := keystone.raw(t, "users", handID)

	mine := randomPassword(t, "mine")
	sec := passwordSecret(t, "user-conflict-password", mine)
	mg := newKeystoneUser("user-conflict", "e2e-handmade-user", func(u *ksv1alpha1.User) {
		u.Spec.ForProvider.Description, u.Spec.ForProvider.PasswordSecretRef = ptr("mine"), passwordKey(sec)
	})
	create(t, mg)
	eventually(t, 30*time.Second, "Ready=False with reason AdoptionRequired", func() bool {
		c := condition(get(t, mg), xpv2.TypeReady)
		return c.Status == corev1.ConditionFalse && c.Reason == "AdoptionRequired"
	})
	msg := condition(mg, xpv2.TypeReady).Message
	for _, want := range []string{"Keystone user", `"e2e-handmade-user"`, handID, "spec.adoptionPolicy: AdoptExisting", `spec.managementPolicies: ["Observe"]`} {
		if !strings.Contains(msg, want) {
			t.Errorf("AdoptionRequired message %q does not mention %s", msg, want)
		}
	}
	if meta.GetExternalName(mg) != "" {
		t.Errorf("external name was bound to a foreign user: %q", meta.GetExternalName(mg))
	}
	eventually(t, 30*time.Second, "a Warning event", func() bool { return hasEvent(t, mg, corev1.EventTypeWarning, "CannotObserveExternalResource") })

	time.Sleep(3 * pollInterval)
	if after := keystone.raw(t, "users", handID); !bytes.Equal(before, after) {
		t.Fatalf("the hand-made user changed under FailOnConflict:\nbefore %s\nafter  %s", before, after)
	}
	if got := keystoneUserToken(t, handID, handPassword, ""); got != http.StatusCreated {
		t.Errorf("the hand-made user's own password: HTTP %d, want 201", got)
	}
	if got := keystoneUserToken(t, handID, mine, ""); got != http.StatusUnauthorized {
		t.Errorf("the resource's password on the hand-made user: HTTP %d, want 401", got)
	}
	if mg.Status.AtProvider.PasswordFingerprint != nil {
		t.Errorf("a password fingerprint was recorded for a user never written: %+v", mg.Status.AtProvider.PasswordFingerprint)
	}

	keystone.del(t, "users", handID)
	waitReady(t, get(t, mg))
	waitPasswordSent(t, mg, sec)
	id := meta.GetExternalName(mg)
	if id == "" || id == handID {
		t.Fatalf("expected a new user after the conflict cleared, got external name %q", id)
	}
	if got := keystoneUserToken(t, id, mine, ""); got != http.StatusCreated {
		t.Errorf("a token for the new user: HTTP %d, want 201", got)
	}
}

// Users of an LDAP-backed domain are read-only in Keystone: creating one says so plainly, and
// observing one of the directory's users works.
func TestUserLDAPDomainIsReadOnly(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"LDAP_URL", "LDAP_BIND_DN", "LDAP_BIND_PASSWORD", "LDAP_SUFFIX", "LDAP_USERS_DN", "LDAP_GROUPS_DN"} {
		if os.Getenv(v) == "" {
			t.Fatalf("%s is not set: run the end-to-end tests through hack/with-services.sh", v)
		}
	}
	domID := handDomain(t, "e2e-user-ldap")
	cfg := map[string]any{"config": map[string]any{
		"identity": map[string]any{"driver": "ldap"},
		"ldap": map[string]any{
			"url": os.Getenv("LDAP_URL"), "user": os.Getenv("LDAP_BIND_DN"), "password": os.Getenv("LDAP_BIND_PASSWORD"),
			"suffix": os.Getenv("LDAP_SUFFIX"), "query_scope": "one",
			"user_tree_dn": os.Getenv("LDAP_USERS_DN"), "user_objectclass": "inetOrgPerson",
			"user_id_attribute": "uid", "user_name_attribute": "uid", "user_mail_attribute": "mail",
			"group_tree_dn": os.Getenv("LDAP_GROUPS_DN"), "group_objectclass": "groupOfNames",
			"group_id_attribute": "cn", "group_name_attribute": "cn", "group_member_attribute": "member",
		},
	}}
	if _, err := keystone.sc.Put(context.Background(), keystone.sc.ServiceURL("domains", domID, "config"), cfg, nil,
		&gophercloud.RequestOpts{OkCodes: []int{http.StatusCreated}}); err != nil {
		t.Fatalf("cannot configure the LDAP domain: %v", err)
	}

	mg := newKeystoneUser("user-ldap", "e2e-newcomer", func(u *ksv1alpha1.User) { u.Spec.ForProvider.DomainID = ptr(domID) })
	create(t, mg)
	eventually(t, 60*time.Second, "Synced=False saying the LDAP domain is read-only", func() bool {
		c := condition(get(t, mg), xpv2.TypeSynced)
		return c.Status == corev1.ConditionFalse && strings.Contains(c.Message, "is backed by LDAP, whose users are read-only in Keystone")
	})
	if msg := condition(mg, xpv2.TypeSynced).Message; !strings.Contains(msg, `spec.managementPolicies: ["Observe"]`) || !strings.Contains(msg, domID) {
		t.Errorf("the error does not name the domain and the way out: %q", msg)
	}
	if meta.GetExternalName(mg) != "" {
		t.Errorf("external name set for a user that could not be created: %q", meta.GetExternalName(mg))
	}

	alice := newKeystoneUser("user-ldap-alice", "alice", func(u *ksv1alpha1.User) {
		u.Spec.ForProvider.DomainID = ptr(domID)
		u.Spec.ManagementPolicies = xpv2.ManagementPolicies{xpv2.ManagementActionObserve}
	})
	create(t, alice)
	waitReady(t, alice)
	if p := alice.Status.AtProvider.Provenance; p != identityv1alpha1.Observed {
		t.Errorf("provenance: got %q, want Observed", p)
	}
	if got := alice.Status.AtProvider.Email; got != "alice@example.com" {
		t.Errorf("atProvider.email of the directory's alice: got %q", got)
	}
}
