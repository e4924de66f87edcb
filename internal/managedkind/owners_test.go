package managedkind

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	clusterv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	nsv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
)

// A markerless object's resource is found in either scope, whichever scope's kind is asked.
func TestOwnersByExternalName(t *testing.T) {
	const (
		clusterKind = "Protocol.keystone.identity.crossplane.io"
		nsKind      = "Protocol.keystone.identity.m.crossplane.io"
	)
	// Both delete their objects: the state reported is that of a resource still managing it.
	all := xpv2.ManagementPolicies{xpv2.ManagementActionAll}
	clusterP := func(name, ext string) client.Object {
		p := &clusterv1alpha1.Protocol{ObjectMeta: metav1.ObjectMeta{Name: name}}
		p.SetManagementPolicies(all)
		p.SetDeletionPolicy(xpv2.DeletionDelete)
		meta.SetExternalName(p, ext)
		return p
	}
	nsP := func(ns, name, ext string) client.Object {
		p := &nsv1alpha1.Protocol{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
		p.SetManagementPolicies(all)
		meta.SetExternalName(p, ext)
		return p
	}
	errBoom := errors.New("boom")
	type want struct {
		st  adoption.OwnerState
		err error
	}
	cases := map[string]struct {
		kind, name string
		objs       []client.Object
		listErr    error
		// noCRD: the API server does not serve the namespaced kind (safe-start has not
		// activated it), so listing it fails with "no matches for kind".
		noCRD bool
		want  want
	}{
		"ClusterResourceOfTheAskedKind": {
			kind: clusterKind, name: "idp/openid", objs: []client.Object{clusterP("p", "idp/openid"), nsP("team-a", "p", "idp/other")},
			want: want{st: adoption.OwnerState{Resource: clusterKind + "/p"}},
		},
		"NamespacedTwinOfAClusterKind": {
			kind: clusterKind, name: "idp/openid", objs: []client.Object{clusterP("p", "idp/other"), nsP("team-a", "p", "idp/openid")},
			want: want{st: adoption.OwnerState{Resource: nsKind + "/team-a/p"}},
		},
		"ClusterTwinOfANamespacedKind": {
			kind: nsKind, name: "idp/openid", objs: []client.Object{clusterP("p", "idp/openid")},
			want: want{st: adoption.OwnerState{Resource: clusterKind + "/p"}},
		},
		"NoneInEitherScope": {
			kind: clusterKind, name: "idp/openid", objs: []client.Object{clusterP("p", "idp/other"), nsP("team-a", "p", "idp/other")},
		},
		"KindOfNoScope": {
			kind: "Protocol.example.org", name: "idp/openid", objs: []client.Object{clusterP("p", "idp/openid")},
		},
		"TwinWithoutCRD": {
			kind: clusterKind, name: "idp/openid", objs: []client.Object{clusterP("p", "idp/other")}, noCRD: true,
		},
		"ClusterResourceWhileTwinHasNoCRD": {
			kind: nsKind, name: "idp/openid", objs: []client.Object{clusterP("p", "idp/openid")}, noCRD: true,
			want: want{st: adoption.OwnerState{Resource: clusterKind + "/p"}},
		},
		"ListFails": {
			kind: clusterKind, name: "idp/openid", listErr: errBoom,
			want: want{err: errBoom},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s := bothScopesScheme(t)
			b := fake.NewClientBuilder().WithScheme(s).WithObjects(tc.objs...).
				WithIndex(&clusterv1alpha1.Protocol{}, IndexExternalName, externalNameIndex).
				WithIndex(&nsv1alpha1.Protocol{}, IndexExternalName, externalNameIndex)
			if tc.noCRD {
				b = b.WithInterceptorFuncs(interceptor.Funcs{List: func(ctx context.Context, c client.WithWatch, l client.ObjectList, o ...client.ListOption) error {
					if _, ok := l.(*nsv1alpha1.ProtocolList); ok {
						return &apimeta.NoKindMatchError{GroupKind: nsv1alpha1.ProtocolGroupKind, SearchedVersions: []string{"v1alpha1"}}
					}
					return c.List(ctx, l, o...)
				}})
			}
			if tc.listErr != nil {
				b = b.WithInterceptorFuncs(interceptor.Funcs{List: func(context.Context, client.WithWatch, client.ObjectList, ...client.ListOption) error {
					return tc.listErr
				}})
			}
			st, err := Owners{Kube: b.Build(), Scheme: s}.ByExternalName(context.Background(), tc.kind, tc.name)
			if diff := cmp.Diff(tc.want, want{st: st, err: err}, cmp.AllowUnexported(want{}), cmpopts.EquateErrors()); diff != "" {
				t.Errorf("ByExternalName(%s, %s): -want +got:\n%s", tc.kind, tc.name, diff)
			}
		})
	}
}

