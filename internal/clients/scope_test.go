package clients

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	keystonev1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	nskeystonev1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
	nsidentityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

func secretsKube() client.Reader {
	secret := func(ns string) *corev1.Secret {
		return &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "pw"}, Data: map[string][]byte{"password": []byte(ns)}}
	}
	return fake.NewClientBuilder().WithObjects(secret("team-a"), secret("team-b")).Build()
}

// A resource's Secrets are read through one reader bound to its scope: a namespaced resource
// reads its own namespace only, a cluster-scoped one the namespace its selector names. Each
// refusal names the resource, the Secret and what to do.
func TestResourceSecrets(t *testing.T) {
	nsDomain := &nskeystonev1alpha1.Domain{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "alice"}}
	clDomain := &keystonev1alpha1.Domain{ObjectMeta: metav1.ObjectMeta{Name: "alice"}}
	cases := map[string]struct {
		mg      client.Object
		ref     identityv1alpha1.SecretReference
		want    string // the Secret's password, which is its namespace
		wantErr string
	}{
		"NamespacedReadsItsOwnNamespace":  {mg: nsDomain, ref: identityv1alpha1.SecretReference{Name: "pw"}, want: "team-a"},
		"NamespacedNamingItsOwnNamespace": {mg: nsDomain, ref: identityv1alpha1.SecretReference{Name: "pw", Namespace: "team-a"}, want: "team-a"},
		"NamespacedNamingAnotherNamespace": {mg: nsDomain, ref: identityv1alpha1.SecretReference{Name: "pw", Namespace: "team-b"},
			wantErr: "Domain team-a/alice reads Secrets of its own namespace only, but names Secret team-b/pw: put the Secret in namespace team-a and leave out the selector's namespace: a namespaced Domain reads Secrets in its own namespace"},
		"ClusterReadsTheNamedNamespace": {mg: clDomain, ref: identityv1alpha1.SecretReference{Name: "pw", Namespace: "team-b"}, want: "team-b"},
		"ClusterWithoutNamespace": {mg: clDomain, ref: identityv1alpha1.SecretReference{Name: "pw"},
			wantErr: `Domain alice names Secret "pw" without a namespace: a cluster-scoped resource must say which namespace its Secrets are in`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s := &corev1.Secret{}
			err := ResourceSecrets(secretsKube(), tc.mg).Get(context.Background(), SecretKey(tc.mg, tc.ref), s)
			if diff := cmp.Diff(tc.wantErr, errText(err)); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.want, string(s.Data["password"])); diff != "" {
				t.Errorf("Secret read (-want +got):\n%s", diff)
			}
		})
	}
}

// A namespaced ProviderConfig's Secrets are read through the same reader, with its own fix.
func TestSecretReader(t *testing.T) {
	nsPC := &nsidentityv1alpha1.ProviderConfig{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "keystone"}}
	clusterPC := &nsidentityv1alpha1.ClusterProviderConfig{ObjectMeta: metav1.ObjectMeta{Name: "default"}}
	cases := map[string]struct {
		c       Config
		key     types.NamespacedName
		wantErr string
	}{
		"NamespacedOwnNamespace": {c: nsPC, key: types.NamespacedName{Namespace: "team-a", Name: "pw"}},
		"NamespacedOtherNamespace": {c: nsPC, key: types.NamespacedName{Namespace: "team-b", Name: "pw"},
			wantErr: "ProviderConfig team-a/keystone reads Secrets of its own namespace only, but names Secret team-b/pw: move the Secret into namespace team-a, or use a ClusterProviderConfig"},
		"ClusterAnyNamespace": {c: clusterPC, key: types.NamespacedName{Namespace: "team-b", Name: "pw"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			err := SecretReader(secretsKube(), tc.c).Get(context.Background(), tc.key, &corev1.Secret{})
			if diff := cmp.Diff(tc.wantErr, errText(err)); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}

// A list through a namespaced owner's reader sees its own namespace only.
func TestResourceSecretsList(t *testing.T) {
	mg := &nskeystonev1alpha1.Domain{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "alice"}}
	l := &corev1.SecretList{}
	if err := ResourceSecrets(secretsKube(), mg).List(context.Background(), l); err != nil {
		t.Fatal(err)
	}
	got := make([]string, 0, len(l.Items))
	for _, s := range l.Items {
		got = append(got, s.Namespace+"/"+s.Name)
	}
	if diff := cmp.Diff([]string{"team-a/pw"}, got); diff != "" {
		t.Errorf("listed (-want +got):\n%s", diff)
	}
}

func keystonePC(ns string) identityv1alpha1.ProviderConfigSpec {
	return identityv1alpha1.ProviderConfigSpec{Keystone: &identityv1alpha1.KeystoneConfig{AuthURL: "http://keystone/v3",
		Password: &identityv1alpha1.KeystonePasswordAuth{Username: "admin",
			PasswordSecretRef: identityv1alpha1.SecretKeySelector{SecretReference: identityv1alpha1.SecretReference{Namespace: ns, Name: "pw"}, Key: "password"}}}}
}

// The factories read a ProviderConfig's Secrets at the selectors of its View, through
// SecretReader: a namespaced ProviderConfig's selectors name no namespace and read its own, a
// ClusterProviderConfig's read the namespace they name. A namespace a namespaced
// ProviderConfig does name (stored before the CEL rule forbade it) is refused by name.
func TestViewSecrets(t *testing.T) {
	meta := func(ns, name string) metav1.ObjectMeta { return metav1.ObjectMeta{Namespace: ns, Name: name} }
	cases := map[string]struct {
		c       Config
		want    string // the Secret's password, which is its namespace
		wantErr string
	}{
		"NamespacedNamesNone": {c: &nsidentityv1alpha1.ProviderConfig{ObjectMeta: meta("team-a", "keystone"), Spec: keystonePC("")}, want: "team-a"},
		"NamespacedNamesAnother": {c: &nsidentityv1alpha1.ProviderConfig{ObjectMeta: meta("team-a", "keystone"), Spec: keystonePC("team-b")},
			wantErr: "cannot read Secret team-b/pw: ProviderConfig team-a/keystone reads Secrets of its own namespace only, but names Secret team-b/pw: move the Secret into namespace team-a, or use a ClusterProviderConfig"},
		"ClusterNamesOne": {c: &nsidentityv1alpha1.ClusterProviderConfig{ObjectMeta: meta("", "default"), Spec: keystonePC("team-b")}, want: "team-b"},
		"ClusterNamesNone": {c: &nsidentityv1alpha1.ClusterProviderConfig{ObjectMeta: meta("", "default"), Spec: keystonePC("")},
			wantErr: `cannot read Secret /pw: ProviderConfig default names Secret "pw" without a namespace: a cluster-scoped resource must say which namespace its Secrets are in`},
		"LegacyNamesOne": {c: &identityv1alpha1.ProviderConfig{ObjectMeta: meta("", "keystone"), Spec: keystonePC("team-a")}, want: "team-a"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			stored := tc.c.ProviderConfigSpec().DeepCopy()
			v, err := SecretValue(context.Background(), SecretReader(secretsKube(), tc.c), View(tc.c).Spec.Keystone.Password.PasswordSecretRef)
			if diff := cmp.Diff(tc.wantErr, errText(err)); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.want, string(v)); diff != "" {
				t.Errorf("Secret read (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(stored, tc.c.ProviderConfigSpec()); diff != "" {
				t.Errorf("View changed the ProviderConfig itself (-before +after):\n%s", diff)
			}
		})
	}
}

