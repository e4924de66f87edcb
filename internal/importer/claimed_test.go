package importer

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/crossplane-contrib/provider-identity/apis"
	akclusterv1 "github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	clusterv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	akv1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
)

// Only resources that created or adopted their markerless object (assignment, membership,
// implied-role rule, mapping, protocol, domain configuration, authentik provider, flow, stage,
// binding: the marker annotation) claim it; an observe-only one, such as an
// earlier import's, does not, so adopt mode can rewrite it.
func TestClaimed(t *testing.T) {
	s := runtime.NewScheme()
	if err := apis.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	ann := func(en string, marked bool) map[string]string {
		a := map[string]string{annotationExternalName: en}
		if marked {
			a[adoption.AnnotationMarker] = "v=v1"
		}
		return a
	}
	kube := fake.NewClientBuilder().WithScheme(s).WithObjects(
		&v1alpha1.RoleAssignment{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "managed", Annotations: ann("k1", true)}},
		&v1alpha1.RoleAssignment{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "observed", Annotations: ann("k2", false)}},
		&clusterv1alpha1.RoleAssignment{ObjectMeta: metav1.ObjectMeta{Name: "legacy", Annotations: ann("k3", true)}},
		&v1alpha1.Mapping{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "rules", Annotations: ann("corp", true)}},
		&v1alpha1.Protocol{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "observed", Annotations: ann("corp/openid", false)}},
		&clusterv1alpha1.DomainConfig{ObjectMeta: metav1.ObjectMeta{Name: "ldap", Annotations: ann("d1", true)}},
		&akv1.OAuth2Provider{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "wiki", Annotations: ann("7", true)}},
		&akclusterv1.ProxyProvider{ObjectMeta: metav1.ObjectMeta{Name: "proxy", Annotations: ann("8", true)}},
		&akv1.SAMLProvider{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "observed", Annotations: ann("9", false)}},
		&v1alpha1.GroupMembership{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "alice-in-devs", Annotations: ann("gd/ua", true)}},
		&clusterv1alpha1.ImpliedRole{ObjectMeta: metav1.ObjectMeta{Name: "admin-member", Annotations: ann("ra/rm", true)}},
		&akv1.Flow{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "login", Annotations: ann("login", true)}},
		&akv1.Stage{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "observed", Annotations: ann("s1", false)}},
		&akclusterv1.FlowStageBinding{ObjectMeta: metav1.ObjectMeta{Name: "bind", Annotations: ann("b1", true)}},
		&akv1.Policy{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "expr", Annotations: ann("p1", true)}},
		&akclusterv1.PolicyBinding{ObjectMeta: metav1.ObjectMeta{Name: "observed", Annotations: ann("pb1", false)}},
		&akv1.PropertyMapping{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "groups", Annotations: ann("m1", true)}},
		&akclusterv1.CertificateKeyPair{ObjectMeta: metav1.ObjectMeta{Name: "signing", Annotations: ann("c1", true)}},
		&v1alpha1.ApplicationCredential{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "ci", Annotations: ann("ac1", true)}},
	).Build()
	got, err := claimed(context.Background(), kube)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]string{kindRoleAssignment: {"k1": "a/managed", "k3": "/legacy"},
		kindMapping: {"corp": "a/rules"}, kindProtocol: {}, kindDomainConfig: {"d1": "/ldap"},
		kindOAuth2Provider: {"7": "a/wiki"}, kindProxyProvider: {"8": "/proxy"}, kindSAMLProvider: {},
		kindGroupMembership: {"gd/ua": "a/alice-in-devs"}, kindImpliedRole: {"ra/rm": "/admin-member"},
		kindFlow: {"login": "a/login"}, kindStage: {}, kindFlowStageBinding: {"b1": "/bind"},
		kindPolicy: {"p1": "a/expr"}, kindPolicyBinding: {}, kindPropertyMapping: {"m1": "a/groups"},
		kindCertificateKeyPair: {"c1": "/signing"}, kindApplicationCredential: {"ac1": "a/ci"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("claimed (-want +got):\n%s", diff)
	}
}
