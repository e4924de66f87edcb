package usage

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	ns "github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
)

// A namespaced resource marks and releases only the resources of its own namespace, where its
// references resolve; it releases only what it holds there; its errors name it with its namespace.
func TestFinalizerNamespacedReleases(t *testing.T) {
	fin := FinalizerName("IdentityProvider", "idp")
	nsDomain := func(namespace, name string, finalizers ...string) *ns.Domain {
		return &ns.Domain{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name, Finalizers: finalizers}}
	}
	idp := func() *ns.IdentityProvider {
		p := &ns.IdentityProvider{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "idp"}}
		p.Spec.ForProvider.DomainRef = &xpv2.Reference{Name: "d"}
		return p
	}
	type want struct {
		teamA, teamB []string
		err          string
	}
	cases := map[string]struct {
		remove bool
		objs   []client.Object
		list   error
		want   want
	}{
		"AddMarksOnlyItsNamespace": {
			objs: []client.Object{nsDomain("team-a", "d"), nsDomain("team-b", "d")},
			want: want{teamA: []string{fin}},
		},
		"RemoveReleasesOnlyItsNamespace": {
			// team-b's Domain d is held by team-b's IdentityProvider idp, under the same
			// finalizer name: team-a's idp must leave it alone.
			remove: true,
			objs:   []client.Object{nsDomain("team-a", "d", fin), nsDomain("team-b", "d", fin)},
			want:   want{teamB: []string{fin}},
		},
		"AddErrorNamesTheNamespace": {
			objs: []client.Object{nsDomain("team-a", "d")},
			list: errors.New("boom"),
			want: want{err: `cannot mark Domains as used by team-a/idp: cannot list Domains to record which of them IdentityProvider uses: boom`},
		},
		"RemoveErrorNamesTheNamespace": {
			remove: true,
			objs:   []client.Object{nsDomain("team-a", "d", fin)},
			list:   errors.New("boom"),
			want:   want{teamA: []string{fin}, err: `cannot release Domains from team-a/idp: cannot list Domains to record which of them IdentityProvider uses: boom`},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s := runtime.NewScheme()
			if err := ns.SchemeBuilder.AddToScheme(s); err != nil {
				t.Fatal(err)
			}
			mg := idp()
			b := fake.NewClientBuilder().WithScheme(s).WithObjects(append(tc.objs, mg)...)
			if tc.list != nil {
				b = b.WithInterceptorFuncs(interceptor.Funcs{List: func(context.Context, client.WithWatch, client.ObjectList, ...client.ListOption) error {
					return tc.list
				}})
			}
			c := b.Build()
			f := &Finalizer[*ns.IdentityProvider]{
				Kube: c, Reader: c, Own: resource.NewAPIFinalizer(c, managed.FinalizerName), Kind: "IdentityProvider",
				Targets: []Target[*ns.IdentityProvider]{{
					NewList: func() client.ObjectList { return &ns.DomainList{} },
					Used:    func(mg *ns.IdentityProvider) (string, string) { return RefName(mg.Spec.ForProvider.DomainRef), "" },
				}},
			}
			var err error
			if tc.remove {
				err = f.RemoveFinalizer(context.Background(), mg)
			} else {
				err = f.AddFinalizer(context.Background(), mg)
			}
			got := want{}
			if err != nil {
				got.err = err.Error()
			}
			for _, n := range []struct {
				ns  string
				out *[]string
			}{{"team-a", &got.teamA}, {"team-b", &got.teamB}} {
				d := &ns.Domain{}
				if err := c.Get(context.Background(), client.ObjectKey{Namespace: n.ns, Name: "d"}, d); err == nil {
					*n.out = d.GetFinalizers()
				}
			}
			if d := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}
