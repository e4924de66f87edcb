package user

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	api "goauthentik.io/api/v3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"

	"github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/authentiktest"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/shared"
)

var kind = authentiktest.Kind[mr, api.User]{
	GroupKind: v1alpha1.UserGroupKind.String(),
	NewDriver: func(c shared.Client) adoption.Driver[mr, api.User] {
		return &external{c: c.API, kube: c.Kube}
	},
}

// The password is sent once after the create, not again while the Secret is unchanged, once
// more when it changes; each time with the Secret's version in one PATCH, and nothing else.
func TestDriverPassword(t *testing.T) {
	e := authentiktest.New(t)
	e.Secret(t, "ns", "alice-pw", map[string]string{"password": "first-Passw0rd"})
	mg := &v1alpha1.User{ObjectMeta: metav1.ObjectMeta{Name: "u"}, Spec: v1alpha1.UserSpec{ForProvider: v1alpha1.UserParameters{
		Username: "alice", Name: new("Alice"), PasswordSecretRef: pwRef2("alice-pw"),
	}}}

	if r, err := kind.Reconcile(e, mg); err != nil || !r.Created {
		t.Fatalf("first reconcile: want a create, got %+v, %v", r, err)
	}
	pk, _ := strconv.ParseInt(meta.GetExternalName(mg), 10, 64)
	if _, set := e.Server.Password(pk); set {
		t.Fatalf("the password was sent with the create; want it on the next reconcile")
	}
	if r, err := kind.Reconcile(e, mg); err != nil || !r.Updated {
		t.Fatalf("second reconcile: want the password set, got %+v, %v", r, err)
	}
	if pw, _ := e.Server.Password(pk); pw != "first-Passw0rd" {
		t.Fatalf("password after the second reconcile: got %q", pw)
	}
	for range 2 {
		if r, err := kind.Reconcile(e, mg); err != nil || !r.Observation.ResourceUpToDate {
			t.Fatalf("reconcile with the Secret unchanged: want up to date, got %+v, %v", r, err)
		}
	}
	want := map[string]int{"POST /core/users/": 1, "POST /core/users/{id}/set_password/": 1, "PATCH /core/users/{id}/": 1}
	if diff := cmp.Diff(want, e.Writes()); diff != "" {
		t.Errorf("writes: -want, +got:\n%s", diff)
	}
	if v := mg.Status.AtProvider.PasswordSecretVersion; v == "" || strings.Contains(v, "Passw0rd") {
		t.Errorf("status.atProvider.passwordSecretVersion: %q", v)
	}

	e.UpdateSecret(t, "ns", "alice-pw", map[string]string{"password": "second-Passw0rd"})
	e.Server.ResetCounts()
	if r, err := kind.Reconcile(e, mg); err != nil || !r.Updated {
		t.Fatalf("reconcile after the Secret changed: want an update, got %+v, %v", r, err)
	}
	if r, err := kind.Reconcile(e, mg); err != nil || !r.Observation.ResourceUpToDate {
		t.Fatalf("reconcile after that: want up to date, got %+v, %v", r, err)
	}
	if pw, _ := e.Server.Password(pk); pw != "second-Passw0rd" {
		t.Fatalf("password after the Secret changed: got %q", pw)
	}
	want = map[string]int{"POST /core/users/{id}/set_password/": 1, "PATCH /core/users/{id}/": 1}
	if diff := cmp.Diff(want, e.Writes()); diff != "" {
		t.Errorf("writes for one Secret change: -want, +got:\n%s", diff)
	}
}

// A changed field is one PATCH carrying that field only.
func TestDriverPatchesOnlyTheChange(t *testing.T) {
	e := authentiktest.New(t)
	mg := &v1alpha1.User{ObjectMeta: metav1.ObjectMeta{Name: "u"}, Spec: v1alpha1.UserSpec{ForProvider: v1alpha1.UserParameters{
		Username: "bob", Name: new("Bob"), Email: new("bob@example.com"), Attributes: attrs("locale", `"en"`),
	}}}
	if _, err := kind.Reconcile(e, mg); err != nil {
		t.Fatal(err)
	}
	before := string(e.Raw(t, "core/users", meta.GetExternalName(mg)))
	mg.Spec.ForProvider.Email = new("bob@example.org")
	e.Server.ResetCounts()
	if r, err := kind.Reconcile(e, mg); err != nil || !r.Updated {
		t.Fatalf("want an update, got %+v, %v", r, err)
	}
	if diff := cmp.Diff(map[string]int{"PATCH /core/users/{id}/": 1}, e.Writes()); diff != "" {
		t.Errorf("writes: -want, +got:\n%s", diff)
	}
	after := string(e.Raw(t, "core/users", meta.GetExternalName(mg)))
	if !strings.Contains(after, `"email":"bob@example.org"`) || !strings.Contains(before, `"locale":"en"`) || !strings.Contains(after, `"locale":"en"`) {
		t.Errorf("user after the update: %s", after)
	}
	if mg.Status.AtProvider.Email != "bob@example.org" {
		t.Errorf("status.atProvider.email after the update: %q", mg.Status.AtProvider.Email)
	}
}

func pwRef2(name string) *identityv1alpha1.SecretKeySelector {
	return &identityv1alpha1.SecretKeySelector{SecretReference: identityv1alpha1.SecretReference{Namespace: "ns", Name: name}, Key: "password"}
}

// The create's answer late-initializes the spec (is_active, authentik's default), so that the
// update recording the create carries it and the next reconcile has nothing to late-initialize.
func TestDriverCreateLateInitializes(t *testing.T) {
	e := authentiktest.New(t)
	mg := &v1alpha1.User{ObjectMeta: metav1.ObjectMeta{Name: "u"}, Spec: v1alpha1.UserSpec{ForProvider: v1alpha1.UserParameters{Username: "carol", Name: new("Carol")}}}
	if r, err := kind.Reconcile(e, mg); err != nil || !r.Created {
		t.Fatalf("first reconcile: want a create, got %+v, %v", r, err)
	}
	if got := mg.Spec.ForProvider.IsActive; got == nil || !*got {
		t.Errorf("spec.forProvider.isActive after the create: %v, want true from the create's answer", got)
	}
	if r, err := kind.Reconcile(e, mg); err != nil || r.Observation.ResourceLateInitialized {
		t.Fatalf("second reconcile: want nothing to late-initialize, got %+v, %v", r, err)
	}
}
