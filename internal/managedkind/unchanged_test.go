package managedkind

import (
	"context"
	"testing"

	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	nsidentityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/v1alpha1"
)

// An update that would store what the cache holds at the same version is not sent; any other
// is, as are a status update that changes the count and one the cache cannot vouch for.
func TestSkipUnchanged(t *testing.T) {
	const finalizer = "in-use.crossplane.io"
	cases := map[string]struct {
		change   func(*nsidentityv1alpha1.ProviderConfig)
		opts     []client.UpdateOption
		status   bool
		notFound bool
		wantSent bool
		wantErr  func(error) bool
	}{
		"TheFinalizerAddedAgainIsNotSent": {
			change: func(pc *nsidentityv1alpha1.ProviderConfig) { pc.SetFinalizers([]string{finalizer}) },
		},
		"ANewFinalizerIsSent": {
			change:   func(pc *nsidentityv1alpha1.ProviderConfig) { pc.SetFinalizers([]string{finalizer, "other"}) },
			wantSent: true,
		},
		"AChangedSpecIsSent": {
			change:   func(pc *nsidentityv1alpha1.ProviderConfig) { pc.Spec.InstallationID = "other" },
			wantSent: true,
		},
		"AnotherVersionIsSentAndConflicts": {
			change:   func(pc *nsidentityv1alpha1.ProviderConfig) { pc.SetResourceVersion("1") },
			wantSent: true,
			wantErr:  kerrors.IsConflict,
		},
		"AResourceTheCacheDoesNotHoldIsSent": {
			change:   func(*nsidentityv1alpha1.ProviderConfig) {},
			notFound: true,
			wantSent: true,
			wantErr:  kerrors.IsNotFound,
		},
		"ADryRunIsSent": {
			change:   func(*nsidentityv1alpha1.ProviderConfig) {},
			opts:     []client.UpdateOption{client.DryRunAll},
			wantSent: true,
		},
		"TheSameCountIsNotSent": {
			change: func(pc *nsidentityv1alpha1.ProviderConfig) { pc.SetUsers(3) },
			status: true,
		},
		"AnotherCountIsSent": {
			change:   func(pc *nsidentityv1alpha1.ProviderConfig) { pc.SetUsers(4) },
			status:   true,
			wantSent: true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s := runtime.NewScheme()
			if err := nsidentityv1alpha1.SchemeBuilder.AddToScheme(s); err != nil {
				t.Fatal(err)
			}
			stored := &nsidentityv1alpha1.ProviderConfig{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "keystone", Finalizers: []string{finalizer}}}
			stored.SetUsers(3)
			kube, read, sent := countedUpdates(t, s, stored, tc.notFound)
			pc := read.(*nsidentityv1alpha1.ProviderConfig)
			tc.change(pc)
			c := SkipUnchanged(kube)
			var err error
			if tc.status {
				err = c.Status().Update(context.Background(), pc)
			} else {
				err = c.Update(context.Background(), pc, tc.opts...)
			}
			checkSent(t, err, tc.wantErr, *sent, tc.wantSent)
		})
	}
}
