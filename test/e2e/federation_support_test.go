//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	ksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// Helpers of the Keystone federation and LDAP tests.

var keystonePC = xpv2.ClusterManagedResourceSpec{ProviderConfigReference: &xpv2.Reference{Name: "keystone"}}

func newIdentityProvider(name, id, domainRef string, mutate ...func(*ksv1alpha1.IdentityProvider)) *ksv1alpha1.IdentityProvider {
	o := &ksv1alpha1.IdentityProvider{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: ksv1alpha1.IdentityProviderSpec{
			ClusterManagedResourceSpec: keystonePC,
			ForProvider: ksv1alpha1.IdentityProviderParameters{
				ID: id, DomainRef: &xpv2.Reference{Name: domainRef},
			},
		},
	}
	for _, m := range mutate {
		m(o)
	}
	return o
}

func newMapping(name, id string, rules []ksv1alpha1.MappingRule, mutate ...func(*ksv1alpha1.Mapping)) *ksv1alpha1.Mapping {
	o := &ksv1alpha1.Mapping{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: ksv1alpha1.MappingSpec{
			ClusterManagedResourceSpec: keystonePC,
			ForProvider:                ksv1alpha1.MappingParameters{ID: id, Rules: rules},
		},
	}
	for _, m := range mutate {
		m(o)
	}
	return o
}

// newProtocol is the protocol "openid" of an identity provider, with its mapping.
func newProtocol(name, idpRef, mappingRef string, mutate ...func(*ksv1alpha1.Protocol)) *ksv1alpha1.Protocol {
	o := &ksv1alpha1.Protocol{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: ksv1alpha1.ProtocolSpec{
			ClusterManagedResourceSpec: keystonePC,
			ForProvider: ksv1alpha1.ProtocolParameters{
				ID: "openid", IdentityProviderRef: &xpv2.Reference{Name: idpRef}, MappingRef: &xpv2.Reference{Name: mappingRef},
			},
		},
	}
	for _, m := range mutate {
		m(o)
	}
	return o
}

// newDomainConfig backs the referenced Domain with the test slapd.
func newDomainConfig(name, domainRef, secret string, mutate ...func(*ksv1alpha1.DomainConfig)) *ksv1alpha1.DomainConfig {
	o := &ksv1alpha1.DomainConfig{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: ksv1alpha1.DomainConfigSpec{
			ClusterManagedResourceSpec: keystonePC,
			ForProvider: ksv1alpha1.DomainConfigParameters{
				DomainRef: &xpv2.Reference{Name: domainRef},
				LDAP: ksv1alpha1.LDAPConfig{
					URL:                      os.Getenv("LDAP_URL"),
					BindCredentialsSecretRef: identityv1alpha1.SecretReference{Namespace: "crossplane-system", Name: secret},
					Suffix:                   os.Getenv("LDAP_SUFFIX"),
					Users: ksv1alpha1.LDAPUsers{
						TreeDN: os.Getenv("LDAP_USERS_DN"), ObjectClass: ptr("inetOrgPerson"),
						IDAttribute: ptr("uid"), NameAttribute: ptr("uid"), MailAttribute: ptr("mail"),
					},
					Groups: &ksv1alpha1.LDAPGroups{
						TreeDN: os.Getenv("LDAP_GROUPS_DN"), ObjectClass: ptr("groupOfNames"),
						IDAttribute: ptr("cn"), NameAttribute: ptr("cn"), MemberAttribute: ptr("member"),
					},
				},
			},
		},
	}
	for _, m := range mutate {
		m(o)
	}
	return o
}

// bindSecret creates the Secret with the test slapd's bind credentials, deleted with the test.
func bindSecret(t *testing.T, name string) *corev1.Secret {
	t.Helper()
	s := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Namespace: "crossplane-system", Name: name},
		StringData: map[string]string{"username": os.Getenv("LDAP_BIND_DN"), "password": os.Getenv("LDAP_BIND_PASSWORD")},
	}
	if err := kube.Create(context.Background(), s); err != nil {
		t.Fatalf("cannot create Secret %s: %v", name, err)
	}
	t.Cleanup(func() { _ = kube.Delete(context.Background(), s) })
	return s
}

