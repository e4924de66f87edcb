package managedkind

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
)

// testManager is the part of a manager crossplane-runtime's reconciler uses.
type testManager struct {
	ctrl.Manager
	kube   client.Client
	scheme *runtime.Scheme
}

func (m testManager) GetClient() client.Client   { return m.kube }
func (m testManager) GetScheme() *runtime.Scheme { return m.scheme }

// stubConnector connects every resource to ext.
type stubConnector struct {
	ext     managed.TypedExternalClient[*v1alpha1.Domain]
	creates *CreatesAhead
}

func (c stubConnector) Connect(_ context.Context, mg *v1alpha1.Domain) (managed.TypedExternalClient[*v1alpha1.Domain], error) {
	if c.creates == nil {
		return c.ext, nil
	}
	return aheadExternal[*v1alpha1.Domain]{TypedExternalClient: c.ext, mg: mg, creates: c.creates}, nil
}

// A resource about to be created gets its finalizer with the update that records the create
// as pending: crossplane-runtime's real reconciler writes the resource twice around the create
// instead of three times, and the finalizer is stored before anything is created. Any other
// resource gets its finalizer written alone, before anything else.
func TestCreatesAhead(t *testing.T) {
	type write struct {
		Finalizer, Pending, Succeeded bool
		AfterCreate                   bool
	}
	cases := map[string]struct {
		policies  xpv2.ManagementPolicies
		exists    bool
		observeOK bool
		creates   bool
		// conflicts fails the first update that records the create as pending with a
		// conflict, as when another writer updated the resource since the reconcile read it.
		conflicts bool
		want      []write
	}{
		"AboutToBeCreated": {
			policies: xpv2.ManagementPolicies{xpv2.ManagementActionAll}, creates: true,
			want: []write{
				{Finalizer: true, Pending: true},
				{Finalizer: true, Pending: true, Succeeded: true, AfterCreate: true},
			},
		},
		"PendingUpdateConflicts": {
			// crossplane-runtime does not retry the pending update: the reconcile ends and
			// nothing is created, so a finalizer held in memory only is never needed.
			policies: xpv2.ManagementPolicies{xpv2.ManagementActionAll}, creates: true, conflicts: true,
			want: []write{{Finalizer: true, Pending: true}},
		},
		"WithoutCreatesAheadTheFinalizerIsWrittenAlone": {
			policies: xpv2.ManagementPolicies{xpv2.ManagementActionAll},
			want: []write{
				{Finalizer: true},
				{Finalizer: true, Pending: true},
				{Finalizer: true, Pending: true, Succeeded: true, AfterCreate: true},
			},
		},
		"PoliciesWithCreate": {
			policies: xpv2.ManagementPolicies{xpv2.ManagementActionObserve, xpv2.ManagementActionCreate, xpv2.ManagementActionDelete}, creates: true,
			want: []write{
				{Finalizer: true, Pending: true},
				{Finalizer: true, Pending: true, Succeeded: true, AfterCreate: true},
			},
		},
		"ExistingObjectGetsItsFinalizerAlone": {
			policies: xpv2.ManagementPolicies{xpv2.ManagementActionAll}, exists: true, creates: true,
			want: []write{{Finalizer: true}},
		},
		"PoliciesWithoutCreate": {
			// Observe and Update of an object that does not exist: nothing is created, the
			// finalizer is written alone as crossplane-runtime always wrote it.
			policies: xpv2.ManagementPolicies{xpv2.ManagementActionObserve, xpv2.ManagementActionUpdate}, creates: true,
			want: []write{{Finalizer: true}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s := runtime.NewScheme()
			if err := v1alpha1.SchemeBuilder.AddToScheme(s); err != nil {
				t.Fatal(err)
			}
			d := &v1alpha1.Domain{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "d"}}
			d.SetManagementPolicies(tc.policies)
			created := false
			var got []write
			kube := fake.NewClientBuilder().WithScheme(s).WithObjects(d).WithStatusSubresource(d).
				WithInterceptorFuncs(interceptor.Funcs{
					Update: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.UpdateOption) error {
						a := obj.GetAnnotations()
						got = append(got, write{
							Finalizer:   meta.FinalizerExists(obj, managed.FinalizerName),
							Pending:     a[meta.AnnotationKeyExternalCreatePending] != "",
							Succeeded:   a[meta.AnnotationKeyExternalCreateSucceeded] != "",
							AfterCreate: created,
						})
						if tc.conflicts && len(got) == 1 {
							return kerrors.NewConflict(schema.GroupResource{Resource: "domains"}, obj.GetName(), errors.New("changed since read"))
						}
						return c.Update(ctx, obj, opts...)
					},
				}).Build()
			ext := &managed.TypedExternalClientFns[*v1alpha1.Domain]{
				ObserveFn: func(context.Context, *v1alpha1.Domain) (managed.ExternalObservation, error) {
					return managed.ExternalObservation{ResourceExists: tc.exists, ResourceUpToDate: true}, nil
				},
				CreateFn: func(context.Context, *v1alpha1.Domain) (managed.ExternalCreation, error) {
					created = true
					return managed.ExternalCreation{}, nil
				},
				DisconnectFn: func(context.Context) error { return nil },
			}
			var creates *CreatesAhead
			if tc.creates {
				creates = NewCreatesAhead()
			}
			r := managed.NewReconciler(testManager{kube: kube, scheme: s}, resource.ManagedKind(v1alpha1.DomainGroupVersionKind),
				managed.WithTypedExternalConnector[*v1alpha1.Domain](stubConnector{ext: ext, creates: creates}),
				managed.WithFinalizer(aheadFinalizer{Finalizer: resource.NewAPIFinalizer(kube, managed.FinalizerName), creates: creates}),
				managed.WithInitializers(), managed.WithManagementPolicies())
			if _, err := r.Reconcile(context.Background(), reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "ns", Name: "d"}}); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("updates of the resource (-want +got):\n%s", diff)
			}
			if creates != nil && creates.Len() != 0 {
				t.Errorf("CreatesAhead keeps %d entries after the reconcile, want 0", creates.Len())
			}
			if tc.conflicts {
				if created {
					t.Errorf("created after the pending update failed")
				}
				return
			}
			stored := &v1alpha1.Domain{}
			if err := kube.Get(context.Background(), types.NamespacedName{Namespace: "ns", Name: "d"}, stored); err != nil {
				t.Fatal(err)
			}
			if !meta.FinalizerExists(stored, managed.FinalizerName) {
				t.Errorf("stored resource has no finalizer %q", managed.FinalizerName)
			}
		})
	}
}

