package clients

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	nsidentityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/v1alpha1"
)

// GetConfig reads a namespaced ProviderConfig in its namespace or a ClusterProviderConfig by
// name, and refuses any other kind, naming it.
func TestGetConfig(t *testing.T) {
	s := runtime.NewScheme()
	if err := nsidentityv1alpha1.SchemeBuilder.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	kube := fake.NewClientBuilder().WithScheme(s).WithObjects(
		&nsidentityv1alpha1.ProviderConfig{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "keystone"}},
		&nsidentityv1alpha1.ClusterProviderConfig{ObjectMeta: metav1.ObjectMeta{Name: "keystone"}},
	).Build()
	cases := map[string]struct {
		kind, namespace, name string
		want                  string // namespace/name of what was read
		wantErr               string
	}{
		"ProviderConfig":        {kind: "ProviderConfig", namespace: "team-a", name: "keystone", want: "team-a/keystone"},
		"ClusterProviderConfig": {kind: "ClusterProviderConfig", namespace: "ignored", name: "keystone", want: "/keystone"},
		"ProviderConfigElsewhere": {kind: "ProviderConfig", namespace: "team-b", name: "keystone",
			wantErr: `cannot get ProviderConfig team-b/keystone: providerconfigs.identity.m.crossplane.io "keystone" not found`},
		"MissingCluster": {kind: "ClusterProviderConfig", name: "nope",
			wantErr: `cannot get ClusterProviderConfig "nope": clusterproviderconfigs.identity.m.crossplane.io "nope" not found`},
		"OtherKind": {kind: "Secret", name: "keystone", wantErr: `kind "Secret" is not one of ProviderConfig (namespaced) or ClusterProviderConfig`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c, err := GetConfig(context.Background(), kube, tc.kind, tc.namespace, tc.name)
			if diff := cmp.Diff(tc.wantErr, errText(err)); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			got := ""
			if c != nil {
				got = c.GetNamespace() + "/" + c.GetName()
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("config read (-want +got):\n%s", diff)
			}
		})
	}
}