// loadExamples reads every manifest of the *.yaml files of an examples directory, as `kubectl
// apply -f DIR` would, with the test services' LDAP URL and bind password substituted.
func loadExamples(t *testing.T, dir string) []*unstructured.Unstructured {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "examples", dir, "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples in %s: %v", dir, err)
	}
	sort.Strings(files)
	var out []*unstructured.Unstructured
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		b = bytes.ReplaceAll(b, []byte("ldap://127.0.0.1:3890"), []byte(os.Getenv("LDAP_URL")))
		b = bytes.ReplaceAll(b, []byte("${LDAP_BIND_PASSWORD}"), []byte(os.Getenv("LDAP_BIND_PASSWORD")))
		d := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(b), 4096)
		for {
			u := &unstructured.Unstructured{}
			if err := d.Decode(&u.Object); err != nil {
				if errors.Is(err, io.EOF) {
					break
				}
				t.Fatalf("cannot decode %s: %v", f, err)
			}
			if len(u.Object) > 0 {
				out = append(out, u)
			}
		}
	}
	return out
}

// apply creates objects in the given order.
func apply(t *testing.T, objs ...client.Object) {
	t.Helper()
	for _, o := range objs {
		if err := kube.Create(context.Background(), o); err != nil {
			t.Fatalf("cannot create %s %s: %v", o.GetObjectKind().GroupVersionKind().Kind, o.GetName(), err)
		}
	}
}

// deleteAll deletes objects in the given order without waiting, as `kubectl delete -f` does,
// then waits for all of them to be gone.
func deleteAll(t *testing.T, objs ...client.Object) {
	t.Helper()
	for _, o := range objs {
		if err := kube.Delete(context.Background(), o); err != nil && !kerrors.IsNotFound(err) {
			t.Fatalf("cannot delete %s: %v", o.GetName(), err)
		}
	}
	for _, o := range objs {
		eventuallyObject(t, 90*time.Second, o, o.GetName()+" ("+kindOf(o)+") to be deleted", func() bool {
			err := kube.Get(context.Background(), types.NamespacedName{Name: o.GetName(), Namespace: o.GetNamespace()}, o)
			return kerrors.IsNotFound(err)
		})
	}
}

// cleanup deletes the objects, if they still exist, when the test ends.
func cleanup(t *testing.T, objs ...client.Object) {
	t.Cleanup(func() {
		var left []client.Object
		for _, o := range objs {
			if err := kube.Get(context.Background(), client.ObjectKeyFromObject(o), o); err == nil {
				left = append(left, o)
			}
		}
		if len(left) > 0 {
			deleteAll(t, left...)
		}
	})
}

func kindOf(o client.Object) string {
	if k := o.GetObjectKind().GroupVersionKind().Kind; k != "" {
		return k
	}
	s := fmt.Sprintf("%T", o)
	return s[strings.LastIndex(s, ".")+1:]
}

// readyUnstructured waits for Ready=True and Synced=True on an unstructured managed resource.
func readyUnstructured(t *testing.T, u *unstructured.Unstructured) {
	t.Helper()
	eventually(t, 90*time.Second, u.GetKind()+" "+u.GetName()+" to be Ready and Synced", func() bool {
		if err := kube.Get(context.Background(), client.ObjectKeyFromObject(u), u); err != nil {
			return false
		}
		conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
		ok := map[string]bool{}
		for _, c := range conds {
			m, _ := c.(map[string]any)
			ok[m["type"].(string)] = m["status"] == "True"
		}
		return ok["Ready"] && ok["Synced"]
	})
}

// conditionReason returns the reason of a managed resource's condition.
func conditionReason(mg resource.Managed, ct xpv2.ConditionType) string {
	return string(mg.GetCondition(ct).Reason)
}

// jsonOf decodes one field of a raw Keystone object into a generic value for comparisons.
func jsonOf(t *testing.T, raw json.RawMessage, singular, key string) any {
	t.Helper()
	var m map[string]map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("cannot decode %s: %v", raw, err)
	}
	return m[singular][key]
}

// mustJSON decodes a JSON literal into a generic value.
func mustJSON(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("bad JSON literal %s: %v", s, err)
	}
	return v
}

// keystoneIDs lists the IDs of a federation collection, for before/after comparisons.
func keystoneIDs(t *testing.T, collection, plural string) []string {
	t.Helper()
	var l map[string]json.RawMessage
	if _, err := keystone.sc.Get(context.Background(), keystone.sc.ServiceURL("OS-FEDERATION", collection), &l, nil); err != nil {
		t.Fatalf("cannot list %s: %v", collection, err)
	}
	var items []struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(l[plural], &items); err != nil {
		t.Fatal(err)
	}
	ids := make([]string, 0, len(items))
	for _, i := range items {
		ids = append(ids, i.ID)
	}
	sort.Strings(ids)
	return ids
}
