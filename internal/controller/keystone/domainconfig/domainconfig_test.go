package domainconfig

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gophercloud/gophercloud/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"

	"github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	nsv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
)

func ptr[T any](v T) *T { return &v }

func spec() v1alpha1.LDAPConfig {
	return v1alpha1.LDAPConfig{
		URL: "ldap://ldap.example.com", Suffix: "dc=example,dc=com",
		BindCredentialsSecretRef: identityv1alpha1.SecretReference{Namespace: "ns", Name: "bind"},
		Users:                    v1alpha1.LDAPUsers{TreeDN: "ou=people,dc=example,dc=com", NameAttribute: ptr("uid")},
	}
}

func TestRender(t *testing.T) {
	base := map[string]string{
		"url": "ldap://ldap.example.com", "user": "cn=admin", "suffix": "dc=example,dc=com",
		"user_tree_dn": "ou=people,dc=example,dc=com", "user_name_attribute": "uid",
		"user_enabled_invert": "true", "user_enabled_default": "false",
	}
	with := func(kv ...string) map[string]string {
		m := map[string]string{}
		for k, v := range base {
			m[k] = v
		}
		for i := 0; i < len(kv); i += 2 {
			if kv[i+1] == "" {
				delete(m, kv[i])
				continue
			}
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	cases := map[string]struct {
		mutate   func(*v1alpha1.LDAPConfig)
		password string
		want     map[string]string
	}{
		"OnlySetFieldsAndEnabledDefaults": {want: base},
		"PasswordWhenGiven":               {password: "s3cret", want: with("password", "s3cret")},
		"GroupsTLSAndPool": {
			mutate: func(l *v1alpha1.LDAPConfig) {
				l.Groups = &v1alpha1.LDAPGroups{TreeDN: "ou=groups", MemberAttribute: ptr("member")}
				l.TLS = &v1alpha1.LDAPTLS{StartTLS: ptr(true), RequireCert: ptr("demand"), CACertFile: ptr("/etc/ca.pem")}
				l.Pool = &v1alpha1.LDAPPool{Enabled: ptr(true), Size: ptr(int32(5)), ConnectionTimeoutSeconds: ptr(int32(-1))}
			},
			want: with("group_tree_dn", "ou=groups", "group_member_attribute", "member", "use_tls", "true", "tls_req_cert", "demand",
				"tls_cacertfile", "/etc/ca.pem", "use_pool", "true", "pool_size", "5", "pool_connection_timeout", "-1"),
		},
		"UserEnabledOptionSuppressesDefaults": {
			mutate: func(l *v1alpha1.LDAPConfig) {
				l.ExtraOptions = map[string]v1alpha1.LDAPOptionValue{"user_enabled_attribute": "userAccountControl", "page_size": "100"}
			},
			want: with("user_enabled_invert", "", "user_enabled_default", "", "user_enabled_attribute", "userAccountControl", "page_size", "100"),
		},
		"TypedFieldsWinOverExtraOptions": {
			mutate: func(l *v1alpha1.LDAPConfig) {
				l.ExtraOptions = map[string]v1alpha1.LDAPOptionValue{"url": "ldap://evil.example.com"}
			},
			want: base,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			l := spec()
			if tc.mutate != nil {
				tc.mutate(&l)
			}
			got := Render(&l, "cn=admin", tc.password)
			want := map[string]map[string]string{"identity": {"driver": "ldap"}, "ldap": tc.want}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("Render (-want +got):\n%s", d)
			}
		})
	}
}

