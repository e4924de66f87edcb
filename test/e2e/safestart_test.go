//go:build e2e

package e2e

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	"sigs.k8s.io/yaml"

	changelogsv1alpha1 "github.com/crossplane/crossplane-runtime/v2/apis/changelogs/proto/v1alpha1"
	xpcontroller "github.com/crossplane/crossplane-runtime/v2/pkg/controller"
	"github.com/crossplane/crossplane-runtime/v2/pkg/feature"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	ksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// With safe-start, Crossplane installs a managed kind's CRD only when the kind is activated. The
// provider runs on a control plane of its own here, started with the ProviderConfig CRDs only:
// its ProviderConfig controllers work at once, the missing managed kinds fail nothing, and the
// Domain controller starts when the Domain CRD is installed, creates the domain and reports the
// creation to the change logs sidecar.
func TestSafeStartSetsAKindUpWhenItsCRDArrives(t *testing.T) {
	ctx, check := privateTest(t)
	configCRDs, domainCRD := packageCRDs(t)
	cfg, sch, k := privateControlPlane(ctx, t, configCRDs, "e2e-safestart")

	entries := serveChangeLogs(t)
	o := providerOptions("provider-safestart", 2)
	o.ChangeLogOptions = &xpcontroller.ChangeLogOptions{ChangeLogger: entries.logger(t)}
	o.Features.Enable(feature.EnableAlphaChangeLogs)
	stopped, stop := startPrivateProvider(ctx, t, cfg, sch, o)
	defer stop()

	// Ungated: the ProviderConfig controllers authenticate while no managed kind has a CRD.
	pc := &identityv1alpha1.ProviderConfig{}
	pc.SetName("keystone")
	eventually(t, 30*time.Second, "the ProviderConfig to authenticate before any managed kind's CRD is installed", func() bool {
		check(k.Get(ctx, keyOf(pc), pc))
		return pc.GetCondition(identityv1alpha1.ConditionTypeAuthenticated).Status == corev1.ConditionTrue
	})
	select {
	case err := <-stopped:
		t.Fatalf("the provider stopped while managed kinds had no CRD: %v", err)
	default:
	}

	if _, err := envtest.InstallCRDs(cfg, envtest.CRDInstallOptions{CRDs: []*apiextensionsv1.CustomResourceDefinition{domainCRD}}); err != nil {
		t.Fatalf("cannot install the Domain CRD: %v", err)
	}
	mg := newDomain("safestart", "e2e-safestart")
	check(k.Create(ctx, mg))
	eventually(t, 60*time.Second, "the Domain to be Ready once its CRD is installed", func() bool {
		check(k.Get(ctx, keyOf(mg), mg))
		return mg.GetCondition(xpv2.TypeReady).Status == corev1.ConditionTrue
	})
	id := meta.GetExternalName(mg)
	if !keystone.exists(t, "domains", id) {
		t.Fatalf("Keystone domain %s of the Ready Domain does not exist", id)
	}
	select {
	case e := <-entries.ch:
		if e.GetKind() != "Domain" || e.GetName() != "safestart" || e.GetOperation() != changelogsv1alpha1.OperationType_OPERATION_TYPE_CREATE {
			t.Errorf("change log entry: want the creation of Domain safestart, got %s %s %s", e.GetOperation(), e.GetKind(), e.GetName())
		}
	case <-time.After(10 * time.Second):
		t.Errorf("no change log entry for the creation of Domain safestart")
	}

	check(k.Delete(ctx, mg))
	eventually(t, 60*time.Second, "the Domain to be deleted", func() bool {
		return kerrors.IsNotFound(k.Get(ctx, keyOf(mg), mg))
	})
	if keystone.exists(t, "domains", id) {
		t.Errorf("Keystone domain %s still exists after its resource was deleted", id)
	}
}

// packageCRDs reads package/crds: the ProviderConfig CRDs (group identity.*), which Crossplane
// installs with the package, and the Domain CRD, which it installs when Domain is activated.
func packageCRDs(t *testing.T) (configs []*apiextensionsv1.CustomResourceDefinition, domain *apiextensionsv1.CustomResourceDefinition) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "package", "crds", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no CRDs in package/crds: %v", err)
	}
	for _, f := range files {
		crd := readCRD(t, f)
		switch {
		case strings.HasPrefix(crd.Spec.Group, "identity."):
			configs = append(configs, crd)
		case crd.Spec.Group == ksv1alpha1.SchemeGroupVersion.Group && crd.Spec.Names.Kind == ksv1alpha1.DomainKind:
			domain = crd
		}
	}
	if len(configs) == 0 || domain == nil {
		t.Fatalf("package/crds: want ProviderConfig CRDs and the Domain CRD, got %d and %v", len(configs), domain != nil)
	}
	return configs, domain
}

// readCRD reads the CRD in file f; a file that cannot be read is fatal.
func readCRD(t *testing.T, f string) *apiextensionsv1.CustomResourceDefinition {
	t.Helper()
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	crd := &apiextensionsv1.CustomResourceDefinition{}
	if err := yaml.Unmarshal(b, crd); err != nil {
		t.Fatalf("cannot read %s: %v", f, err)
	}
	return crd
}

// changeLogs is a change logs sidecar: it listens on a Unix socket and keeps what it is sent.
type changeLogs struct {
	changelogsv1alpha1.UnimplementedChangeLogServiceServer
	socket string
	ch     chan *changelogsv1alpha1.ChangeLogEntry
}

func serveChangeLogs(t *testing.T) *changeLogs {
	t.Helper()
	s := &changeLogs{socket: filepath.Join(t.TempDir(), "changelogs.sock"), ch: make(chan *changelogsv1alpha1.ChangeLogEntry, 16)}
	l, err := (&net.ListenConfig{}).Listen(t.Context(), "unix", s.socket)
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	changelogsv1alpha1.RegisterChangeLogServiceServer(srv, s)
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(srv.Stop)
	return s
}

func (s *changeLogs) SendChangeLog(_ context.Context, r *changelogsv1alpha1.SendChangeLogRequest) (*changelogsv1alpha1.SendChangeLogResponse, error) {
	select {
	case s.ch <- r.GetEntry():
	default: // Full: the test has what it looks for.
	}
	return &changelogsv1alpha1.SendChangeLogResponse{}, nil
}

// logger is the provider's change logger on this sidecar's socket.
func (s *changeLogs) logger(t *testing.T) managed.ChangeLogger {
	t.Helper()
	conn, err := grpc.NewClient("unix://"+s.socket, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return managed.NewGRPCChangeLogger(changelogsv1alpha1.NewChangeLogServiceClient(conn), managed.WithProviderVersion("provider-identity:e2e"))
}