// Only external names that are paths of two "<word>/<ID>" pairs or more are indexed by their
// pairs; an inherited assignment's trailing word is not a pair.
func TestExternalNamePartsIndex(t *testing.T) {
	cases := map[string][]string{
		"":                                    nil,
		"5d1c0a":                              nil,
		"idp/saml2":                           nil,
		"project/p1/group/g1/role/r1":         {"project/p1", "group/g1", "role/r1"},
		"domain/d1/user/u1/role/r1/inherited": {"domain/d1", "user/u1", "role/r1"},
	}
	for name, want := range cases {
		mg := &nsv1alpha1.Protocol{}
		meta.SetExternalName(mg, name)
		if diff := cmp.Diff(want, externalNamePartsIndex(mg)); diff != "" {
			t.Errorf("externalNamePartsIndex(%q): -want +got:\n%s", name, diff)
		}
	}
}

// A Homed resource is indexed under its HomeParts too, in either scope, once it has made or
// adopted its object: a project under its domain. Before, it has no object to hold anything.
func TestExternalNamePartsIndexHomes(t *testing.T) {
	domain := "d1"
	cases := map[string]struct {
		mg   client.Object
		want []string
	}{
		"namespaced project": {mg: &nsv1alpha1.Project{Spec: nsv1alpha1.ProjectSpec{ForProvider: nsv1alpha1.ProjectParameters{DomainID: &domain}}},
			want: []string{"domain/d1"}},
		"cluster project": {mg: &clusterv1alpha1.Project{Spec: clusterv1alpha1.ProjectSpec{ForProvider: nsv1alpha1.ProjectParameters{DomainID: &domain}}},
			want: []string{"domain/d1"}},
		"no domain yet": {mg: &nsv1alpha1.Project{}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := externalNamePartsIndex(tc.mg); got != nil {
				t.Errorf("without an external name: externalNamePartsIndex = %v, want nil", got)
			}
			meta.SetExternalName(tc.mg, "p1")
			if diff := cmp.Diff(tc.want, externalNamePartsIndex(tc.mg)); diff != "" {
				t.Errorf("externalNamePartsIndex: -want +got:\n%s", diff)
			}
		})
	}
}

