package managedkind

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
)

func ptr[T any](v T) *T { return &v }

func TestPolicyAwareWriterUpdate(t *testing.T) {
	observeOnly := xpv2.ManagementPolicies{xpv2.ManagementActionObserve}
	noLateInit := xpv2.ManagementPolicies{xpv2.ManagementActionObserve, xpv2.ManagementActionCreate, xpv2.ManagementActionUpdate, xpv2.ManagementActionDelete}
	cases := map[string]struct {
		policies xpv2.ManagementPolicies
		// wantStored is the stored spec.forProvider after the update.
		wantStored v1alpha1.DomainParameters
	}{
		"DefaultPoliciesWriteTheSpec": {
			wantStored: v1alpha1.DomainParameters{Name: "d", Enabled: ptr(true)},
		},
		"LateInitializeWritesTheSpec": {
			policies:   xpv2.ManagementPolicies{xpv2.ManagementActionObserve, xpv2.ManagementActionLateInitialize},
			wantStored: v1alpha1.DomainParameters{Name: "d", Enabled: ptr(true)},
		},
		"ObserveOnlyWritesMetadataOnly": {
			policies:   observeOnly,
			wantStored: v1alpha1.DomainParameters{Name: "d"},
		},
		"NoLateInitializeWritesMetadataOnly": {
			policies:   noLateInit,
			wantStored: v1alpha1.DomainParameters{Name: "d"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s := runtime.NewScheme()
			if err := v1alpha1.SchemeBuilder.AddToScheme(s); err != nil {
				t.Fatal(err)
			}
			stored := &v1alpha1.Domain{ObjectMeta: metav1.ObjectMeta{Name: "x", Annotations: map[string]string{"keep": "me"}},
				Spec: v1alpha1.DomainSpec{ForProvider: v1alpha1.DomainParameters{Name: "d"}}}
			stored.SetManagementPolicies(tc.policies)
			kube := fake.NewClientBuilder().WithScheme(s).WithObjects(stored).Build()
			w := NewPolicyAwareWriter(kube)

			mg := &v1alpha1.Domain{}
			if err := kube.Get(context.Background(), client.ObjectKeyFromObject(stored), mg); err != nil {
				t.Fatal(err)
			}
			before := mg.GetResourceVersion()
			// What a reconcile does in memory: late-initialize, then add a finalizer and an annotation.
			mg.Spec.ForProvider.Enabled = ptr(true)
			mg.SetFinalizers([]string{"finalizer.managedresource.crossplane.io"})
			mg.SetAnnotations(map[string]string{"keep": "me", "crossplane.io/external-name": "id"})
			if err := w.Update(context.Background(), mg); err != nil {
				t.Fatalf("Update: %v", err)
			}
			if mg.GetResourceVersion() == before {
				t.Errorf("the object did not take the new resourceVersion")
			}
			if mg.Spec.ForProvider.Enabled == nil {
				t.Errorf("the in-memory spec was lost: the rest of the reconcile needs it")
			}

			got := &v1alpha1.Domain{}
			if err := kube.Get(context.Background(), client.ObjectKeyFromObject(stored), got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.wantStored, got.Spec.ForProvider); diff != "" {
				t.Errorf("stored spec.forProvider (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(map[string]string{"keep": "me", "crossplane.io/external-name": "id"}, got.GetAnnotations()); diff != "" {
				t.Errorf("stored annotations (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]string{"finalizer.managedresource.crossplane.io"}, got.GetFinalizers()); diff != "" {
				t.Errorf("stored finalizers (-want +got):\n%s", diff)
			}

			// Removing the finalizer (as the reconciler does after deleting) is written too.
			mg.SetFinalizers(nil)
			if err := w.Update(context.Background(), mg); err != nil {
				t.Fatalf("second Update: %v", err)
			}
			if err := kube.Get(context.Background(), client.ObjectKeyFromObject(stored), got); err != nil {
				t.Fatal(err)
			}
			if len(got.GetFinalizers()) != 0 {
				t.Errorf("finalizer removal not written: %v", got.GetFinalizers())
			}
		})
	}
}

// A stale resourceVersion is a conflict, as with Update: the reconciler relies on it to never
// create twice.
func TestPolicyAwareWriterConflict(t *testing.T) {
	s := runtime.NewScheme()
	if err := v1alpha1.SchemeBuilder.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	stored := &v1alpha1.Domain{ObjectMeta: metav1.ObjectMeta{Name: "x"}, Spec: v1alpha1.DomainSpec{ForProvider: v1alpha1.DomainParameters{Name: "d"}}}
	stored.SetManagementPolicies(xpv2.ManagementPolicies{xpv2.ManagementActionObserve})
	kube := fake.NewClientBuilder().WithScheme(s).WithObjects(stored).Build()
	mg := &v1alpha1.Domain{}
	if err := kube.Get(context.Background(), client.ObjectKeyFromObject(stored), mg); err != nil {
		t.Fatal(err)
	}
	stale := mg.DeepCopy()
	mg.SetAnnotations(map[string]string{"a": "1"})
	if err := NewPolicyAwareWriter(kube).Update(context.Background(), mg); err != nil {
		t.Fatal(err)
	}
	stale.SetAnnotations(map[string]string{"b": "2"})
	if err := NewPolicyAwareWriter(kube).Update(context.Background(), stale); !kerrors.IsConflict(err) {
		t.Fatalf("update with a stale resourceVersion: got %v, want a conflict", err)
	}
}

// Objects that are not managed resources pass through untouched.
func TestPolicyAwareWriterOtherObjects(t *testing.T) {
	s := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "c", Namespace: "n"}, Data: map[string]string{"k": "v"}}
	kube := fake.NewClientBuilder().WithScheme(s).WithObjects(cm).Build()
	got := &corev1.ConfigMap{}
	if err := kube.Get(context.Background(), client.ObjectKeyFromObject(cm), got); err != nil {
		t.Fatal(err)
	}
	got.Data["k"] = "changed"
	if err := NewPolicyAwareWriter(kube).Update(context.Background(), got); err != nil {
		t.Fatal(err)
	}
	if err := kube.Get(context.Background(), client.ObjectKeyFromObject(cm), got); err != nil {
		t.Fatal(err)
	}
	if got.Data["k"] != "changed" {
		t.Errorf("ConfigMap data not written: %v", got.Data)
	}
}
