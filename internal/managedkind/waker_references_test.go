package managedkind

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-identity/apis"
	nsksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
)

func TestWakerReferences(t *testing.T) {
	const kind, domains = "Project.x", "Domain.x"
	type wait struct {
		name    string
		targets []string
	}
	type change struct{ namespace, name string }
	cases := map[string]struct {
		waits    []wait
		resolved []string // ReferencesResolved of these projects, after the waits
		changes  []change // Changed of these Domains
		want     []string // projects woken, in any order
	}{
		"WokenWhenWhatItReadChanges": {
			waits:   []wait{{"p", []string{"Domain.x/ns/d"}}},
			changes: []change{{"ns", "d"}},
			want:    []string{"p"},
		},
		"EveryReferrerWoken": {
			waits:   []wait{{"p1", []string{"Domain.x/ns/d"}}, {"p2", []string{"Domain.x/ns/d"}}},
			changes: []change{{"ns", "d"}},
			want:    []string{"p1", "p2"},
		},
		"NotWokenByAnotherNamespacesNamesake": {
			waits:   []wait{{"p", []string{"Domain.x/ns/d"}}},
			changes: []change{{"other", "d"}},
		},
		"ASelectorWokenByAnyOfItsKindInItsNamespace": {
			waits:   []wait{{"p", []string{"Domain.x/ns/*"}}},
			changes: []change{{"ns", "e"}},
			want:    []string{"p"},
		},
		"WokenOnce": {
			waits:   []wait{{"p", []string{"Domain.x/ns/d", "Domain.x/ns/e"}}},
			changes: []change{{"ns", "d"}, {"ns", "e"}, {"ns", "d"}},
			want:    []string{"p"},
		},
		"ALaterWaitReplacesWhatItWaitedFor": {
			waits:   []wait{{"p", []string{"Domain.x/ns/d"}}, {"p", []string{"Domain.x/ns/e"}}},
			changes: []change{{"ns", "d"}},
		},
		"NotWokenOnceResolved": {
			waits:    []wait{{"p", []string{"Domain.x/ns/d"}}},
			resolved: []string{"p"},
			changes:  []change{{"ns", "d"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			w := NewWaker()
			q := startedQueue(t, w, kind)
			for _, wt := range tc.waits {
				w.WaitForReferences(kind, "ns", wt.name, wt.targets, w.Changes())
			}
			for _, p := range tc.resolved {
				w.ReferencesResolved(kind, "ns", p)
			}
			for _, c := range tc.changes {
				w.Changed(domains, c.namespace, c.name)
			}
			got := woken(q)
			if diff := cmp.Diff(tc.want, got, cmpopts.EquateEmpty(), cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
				t.Errorf("woken: -want +got:\n%s", diff)
			}
			for _, p := range append(got, tc.resolved...) {
				if targets, ok := w.referenced[waiter{kind, "ns", p}]; ok {
					t.Errorf("%s still waits for %v after it was woken or resolved", p, targets)
				}
			}
		})
	}
}

// A Project whose Domain has no ID yet fails to resolve and waits for that Domain; once the
// Domain has its ID the Project resolves and waits for nothing. (Without LateInitialize, so
// that the resolved ID is not patched into the fake API server, which cannot apply.)
func TestPolicyAwareResolverWaitsForWhatItRead(t *testing.T) {
	const projects, domains = "Project.keystone.identity.m.crossplane.io", "Domain.keystone.identity.m.crossplane.io"
	s := runtime.NewScheme()
	if err := apis.AddToSchemes.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	dom := &nsksv1alpha1.Domain{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "d"}}
	prj := &nsksv1alpha1.Project{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p"},
		Spec: nsksv1alpha1.ProjectSpec{
			ManagedResourceSpec: xpv2.ManagedResourceSpec{ManagementPolicies: xpv2.ManagementPolicies{xpv2.ManagementActionObserve, xpv2.ManagementActionCreate}},
			ForProvider:         nsksv1alpha1.ProjectParameters{DomainRef: &xpv2.Reference{Name: "d"}},
		},
	}
	kube := fake.NewClientBuilder().WithScheme(s).WithObjects(dom, prj).Build()
	w := NewWaker()
	r := NewPolicyAwareResolver(kube, projects, w)

	if err := r.ResolveReferences(context.Background(), prj.DeepCopy()); err == nil {
		t.Fatal("ResolveReferences of a Project whose Domain has no ID: want an error, got none")
	}
	if diff := cmp.Diff([]string{domains + "/ns/d"}, w.referenced[waiter{projects, "ns", "p"}]); diff != "" {
		t.Errorf("what the Project waits for: -want +got:\n%s", diff)
	}

	meta.SetExternalName(dom, "0123abcd")
	if err := kube.Update(context.Background(), dom); err != nil {
		t.Fatal(err)
	}
	got := prj.DeepCopy()
	if err := r.ResolveReferences(context.Background(), got); err != nil {
		t.Fatalf("ResolveReferences once the Domain has an ID: %v", err)
	}
	if diff := cmp.Diff("0123abcd", *got.Spec.ForProvider.DomainID); diff != "" {
		t.Errorf("resolved domainId: -want +got:\n%s", diff)
	}
	if len(w.referenced) != 0 || len(w.referrers) != 0 {
		t.Errorf("a resolved Project still waits: %v", w.referenced)
	}
}

