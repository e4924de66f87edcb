// Package managedkind wires a managed kind into controller-runtime the same way for every kind
// of every system: one reconciler configuration, one connector, one reference resolver.
package managedkind

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane/crossplane-runtime/v2/pkg/controller"

	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
)

// Options are what every controller of the provider is set up with.
type Options struct {
	controller.Options

	// Keystone builds and caches Keystone clients.
	Keystone *keystone.Factory
	// Authentik checks authentik credentials; nil until authentik support is wired.
	Authentik AuthChecker
	// Installations derives installation IDs for provenance markers.
	Installations *clients.Installations
}

// An AuthChecker tells whether a ProviderConfig's credentials work now.
type AuthChecker interface {
	Check(ctx context.Context, kube client.Reader, pc *identityv1alpha1.ProviderConfig) error
}

// NewOptions returns Options with fresh client factories.
func NewOptions(o controller.Options) Options {
	return Options{Options: o, Keystone: &keystone.Factory{}, Installations: &clients.Installations{}}
}