func TestEscape(t *testing.T) {
	cases := map[string]struct {
		group, option, value, want string
	}{
		"Plain":                 {group: "ldap", option: "url", value: "ldap://x", want: "ldap://x"},
		"DollarDoubled":         {group: "ldap", option: "user_filter", value: "(uid=a$b)", want: "(uid=a$$b)"},
		"DoubledDollarsDoubled": {group: "ldap", option: "user", value: "cn=pa$$x$", want: "cn=pa$$$$x$$"},
		"SubstitutionKept":      {group: "ldap", option: "user", value: "${ldap.url}", want: "$${ldap.url}"},
		"PercentDoubled":        {group: "ldap", option: "user_filter", value: "(cn=50%s)", want: "(cn=50%%s)"},
		"PasswordOnlyDollars":   {group: "ldap", option: "password", value: "p%s$w%%", want: "p%s$$w%%"},
		"IdentityGroup":         {group: "identity", option: "driver", value: "l$%", want: "l$$%%"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := Escape(map[string]map[string]string{tc.group: {tc.option: tc.value}})
			if d := cmp.Diff(map[string]map[string]string{tc.group: {tc.option: tc.want}}, got); d != "" {
				t.Errorf("Escape (-want +got):\n%s", d)
			}
		})
	}
}

func TestSingleLines(t *testing.T) {
	if err := SingleLines(map[string]map[string]string{"ldap": {"url": "ldap://x", "user": "cn=a"}}); err != nil {
		t.Errorf("single lines refused: %v", err)
	}
	err := SingleLines(map[string]map[string]string{"ldap": {"url": "ldap://x", "password": "a\nuser_allow_create = true"}})
	if err == nil || !strings.Contains(err.Error(), "ldap.password") || strings.Contains(err.Error(), "user_allow_create") {
		t.Errorf("a line break in the password: got %v, want an error naming the option and not the value", err)
	}
	if err := SingleLines(map[string]map[string]string{"ldap": {"suffix": "dc=x\r"}}); err == nil {
		t.Error("a carriage return was accepted")
	}
}

func TestObserve(t *testing.T) {
	l := spec()
	rendered := Render(&l, "cn=admin", "")
	asKeystone := func(m map[string]map[string]string) keystone.DomainConfig {
		out := keystone.DomainConfig{}
		for g, o := range m {
			out[g] = map[string]any{}
			for k, v := range o {
				out[g][k] = v
			}
		}
		return out
	}
	cases := map[string]struct {
		cfg       config
		filter    *string
		sent      string
		deleted   bool
		upToDate  bool
		diffMatch string
	}{
		"UpToDate": {
			cfg: config{DomainID: "d", Options: asKeystone(rendered), BindUser: "cn=admin", BindVersion: "uid/1"}, sent: "uid/1", upToDate: true,
		},
		"SecretChanged": {
			cfg: config{DomainID: "d", Options: asKeystone(rendered), BindUser: "cn=admin", BindVersion: "uid/2"}, sent: "uid/1", diffMatch: "bind Secret version",
		},
		"NeverSent": {
			cfg: config{DomainID: "d", Options: asKeystone(rendered), BindUser: "cn=admin", BindVersion: "uid/1"}, diffMatch: "bind Secret version",
		},
		"OptionAddedByHand": {
			cfg: func() config {
				o := asKeystone(rendered)
				o["ldap"]["page_size"] = float64(10)
				return config{DomainID: "d", Options: o, BindUser: "cn=admin", BindVersion: "uid/1"}
			}(),
			sent: "uid/1", diffMatch: "page_size",
		},
		"BindUserChanged": {
			cfg: config{DomainID: "d", Options: asKeystone(rendered), BindUser: "cn=other", BindVersion: "uid/1"}, sent: "uid/1", diffMatch: "cn=other",
		},
		"EscapedValuesAsStored": {
			cfg: config{DomainID: "d", Options: func() keystone.DomainConfig {
				o := asKeystone(rendered)
				o["ldap"]["user"] = "cn=a$$b%%c"
				o["ldap"]["user_filter"] = "(uid=$$x)"
				return o
			}(), BindUser: "cn=a$b%c", BindVersion: "uid/1"},
			filter: ptr("(uid=$x)"), sent: "uid/1", upToDate: true,
		},
		"UnescapedDollarByHand": {
			cfg: func() config {
				o := asKeystone(rendered)
				o["ldap"]["user_filter"] = "(uid=$x)"
				return config{DomainID: "d", Options: o, BindUser: "cn=admin", BindVersion: "uid/1"}
			}(),
			filter: ptr("(uid=$x)"), sent: "uid/1", diffMatch: "(uid=$$x)",
		},
		"BeingDeleted": {
			cfg: config{DomainID: "d", Options: keystone.DomainConfig{"ldap": {"url": "ldap://else"}}}, deleted: true, upToDate: true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			mg := &v1alpha1.DomainConfig{Spec: v1alpha1.DomainConfigSpec{ForProvider: v1alpha1.DomainConfigParameters{LDAP: spec()}}}
			mg.Spec.ForProvider.LDAP.Users.Filter = tc.filter
			if tc.sent != "" {
				meta.AddAnnotations(mg, map[string]string{AnnotationBindVersion: tc.sent})
			}
			o := (&external{}).Observe(mg, tc.cfg, identityv1alpha1.Owned)
			if o.UpToDate != tc.upToDate {
				t.Errorf("UpToDate: got %v, want %v (diff %s)", o.UpToDate, tc.upToDate, o.Diff)
			}
			if tc.diffMatch != "" && !strings.Contains(o.Diff, tc.diffMatch) {
				t.Errorf("diff %q does not mention %q", o.Diff, tc.diffMatch)
			}
			if mg.Status.AtProvider.ID != "d" || mg.Status.AtProvider.BindCredentialsVersion != tc.sent {
				t.Errorf("atProvider %+v", mg.Status.AtProvider)
			}
			if _, ok := mg.Status.AtProvider.Options["ldap"]["password"]; ok {
				t.Error("atProvider carries a password")
			}
		})
	}
}

