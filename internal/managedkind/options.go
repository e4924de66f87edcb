// Package managedkind wires a managed kind into controller-runtime the same way for every kind
// of every system: one reconciler configuration, one connector, one reference resolver.
package managedkind

import (
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/controller"
	"github.com/crossplane/crossplane-runtime/v2/pkg/feature"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"

	"github.com/crossplane-contrib/provider-identity/internal/adoption"
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
	// gone, and resources whose references did not resolve once what they reference changes;
	// nil leaves them to the reconciler's backoff.
	Waker *Waker
	// Deletions remembers this process's deletes, so that the reconcile confirming one does
	// not read the object again; nil reads it.
	Deletions *adoption.Deletions
	// SharedReads say how the resources of a kind share the reads of their objects: lists of
	// a scope answer the reads of that scope's objects while fresh. The zero value shares
	// nothing: every resource reads its object alone.
	SharedReads clients.SharedReadOptions
	// Creates lets the finalizer of a resource about to be created ride on the update that
	// records the create as pending; nil writes it alone.
	Creates *CreatesAhead
	// Passing lets the status of a reconcile that just created or deleted its object go
	// unwritten (the reconcile that follows at once writes the one that stays); nil writes it.
	Passing *PassingStatuses
	// FirstResources sets each kind up once its first resource appears; nil sets every kind
	// up at once.
	FirstResources *FirstResources
	// PollJitter brings each resource's next poll forward by a random duration up to this
	// (pollWithin); zero polls at exactly PollInterval.
	PollJitter time.Duration
}

// NewOptions returns Options with fresh client factories, whose requests share one
// Endpoints with the default limits (SetEndpointLimits changes them).
func NewOptions(o controller.Options) Options {
	e := clients.NewEndpoints(clients.DefaultEndpointLimits, o.Logger)
	return Options{Options: o, Keystone: &keystone.Factory{Endpoints: e}, Authentik: &authentik.Factory{Endpoints: e},
		Installations: &clients.Installations{}, Waker: NewWaker(), Deletions: adoption.NewDeletions(), Creates: NewCreatesAhead(),
		Passing: NewPassingStatuses(), FirstResources: NewFirstResources()}
}

// SetEndpointLimits makes both systems' clients share one Endpoints with limits l.
func (o Options) SetEndpointLimits(l clients.EndpointLimits) {
	e := clients.NewEndpoints(l, o.Logger)
	o.Keystone.Endpoints, o.Authentik.Endpoints = e, e
}

// reconcilerOptions are the managed reconciler's options that the command line chooses: the
// features enabled in o.Features and the poll jitter.
func (o Options) reconcilerOptions() []managed.ReconcilerOption {
	var opts []managed.ReconcilerOption
	if o.Features != nil && o.Features.Enabled(feature.EnableBetaManagementPolicies) {
		opts = append(opts, managed.WithManagementPolicies())
	}
	if o.Features != nil && o.Features.Enabled(feature.EnableAlphaChangeLogs) && o.ChangeLogOptions != nil {
		opts = append(opts, managed.WithChangeLogger(o.ChangeLogOptions.ChangeLogger))
	}
	if o.PollJitter > 0 {
		opts = append(opts, managed.WithPollIntervalHook(pollWithin(o.PollJitter)))
	}
	return opts
}
