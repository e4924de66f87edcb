//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"

	ksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/controller/keystone/domainconfig"
	"github.com/crossplane-contrib/provider-identity/internal/usage"
)

// ldapUser is a user as /v3/users lists it.
type ldapUser struct {
	Name    string `json:"name"`
	Email   string `json:"email"`
	Enabled bool   `json:"enabled"`
}

// domainUsers lists a domain's users; ok is false when Keystone fails to list them (a broken
// LDAP bind, for example).
func domainUsers(t *testing.T, domainID string) (users []ldapUser, ok bool) {
	t.Helper()
	var l struct {
		Users []ldapUser `json:"users"`
	}
	// Bounded: Keystone may not answer at all while a domain's configuration is broken.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := keystone.sc.Get(ctx, keystone.sc.ServiceURL("users")+"?domain_id="+domainID, &l, nil); err != nil {
		return nil, false
	}
	slices.SortFunc(l.Users, func(a, b ldapUser) int { return strings.Compare(a.Name, b.Name) })
	return l.Users, true
}

func userNames(us []ldapUser) []string {
	out := make([]string, 0, len(us))
	for _, u := range us {
		out = append(out, u.Name)
	}
	return out
}

// passwordToken asks Keystone for an unscoped token for a user of a domain and returns the
// HTTP status.
func passwordToken(t *testing.T, domainID, user, password string) int {
	t.Helper()
	return tokenStatus(t, map[string]any{"identity": map[string]any{
		"methods":  []string{"password"},
		"password": map[string]any{"user": map[string]any{"name": user, "domain": map[string]any{"id": domainID}, "password": password}},
	}})
}