// A change that comes between reading a reference and waiting for it (the Domain got its ID
// while the Project was resolving) wakes the waiting resource at once: no later change of the
// Domain may come to wake it. A change of anything else does not.
func TestWakerReferencesChangedWhileResolving(t *testing.T) {
	const kind, domains = "Project.x", "Domain.x"
	cases := map[string]struct {
		changed  string // the Domain that changed after the mark
		wantWoke bool
	}{
		"WhatItReadChanged":    {changed: "d", wantWoke: true},
		"SomethingElseChanged": {changed: "e"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			w := NewWaker()
			q := startedQueue(t, w, kind)
			mark := w.Changes()
			w.Changed(domains, "ns", tc.changed)
			w.WaitForReferences(kind, "ns", "p", []string{"Domain.x/ns/d"}, mark)
			if got := len(woken(q)) == 1; got != tc.wantWoke {
				t.Errorf("woken at once: got %t, want %t", got, tc.wantWoke)
			}
			if _, waits := w.referenced[waiter{kind, "ns", "p"}]; waits == tc.wantWoke {
				t.Errorf("still waiting: %t, want %t", waits, !tc.wantWoke)
			}
		})
	}
}

// A woken resource's backoff starts afresh: the retry its wake-up may need comes in a second.
func TestWakerForgetsTheWokenBackoff(t *testing.T) {
	const kind = "Project.x"
	w := NewWaker()
	l := w.RateLimiter(kind, workqueue.NewTypedItemExponentialFailureRateLimiter[reconcile.Request](time.Second, time.Minute))
	p := reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "ns", Name: "p"}}
	for range 8 {
		l.When(p)
	}
	w.WaitForReferences(kind, "ns", "p", []string{"Domain.x/ns/d"}, w.Changes())
	w.Changed("Domain.x", "ns", "d")
	if got := l.When(p); got != time.Second {
		t.Errorf("backoff after the wake-up: got %s, want it started afresh at 1s", got)
	}
}

// With LateInitialize, what resolution changed is patched into spec, and a resource whose
// references resolve to what its spec already holds is not written at all.
func TestPolicyAwareResolverPatchesOnlyAChange(t *testing.T) {
	s := runtime.NewScheme()
	if err := apis.AddToSchemes.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	dom := &nsksv1alpha1.Domain{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "d",
		Annotations: map[string]string{meta.AnnotationKeyExternalName: "0123abcd"}}}
	project := func(domainID *string) *nsksv1alpha1.Project {
		return &nsksv1alpha1.Project{
			ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p"},
			Spec: nsksv1alpha1.ProjectSpec{ForProvider: nsksv1alpha1.ProjectParameters{
				DomainRef: &xpv2.Reference{Name: "d"}, DomainID: domainID}},
		}
	}
	resolved := "0123abcd"
	cases := map[string]struct {
		project     *nsksv1alpha1.Project
		wantPatches int
	}{
		"Unresolved":      {project: project(nil), wantPatches: 1},
		"AlreadyResolved": {project: project(&resolved), wantPatches: 0},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			patches := 0
			kube := fake.NewClientBuilder().WithScheme(s).WithObjects(dom, tc.project).WithInterceptorFuncs(interceptor.Funcs{
				Patch: func(ctx context.Context, c client.WithWatch, obj client.Object, p client.Patch, opts ...client.PatchOption) error {
					patches++
					return c.Patch(ctx, obj, p, opts...)
				}}).Build()
			got := tc.project.DeepCopy()
			if err := NewPolicyAwareResolver(kube, "Project.keystone.identity.m.crossplane.io", nil).ResolveReferences(context.Background(), got); err != nil {
				t.Fatalf("ResolveReferences: %v", err)
			}
			if got.Spec.ForProvider.DomainID == nil || *got.Spec.ForProvider.DomainID != resolved {
				t.Errorf("domainId: got %v, want %s", got.Spec.ForProvider.DomainID, resolved)
			}
			if patches != tc.wantPatches {
				t.Errorf("patches: got %d, want %d", patches, tc.wantPatches)
			}
		})
	}
}
