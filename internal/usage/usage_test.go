package usage

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	nsv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
)

func TestFinalizerName(t *testing.T) {
	cases := map[string]struct {
		kind, name string
		want       string
	}{
		"Short": {kind: "Protocol", name: "openid", want: "in-use.identity.crossplane.io/protocol.openid"},
		"Long":  {kind: "DomainConfig", name: strings.Repeat("a", 80)},
	}
	for n, tc := range cases {
		t.Run(n, func(t *testing.T) {
			got := FinalizerName(tc.kind, tc.name)
			if tc.want != "" && got != tc.want {
				t.Errorf("FinalizerName: got %q, want %q", got, tc.want)
			}
			if errs := validation.IsQualifiedName(got); len(errs) > 0 {
				t.Errorf("%q is not a valid finalizer: %v", got, errs)
			}
		})
	}
	if FinalizerName("DomainConfig", strings.Repeat("a", 80)) == FinalizerName("DomainConfig", strings.Repeat("a", 81)) {
		t.Error("two long names share a finalizer")
	}
}

func domain(name, externalName string, finalizers ...string) *v1alpha1.Domain {
	d := &v1alpha1.Domain{ObjectMeta: metav1.ObjectMeta{Name: name, Finalizers: finalizers}}
	if externalName != "" {
		meta.SetExternalName(d, externalName)
	}
	return d
}

// config is the DomainConfig "cfg", referencing its Domain by ref or by id.
func config(ref, id string) *v1alpha1.DomainConfig {
	c := &v1alpha1.DomainConfig{ObjectMeta: metav1.ObjectMeta{Name: "cfg"}}
	if ref != "" {
		c.Spec.ForProvider.DomainRef = &xpv2.Reference{Name: ref}
	}
	if id != "" {
		c.Spec.ForProvider.DomainID = &id
	}
	return c
}

func setup(t *testing.T, objs ...client.Object) (client.Client, *Finalizer[*v1alpha1.DomainConfig]) {
	t.Helper()
	s := runtime.NewScheme()
	if err := v1alpha1.SchemeBuilder.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	c := fake.NewClientBuilder().WithScheme(s).WithObjects(objs...).Build()
	return c, &Finalizer[*v1alpha1.DomainConfig]{
		Kube: c, Reader: c, Own: resource.NewAPIFinalizer(c, managed.FinalizerName), Kind: "DomainConfig",
		Targets: []Target[*v1alpha1.DomainConfig]{{
			NewList: func() client.ObjectList { return &v1alpha1.DomainList{} },
			Used: func(mg *v1alpha1.DomainConfig) (string, string) {
				id := ""
				if mg.Spec.ForProvider.DomainID != nil {
					id = *mg.Spec.ForProvider.DomainID
				}
				return RefName(mg.Spec.ForProvider.DomainRef), id
			},
		}},
	}
}

func finalizersOf(ctx context.Context, t *testing.T, c client.Client, name string) []string {
	t.Helper()
	d := &v1alpha1.Domain{}
	if err := c.Get(ctx, client.ObjectKey{Name: name}, d); err != nil {
		t.Fatal(err)
	}
	return d.GetFinalizers()
}

func TestFinalizer(t *testing.T) {
	fin := FinalizerName("DomainConfig", "cfg")
	ctx := context.Background()

	t.Run("MarksTheReferencedResource", func(t *testing.T) {
		cfg := config("a", "id-b") // the reference wins over the ID
		c, f := setup(t, domain("a", "id-a"), domain("b", "id-b"), cfg)
		if err := f.AddFinalizer(ctx, cfg); err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff([]string{fin}, finalizersOf(ctx, t, c, "a")); d != "" {
			t.Errorf("a (-want +got):\n%s", d)
		}
		if got := finalizersOf(ctx, t, c, "b"); len(got) != 0 {
			t.Errorf("b got %v, want none", got)
		}
		if !meta.FinalizerExists(cfg, managed.FinalizerName) {
			t.Error("the resource's own finalizer was not added")
		}
	})

	t.Run("MarksByExternalNameWithoutReference", func(t *testing.T) {
		cfg := config("", "id-b")
		c, f := setup(t, domain("a", "id-a"), domain("b", "id-b"), cfg)
		if err := f.AddFinalizer(ctx, cfg); err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff([]string{fin}, finalizersOf(ctx, t, c, "b")); d != "" {
			t.Errorf("b (-want +got):\n%s", d)
		}
	})

	t.Run("ReleasesWhatItNoLongerUses", func(t *testing.T) {
		cfg := config("b", "")
		c, f := setup(t, domain("a", "id-a", fin, "keep.example.com/x"), domain("b", "id-b"), cfg)
		if err := f.AddFinalizer(ctx, cfg); err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff([]string{"keep.example.com/x"}, finalizersOf(ctx, t, c, "a")); d != "" {
			t.Errorf("a (-want +got):\n%s", d)
		}
		if d := cmp.Diff([]string{fin}, finalizersOf(ctx, t, c, "b")); d != "" {
			t.Errorf("b (-want +got):\n%s", d)
		}
	})

	t.Run("DoesNotMarkAResourceBeingDeleted", func(t *testing.T) {
		cfg := config("a", "")
		d := domain("a", "id-a", managed.FinalizerName)
		now := metav1.Now()
		d.DeletionTimestamp = &now
		c, f := setup(t, d, cfg)
		if err := f.AddFinalizer(ctx, cfg); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{managed.FinalizerName}, finalizersOf(ctx, t, c, "a")); diff != "" {
			t.Errorf("a (-want +got):\n%s", diff)
		}
	})

	t.Run("RemoveReleasesAndWakesADeletedResource", func(t *testing.T) {
		cfg := config("a", "")
		cfg.SetFinalizers([]string{managed.FinalizerName})
		d := domain("a", "id-a", managed.FinalizerName, fin)
		now := metav1.Now()
		d.DeletionTimestamp = &now
		c, f := setup(t, d, domain("b", "id-b", fin), cfg)
		if err := f.RemoveFinalizer(ctx, cfg); err != nil {
			t.Fatal(err)
		}
		got := &v1alpha1.Domain{}
		if err := c.Get(ctx, client.ObjectKey{Name: "a"}, got); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{managed.FinalizerName}, got.GetFinalizers()); diff != "" {
			t.Errorf("a (-want +got):\n%s", diff)
		}
		if got.GetAnnotations()[AnnotationReleased] != fin {
			t.Errorf("a being deleted was not annotated: %v", got.GetAnnotations())
		}
		if got := finalizersOf(ctx, t, c, "b"); len(got) != 0 {
			t.Errorf("b (stale mark) got %v, want none", got)
		}
		if meta.FinalizerExists(cfg, managed.FinalizerName) {
			t.Error("the resource's own finalizer was not removed")
		}
	})
}