// ByExternalNamePart finds the resources of both scopes whose external names hold the pair,
// with their external names and state, and the Project resources of a domain's projects under
// domain/<ID> (Homed): none of another domain, nor one without a project yet.
func TestOwnersByExternalNamePart(t *testing.T) {
	all := xpv2.ManagementPolicies{xpv2.ManagementActionAll}
	ra := func(ns, name, ext string, deleting bool) client.Object {
		r := &nsv1alpha1.RoleAssignment{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
		r.SetManagementPolicies(all)
		meta.SetExternalName(r, ext)
		if deleting {
			now := metav1.Now()
			r.SetDeletionTimestamp(&now)
			r.SetFinalizers([]string{"finalizer.managedresource.crossplane.io"})
		}
		return r
	}
	clusterRA := func() client.Object {
		r := &clusterv1alpha1.RoleAssignment{ObjectMeta: metav1.ObjectMeta{Name: "c"}}
		r.SetManagementPolicies(all)
		r.SetDeletionPolicy(xpv2.DeletionDelete)
		meta.SetExternalName(r, "project/p1/user/u1/role/r1")
		return r
	}
	project := func(ns, name, ext, domain string) client.Object {
		p := &nsv1alpha1.Project{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
		p.Spec.ForProvider.DomainID = &domain
		p.SetManagementPolicies(all)
		meta.SetExternalName(p, ext)
		return p
	}
	keptProject := func() client.Object {
		p := &clusterv1alpha1.Project{ObjectMeta: metav1.ObjectMeta{Name: "kept"}}
		d1 := "d1"
		p.Spec.ForProvider.DomainID = &d1
		p.SetManagementPolicies(all)
		p.SetDeletionPolicy(xpv2.DeletionOrphan)
		meta.SetExternalName(p, "p3")
		return p
	}
	clusterRAKind, nsRAKind := clusterv1alpha1.RoleAssignmentGroupKind.String(), nsv1alpha1.RoleAssignmentGroupKind.String()
	clusterProjectKind, nsProjectKind := clusterv1alpha1.ProjectGroupKind.String(), nsv1alpha1.ProjectGroupKind.String()

	cases := map[string]struct {
		objs       []client.Object
		kind, part string
		want       []adoption.PartOwner
	}{
		"AssignmentsOfAProject": {
			objs: []client.Object{ra("team-a", "a", "project/p1/group/g1/role/r1", true), ra("team-a", "b", "project/p2/group/g1/role/r1", false), clusterRA()},
			kind: clusterRAKind, part: "project/p1",
			want: []adoption.PartOwner{
				{OwnerState: adoption.OwnerState{Resource: clusterRAKind + "/c"}, ExternalName: "project/p1/user/u1/role/r1"},
				{OwnerState: adoption.OwnerState{Resource: nsRAKind + "/team-a/a", Deleting: true}, ExternalName: "project/p1/group/g1/role/r1"},
			},
		},
		"ProjectsOfADomain": {
			objs: []client.Object{project("team-a", "a", "p1", "d1"), project("team-a", "b", "p2", "d2"), project("team-a", "new", "", "d1"), keptProject()},
			kind: nsProjectKind, part: "domain/d1",
			want: []adoption.PartOwner{
				{OwnerState: adoption.OwnerState{Resource: nsProjectKind + "/team-a/a"}, ExternalName: "p1"},
				{OwnerState: adoption.OwnerState{Resource: clusterProjectKind + "/kept", Keeps: true}, ExternalName: "p3"},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s := bothScopesScheme(t)
			b := fake.NewClientBuilder().WithScheme(s).WithObjects(tc.objs...)
			for _, o := range []client.Object{&clusterv1alpha1.RoleAssignment{}, &nsv1alpha1.RoleAssignment{}, &clusterv1alpha1.Project{}, &nsv1alpha1.Project{}} {
				b = b.WithIndex(o, IndexExternalNameParts, externalNamePartsIndex)
			}
			got, err := Owners{Kube: b.Build(), Scheme: s}.ByExternalNamePart(context.Background(), tc.kind, tc.part)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ByExternalNamePart(%s): -want +got:\n%s", tc.part, diff)
			}
		})
	}
}

// A kind still waiting for its first resource is not set up (no informer, no index) and is not
// asked: it has no resource to own anything. Asked, its list would fail for want of the index.
func TestOwnersSkipKindsWaitingForTheirFirstResource(t *testing.T) {
	s := bothScopesScheme(t)
	cra := &clusterv1alpha1.RoleAssignment{ObjectMeta: metav1.ObjectMeta{Name: "c"}}
	cra.SetManagementPolicies(xpv2.ManagementPolicies{xpv2.ManagementActionAll})
	cra.SetDeletionPolicy(xpv2.DeletionDelete)
	meta.SetExternalName(cra, "project/p1/user/u1/role/r1")
	// Only the cluster-scoped kind is indexed, as only it is set up.
	kube := fake.NewClientBuilder().WithScheme(s).WithObjects(cra).
		WithIndex(&clusterv1alpha1.RoleAssignment{}, IndexExternalNameParts, externalNamePartsIndex).Build()
	clusterKind, nsKind := clusterv1alpha1.RoleAssignmentGroupKind.String(), nsv1alpha1.RoleAssignmentGroupKind.String()

	if _, err := (Owners{Kube: kube, Scheme: s}).ByExternalNamePart(context.Background(), clusterKind, "project/p1"); err == nil {
		t.Fatal("asking the kind that is not set up did not fail: this test no longer shows that it is skipped")
	}

	f := NewFirstResources()
	f.waiting[nsKind] = true
	got, err := Owners{Kube: kube, Scheme: s, FirstResources: f}.ByExternalNamePart(context.Background(), clusterKind, "project/p1")
	if err != nil {
		t.Fatal(err)
	}
	want := []adoption.PartOwner{{OwnerState: adoption.OwnerState{Resource: clusterKind + "/c"}, ExternalName: "project/p1/user/u1/role/r1"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ByExternalNamePart(project/p1) with the namespaced kind waiting: -want +got:\n%s", diff)
	}
}

// bothScopesScheme knows the Keystone kinds of both scopes, cluster and namespaced.
func bothScopesScheme(t *testing.T) *runtime.Scheme {
	t.Helper()
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{clusterv1alpha1.SchemeBuilder.AddToScheme, nsv1alpha1.SchemeBuilder.AddToScheme} {
		if err := add(s); err != nil {
			t.Fatal(err)
		}
	}
	return s
}
