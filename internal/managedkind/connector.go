package managedkind

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/event"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	nsidentityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
)

// A Connector connects one managed resource to its system: it tracks the ProviderConfig usage,
// reads the ProviderConfig, gets a typed client C for it and returns the adoption engine's
// external client around the kind's driver.
//
// It serves both scopes: a cluster-scoped (legacy) resource uses a ProviderConfig of
// identity.crossplane.io, a namespaced one a ProviderConfig of its namespace or a
// ClusterProviderConfig of identity.m.crossplane.io, as its providerConfigRef.kind says.
type Connector[MR adoption.Managed, C any, O any] struct {
	Kube client.Client
	// Usage tracks the usage of cluster-scoped resources, ModernUsage of namespaced ones.
	Usage       *resource.LegacyProviderConfigUsageTracker
	ModernUsage *resource.ProviderConfigUsageTracker
	System      clients.System
	GroupKind   string
	Installs    *clients.Installations
	Recorder    event.Recorder
	// ClientFor returns the typed client of a ProviderConfig (cached by the system's factory).
	ClientFor func(ctx context.Context, kube client.Reader, pc *identityv1alpha1.ProviderConfig) (C, error)
	// NewDriver returns the kind's driver over a typed client.
	NewDriver func(c C) adoption.Driver[MR, O]
	// Owners finds the resources behind objects that a delete would take with it.
	Owners adoption.Owners
	// Deletions remembers this process's deletes (see adoption.Deletions).
	Deletions *adoption.Deletions
	// Creates learns from each Observe whether the resource is about to be created, and
	// writes the references resolved for one that is not (the reconciler's resolver must then
	// be WritingAhead with the same CreatesAhead); nil records nothing.
	Creates *CreatesAhead
	// Passing learns which reconciles just created or deleted their object; nil records nothing.
	Passing *PassingStatuses
}

// ConnectorOptions are what NewConnector wires into a Connector.
type ConnectorOptions[MR adoption.Managed, C any, O any] struct {
	Kube          client.Client
	Recorder      event.Recorder
	Installations *clients.Installations
	// GroupKind names the kind in markers and messages, e.g. Domain.keystone.identity.crossplane.io.
	GroupKind string
	// Kind supplies the system, the typed client and the driver.
	Kind Kind[MR, C, O]
}

// NewConnector returns a Connector with the usage trackers and recorder wired.
func NewConnector[MR adoption.Managed, C any, O any](co ConnectorOptions[MR, C, O]) *Connector[MR, C, O] {
	return &Connector[MR, C, O]{
		Kube: co.Kube, Usage: resource.NewLegacyProviderConfigUsageTracker(co.Kube, &identityv1alpha1.ProviderConfigUsage{}),
		ModernUsage: resource.NewProviderConfigUsageTracker(co.Kube, &nsidentityv1alpha1.ProviderConfigUsage{}),
		System:      co.Kind.System, GroupKind: co.GroupKind, Installs: co.Installations, Recorder: co.Recorder,
		ClientFor: co.Kind.ClientFor, NewDriver: co.Kind.NewDriver,
	}
}

const errNoScope = "resource %q is neither a cluster-scoped nor a namespaced managed resource"

// mayHaveCommitted tells, per system, the failed writes that may have been carried out anyway.
var mayHaveCommitted = map[clients.System]func(error) bool{
	clients.Keystone:  keystone.MayHaveCommitted,
	clients.Authentik: authentik.MayHaveCommitted,
}

// Connect implements managed.TypedExternalConnector.
func (c *Connector[MR, C, O]) Connect(ctx context.Context, mg MR) (managed.TypedExternalClient[MR], error) {
	e, err := c.connect(ctx, mg)
	if err != nil {
		// No Observe or Disconnect follows: what reference resolution noted goes now.
		if c.Creates != nil {
			c.Creates.forget(mg)
		}
		return nil, err
	}
	if c.Creates == nil && c.Passing == nil {
		return e, nil
	}
	return aheadExternal[MR]{TypedExternalClient: e, mg: mg, creates: c.Creates, passing: c.Passing, kube: c.Kube}, nil
}

func (c *Connector[MR, C, O]) connect(ctx context.Context, mg MR) (managed.TypedExternalClient[MR], error) {
	pc, secrets, err := c.providerConfig(ctx, mg)
	if err != nil {
		return nil, err
	}
	installation, err := c.Installs.ID(ctx, c.Kube, pc)
	if err != nil {
		return nil, err
	}
	tc, err := c.ClientFor(ctx, secrets, pc)
	if err != nil {
		return nil, err
	}
	return adoption.NewExternal(c.NewDriver(tc), adoption.Config{
		GroupKind:    c.GroupKind,
		Installation: installation,
		Annotations:  managed.NewRetryingCriticalAnnotationUpdater(NewPolicyAwareWriter(c.Kube)),
		Recorder:     c.Recorder,
		Owners:       c.Owners,
		Deletions:    c.Deletions,

		MayHaveCommitted: mayHaveCommitted[c.System],
	}), nil
}

// providerConfig returns the resource's ProviderConfig, whatever its kind, and the reader its
// Secrets may be read through.
func (c *Connector[MR, C, O]) providerConfig(ctx context.Context, mg MR) (*identityv1alpha1.ProviderConfig, client.Reader, error) {
	switch r := any(mg).(type) {
	case resource.ModernManaged:
		cfg, secrets, err := clients.ModernProviderConfigFor(ctx, c.Kube, c.ModernUsage, r, c.System)
		if err != nil {
			return nil, nil, err
		}
		return clients.View(cfg), secrets, nil
	case resource.LegacyManaged: //nolint:staticcheck // SA1019: the cluster-scoped kinds stay for the legacy model (ADR 0005)
		pc, err := clients.ProviderConfigFor(ctx, c.Kube, c.Usage, r, c.System)
		return pc, c.Kube, err
	default:
		return nil, nil, errors.Errorf(errNoScope, mg.GetName())
	}
}
