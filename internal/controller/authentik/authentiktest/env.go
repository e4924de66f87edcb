// Package authentiktest runs authentik drivers in tests against the in-memory authentik API
// server (internal/authentikapiserver) with the real generated client and the real adoption
// engine, without Kubernetes. Only tests import it.
package authentiktest

import (
	"context"
	"testing"

	api "goauthentik.io/api/v3"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"

	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/authentikapiserver"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/shared"
)

// Installation is the installation ID the drivers under test write into markers.
const Installation = "test-installation"

// Env is one test's authentik API server and the client its drivers use.
type Env struct {
	Server *authentikapiserver.Server
	URL    string
	Client shared.Client
	Kube   client.Client
	Ctx    context.Context
}

// New starts an API server for the test. The test fails at cleanup if any request broke
// authentik's openapi document.
func New(t *testing.T) *Env {
	t.Helper()
	s, u := authentikapiserver.StartTest(t, authentikapiserver.Options{})
	cfg := api.NewConfiguration()
	cfg.Servers = api.ServerConfigurations{{URL: u + authentikapiserver.APIPrefix}}
	cfg.AddDefaultHeader("Authorization", "Bearer "+s.Token())
	sch := runtime.NewScheme()
	if err := corev1.AddToScheme(sch); err != nil {
		t.Fatal(err)
	}
	kube := fake.NewClientBuilder().WithScheme(sch).Build()
	return &Env{
		Server: s, URL: u, Kube: kube, Ctx: context.Background(),
		Client: shared.Client{API: api.NewAPIClient(cfg), Kube: kube, Installation: Installation, BaseURL: u},
	}
}

// Secret stores a Secret the drivers can read.
func (e *Env) Secret(t *testing.T, ns, name string, data map[string]string) {
	t.Helper()
	s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	s.Data = map[string][]byte{}
	for k, v := range data {
		s.Data[k] = []byte(v)
	}
	if err := e.Kube.Create(e.Ctx, s); err != nil {
		t.Fatal(err)
	}
}

// UpdateSecret replaces the data of a Secret.
func (e *Env) UpdateSecret(t *testing.T, ns, name string, data map[string]string) {
	t.Helper()
	s := &corev1.Secret{}
	if err := e.Kube.Get(e.Ctx, client.ObjectKey{Namespace: ns, Name: name}, s); err != nil {
		t.Fatal(err)
	}
	s.Data = map[string][]byte{}
	for k, v := range data {
		s.Data[k] = []byte(v)
	}
	if err := e.Kube.Update(e.Ctx, s); err != nil {
		t.Fatal(err)
	}
}

// Seed stores an object directly (as a person would have made it by hand) and returns it as
// authentik's GET answers it.
func (e *Env) Seed(t *testing.T, kind string, obj map[string]any) []byte {
	t.Helper()
	b, err := e.Server.Seed(kind, obj)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Raw returns an object exactly as authentik's GET answers it.
func (e *Env) Raw(t *testing.T, kind, id string) []byte {
	t.Helper()
	b, err := e.Server.Raw(kind, id)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Writes counts the write requests (POST, PUT, PATCH, DELETE) the server received.
func (e *Env) Writes() map[string]int {
	out := map[string]int{}
	for k, v := range e.Server.Counts() {
		for _, m := range []string{"POST ", "PUT ", "PATCH ", "DELETE "} {
			if len(k) > len(m) && k[:len(m)] == m {
				out[k] = v
			}
		}
	}
	return out
}

// A Kind tells the harness how to build a kind's driver (the engine reads the adoption policy
// from the resource itself). Its methods run the engine over it; being methods,
// they take a resource of either scope for a driver written against both.
type Kind[MR adoption.Managed, O any] struct {
	GroupKind string
	NewDriver func(shared.Client) adoption.Driver[MR, O]
}

// External returns the adoption engine over a fresh driver, as one reconcile's Connect does.
func (k Kind[MR, O]) External(e *Env) *adoption.External[MR, O] {
	return adoption.NewExternal(k.NewDriver(e.Client), adoption.Config{
		GroupKind:    k.GroupKind,
		Installation: e.Client.Installation,
	})
}

// Result is what one reconcile did.
type Result struct {
	Observation managed.ExternalObservation
	Created     bool
	Updated     bool
	Connection  managed.ConnectionDetails
}

// Reconcile runs one pass the way the managed reconciler does for the default management
// policies: Observe, then Create when nothing exists or Update when it is not up to date.
func (k Kind[MR, O]) Reconcile(e *Env, mg MR) (Result, error) {
	ext := k.External(e)
	obs, err := ext.Observe(e.Ctx, mg)
	if err != nil {
		return Result{Observation: obs}, err
	}
	r := Result{Observation: obs, Connection: obs.ConnectionDetails}
	switch {
	case !obs.ResourceExists:
		_, err := ext.Create(e.Ctx, mg)
		r.Created = err == nil
		return r, err
	case !obs.ResourceUpToDate:
		_, err := ext.Update(e.Ctx, mg)
		r.Updated = err == nil
		return r, err
	}
	return r, nil
}

// Delete runs a deletion pass the way the managed reconciler does for a resource being
// deleted: Observe, then Delete when the object exists. It returns Delete's error.
func (k Kind[MR, O]) Delete(e *Env, mg MR) error {
	ext := k.External(e)
	obs, err := ext.Observe(e.Ctx, mg)
	if err != nil || !obs.ResourceExists {
		return err
	}
	_, err = ext.Delete(e.Ctx, mg)
	return err
}