// An LDAP-backed domain: the directory's users appear in Keystone and log in with their
// directory password; a typed field change and a rotated bind Secret reach Keystone; deleting
// the DomainConfig detaches the directory and leaves the domain.
func TestLDAPDomainBackend(t *testing.T) {
	t.Parallel()
	secret := bindSecret(t, "e2e-ldap-bind")
	dom := newDomain("e2e-ldap", "e2e-ldap")
	cfg := newDomainConfig("e2e-ldap", "e2e-ldap", secret.Name)
	// The configuration first: it waits for its Domain.
	apply(t, cfg, dom)
	cleanup(t, cfg, dom)
	waitReady(t, dom)
	waitReady(t, cfg)
	domainID := meta.GetExternalName(dom)
	if got := meta.GetExternalName(cfg); got != domainID {
		t.Fatalf("DomainConfig external name %q, want its domain's ID %q", got, domainID)
	}

	users, ok := domainUsers(t, domainID)
	if !ok || !slices.Equal(userNames(users), strings.Split(os.Getenv("LDAP_USERS"), ",")) {
		t.Fatalf("users of the LDAP domain: %+v (listed: %v), want %s", users, ok, os.Getenv("LDAP_USERS"))
	}
	for _, u := range users {
		if !u.Enabled || u.Email != u.Name+"@example.com" {
			t.Errorf("user %+v: want enabled with mail %s@example.com", u, u.Name)
		}
	}
	if code := passwordToken(t, domainID, "alice", os.Getenv("LDAP_USER_PASSWORD")); code != http.StatusCreated {
		t.Errorf("password token for alice: HTTP %d, want 201", code)
	}
	if code := passwordToken(t, domainID, "alice", "wrong"); code != http.StatusUnauthorized {
		t.Errorf("password token with a wrong password: HTTP %d, want 401", code)
	}

	// Keystone holds exactly the rendered options, the enabled defaults included, and never
	// returns the password.
	raw := keystone.raw(t, "domains", domainID, "config")
	want := mustJSON(t, `{"config":{"identity":{"driver":"ldap"},"ldap":{
		"url":"`+os.Getenv("LDAP_URL")+`","user":"`+os.Getenv("LDAP_BIND_DN")+`","suffix":"`+os.Getenv("LDAP_SUFFIX")+`",
		"user_tree_dn":"`+os.Getenv("LDAP_USERS_DN")+`","user_objectclass":"inetOrgPerson","user_id_attribute":"uid",
		"user_name_attribute":"uid","user_mail_attribute":"mail","group_tree_dn":"`+os.Getenv("LDAP_GROUPS_DN")+`",
		"group_objectclass":"groupOfNames","group_id_attribute":"cn","group_name_attribute":"cn","group_member_attribute":"member",
		"user_enabled_invert":"true","user_enabled_default":"false"}}}`)
	if got := mustJSON(t, string(raw)); !jsonEqual(got, want) {
		t.Errorf("Keystone's domain config:\n got  %s\n want %v", raw, want)
	}
	if strings.Contains(string(raw), os.Getenv("LDAP_BIND_PASSWORD")) {
		t.Error("Keystone returned the bind password")
	}
	// The Domain carries the DomainConfig's in-use finalizer; the config records the Secret
	// version it sent and its marker (markerless kind).
	if d := get(t, dom); !slices.Contains(d.GetFinalizers(), usage.FinalizerName("DomainConfig", cfg.Name)) {
		t.Errorf("Domain finalizers %v lack the DomainConfig's", d.GetFinalizers())
	}
	get(t, cfg)
	if cfg.GetAnnotations()[adoption.AnnotationMarker] == "" || cfg.Status.AtProvider.Provenance != identityv1alpha1.Owned {
		t.Errorf("DomainConfig marker annotation %q, provenance %q", cfg.GetAnnotations()[adoption.AnnotationMarker], cfg.Status.AtProvider.Provenance)
	}
	get(t, secret)
	if v := cfg.GetAnnotations()[domainconfig.AnnotationBindVersion]; v != string(secret.UID)+"/"+secret.ResourceVersion {
		t.Errorf("bind version annotation %q, want the Secret's %s/%s", v, secret.UID, secret.ResourceVersion)
	}

	// At steady state the configuration is read once per poll and never written.
	steadyState(t, []string{"/v3/domains/" + domainID}, map[string]int{"GET /v3/domains/" + domainID + "/config": 1})

	// A typed field change updates the configuration in place: names now come from cn.
	update(t, cfg, func(c *ksv1alpha1.DomainConfig) { c.Spec.ForProvider.LDAP.Users.NameAttribute = ptr("cn") })
	eventually(t, 60*time.Second, "user_name_attribute=cn in Keystone and users named by cn", func() bool {
		if jsonOf(t, keystone.raw(t, "domains", domainID, "config"), "config", "ldap").(map[string]any)["user_name_attribute"] != "cn" {
			return false
		}
		us, ok := domainUsers(t, domainID)
		return ok && slices.Contains(userNames(us), "Alice Anderson")
	})

	// A rotated bind Secret is sent again although Keystone never shows the password: a
	// wrong password breaks the listing, the right one mends it.
	setBindPassword(t, secret, "not-the-password")
	eventually(t, 60*time.Second, "Keystone to use the wrong bind password", func() bool {
		_, ok := domainUsers(t, domainID)
		return !ok
	})
	setBindPassword(t, secret, os.Getenv("LDAP_BIND_PASSWORD"))
	eventually(t, 60*time.Second, "Keystone to use the right bind password again", func() bool {
		us, ok := domainUsers(t, domainID)
		return ok && len(us) == 3
	})
	waitReady(t, cfg)

	// Deleting the DomainConfig detaches the directory: the configuration goes, the domain
	// stays, back on the SQL driver, and loses the in-use finalizer. Its users are then the SQL
	// ones: only the shadow records Keystone keeps of directory users who logged in (alice).
	deleteAll(t, cfg)
	if keystone.exists(t, "domains", domainID, "config") {
		t.Fatal("the domain config outlived its DomainConfig")
	}
	if us, ok := domainUsers(t, domainID); !ok || slices.Contains(userNames(us), "bob") || slices.Contains(userNames(us), "carol") {
		t.Errorf("users after detaching: %+v (listed: %v), want no directory users but the shadow of alice", us, ok)
	}
	eventually(t, 30*time.Second, "the Domain to lose the in-use finalizer", func() bool {
		return !slices.Contains(get(t, dom).GetFinalizers(), usage.FinalizerName("DomainConfig", cfg.Name))
	})
	waitReady(t, dom)
	deleteAll(t, dom)
	if keystone.exists(t, "domains", domainID) {
		t.Fatal("the domain outlived its Domain")
	}
}

