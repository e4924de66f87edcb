// Package managedkind wires a managed kind into controller-runtime the same way for every kind
// of every system: one reconciler configuration, one connector, one reference resolver.
package managedkind

import (
	"github.com/crossplane/crossplane-runtime/v2/pkg/controller"

	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
)

// Options are what every controller of the provider is set up with.
type Options struct {
	controller.Options

	// Keystone builds and caches Keystone clients.
	Keystone *keystone.Factory
	// Authentik builds and caches authentik clients.
	Authentik *authentik.Factory
	// Installations derives installation IDs for provenance markers.
	Installations *clients.Installations
	// Waker wakes deletions that wait for other resources of this provider once those are
	// gone; nil leaves them to the reconciler's backoff.
	Waker *Waker
}

// NewOptions returns Options with fresh client factories.
func NewOptions(o controller.Options) Options {
	return Options{Options: o, Keystone: &keystone.Factory{}, Authentik: &authentik.Factory{}, Installations: &clients.Installations{},
		Waker: NewWaker()}
}