func TestCredentials(t *testing.T) {
	secret := func(data map[string]string) *corev1.Secret {
		s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "bind", UID: types.UID("u1"), ResourceVersion: "7"}, Data: map[string][]byte{}}
		for k, v := range data {
			s.Data[k] = []byte(v)
		}
		return s
	}
	cases := map[string]struct {
		secret  *corev1.Secret
		wantErr string
		want    bind
	}{
		"Complete":     {secret: secret(map[string]string{"username": "cn=admin", "password": "pw"}), want: bind{user: "cn=admin", password: "pw"}},
		"NoSecret":     {wantErr: "cannot read the bind Secret ns/bind"},
		"NoUsername":   {secret: secret(map[string]string{"password": "pw"}), wantErr: `lacks a non-empty "username" key`},
		"EmptyPass":    {secret: secret(map[string]string{"username": "cn=admin", "password": ""}), wantErr: `lacks a non-empty "password" key`},
		"PasswordLine": {secret: secret(map[string]string{"username": "cn=admin", "password": "pw\nx"}), wantErr: `newline or carriage return under "password"`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			b := fake.NewClientBuilder()
			if tc.secret != nil {
				b = b.WithObjects(tc.secret)
			}
			e := &external{kube: b.Build()}
			mg := &v1alpha1.DomainConfig{Spec: v1alpha1.DomainConfigSpec{ForProvider: v1alpha1.DomainConfigParameters{LDAP: spec()}}}
			got, err := e.credentials(context.Background(), mg)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("got %v, want an error containing %q", err, tc.wantErr)
				}
				if strings.Contains(err.Error(), "pw") {
					t.Errorf("the error shows the password: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.user != tc.want.user || got.password != tc.want.password || !strings.HasPrefix(got.version, "u1/") {
				t.Errorf("got %+v", *got)
			}
		})
	}
}

