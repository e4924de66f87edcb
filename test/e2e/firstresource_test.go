//go:build e2e

package e2e

import (
	"context"
	"os"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	ctrlconfig "sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	xpcontroller "github.com/crossplane/crossplane-runtime/v2/pkg/controller"
	"github.com/crossplane/crossplane-runtime/v2/pkg/feature"
	"github.com/crossplane/crossplane-runtime/v2/pkg/logging"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/ratelimiter"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	ksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/controller"
	"github.com/crossplane-contrib/provider-identity/internal/managedkind"
)

// A kind is set up with its first resource (managedkind.FirstResources), through a list and a
// watch of the real API server: a kind without a resource waits; the first resource created
// while the provider runs is reconciled, and so is one created while no provider ran, found by
// the list of the next provider's start. The provider runs on a control plane of its own, with
// the ProviderConfig CRDs and the Domain CRD only.
func TestKindSetUpWithItsFirstResource(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	check := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	configCRDs, domainCRD := packageCRDs(t)
	sch := runtime.NewScheme()
	check(controller.AddToScheme(sch))
	env := &envtest.Environment{CRDs: append(configCRDs, []*apiextensionsv1.CustomResourceDefinition{domainCRD}...), Scheme: sch}
	cfg, err := env.Start()
	if err != nil {
		t.Fatalf("cannot start the control plane: %v", err)
	}
	defer func() { _ = env.Stop() }()
	k, err := client.New(cfg, client.Options{Scheme: sch})
	check(err)
	check(k.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "crossplane-system"}}))
	check(k.Create(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "crossplane-system", Name: "keystone-admin"},
		StringData: map[string]string{"password": os.Getenv("KEYSTONE_ADMIN_PASSWORD")}}))
	check(k.Create(ctx, keystoneProviderConfig("keystone", "e2e-firstresource", "keystone-admin")))

	domainKind := ksv1alpha1.DomainGroupVersionKind.GroupKind().String()
	ready := func(d *ksv1alpha1.Domain) func() bool {
		return func() bool {
			check(k.Get(ctx, keyOf(d), d))
			return d.GetCondition(xpv2.TypeReady).Status == corev1.ConditionTrue
		}
	}

	// The first provider: Domain has no resource, so it waits; its first one is reconciled.
	first, stopFirst := startFirstResourceProvider(ctx, t, cfg, sch)
	// Waiting is set when the CRD gate sets the kind up and cleared only by a resource.
	eventually(t, 30*time.Second, "Domain to wait for its first resource, with none created", func() bool {
		return first.Waiting(domainKind)
	})
	d1 := newDomain("firstres-running", "e2e-firstres-running")
	check(k.Create(ctx, d1))
	eventually(t, 60*time.Second, "the first Domain, created while the provider runs, to be Ready", ready(d1))
	if first.Waiting(domainKind) {
		t.Errorf("Domain still waits for its first resource with one Ready")
	}
	stopFirst()

	// While no provider runs, a second Domain is made; the next provider's list finds it.
	d2 := newDomain("firstres-stopped", "e2e-firstres-stopped")
	check(k.Create(ctx, d2))
	second, stopSecond := startFirstResourceProvider(ctx, t, cfg, sch)
	defer stopSecond()
	eventually(t, 60*time.Second, "the Domain created while no provider ran to be Ready under the next one", ready(d2))
	if second.Waiting(domainKind) {
		t.Errorf("Domain still waits for its first resource under the second provider, with two")
	}

	for _, d := range []*ksv1alpha1.Domain{d1, d2} {
		id := meta.GetExternalName(d)
		check(k.Delete(ctx, d))
		eventually(t, 60*time.Second, "Domain "+d.GetName()+" to be deleted", func() bool {
			return kerrors.IsNotFound(k.Get(ctx, keyOf(d), d))
		})
		if keystone.exists(t, "domains", id) {
			t.Errorf("Keystone domain %s still exists after its resource %s was deleted", id, d.GetName())
		}
	}
}

// startFirstResourceProvider runs the provider's controllers against cfg, as the provider sets
// them up, and returns its FirstResources and a function that stops it and waits until it has.
func startFirstResourceProvider(ctx context.Context, t *testing.T, cfg *rest.Config, sch *runtime.Scheme) (*managedkind.FirstResources, func()) {
	t.Helper()
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{Scheme: sch, Metrics: metricsserver.Options{BindAddress: "0"},
		Cache: controller.CacheOptions(nil), NewClient: controller.NewClient,
		// The controllers have the names of those of the shared manager in this process.
		Controller: ctrlconfig.Controller{SkipNameValidation: ptr(true)}})
	if err != nil {
		t.Fatal(err)
	}
	o := managedkind.NewOptions(xpcontroller.Options{
		Logger:                  logging.NewLogrLogger(ctrl.Log.WithName("provider-firstresource")),
		MaxConcurrentReconciles: 2,
		PollInterval:            pollInterval,
		GlobalRateLimiter:       ratelimiter.NewGlobal(100),
		Features:                &feature.Flags{},
	})
	o.Features.Enable(feature.EnableBetaManagementPolicies)
	if err := controller.SetupSafeStart(mgr, o); err != nil {
		t.Fatalf("SetupSafeStart: %v", err)
	}
	ctx, cancel := context.WithCancel(ctx)
	stopped := make(chan error, 1)
	go func() { stopped <- mgr.Start(ctx) }()
	return o.FirstResources, func() {
		cancel()
		if err := <-stopped; err != nil {
			t.Errorf("the provider stopped with an error: %v", err)
		}
	}
}
