package managedkind

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/crossplane/crossplane-runtime/v2/pkg/event"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-identity/apis"
	"github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
)

// projectConnector connects every Project to ext through an aheadExternal, as Connector does.
type projectConnector struct {
	ext     managed.TypedExternalClient[*v1alpha1.Project]
	creates *CreatesAhead
	passing *PassingStatuses
	kube    client.Client
}

func (c projectConnector) Connect(_ context.Context, mg *v1alpha1.Project) (managed.TypedExternalClient[*v1alpha1.Project], error) {
	return aheadExternal[*v1alpha1.Project]{TypedExternalClient: c.ext, mg: mg, creates: c.creates, passing: c.passing, kube: c.kube}, nil
}

// A kubeWrite is one write of the Project the reconcile sent, as the API server got it.
type kubeWrite struct {
	Op       string // Update, Patch or Status
	DomainID string // spec.forProvider.domainId written (Update, Patch)
	Pending  bool   // the create-pending annotation (Update)
	Ready    string // the Ready condition's reason (Status)
}

// projectReconcile runs one reconcile of a Project referencing a Domain that has its ID, with
// crossplane-runtime's real reconciler wired as Setup wires it, and returns the Project's writes.
type projectReconcile struct {
	exists    bool
	observe   error
	deleting  bool
	failAfter string // fail the Update that writes this annotation after the create
	ahead     bool   // CreatesAhead and PassingStatuses wired (false: neither)
	deleteErr error
	// deletedAgo is how long ago the deletion began (deleting only).
	deletedAgo time.Duration
}

// waitingFor is a deletion's failure that waits, or not, only for resources of ours being
// deleted.
type waitingFor bool

func (w waitingFor) Error() string { return "held" }
func (w waitingFor) Waiting() bool { return bool(w) }

// eventTypes records the types of the events it is given.
type eventTypes struct{ got *[]string }

func (r eventTypes) Event(_ runtime.Object, e event.Event)    { *r.got = append(*r.got, string(e.Type)) }
func (r eventTypes) WithAnnotations(...string) event.Recorder { return r }