func setBindPassword(t *testing.T, s *corev1.Secret, pw string) {
	t.Helper()
	get(t, s)
	s.StringData = map[string]string{"password": pw}
	if err := kube.Update(context.Background(), s); err != nil {
		t.Fatal(err)
	}
}

// Deleting the Domain first waits for its DomainConfig: the domain stays in Keystone, with its
// configuration, until the DomainConfig is deleted too; then both go.
func TestLDAPDeleteDomainFirst(t *testing.T) {
	t.Parallel()
	secret := bindSecret(t, "e2e-ldap-order-bind")
	dom := newDomain("e2e-ldap-order", "e2e-ldap-order")
	cfg := newDomainConfig("e2e-ldap-order", "e2e-ldap-order", secret.Name)
	apply(t, dom, cfg)
	cleanup(t, cfg, dom)
	waitReady(t, dom)
	waitReady(t, cfg)
	domainID := meta.GetExternalName(dom)

	if err := kube.Delete(context.Background(), dom); err != nil {
		t.Fatal(err)
	}
	time.Sleep(3 * pollInterval)
	if !keystone.exists(t, "domains", domainID) || !keystone.exists(t, "domains", domainID, "config") {
		t.Fatal("the domain was deleted in Keystone while its DomainConfig still exists")
	}
	if get(t, dom).GetDeletionTimestamp() == nil {
		t.Fatal("the Domain is not being deleted")
	}
	deleteAll(t, cfg, dom)
	if keystone.exists(t, "domains", domainID) {
		t.Fatal("the domain outlived both resources")
	}
}

// The LDAP example (examples/keystone/ldap) works against the test slapd, and `kubectl delete
// -f` of it, in file order, leaves nothing behind.
func TestLDAPExample(t *testing.T) {
	t.Parallel()
	objs := loadExamples(t, "keystone/ldap")
	all := make([]client.Object, 0, len(objs))
	var dom, cfgName string
	for _, u := range objs {
		all = append(all, u)
		switch u.GetKind() {
		case ksv1alpha1.DomainKind:
			dom = u.GetName()
		case ksv1alpha1.DomainConfigKind:
			cfgName = u.GetName()
		}
	}
	apply(t, all...)
	cleanup(t, all...)
	for _, u := range objs {
		if u.GetKind() != "Secret" {
			readyUnstructured(t, u)
		}
	}
	d := get(t, newDomain(dom, dom))
	domainID := meta.GetExternalName(d)
	users, ok := domainUsers(t, domainID)
	if !ok || len(users) != 3 {
		t.Fatalf("users of the example LDAP domain: %+v (listed: %v)", users, ok)
	}
	if code := passwordToken(t, domainID, "carol", os.Getenv("LDAP_USER_PASSWORD")); code != http.StatusCreated {
		t.Errorf("password token for carol: HTTP %d", code)
	}
	deleteAll(t, all...)
	if keystone.exists(t, "domains", domainID) {
		t.Fatalf("the example domain outlived the example (DomainConfig %s)", cfgName)
	}
}

// jsonEqual compares two generic JSON values; a value that does not encode equals nothing.
func jsonEqual(a, b any) bool {
	x, errX := json.Marshal(a)
	y, errY := json.Marshal(b)
	return errX == nil && errY == nil && bytes.Equal(x, y)
}