// A namespaced resource marks resources of its own namespace only: a Domain of another
// namespace with the same external name is left alone, and messages name the using resource
// with its namespace.
func TestFinalizerNamespaced(t *testing.T) {
	ctx := context.Background()
	fin := FinalizerName("DomainConfig", "cfg")
	nsDomain := func(ns string) *nsv1alpha1.Domain {
		d := &nsv1alpha1.Domain{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "d"}}
		meta.SetExternalName(d, "id-shared")
		return d
	}
	id := "id-shared"
	cfg := &nsv1alpha1.DomainConfig{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "cfg"}}
	cfg.Spec.ForProvider.DomainID = &id
	build := func(funcs interceptor.Funcs) (client.Client, *Finalizer[*nsv1alpha1.DomainConfig]) {
		s := runtime.NewScheme()
		if err := nsv1alpha1.SchemeBuilder.AddToScheme(s); err != nil {
			t.Fatal(err)
		}
		c := fake.NewClientBuilder().WithScheme(s).WithObjects(nsDomain("team-a"), nsDomain("team-b"), cfg.DeepCopy()).WithInterceptorFuncs(funcs).Build()
		return c, &Finalizer[*nsv1alpha1.DomainConfig]{
			Kube: c, Reader: c, Own: resource.NewAPIFinalizer(c, managed.FinalizerName), Kind: "DomainConfig",
			Targets: []Target[*nsv1alpha1.DomainConfig]{{
				NewList: func() client.ObjectList { return &nsv1alpha1.DomainList{} },
				Used:    func(mg *nsv1alpha1.DomainConfig) (string, string) { return "", *mg.Spec.ForProvider.DomainID },
			}},
		}
	}

	c, f := build(interceptor.Funcs{})
	stored := &nsv1alpha1.DomainConfig{}
	if err := c.Get(ctx, client.ObjectKeyFromObject(cfg), stored); err != nil {
		t.Fatal(err)
	}
	if err := f.AddFinalizer(ctx, stored); err != nil {
		t.Fatal(err)
	}
	for ns, want := range map[string][]string{"team-a": {fin}, "team-b": nil} {
		d := &nsv1alpha1.Domain{}
		if err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: "d"}, d); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, d.GetFinalizers()); diff != "" {
			t.Errorf("Domain %s/d finalizers (-want +got):\n%s", ns, diff)
		}
	}

	_, f = build(interceptor.Funcs{List: func(context.Context, client.WithWatch, client.ObjectList, ...client.ListOption) error {
		return errors.New("boom")
	}})
	// Its own finalizer is in place already, so the list is the first call made.
	withOwn := cfg.DeepCopy()
	withOwn.SetFinalizers([]string{managed.FinalizerName})
	err := f.AddFinalizer(ctx, withOwn)
	want := "cannot mark Domains as used by team-a/cfg: cannot list Domains to record which of them DomainConfig uses: boom"
	if err == nil || err.Error() != want {
		t.Errorf("AddFinalizer error: got %v, want %q", err, want)
	}
	err = f.RemoveFinalizer(ctx, withOwn)
	want = "cannot release Domains from team-a/cfg: cannot list Domains to record which of them DomainConfig uses: boom"
	if err == nil || err.Error() != want {
		t.Errorf("RemoveFinalizer error: got %v, want %q", err, want)
	}
}
