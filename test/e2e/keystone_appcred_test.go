//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	ksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/controller/keystone/applicationcredential"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

const appCredNS = "e2e-appcred"

func clusterAppCred(name string, u appCredUser, fp ksv1alpha1.ApplicationCredentialParameters) *ksv1alpha1.ApplicationCredential {
	fp.UserID, fp.ProjectID = &u.ID, &u.ProjectID
	if fp.PasswordSecretRef == nil {
		fp.PasswordSecretRef = &identityv1alpha1.SecretKeySelector{SecretReference: identityv1alpha1.SecretReference{Namespace: appCredNS, Name: name + "-password"}, Key: "password"}
	}
	return &ksv1alpha1.ApplicationCredential{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: ksv1alpha1.ApplicationCredentialSpec{
		ClusterManagedResourceSpec: xpv2.ClusterManagedResourceSpec{ProviderConfigReference: &xpv2.Reference{Name: "keystone"},
			WriteConnectionSecretToReference: &xpv2.SecretReference{Namespace: appCredNS, Name: name}},
		ForProvider: fp}}
}

func appCredPasswordSecret(t *testing.T, ns, name, password string) {
	t.Helper()
	create(t, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, StringData: map[string]string{"password": password}})
}

// An ApplicationCredential made with the user's password: its connection Secret's clouds.yaml
// authenticates; a spec change replaces it (new ID, event, the old secret stops working); a
// deleted connection Secret (its secret lost) replaces it too; deleting the resource deletes it.
func TestApplicationCredential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	namespace(t, appCredNS)
	u := handAppCredUser(t, "e2e-appcred-ci", "member", "reader")
	appCredPasswordSecret(t, appCredNS, "e2e-appcred-ci-password", u.Password)
	ac := clusterAppCred("e2e-appcred-ci", u, ksv1alpha1.ApplicationCredentialParameters{Name: "ci", Description: ptr("for CI"), RoleNames: []string{"reader"}})
	create(t, ac)
	waitReady(t, ac)
	id := meta.GetExternalName(ac)
	data := appCredSecret(appCredNS, ac.Name)
	if string(data["id"]) != id || len(data["secret"]) == 0 {
		t.Fatalf("connection Secret: id %q (want %s), secret set %v", data["id"], id, len(data["secret"]) > 0)
	}
	if got := cloudsYAMLAuthenticates(t, data); got != http.StatusCreated {
		t.Errorf("clouds.yaml's credential got %d from POST /v3/auth/tokens, want 201", got)
	}
	desc := field(t, keystone.raw(t, appCredPath(u.ID, id)...), "application_credential", "description").(string)
	if m := descriptionMarker(t, desc); m.Resource != "ApplicationCredential.keystone.identity.crossplane.io/e2e-appcred-ci" || m.Origin != provenance.OriginCreated || !strings.HasPrefix(desc, "for CI\n") {
		t.Errorf("description %q, marker %+v", desc, m)
	}
	got := get(t, ac)
	if o := got.Status.AtProvider; !o.SecretPublished || len(o.Roles) != 1 || o.Roles[0].Name != "reader" || o.Provenance != identityv1alpha1.Owned {
		t.Errorf("status.atProvider: %+v", o)
	}
	if strings.Contains(describe(got), string(data["secret"])) {
		t.Errorf("the secret is in the resource")
	}

	time.Sleep(2 * pollInterval)
	if n := meta.GetExternalName(get(t, ac)); n != id || hasEvent(t, ac, corev1.EventTypeNormal, "ReplacedExternalResource") {
		t.Fatalf("replaced without a change: external name %s (was %s)", n, id)
	}

	// A spec change replaces it.
	update(t, ac, func(ac *ksv1alpha1.ApplicationCredential) { ac.Spec.ForProvider.Description = ptr("for CI, v2") })
	eventuallyObject(t, 60*time.Second, ac, "a new external name", func() bool {
		n := meta.GetExternalName(get(t, ac))
		return n != "" && n != id && string(appCredSecret(appCredNS, ac.Name)["id"]) == n
	})
	if !eventRecorded(t, ac, "ReplacedExternalResource") {
		t.Errorf("no ReplacedExternalResource event")
	}
	if keystone.exists(t, appCredPath(u.ID, id)...) {
		t.Errorf("the replaced application credential %s still exists", id)
	}
	// Keystone answers 404 (the credential is gone), or 401.
	if got := appCredToken(t, id, string(data["secret"])); got != http.StatusNotFound && got != http.StatusUnauthorized {
		t.Errorf("the replaced credential got %d, want 404 or 401", got)
	}
	data = appCredSecret(appCredNS, ac.Name)
	if got := cloudsYAMLAuthenticates(t, data); got != http.StatusCreated {
		t.Errorf("the replacement's clouds.yaml got %d, want 201", got)
	}

	// The connection Secret deleted: its secret is lost for good, so the credential is replaced.
	id = meta.GetExternalName(get(t, ac))
	if err := kube.Delete(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: appCredNS, Name: ac.Name}}); err != nil {
		t.Fatal(err)
	}
	eventually(t, 60*time.Second, "a republished connection Secret", func() bool {
		d := appCredSecret(appCredNS, ac.Name)
		return len(d["secret"]) > 0 && string(d["id"]) != id
	})
	if got := cloudsYAMLAuthenticates(t, appCredSecret(appCredNS, ac.Name)); got != http.StatusCreated {
		t.Errorf("the replacement's clouds.yaml got %d, want 201", got)
	}

	id = meta.GetExternalName(get(t, ac))
	if err := kube.Delete(ctx, ac); err != nil {
		t.Fatal(err)
	}
	waitGone(t, ac)
	if keystone.exists(t, appCredPath(u.ID, id)...) {
		t.Errorf("application credential %s survived its resource's deletion", id)
	}
}

