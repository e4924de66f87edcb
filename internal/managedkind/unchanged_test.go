package managedkind

import (
	"context"
	"testing"

	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

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
			sent := 0
			b := fake.NewClientBuilder().WithScheme(s).WithStatusSubresource(&nsidentityv1alpha1.ProviderConfig{}).
				WithInterceptorFuncs(interceptor.Funcs{
					Update: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.UpdateOption) error {
						sent++
						return c.Update(ctx, obj, opts...)
					},
					SubResourceUpdate: func(ctx context.Context, c client.Client, sub string, obj client.Object, opts ...client.SubResourceUpdateOption) error {
						sent++
						return c.SubResource(sub).Update(ctx, obj, opts...)
					},
				})
			if !tc.notFound {
				b = b.WithObjects(stored)
			}
			kube := b.Build()

			pc := stored.DeepCopy()
			if !tc.notFound {
				if err := kube.Get(context.Background(), client.ObjectKeyFromObject(stored), pc); err != nil {
					t.Fatal(err)
				}
			} else {
				pc.SetResourceVersion("7")
			}
			tc.change(pc)
			c := SkipUnchanged(kube)
			var err error
			if tc.status {
				err = c.Status().Update(context.Background(), pc)
			} else {
				err = c.Update(context.Background(), pc, tc.opts...)
			}
			switch {
			case tc.wantErr == nil && err != nil:
				t.Fatalf("Update: %v", err)
			case tc.wantErr != nil && !tc.wantErr(err):
				t.Fatalf("Update: error %v, not the one expected", err)
			}
			if got := sent > 0; got != tc.wantSent {
				t.Errorf("Update sent the update: %t, want %t", got, tc.wantSent)
			}
		})
	}
}
