//go:build e2e

package e2e

import (
	"context"
	"os"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
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
	"github.com/crossplane/crossplane-runtime/v2/pkg/ratelimiter"

	"github.com/crossplane-contrib/provider-identity/internal/controller"
	"github.com/crossplane-contrib/provider-identity/internal/managedkind"
)

// fatalOnError returns a function that ends t at the first error it is given.
func fatalOnError(t *testing.T) func(error) {
	return func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
}

// privateTest starts a test that runs a provider of its own, in parallel with the others: it
// returns a context that ends with the test, and fatalOnError(t).
func privateTest(t *testing.T) (context.Context, func(error)) {
	t.Helper()
	t.Parallel()
	return t.Context(), fatalOnError(t)
}

// providerOptions are the options the tests' providers run with, as the provider's command
// line sets them: management policies on, the test poll interval, workers per kind.
func providerOptions(logName string, workers int) managedkind.Options {
	o := managedkind.NewOptions(xpcontroller.Options{
		Logger:                  logging.NewLogrLogger(ctrl.Log.WithName(logName)),
		MaxConcurrentReconciles: workers,
		PollInterval:            pollInterval,
		GlobalRateLimiter:       ratelimiter.NewGlobal(100),
		Features:                &feature.Flags{},
	})
	o.Features.Enable(feature.EnableBetaManagementPolicies)
	return o
}

// privateControlPlane starts a control plane of the test's own with crds (a test that changes
// which CRDs are installed needs one) and returns its config, its scheme and a client of it,
// in which the Keystone admin's Secret and ProviderConfig "keystone" (installation) exist. It
// stops when the test ends.
func privateControlPlane(ctx context.Context, t *testing.T, crds []*apiextensionsv1.CustomResourceDefinition, installation string) (*rest.Config, *runtime.Scheme, client.Client) {
	t.Helper()
	sch := runtime.NewScheme()
	if err := controller.AddToScheme(sch); err != nil {
		t.Fatal(err)
	}
	env := &envtest.Environment{CRDs: crds, Scheme: sch}
	cfg, err := env.Start()
	if err != nil {
		t.Fatalf("cannot start the control plane: %v", err)
	}
	t.Cleanup(func() { _ = env.Stop() })
	k, err := client.New(cfg, client.Options{Scheme: sch})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []client.Object{
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "crossplane-system"}},
		&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "crossplane-system", Name: "keystone-admin"},
			StringData: map[string]string{"password": os.Getenv("KEYSTONE_ADMIN_PASSWORD")}},
		keystoneProviderConfig("keystone", installation, "keystone-admin"),
	} {
		if err := k.Create(ctx, o); err != nil {
			t.Fatal(err)
		}
	}
	return cfg, sch, k
}

// startPrivateProvider runs the provider's controllers against a private control plane, set up
// with safe-start as the provider sets them up, and returns a channel that receives what the
// manager returned and a function that stops it and waits until it has.
func startPrivateProvider(ctx context.Context, t *testing.T, cfg *rest.Config, sch *runtime.Scheme, o managedkind.Options) (<-chan error, func()) {
	t.Helper()
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{Scheme: sch, Metrics: metricsserver.Options{BindAddress: "0"},
		Cache: controller.CacheOptions(nil), NewClient: controller.NewClient,
		// The controllers have the names of those of the shared manager in this process.
		Controller: ctrlconfig.Controller{SkipNameValidation: ptr(true)}})
	if err != nil {
		t.Fatal(err)
	}
	if err := controller.SetupSafeStart(mgr, o); err != nil {
		t.Fatalf("SetupSafeStart: %v", err)
	}
	ctx, cancel := context.WithCancel(ctx)
	stopped := make(chan error, 1)
	done := make(chan error, 1)
	go func() {
		err := mgr.Start(ctx)
		stopped <- err
		done <- err
	}()
	return stopped, func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("the provider stopped with an error: %v", err)
		}
	}
}
