//go:build e2e

package e2e

import (
	"context"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	ksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	nsksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
	nsidentityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
	"github.com/crossplane-contrib/provider-identity/internal/usage"
)

// Namespaced Users and DomainConfigs read their Secrets in their own namespace: a User whose
// password Secret is there becomes Ready in a namespaced Domain with its default Project
// resolved in the namespace, and authenticates with that password; a User naming another
// namespace for its Secret is refused at admission; a DomainConfig backs a namespaced Domain
// with the test slapd, its bind Secret read in the namespace. Deleting them deletes the
// Keystone objects.
func TestNamespacedKeystoneUserDomainConfig(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const ns = "e2e-ns-users"
	namespace(t, ns)
	create(t, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "keystone-admin"},
		StringData: map[string]string{"password": os.Getenv("KEYSTONE_ADMIN_PASSWORD")}})
	pc := &nsidentityv1alpha1.ProviderConfig{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "keystone"}, Spec: keystoneSpec("", "keystone-admin")}
	create(t, pc)
	releaseNamespacedProviderConfig(t, pc)
	mrs := xpv2.ManagedResourceSpec{ProviderConfigReference: nsRef("ProviderConfig", "keystone")}

	const password = "Ns-Us3r-pa55word"
	create(t, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "alice-password"},
		StringData: map[string]string{"password": password}})
	d := &nsksv1alpha1.Domain{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "users"},
		Spec: nsksv1alpha1.DomainSpec{ManagedResourceSpec: mrs, ForProvider: nsksv1alpha1.DomainParameters{Name: "e2e-ns-users"}}}
	p := &nsksv1alpha1.Project{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "home"},
		Spec: nsksv1alpha1.ProjectSpec{ManagedResourceSpec: mrs,
			ForProvider: nsksv1alpha1.ProjectParameters{Name: "e2e-ns-users-home", DomainRef: &xpv2.Reference{Name: "users"}}}}
	u := &nsksv1alpha1.User{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "alice"},
		Spec: nsksv1alpha1.UserSpec{ManagedResourceSpec: mrs, ForProvider: nsksv1alpha1.UserParameters{
			Name: "e2e-ns-alice", DomainRef: &xpv2.Reference{Name: "users"}, DefaultProjectRef: &xpv2.Reference{Name: "home"},
			PasswordSecretRef: &identityv1alpha1.SecretKeySelector{SecretReference: identityv1alpha1.SecretReference{Name: "alice-password"}, Key: "password"},
		}}}
	// Cleanups run last-in first-out: the User, then the Project, then the Domain.
	create(t, d)
	create(t, p)
	create(t, u)
	waitReady(t, d)
	waitReady(t, p)
	waitReady(t, u)

	domainID, projectID, userID := meta.GetExternalName(d), meta.GetExternalName(p), meta.GetExternalName(u)
	if got := deref(u.Spec.ForProvider.DomainID); got != domainID {
		t.Errorf("User's domainId: got %q, want the namespace's Domain %q", got, domainID)
	}
	if got := field(t, keystone.raw(t, "users", userID), "user", "default_project_id"); got != projectID {
		t.Errorf("Keystone user's default_project_id: got %v, want the namespace's Project %s", got, projectID)
	}
	m, err := provenance.Parse(field(t, keystone.raw(t, "users", userID), "user", "crossplane_provenance").(string))
	if err != nil || m.Resource != "User.keystone.identity.m.crossplane.io/"+ns+"/alice" {
		t.Errorf("user marker: got %+v, %v; want User.keystone.identity.m.crossplane.io/%s/alice", m, err, ns)
	}
	if f := u.Status.AtProvider.PasswordFingerprint; f == nil || f.Namespace != ns || f.Name != "alice-password" {
		t.Errorf("password fingerprint %+v, want the Secret %s/alice-password", f, ns)
	}
	if code := keystoneUserToken(t, userID, password, ""); code != http.StatusCreated {
		t.Errorf("token for the namespaced user with its Secret's password: HTTP %d, want 201", code)
	}

	// A namespaced User names no namespace for its Secret: admission refuses another one.
	stray := &nsksv1alpha1.User{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "stray"},
		Spec: nsksv1alpha1.UserSpec{ManagedResourceSpec: mrs, ForProvider: nsksv1alpha1.UserParameters{
			Name: "e2e-ns-stray", DomainRef: &xpv2.Reference{Name: "users"},
			PasswordSecretRef: &identityv1alpha1.SecretKeySelector{
				SecretReference: identityv1alpha1.SecretReference{Namespace: "crossplane-system", Name: "keystone-admin"}, Key: "password"},
		}}}
	err = kube.Create(ctx, stray)
	if err == nil {
		_ = kube.Delete(ctx, stray)
		t.Fatal("a namespaced User naming another namespace's Secret was admitted")
	}
	if !strings.Contains(err.Error(), "passwordSecretRef.namespace must not be set: a namespaced User reads its password Secret in its own namespace") {
		t.Errorf("admission error %q does not say the Secret is read in the User's own namespace", err)
	}

	// A namespaced DomainConfig backs a namespaced Domain with the directory, its bind Secret
	// in the namespace.
	create(t, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "ldap-bind"},
		StringData: map[string]string{"username": os.Getenv("LDAP_BIND_DN"), "password": os.Getenv("LDAP_BIND_PASSWORD")}})
	ld := &nsksv1alpha1.Domain{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "directory"},
		Spec: nsksv1alpha1.DomainSpec{ManagedResourceSpec: mrs, ForProvider: nsksv1alpha1.DomainParameters{Name: "e2e-ns-ldap"}}}
	cfg := &nsksv1alpha1.DomainConfig{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "directory"},
		Spec: nsksv1alpha1.DomainConfigSpec{ManagedResourceSpec: mrs, ForProvider: nsksv1alpha1.DomainConfigParameters{
			DomainRef: &xpv2.Reference{Name: "directory"},
			LDAP: nsksv1alpha1.LDAPConfig{
				URL: os.Getenv("LDAP_URL"), Suffix: os.Getenv("LDAP_SUFFIX"),
				BindCredentialsSecretRef: identityv1alpha1.SecretReference{Name: "ldap-bind"},
				Users: nsksv1alpha1.LDAPUsers{TreeDN: os.Getenv("LDAP_USERS_DN"), ObjectClass: ptr("inetOrgPerson"),
					IDAttribute: ptr("uid"), NameAttribute: ptr("uid"), MailAttribute: ptr("mail")},
			},
		}}}
	create(t, ld)
	create(t, cfg)
	waitReady(t, ld)
	waitReady(t, cfg)
	ldapID := meta.GetExternalName(ld)
	if got := meta.GetExternalName(cfg); got != ldapID {
		t.Fatalf("DomainConfig external name %q, want its namespace's Domain %q", got, ldapID)
	}
	users, ok := domainUsers(t, ldapID)
	if !ok || !slices.Equal(userNames(users), strings.Split(os.Getenv("LDAP_USERS"), ",")) {
		t.Errorf("users of the namespaced LDAP domain: %+v (listed: %v), want %s", users, ok, os.Getenv("LDAP_USERS"))
	}
	if code := passwordToken(t, ldapID, "alice", os.Getenv("LDAP_USER_PASSWORD")); code != http.StatusCreated {
		t.Errorf("password token for directory user alice: HTTP %d, want 201", code)
	}
	if !slices.Contains(get(t, ld).GetFinalizers(), usage.FinalizerName("DomainConfig", cfg.Name)) {
		t.Errorf("the namespaced Domain's finalizers %v lack its DomainConfig's", ld.GetFinalizers())
	}

	// Deleting the resources deletes their Keystone objects; the configuration goes first.
	for _, mg := range []client.Object{cfg, ld, u, p, d} {
		if err := kube.Delete(ctx, mg); err != nil {
			t.Fatal(err)
		}
		waitGone(t, mg)
	}
	eventually(t, 30*time.Second, "the Keystone user, project and domains to be gone", func() bool {
		return !keystone.exists(t, "users", userID) && !keystone.exists(t, "projects", projectID) &&
			!keystone.exists(t, "domains", domainID) && !keystone.exists(t, "domains", ldapID)
	})
}

