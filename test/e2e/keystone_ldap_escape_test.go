//go:build e2e

package e2e

import (
	"context"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"

	ksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
)

// ldapModify runs ldapmodify (-a: add) as the directory's root DN with the LDIF on stdin.
func ldapModify(t *testing.T, ldif string, args ...string) {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), "ldapmodify", append([]string{"-x", "-H", os.Getenv("LDAP_URL"), "-D", os.Getenv("LDAP_BIND_DN"),
		"-w", os.Getenv("LDAP_BIND_PASSWORD")}, args...)...)
	cmd.Stdin = strings.NewReader(ldif)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("ldapmodify %v: %v\n%s", args, err, out)
	}
}

// Values with "$" and "%" reach Keystone's LDAP driver as written, although Keystone reads a
// domain's options through oslo.config ("$name" is a substitution) and %-formats the
// non-sensitive ones: a bind DN and password with "$", "$$", "${...}" and "%", and a user filter
// that matches only when its "$" and "%%" are read literally. The directory's user logs in, and
// the escaped configuration is not rewritten at every poll.
func TestLDAPDollarAndPercent(t *testing.T) {
	t.Parallel()
	suffix := os.Getenv("LDAP_SUFFIX")
	ou := "ou=esc-e2e," + suffix
	bindDN := "cn=bind$x%%y," + suffix
	const bindPassword = "pa$$w%rd$x${ldap.url}%(password)s$"
	const description = "x$y%%z" // the filter's value: "$y" is no option, "%%" no single "%"
	const danaPassword = "dana-pw"
	ldapModify(t, "dn: "+ou+"\nobjectClass: organizationalUnit\nou: esc-e2e\n\n"+
		"dn: uid=dana,"+ou+"\nobjectClass: inetOrgPerson\nuid: dana\ncn: Dana Dollar\nsn: Dollar\nmail: dana@example.com\n"+
		"description: "+description+"\nuserPassword: "+danaPassword+"\n\n"+
		"dn: uid=erin,"+ou+"\nobjectClass: inetOrgPerson\nuid: erin\ncn: Erin Else\nsn: Else\nmail: erin@example.com\n"+
		"description: x$y%z\nuserPassword: "+danaPassword+"\n\n"+
		"dn: "+bindDN+"\nobjectClass: person\ncn: bind$x%%y\nsn: bind\nuserPassword: "+bindPassword+"\n", "-a")
	t.Cleanup(func() {
		// Not t.Context(): it is canceled before the cleanups run.
		cmd := exec.CommandContext(context.Background(), "ldapdelete", "-x", "-H", os.Getenv("LDAP_URL"), "-D", os.Getenv("LDAP_BIND_DN"), "-w", os.Getenv("LDAP_BIND_PASSWORD"), "-r", ou, bindDN)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("ldapdelete: %v\n%s", err, out)
		}
	})
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "crossplane-system", Name: "e2e-ldap-escape-bind"},
		StringData: map[string]string{"username": bindDN, "password": bindPassword}}
	create(t, secret)
	dom := newDomain("e2e-ldap-escape", "e2e-ldap-escape")
	cfg := newDomainConfig("e2e-ldap-escape", "e2e-ldap-escape", secret.Name, func(c *ksv1alpha1.DomainConfig) {
		c.Spec.ForProvider.LDAP.Users.TreeDN = ou
		c.Spec.ForProvider.LDAP.Users.Filter = ptr("(description=" + description + ")")
	})
	apply(t, cfg, dom)
	cleanup(t, cfg, dom)
	waitReady(t, dom)
	waitReady(t, cfg)
	domainID := meta.GetExternalName(dom)

	// The bind works (the password and DN are read as written) and the filter picks dana alone.
	users, ok := domainUsers(t, domainID)
	if !ok || !slices.Equal(userNames(users), []string{"dana"}) {
		t.Fatalf("users of the LDAP domain: %+v (listed: %v), want dana alone", users, ok)
	}
	if code := passwordToken(t, domainID, "dana", danaPassword); code != http.StatusCreated {
		t.Errorf("password token for dana: HTTP %d, want 201", code)
	}

	// Keystone stores (and returns) the escaped values.
	ldap := jsonOf(t, keystone.raw(t, "domains", domainID, "config"), "config", "ldap").(map[string]any)
	if ldap["user"] != "cn=bind$$x%%%%y,"+suffix || ldap["user_filter"] != "(description=x$$y%%%%z)" {
		t.Errorf("Keystone's user %q and user_filter %q, want them escaped", ldap["user"], ldap["user_filter"])
	}
	// Escaped values compare equal: nothing is written at steady state.
	steadyState(t, []string{"/v3/domains/" + domainID}, map[string]int{"GET /v3/domains/" + domainID + "/config": 1})
}