// A lost create: Keystone holds a credential with this resource's marker, but its secret never
// reached the connection Secret. The resource finds it by name, and replaces it to publish a
// secret.
func TestApplicationCredentialLostCreate(t *testing.T) {
	t.Parallel()
	u := handAppCredUser(t, "e2e-appcred-lost", "member")
	namespace(t, "e2e-appcred-lost")
	const ns = "e2e-appcred-lost"
	appCredPasswordSecret(t, ns, "pw", u.Password)
	m := provenance.Marker{Installation: installationID, Resource: "ApplicationCredential.keystone.identity.crossplane.io/e2e-appcred-lost", Origin: provenance.OriginCreated}
	lost := u.handAppCred(t, map[string]any{"name": "lost", "description": provenance.EmbedInText("", m)})
	ac := clusterAppCred("e2e-appcred-lost", u, ksv1alpha1.ApplicationCredentialParameters{Name: "lost",
		PasswordSecretRef: &identityv1alpha1.SecretKeySelector{SecretReference: identityv1alpha1.SecretReference{Namespace: ns, Name: "pw"}, Key: "password"}})
	ac.Spec.WriteConnectionSecretToReference.Namespace = ns
	create(t, ac)
	eventually(t, 60*time.Second, "a published secret", func() bool { return len(appCredSecret(ns, ac.Name)["secret"]) > 0 })
	if !eventRecorded(t, ac, "RecoveredExternalResource") || !eventRecorded(t, ac, "ReplacedExternalResource") {
		t.Errorf("want RecoveredExternalResource and ReplacedExternalResource events: %v", events(t, ac))
	}
	if keystone.exists(t, appCredPath(u.ID, lost)...) {
		t.Errorf("the credential whose secret was lost still exists")
	}
	if got := cloudsYAMLAuthenticates(t, appCredSecret(ns, ac.Name)); got != http.StatusCreated {
		t.Errorf("clouds.yaml got %d, want 201", got)
	}
	if err := kube.Delete(context.Background(), ac); err != nil {
		t.Fatal(err)
	}
	waitGone(t, ac)
}