func (tc projectReconcile) run(t *testing.T) ([]kubeWrite, []string, *CreatesAhead, *PassingStatuses) {
	t.Helper()
	s := runtime.NewScheme()
	if err := apis.AddToSchemes.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	dom := &v1alpha1.Domain{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "d",
		Annotations: map[string]string{meta.AnnotationKeyExternalName: "dom-id"}}}
	p := &v1alpha1.Project{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p"},
		Spec: v1alpha1.ProjectSpec{ForProvider: v1alpha1.ProjectParameters{DomainRef: &xpv2.Reference{Name: "d"}}}}
	p.SetManagementPolicies(xpv2.ManagementPolicies{xpv2.ManagementActionAll})
	if tc.exists {
		// An existing object's resource has had its finalizer since its first reconcile.
		p.SetFinalizers([]string{managed.FinalizerName})
	}
	if tc.deleting {
		began := metav1.NewTime(time.Now().Add(-tc.deletedAgo))
		p.SetDeletionTimestamp(&began)
		p.SetFinalizers([]string{managed.FinalizerName})
		meta.SetExternalName(p, "p-id")
	}
	var got []kubeWrite
	domainID := func(obj client.Object) string {
		if id := obj.(*v1alpha1.Project).Spec.ForProvider.DomainID; id != nil {
			return *id
		}
		return ""
	}
	kube := fake.NewClientBuilder().WithScheme(s).WithObjects(dom, p).WithStatusSubresource(p).
		WithInterceptorFuncs(interceptor.Funcs{
			Update: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.UpdateOption) error {
				a := obj.GetAnnotations()
				got = append(got, kubeWrite{Op: "Update", DomainID: domainID(obj), Pending: a[meta.AnnotationKeyExternalCreatePending] != "" && a[meta.AnnotationKeyExternalCreateSucceeded] == ""})
				if tc.failAfter != "" && a[tc.failAfter] != "" {
					return kerrors.NewServiceUnavailable("etcd is away")
				}
				return c.Update(ctx, obj, opts...)
			},
			Patch: func(ctx context.Context, c client.WithWatch, obj client.Object, patch client.Patch, opts ...client.PatchOption) error {
				if err := c.Patch(ctx, obj, patch, opts...); err != nil {
					return err
				}
				got = append(got, kubeWrite{Op: "Patch", DomainID: domainID(obj)})
				return nil
			},
			SubResourceUpdate: func(ctx context.Context, c client.Client, sub string, obj client.Object, opts ...client.SubResourceUpdateOption) error {
				got = append(got, kubeWrite{Op: "Status", Ready: string(obj.(*v1alpha1.Project).GetCondition(xpv2.TypeReady).Reason)})
				return c.SubResource(sub).Update(ctx, obj, opts...)
			},
		}).Build()
	ext := &managed.TypedExternalClientFns[*v1alpha1.Project]{
		ObserveFn: func(_ context.Context, mg *v1alpha1.Project) (managed.ExternalObservation, error) {
			if tc.exists && tc.observe == nil {
				// What Observe finds stays in memory for the status update, also after the
				// resolved IDs were written.
				mg.SetConditions(xpv2.Available())
			}
			return managed.ExternalObservation{ResourceExists: tc.exists, ResourceUpToDate: true}, tc.observe
		},
		CreateFn: func(_ context.Context, mg *v1alpha1.Project) (managed.ExternalCreation, error) {
			meta.SetExternalName(mg, "p-id")
			return managed.ExternalCreation{}, nil
		},
		DeleteFn: func(context.Context, *v1alpha1.Project) (managed.ExternalDelete, error) {
			return managed.ExternalDelete{}, tc.deleteErr
		},
		DisconnectFn: func(context.Context) error { return nil },
	}
	var creates *CreatesAhead
	var passing *PassingStatuses
	resolver := NewPolicyAwareResolver(kube, "Project.keystone.identity.m.crossplane.io", nil)
	if tc.ahead {
		creates, passing = NewCreatesAhead(), NewPassingStatuses()
		resolver.WritingAhead(creates)
	}
	w := unchangedStatusSkipper{Client: NewPolicyAwareWriter(kube), passing: passing}
	var events []string
	r := managed.NewReconciler(testManager{kube: w, scheme: s}, resource.ManagedKind(v1alpha1.ProjectGroupVersionKind),
		managed.WithTypedExternalConnector[*v1alpha1.Project](projectConnector{ext: ext, creates: creates, passing: passing, kube: kube}),
		managed.WithFinalizer(aheadFinalizer{Finalizer: resource.NewAPIFinalizer(w, managed.FinalizerName), creates: creates}),
		managed.WithReferenceResolver(resolver), managed.WithDeterministicExternalName(true),
		managed.WithInitializers(), managed.WithManagementPolicies(),
		managed.WithRecorder(quietRecorder{Recorder: eventTypes{got: &events}, passing: passing}))
	// Errors are the reconcile's business (a failed write ends it with one); the writes tell.
	_, _ = r.Reconcile(context.Background(), reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "ns", Name: "p"}})
	return got, events, creates, passing
}

