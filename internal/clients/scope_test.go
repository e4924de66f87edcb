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
			got := ""
			if err != nil {
				got = err.Error()
			}
			if diff := cmp.Diff(tc.wantErr, got); diff != "" {
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
			got := ""
			if err != nil {
				got = err.Error()
			}
			if diff := cmp.Diff(tc.wantErr, got); diff != "" {
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
	var got []string
	for _, s := range l.Items {
		got = append(got, s.Namespace+"/"+s.Name)
	}
	if diff := cmp.Diff([]string{"team-a/pw"}, got); diff != "" {
		t.Errorf("listed (-want +got):\n%s", diff)
	}
}