// A hand-made credential of the same name: left byte-identical under FailOnConflict
// (AdoptionRequired), adopted under AdoptExisting without being changed, its secret reported
// unknown; one only observed is left when its resource goes; an adopted one is deleted.
func TestApplicationCredentialConflictAdoptObserve(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const ns = "e2e-appcred-adopt"
	namespace(t, ns)
	u := handAppCredUser(t, "e2e-appcred-adopt", "member")
	appCredPasswordSecret(t, ns, "pw", u.Password)
	pw := &identityv1alpha1.SecretKeySelector{SecretReference: identityv1alpha1.SecretReference{Namespace: ns, Name: "pw"}, Key: "password"}
	hand := u.handAppCred(t, map[string]any{"name": "hand", "description": "made by hand"})
	before := keystone.raw(t, appCredPath(u.ID, hand)...)

	ac := clusterAppCred("e2e-appcred-adopt", u, ksv1alpha1.ApplicationCredentialParameters{Name: "hand", PasswordSecretRef: pw})
	ac.Spec.WriteConnectionSecretToReference.Namespace = ns
	create(t, ac)
	eventually(t, 30*time.Second, "Ready=False with reason AdoptionRequired", func() bool {
		c := condition(get(t, ac), xpv2.TypeReady)
		return c.Status == corev1.ConditionFalse && c.Reason == adoption.ReasonAdoptionRequired
	})
	time.Sleep(2 * pollInterval)
	if after := keystone.raw(t, appCredPath(u.ID, hand)...); !bytes.Equal(before, after) {
		t.Errorf("the hand-made credential changed:\nbefore %s\nafter  %s", before, after)
	}

	update(t, ac, func(ac *ksv1alpha1.ApplicationCredential) { ac.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting })
	eventuallyObject(t, 60*time.Second, ac, "adopted, its secret unknown", func() bool {
		got := get(t, ac)
		c := condition(got, applicationcredential.TypeSecretPublished)
		return got.Status.AtProvider.Provenance == identityv1alpha1.Adopted && c.Reason == applicationcredential.ReasonSecretUnknown &&
			condition(got, xpv2.TypeReady).Status == corev1.ConditionTrue
	})
	time.Sleep(2 * pollInterval)
	if after := keystone.raw(t, appCredPath(u.ID, hand)...); !bytes.Equal(before, after) {
		t.Errorf("the adopted credential changed:\nbefore %s\nafter  %s", before, after)
	}
	if d := appCredSecret(ns, ac.Name); string(d["id"]) != hand || len(d["secret"]) != 0 {
		t.Errorf("connection Secret of an adopted credential: %v", d)
	}

	observed := u.handAppCred(t, map[string]any{"name": "watched"})
	ob := clusterAppCred("e2e-appcred-watch", u, ksv1alpha1.ApplicationCredentialParameters{Name: "watched", PasswordSecretRef: pw})
	ob.Spec.WriteConnectionSecretToReference.Namespace = ns
	ob.Spec.ManagementPolicies = xpv2.ManagementPolicies{xpv2.ManagementActionObserve}
	create(t, ob)
	waitReady(t, ob)
	if p := get(t, ob).Status.AtProvider.Provenance; p != identityv1alpha1.Observed || meta.GetExternalName(ob) != observed {
		t.Errorf("observe-only: provenance %s, external name %s (want %s)", p, meta.GetExternalName(ob), observed)
	}

	for _, mg := range []*ksv1alpha1.ApplicationCredential{ac, ob} {
		if err := kube.Delete(ctx, mg); err != nil {
			t.Fatal(err)
		}
		waitGone(t, mg)
	}
	if keystone.exists(t, appCredPath(u.ID, hand)...) {
		t.Errorf("the adopted credential survived its resource's deletion")
	}
	if !keystone.exists(t, appCredPath(u.ID, observed)...) {
		t.Errorf("the observed credential was deleted with its observe-only resource")
	}
}

// Without passwordSecretRef, the ProviderConfig's own credentials create the credential: the
// tests' ProviderConfig is the admin user scoped to the admin project, so an application
// credential of the admin user on that project is created with them, and authenticates.
func TestApplicationCredentialWithTheProviderConfigsCredentials(t *testing.T) {
	t.Parallel()
	const ns = "e2e-appcred-pc"
	namespace(t, ns)
	admin := appCredUser{ID: idByName(t, "users", "admin"), ProjectID: idByName(t, "projects", "admin")}
	ac := clusterAppCred("e2e-appcred-pc", admin, ksv1alpha1.ApplicationCredentialParameters{Name: "e2e-appcred-pc",
		PasswordSecretRef: &identityv1alpha1.SecretKeySelector{}})
	ac.Spec.ForProvider.PasswordSecretRef = nil
	ac.Spec.WriteConnectionSecretToReference.Namespace = ns
	create(t, ac)
	waitReady(t, ac)
	if got := cloudsYAMLAuthenticates(t, appCredSecret(ns, ac.Name)); got != http.StatusCreated {
		t.Errorf("clouds.yaml's credential got %d, want 201", got)
	}
	id := meta.GetExternalName(ac)
	if err := kube.Delete(context.Background(), ac); err != nil {
		t.Fatal(err)
	}
	waitGone(t, ac)
	if keystone.exists(t, appCredPath(admin.ID, id)...) {
		t.Errorf("application credential %s survived its resource's deletion", id)
	}
}