// The IDs that reference resolution filled in ride on the update that records a create as
// pending; a resource that is not about to be created has them written once Observe has said
// so. The status of a reconcile whose create or delete succeeded is not written; an error after
// it is. A deletion that briefly waits for resources of ours being deleted writes no status
// and no warning.
func TestAheadWrites(t *testing.T) {
	normal, warning := string(event.TypeNormal), string(event.TypeWarning)
	cases := map[string]struct {
		reconcile  projectReconcile
		want       []kubeWrite
		wantEvents []string
	}{
		"ResolvedIDsRideOnThePendingUpdate": {
			reconcile: projectReconcile{ahead: true},
			want: []kubeWrite{
				{Op: "Update", DomainID: "dom-id", Pending: true},
				{Op: "Update", DomainID: "dom-id"},
			},
			wantEvents: []string{normal},
		},
		"WithoutAheadWritesResolutionAndTheFinalizerAreWrittenAlone": {
			reconcile: projectReconcile{},
			want: []kubeWrite{
				{Op: "Patch", DomainID: "dom-id"},
				{Op: "Update", DomainID: "dom-id"},
				{Op: "Update", DomainID: "dom-id", Pending: true},
				{Op: "Update", DomainID: "dom-id"},
				{Op: "Status", Ready: string(xpv2.ReasonCreating)},
			},
			wantEvents: []string{normal},
		},
		"AnExistingObjectHasItsResolvedIDsWrittenAfterObserve": {
			reconcile: projectReconcile{ahead: true, exists: true},
			want: []kubeWrite{
				{Op: "Patch", DomainID: "dom-id"},
				{Op: "Status", Ready: string(xpv2.ReasonAvailable)},
			},
		},
		"AFailedObserveWritesNoResolution": {
			// The next reconcile resolves again: nothing is lost.
			reconcile:  projectReconcile{ahead: true, observe: errors.New("keystone is away")},
			want:       []kubeWrite{{Op: "Status"}},
			wantEvents: []string{warning},
		},
		"AnErrorAfterTheCreateIsWritten": {
			reconcile: projectReconcile{ahead: true, failAfter: meta.AnnotationKeyExternalCreateSucceeded},
			want: []kubeWrite{
				{Op: "Update", DomainID: "dom-id", Pending: true},
				// crossplane-runtime's critical annotation updater retries.
				{Op: "Update", DomainID: "dom-id"}, {Op: "Update", DomainID: "dom-id"}, {Op: "Update", DomainID: "dom-id"},
				{Op: "Update", DomainID: "dom-id"}, {Op: "Update", DomainID: "dom-id"},
				{Op: "Status", Ready: string(xpv2.ReasonCreating)},
			},
			wantEvents: []string{warning},
		},
		"ASucceededDeleteWritesNoStatus": {
			reconcile:  projectReconcile{ahead: true, exists: true, deleting: true},
			wantEvents: []string{normal},
		},
		"WithoutAheadWritesADeleteWritesItsStatus": {
			reconcile:  projectReconcile{exists: true, deleting: true},
			want:       []kubeWrite{{Op: "Status", Ready: string(xpv2.ReasonDeleting)}},
			wantEvents: []string{normal},
		},
		"ABriefWaitForResourcesOfOursBeingDeletedWritesNothing": {
			reconcile: projectReconcile{ahead: true, exists: true, deleting: true, deleteErr: waitingFor(true)},
		},
		"AWaitPastAMinuteIsReported": {
			reconcile:  projectReconcile{ahead: true, exists: true, deleting: true, deleteErr: waitingFor(true), deletedAgo: 2 * time.Minute},
			want:       []kubeWrite{{Op: "Status", Ready: string(xpv2.ReasonDeleting)}},
			wantEvents: []string{warning},
		},
		"AHoldByAnythingElseIsReported": {
			reconcile:  projectReconcile{ahead: true, exists: true, deleting: true, deleteErr: waitingFor(false)},
			want:       []kubeWrite{{Op: "Status", Ready: string(xpv2.ReasonDeleting)}},
			wantEvents: []string{warning},
		},
		"AFailedDeleteIsReported": {
			reconcile:  projectReconcile{ahead: true, exists: true, deleting: true, deleteErr: errors.New("keystone is away")},
			want:       []kubeWrite{{Op: "Status", Ready: string(xpv2.ReasonDeleting)}},
			wantEvents: []string{warning},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, events, creates, passing := tc.reconcile.run(t)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("writes of the Project (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantEvents, events); diff != "" {
				t.Errorf("event types (-want +got):\n%s", diff)
			}
			if creates != nil && creates.Len() != 0 {
				t.Errorf("CreatesAhead keeps %d entries after the reconcile, want 0", creates.Len())
			}
			if passing != nil && passing.Len() != 0 {
				t.Errorf("PassingStatuses keeps %d entries after the reconcile, want 0", passing.Len())
			}
		})
	}
}

// A failed Connect is followed by no Observe or Disconnect: the Connector forgets what
// resolution noted, so that failing reconciles leave nothing behind.
func TestConnectFailureForgetsTheResolution(t *testing.T) {
	creates := NewCreatesAhead()
	p := &v1alpha1.Project{}
	creates.resolvedAhead(p, []byte(`{"spec":{"forProvider":{"domainId":"dom-id"}}}`))
	c := NewConnector(ConnectorOptions[*v1alpha1.Project, struct{}, struct{}]{Kube: fake.NewClientBuilder().Build()})
	c.Creates = creates
	if _, err := c.Connect(context.Background(), p); err == nil {
		t.Fatal("Connect of a Project without a ProviderConfig: want an error")
	}
	if creates.Len() != 0 {
		t.Errorf("CreatesAhead keeps %d entries after a failed Connect, want 0", creates.Len())
	}
}