// A namespaced DomainConfig reads its bind Secret in its own namespace, never in another one
// (which admission refuses to name), even when a Secret of that name exists there.
func TestNamespacedCredentials(t *testing.T) {
	secret := func(ns, user string) *corev1.Secret {
		return &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "bind", UID: types.UID("u-" + ns), ResourceVersion: "7"},
			Data: map[string][]byte{"username": []byte(user), "password": []byte("pw")}}
	}
	cases := map[string]struct {
		namespace string
		wantUser  string
		wantErr   string
	}{
		"OwnNamespace": {wantUser: "cn=team-a"},
		"AnotherNamespace": {namespace: "ns",
			wantErr: "cannot read the bind Secret ns/bind named by spec.forProvider.ldap.bindCredentialsSecretRef: DomainConfig team-a/ldap reads Secrets of its own namespace only, " +
				"but names Secret ns/bind: put the Secret in namespace team-a and leave out the selector's namespace: a namespaced DomainConfig reads Secrets in its own namespace"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e := &external{kube: fake.NewClientBuilder().WithObjects(secret("team-a", "cn=team-a"), secret("ns", "cn=other")).Build()}
			mg := &nsv1alpha1.DomainConfig{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "ldap"}}
			mg.Spec.ForProvider.LDAP = spec()
			mg.Spec.ForProvider.LDAP.BindCredentialsSecretRef = identityv1alpha1.SecretReference{Name: "bind", Namespace: tc.namespace}
			got, err := e.credentials(context.Background(), mg)
			gotErr, gotUser := "", ""
			if err != nil {
				gotErr = err.Error()
			} else {
				gotUser = got.user
			}
			if diff := cmp.Diff(tc.wantErr, gotErr); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantUser, gotUser); diff != "" {
				t.Errorf("bind DN read (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRedact(t *testing.T) {
	if got := redact("bad value s3cret for password", "s3cret"); got != "bad value <redacted> for password" {
		t.Errorf("redact: %q", got)
	}
	if got := redact("nothing", ""); got != "nothing" {
		t.Errorf("redact with no password: %q", got)
	}
}

// put sends the escaped configuration, and a refusal that echoes the password shows neither
// the password nor its escaped form.
func TestPutEscapes(t *testing.T) {
	const pw = "pa$x%s"
	var sent map[string]map[string]string
	refuse := false
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Config map[string]map[string]string `json:"config"`
		}
		_ = json.NewDecoder(r.Body).Decode(&body)
		sent = body.Config
		w.Header().Set("Content-Type", "application/json")
		if refuse {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"error":{"code":400,"title":"Bad Request","message":"cannot use ` + body.Config["ldap"]["password"] + ` (` + pw + `)"}}`))
			return
		}
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write([]byte(`{"config":{}}`))
	}))
	defer srv.Close()
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "bind", UID: "u1", ResourceVersion: "1"},
		Data: map[string][]byte{"username": []byte("cn=a$b%c"), "password": []byte(pw)}}
	mg := &v1alpha1.DomainConfig{Spec: v1alpha1.DomainConfigSpec{ForProvider: v1alpha1.DomainConfigParameters{LDAP: spec()}}}
	mg.Spec.ForProvider.LDAP.Users.Filter = ptr("(uid=$x)")
	e := &external{
		sc:   &gophercloud.ServiceClient{ProviderClient: &gophercloud.ProviderClient{HTTPClient: *srv.Client()}, Endpoint: srv.URL + "/v3/"},
		kube: fake.NewClientBuilder().WithObjects(secret).Build(),
	}
	if _, err := e.put(context.Background(), mg, "d", errCreate); err != nil {
		t.Fatalf("put: %v", err)
	}
	got := map[string]string{"user": sent["ldap"]["user"], "password": sent["ldap"]["password"], "user_filter": sent["ldap"]["user_filter"]}
	want := map[string]string{"user": "cn=a$$b%%c", "password": "pa$$x%s", "user_filter": "(uid=$$x)"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("sent (-want +got):\n%s", d)
	}

	refuse = true
	_, err := e.put(context.Background(), mg, "d", errCreate)
	if err == nil || strings.Contains(err.Error(), "pa$$x%s") || strings.Contains(err.Error(), pw) || !strings.Contains(err.Error(), redactedPasswrd) {
		t.Errorf("a refusal echoing the password: got %v, want it redacted in both forms", err)
	}
}