// A reconcile that ends before adding its finalizer forgets its entry, and an Observe that fails
// records none.
func TestCreatesAheadForgets(t *testing.T) {
	c := NewCreatesAhead()
	d := &v1alpha1.Domain{}
	d.SetManagementPolicies(xpv2.ManagementPolicies{xpv2.ManagementActionAll})
	ext := aheadExternal[*v1alpha1.Domain]{mg: d, creates: c, TypedExternalClient: &managed.TypedExternalClientFns[*v1alpha1.Domain]{
		ObserveFn: func(context.Context, *v1alpha1.Domain) (managed.ExternalObservation, error) {
			return managed.ExternalObservation{}, nil
		},
		DisconnectFn: func(context.Context) error { return nil },
	}}
	if _, err := ext.Observe(context.Background(), d); err != nil {
		t.Fatal(err)
	}
	if c.Len() != 1 {
		t.Fatalf("after Observe found nothing: %d entries, want 1", c.Len())
	}
	if err := ext.Disconnect(context.Background()); err != nil {
		t.Fatal(err)
	}
	if c.Len() != 0 {
		t.Errorf("after Disconnect: %d entries, want 0", c.Len())
	}
	c.observed(d, managed.ExternalObservation{}, errors.New("boom"))
	if c.Len() != 0 {
		t.Errorf("after a failed Observe: %d entries, want 0", c.Len())
	}
	now := metav1.Now()
	d.SetDeletionTimestamp(&now)
	c.observed(d, managed.ExternalObservation{}, nil)
	if c.Len() != 0 {
		t.Errorf("after an Observe of a resource being deleted: %d entries, want 0", c.Len())
	}
}
