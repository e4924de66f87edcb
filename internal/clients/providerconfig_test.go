package clients

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

func TestInstallationsID(t *testing.T) {
	const cluster = "6f0c1a2b-kube-system-uid"
	kubeSystem := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "kube-system", UID: types.UID(cluster)}}
	pc := func(spec, status string) *identityv1alpha1.ProviderConfig {
		return &identityv1alpha1.ProviderConfig{ObjectMeta: metav1.ObjectMeta{Name: "keystone"},
			Spec: identityv1alpha1.ProviderConfigSpec{InstallationID: spec}, Status: identityv1alpha1.ProviderConfigStatus{InstallationID: status}}
	}
	cases := map[string]struct {
		objs    []client.Object
		pc      *identityv1alpha1.ProviderConfig
		want    string
		wantErr string
	}{
		"DerivedFirstTime":          {objs: []client.Object{kubeSystem}, pc: pc("", ""), want: cluster},
		"DerivedRecorded":           {objs: []client.Object{kubeSystem}, pc: pc("", cluster), want: cluster},
		"SetFirstTime":              {pc: pc("team-a", ""), want: "team-a"},
		"SetRecorded":               {pc: pc("team-a", "team-a"), want: "team-a"},
		"SetToTheDerivedID":         {pc: pc(cluster, cluster), want: cluster},
		"NoKubeSystem":              {pc: pc("", ""), wantErr: "set spec.installationID on the ProviderConfig"},
		"SetLaterToAnotherID":       {pc: pc("team-b", cluster), wantErr: `ProviderConfig "keystone" would write installation ID "team-b" into provenance markers, but its objects carry "` + cluster + `"`},
		"ChangedBypassingAdmission": {pc: pc("team-b", "team-a"), wantErr: `Set spec.installationID to "team-a"`},
		"RemovedBypassingAdmission": {objs: []client.Object{kubeSystem}, pc: pc("", "team-a"), wantErr: `would write installation ID "` + cluster + `"`},
		"KubeSystemRecreated":       {objs: []client.Object{kubeSystem}, pc: pc("", "old-kube-system-uid"), wantErr: "they would all become foreign"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			kube := fake.NewClientBuilder().WithObjects(tc.objs...).Build()
			got, err := (&Installations{}).ID(context.Background(), kube, tc.pc)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("ID(...) = %q, %v; want an error containing %q", got, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("ID(...): %v", err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ID(...): -want, +got:\n%s", diff)
			}
		})
	}
}
