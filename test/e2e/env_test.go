//go:build e2e

// Package e2e runs the provider's controllers in-process against a real kube-apiserver and
// etcd (envtest, KUBEBUILDER_ASSETS), a real Keystone (KEYSTONE_URL) and the other services
// hack/with-services.sh starts. `make test` provides all of them; a missing one fails the run.
package e2e

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/controller"
)

// pollInterval is short so that drift and conflict resolution show within a test's patience.
const pollInterval = 2 * time.Second

// sharedReadsFresh is how long a shared list answers reads; with pollInterval, a scope whose
// objects more than 4 resources read within a poll is listed.
const sharedReadsFresh = time.Second

// installationID is what the tests' ProviderConfigs write into markers.
const installationID = "e2e-installation"

// defaultParallel is how many tests that call t.Parallel run at once when go test is given no
// -parallel. They spend their time waiting for controllers and services, not on the CPU, so go
// test's default (GOMAXPROCS) would run them nearly one by one on a small machine. More at once
// did not help on 2 cores (32 took about as long, 64 longer): they queue on Keystone's single
// worker.
//
// A test stays serial (no t.Parallel, with a comment saying why) when it counts the provider's
// requests beyond its own objects (counter.snapshot at steady state) or per poll, injects
// faults (counter.inject, authentik's /_test/faults), compares Keystone- or authentik-wide
// lists, or touches what every test shares (the keystone and authentik ProviderConfigs,
// Keystone's admin user); ProviderConfigs a test makes for itself are its own. Go runs every
// serial top-level test before the parallel ones start, so the serial ones see no other test's
// requests. Parallel tests use names (Kubernetes, Keystone and authentik) no other test uses.
// `make test` runs the serial ones in a process of their own, on services of their own
// (hack/e2e-serial lists them), beside the parallel ones.
const defaultParallel = 16

var (
	kube     client.Client
	scheme   = runtime.NewScheme()
	keystone *keystoneEnv
	// counter counts every request the provider sends to external systems.
	counter = newCountingTransport()
)

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	flag.Parse()
	setDefaultParallel()
	for _, v := range append([]string{"KUBEBUILDER_ASSETS", "KEYSTONE_URL", "KEYSTONE_ADMIN_PASSWORD"}, authentikEnvVars...) {
		if os.Getenv(v) == "" {
			fmt.Fprintf(os.Stderr, "%s is not set: run the end-to-end tests with `make test` (hack/with-services.sh starts what they need)\n", v)
			return 1
		}
	}
	ctrl.SetLogger(zap.New(zap.UseDevMode(os.Getenv("E2E_DEBUG") != ""), zap.WriteTo(logSink())))
	must(controller.AddToScheme(scheme))

	env := &envtest.Environment{
		CRDDirectoryPaths:     []string{filepath.Join("..", "..", "package", "crds")},
		ErrorIfCRDPathMissing: true,
		Scheme:                scheme,
	}
	cfg, err := env.Start()
	must(err)
	restConfig = cfg
	defer func() { _ = env.Stop() }()

	kube, err = client.New(cfg, client.Options{Scheme: scheme})
	must(err)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	keystone, err = newKeystoneEnv(ctx)
	must(err)
	must(setupProviderConfigs(ctx))
	must(setupAuthentik(ctx))

	mgr, err := ctrl.NewManager(cfg, ctrl.Options{Scheme: scheme, Metrics: metricsserver.Options{BindAddress: "0"},
		// The provider's cache: what the controllers read is what they read in production.
		Cache: controller.CacheOptions(nil), NewClient: controller.NewClient})
	must(err)
	o := providerOptions("provider", 10)
	// Reads are shared as in production, where a list answers for half the poll jitter.
	o.SharedReads = clients.SharedReadOptions{Fresh: sharedReadsFresh, Window: pollInterval}
	o.Keystone.Transport = counter
	o.Authentik.Transport = counter
	must(controller.Setup(mgr, o))
	go func() { must(mgr.Start(ctx)) }()

	code := m.Run()
	if !authentikViolations(ctx) && code == 0 {
		code = 1
	}
	return code
}

// setDefaultParallel sets -test.parallel to defaultParallel unless the command line set it.
func setDefaultParallel() {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		must(flag.Set("test.parallel", strconv.Itoa(defaultParallel)))
	}
}

// setupProviderConfigs creates the Secret and ProviderConfig every Keystone test uses.
func setupProviderConfigs(ctx context.Context) error {
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "crossplane-system"}}
	if err := kube.Create(ctx, ns); err != nil {
		return err
	}
	sec := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "crossplane-system", Name: "keystone-admin"},
		StringData: map[string]string{"password": os.Getenv("KEYSTONE_ADMIN_PASSWORD")}}
	if err := kube.Create(ctx, sec); err != nil {
		return err
	}
	return kube.Create(ctx, keystoneProviderConfig("keystone", installationID, "keystone-admin"))
}

func keystoneProviderConfig(name, installation, secret string) *identityv1alpha1.ProviderConfig {
	project, domain := "admin", "Default"
	return &identityv1alpha1.ProviderConfig{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: identityv1alpha1.ProviderConfigSpec{
			InstallationID: installation,
			Keystone: &identityv1alpha1.KeystoneConfig{
				AuthURL: os.Getenv("KEYSTONE_URL"),
				Region:  "RegionOne",
				Password: &identityv1alpha1.KeystonePasswordAuth{
					Username:          "admin",
					UserDomainName:    "Default",
					PasswordSecretRef: identityv1alpha1.SecretKeySelector{SecretReference: identityv1alpha1.SecretReference{Namespace: "crossplane-system", Name: secret}, Key: "password"},
					Scope:             identityv1alpha1.KeystoneScope{ProjectName: &project, ProjectDomainName: &domain},
				},
			},
		},
	}
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}

// logSink sends controller logs to a file when E2E_LOG is set, so test output stays readable.
func logSink() *os.File {
	if p := os.Getenv("E2E_LOG"); p != "" {
		f, err := os.Create(p)
		must(err)
		return f
	}
	return os.Stderr
}