// Secret selectors share one type in both scopes; admission decides what namespace means: a
// cluster-scoped User or DomainConfig must name it (as before the shared type), a namespaced
// one must not.
func TestCELSecretSelectorNamespace(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const ns = "e2e-ns-cel-secrets"
	namespace(t, ns)
	ldap := func(ref identityv1alpha1.SecretReference) nsksv1alpha1.LDAPConfig {
		return nsksv1alpha1.LDAPConfig{URL: "ldap://ldap.example.com", Suffix: "dc=example,dc=com", BindCredentialsSecretRef: ref,
			Users: nsksv1alpha1.LDAPUsers{TreeDN: "ou=people,dc=example,dc=com"}}
	}
	pw := func(namespace string) *identityv1alpha1.SecretKeySelector {
		return &identityv1alpha1.SecretKeySelector{SecretReference: identityv1alpha1.SecretReference{Namespace: namespace, Name: "pw"}, Key: "password"}
	}
	cases := map[string]struct {
		obj  client.Object
		want string // "" when admitted
	}{
		"ClusterUserWithoutNamespace": {
			obj: &ksv1alpha1.User{ObjectMeta: metav1.ObjectMeta{Name: "e2e-cel-secret-user-nons"}, Spec: ksv1alpha1.UserSpec{
				ClusterManagedResourceSpec: keystonePC, ForProvider: ksv1alpha1.UserParameters{Name: "x", DomainID: ptr("default"), PasswordSecretRef: pw("")}}},
			want: "passwordSecretRef.namespace is required: a cluster-scoped User names the namespace of its password Secret",
		},
		"ClusterUserWithNamespace": {
			obj: &ksv1alpha1.User{ObjectMeta: metav1.ObjectMeta{Name: "e2e-cel-secret-user-ns"}, Spec: ksv1alpha1.UserSpec{
				ClusterManagedResourceSpec: keystonePC, ForProvider: ksv1alpha1.UserParameters{Name: "x", DomainID: ptr("default"), PasswordSecretRef: pw("crossplane-system")}}},
		},
		"NamespacedUserWithoutNamespace": {
			obj: &nsksv1alpha1.User{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "nons"}, Spec: nsksv1alpha1.UserSpec{
				ForProvider: nsksv1alpha1.UserParameters{Name: "x", DomainID: ptr("default"), PasswordSecretRef: pw("")}}},
		},
		"ClusterDomainConfigWithoutNamespace": {
			obj: &ksv1alpha1.DomainConfig{ObjectMeta: metav1.ObjectMeta{Name: "e2e-cel-secret-dc-nons"}, Spec: ksv1alpha1.DomainConfigSpec{
				ClusterManagedResourceSpec: keystonePC, ForProvider: ksv1alpha1.DomainConfigParameters{DomainID: ptr("d1"), LDAP: ldap(identityv1alpha1.SecretReference{Name: "bind"})}}},
			want: "ldap.bindCredentialsSecretRef.namespace is required: a cluster-scoped DomainConfig names the namespace of its bind Secret",
		},
		"NamespacedDomainConfigWithNamespace": {
			obj: &nsksv1alpha1.DomainConfig{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "ns"}, Spec: nsksv1alpha1.DomainConfigSpec{
				ForProvider: nsksv1alpha1.DomainConfigParameters{DomainID: ptr("d1"), LDAP: ldap(identityv1alpha1.SecretReference{Namespace: ns, Name: "bind"})}}},
			want: "ldap.bindCredentialsSecretRef.namespace must not be set: a namespaced DomainConfig reads its bind Secret in its own namespace",
		},
	}
	for name, tc := range cases {
		// Server-side dry run: admission only, nothing is stored or reconciled.
		err := kube.Create(ctx, tc.obj, client.DryRunAll)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: refused: %v", name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: got %v, want a refusal containing %q", name, err, tc.want)
		}
	}
}