// Every Secret selector of a namespaced ProviderConfig's View names its namespace.
func TestViewNamesOwnNamespace(t *testing.T) {
	sel := func(ns, name string) identityv1alpha1.SecretKeySelector {
		return identityv1alpha1.SecretKeySelector{SecretReference: identityv1alpha1.SecretReference{Namespace: ns, Name: name}, Key: "k"}
	}
	ptrSel := func(ns, name string) *identityv1alpha1.SecretKeySelector { s := sel(ns, name); return &s }
	spec := func(ns string) identityv1alpha1.ProviderConfigSpec {
		return identityv1alpha1.ProviderConfigSpec{
			Keystone: &identityv1alpha1.KeystoneConfig{
				Password:              &identityv1alpha1.KeystonePasswordAuth{PasswordSecretRef: sel(ns, "pw")},
				ApplicationCredential: &identityv1alpha1.KeystoneApplicationCredentialAuth{SecretRef: sel(ns, "ac")},
				TLS:                   &identityv1alpha1.TLSConfig{CABundleSecretRef: ptrSel(ns, "ks-ca")},
			},
			Authentik: &identityv1alpha1.AuthentikConfig{TokenSecretRef: sel(ns, "token"), TLS: &identityv1alpha1.TLSConfig{CABundleSecretRef: ptrSel(ns, "ak-ca")}},
		}
	}
	cases := map[string]struct {
		c    Config
		want identityv1alpha1.ProviderConfigSpec
	}{
		"Namespaced": {c: &nsidentityv1alpha1.ProviderConfig{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "pc"}, Spec: spec("")}, want: spec("team-a")},
		"Cluster":    {c: &nsidentityv1alpha1.ClusterProviderConfig{ObjectMeta: metav1.ObjectMeta{Name: "pc"}, Spec: spec("")}, want: spec("")},
		"NoTLS": {c: &nsidentityv1alpha1.ProviderConfig{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "pc"},
			Spec: identityv1alpha1.ProviderConfigSpec{Authentik: &identityv1alpha1.AuthentikConfig{TokenSecretRef: sel("", "token")}}},
			want: identityv1alpha1.ProviderConfigSpec{Authentik: &identityv1alpha1.AuthentikConfig{TokenSecretRef: sel("team-a", "token")}}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, View(tc.c).Spec); diff != "" {
				t.Errorf("View's spec (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSecretValue(t *testing.T) {
	kube := fake.NewClientBuilder().WithObjects(&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "ops", Name: "keystone"},
		Data: map[string][]byte{"password": []byte("s3cret"), "empty": {}}}).Build()
	sel := func(name, key string) identityv1alpha1.SecretKeySelector {
		return identityv1alpha1.SecretKeySelector{SecretReference: identityv1alpha1.SecretReference{Namespace: "ops", Name: name}, Key: key}
	}
	cases := map[string]struct {
		sel     identityv1alpha1.SecretKeySelector
		want    string
		wantErr string
	}{
		"Read":         {sel: sel("keystone", "password"), want: "s3cret"},
		"NoSuchKey":    {sel: sel("keystone", "token"), wantErr: `Secret ops/keystone has no key "token"`},
		"EmptyValue":   {sel: sel("keystone", "empty"), wantErr: `Secret ops/keystone key "empty" is empty: put the credential there`},
		"NoSuchSecret": {sel: sel("gone", "password"), wantErr: `cannot read Secret ops/gone: secrets "gone" not found`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			v, err := SecretValue(context.Background(), kube, tc.sel)
			if diff := cmp.Diff(tc.wantErr, errText(err)); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.want, string(v)); diff != "" {
				t.Errorf("value (-want +got):\n%s", diff)
			}
		})
	}
}

// errText is err's message, "" for none.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
