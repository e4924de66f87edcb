// Package domain manages Keystone domains.
package domain

import (
	"context"
	"net/url"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	clusterv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
	"github.com/crossplane-contrib/provider-identity/internal/managedkind"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

const (
	errCreate  = "cannot create Keystone domain %q"
	errUpdate  = "cannot update Keystone domain %q (ID %s)"
	errDisable = "cannot disable Keystone domain %q (ID %s) before deleting it"
	errDelete  = "cannot delete Keystone domain %q (ID %s)"

	typeName = "Keystone domain"
)

// domain is a Keystone domain as the identity API returns it (keystone.Domain, the shape the importer reads too).
type domain = keystone.Domain

var domains = keystone.Domains

func idOf(o domain) string { return o.ID }

// mr is a Domain of either scope: the driver is written once against it.
type mr interface {
	resource.Managed
	Parameters() *v1alpha1.DomainParameters
	Observation() *v1alpha1.DomainObservation
	GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy
}

// scopes are the Domain kinds: cluster-scoped (legacy) and namespaced.
var scopes = []managedkind.Scoped[mr]{
	{GVK: clusterv1alpha1.DomainGroupVersionKind, Obj: &clusterv1alpha1.Domain{}},
	{GVK: v1alpha1.DomainGroupVersionKind, Obj: &v1alpha1.Domain{}},
}

// Setup adds the controllers that reconcile Domain managed resources of both scopes.
func Setup(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopes(mgr, o, scopes, setup)
}

// SetupGated adds each scope's controller once its Domain CRD is installed.
func SetupGated(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopesGated(mgr, o, scopes, setup)
}

func setup(mgr ctrl.Manager, o managedkind.Options, gvk schema.GroupVersionKind, obj mr) error {
	return managedkind.SetupKeystone(mgr, o, managedkind.Kind[mr, keystone.API, domain]{
		GVK: gvk, Object: obj,
		NewDriver: sharedDriver(o.SharedReads),
	})
}

// sharedDriver returns the driver over a client, whose reads of the domains of one scope are
// shared by every resource as o says.
func sharedDriver(o clients.SharedReadOptions) func(keystone.API) adoption.Driver[mr, domain] {
	shared := keystone.NewShared(domains, idOf, o)
	return func(sc keystone.API) adoption.Driver[mr, domain] { return &external{sc: sc, domains: shared} }
}

// external drives Keystone domains for the adoption engine.
type external struct {
	sc keystone.API
	// domains reads and writes through the lists shared by every resource of the kind.
	domains keystone.Shared[domain]
}

func (e *external) Get(ctx context.Context, _ mr, id string) (domain, error) {
	return e.domains.Get(ctx, e.sc, nil, id)
}

// Find looks a domain up by name, Keystone's unique key for domains.
func (e *external) Find(ctx context.Context, mg mr) ([]domain, error) {
	return domains.List(ctx, e.sc, url.Values{"name": {mg.Parameters().Name}})
}

func (e *external) IsNotFound(err error) bool { return keystone.IsNotFound(err) }

// IsTwin tells Keystone's refusal of a second domain with the same name (in its domain): the
// engine then creates without looking the name up first (adoption.TwinRefuser).
func (e *external) IsTwin(err error) bool { return keystone.IsTwin(err) }

func (e *external) Describe(d domain) adoption.Description {
	return adoption.Description{ID: d.ID, Type: typeName, Key: d.Name, Marker: keystone.ParseMarker(d.Marker)}
}

func (e *external) Observe(mg mr, d domain, p identityv1alpha1.Provenance) adoption.Observation {
	*mg.Observation() = v1alpha1.DomainObservation{ID: d.ID, Name: d.Name, Description: d.Description, Enabled: d.Enabled, Provenance: p}
	fp := mg.Parameters()
	li := lateInitialize(fp, d)
	want, have := desired(fp), observed(d, fp)
	diff := cmp.Diff(want, have)
	return adoption.Observation{UpToDate: diff == "", Diff: diff, LateInitialized: li}
}

func (e *external) Create(ctx context.Context, mg mr, m provenance.Marker) (string, managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return "", nil, err
	}
	body := desired(mg.Parameters())
	body.Marker = m.Encode()
	d, err := e.domains.Create(ctx, e.sc, nil, body)
	if err != nil {
		return "", nil, keystone.Wrap(err, errCreate, mg.Parameters().Name)
	}
	lateInitialize(mg.Parameters(), d)
	return d.ID, nil, nil
}

// lateInitialize fills the spec's unset fields from the domain, Keystone's defaults, and says
// whether it filled any. Create calls it with the create's answer, so that the update recording
// the create carries them instead of an update of their own (ADR 0006, part 5).
func lateInitialize(fp *v1alpha1.DomainParameters, d domain) bool {
	if fp.Enabled != nil {
		return false
	}
	fp.Enabled = &d.Enabled
	return true
}

func (e *external) Update(ctx context.Context, mg mr, d domain, m provenance.Marker) (managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return nil, err
	}
	body := desired(mg.Parameters())
	body.Marker = m.Encode()
	if err := e.domains.Update(ctx, e.sc, nil, d.ID, body); err != nil {
		return nil, keystone.Wrap(err, errUpdate, d.Name, d.ID)
	}
	return nil, nil
}

// Dependents lists what Keystone would delete with the domain: its configuration, projects
// (nested ones too), users, groups, role assignments on it and identity providers. The
// configuration alone is reported while there is one: a domain configured for LDAP lists the
// directory's users and groups, which the delete would not remove, and becomes a domain of its
// own users again once its DomainConfig is gone.
func (e *external) Dependents(ctx context.Context, _ mr, d domain) ([]adoption.Dependent, error) {
	if cfg, err := keystone.DomainConfigOf(ctx, e.sc, d.ID); err != nil || len(cfg) > 0 {
		return cfg, err
	}
	return adoption.Gather(ctx,
		func() ([]adoption.Dependent, error) { return keystone.ProjectsInDomain(ctx, e.sc, d.ID) },
		func() ([]adoption.Dependent, error) { return keystone.UsersInDomain(ctx, e.sc, d.ID) },
		func() ([]adoption.Dependent, error) { return keystone.GroupsInDomain(ctx, e.sc, d.ID) },
		func() ([]adoption.Dependent, error) {
			return keystone.AssignmentsDeletedWith(ctx, e.sc, "domain", d.ID)
		},
		func() ([]adoption.Dependent, error) { return keystone.IdentityProvidersInDomain(ctx, e.sc, d.ID) },
	)
}

// LocalDependents names the Project resources of the domain's projects and the RoleAssignment
// resources of the role assignments on it (adoption.LocalCascader). While one exists, the
// deletion would find its object in the way: it is held without reading Keystone. Deleting a
// workload at once, the domain otherwise listed its projects at every retry, hundreds of them.
func (e *external) LocalDependents(mg mr, id string) (adoption.Description, []adoption.LocalDependents) {
	return adoption.Description{ID: id, Type: typeName, Key: mg.Parameters().Name},
		[]adoption.LocalDependents{keystone.ProjectsIn(id), keystone.AssignmentsOn("domain", id)}
}

// Delete disables the domain first: Keystone refuses to delete an enabled domain.
func (e *external) Delete(ctx context.Context, _ mr, d domain) error {
	if d.Enabled {
		if err := keystone.IgnoreNotFound(e.domains.Update(ctx, e.sc, nil, d.ID, map[string]any{"enabled": false})); err != nil {
			return keystone.Wrap(err, errDisable, d.Name, d.ID)
		}
	}
	return keystone.Wrap(keystone.IgnoreNotFound(e.domains.Delete(ctx, e.sc, nil, d.ID)), errDelete, d.Name, d.ID)
}

// managedFields is what the spec manages; only these are compared and written.
type managedFields struct {
	Name        string  `json:"name"`
	Description *string `json:"description,omitempty"`
	Enabled     *bool   `json:"enabled,omitempty"`
	Marker      string  `json:"crossplane_provenance,omitempty"`
}

func desired(fp *v1alpha1.DomainParameters) managedFields {
	return managedFields{Name: fp.Name, Description: fp.Description, Enabled: fp.Enabled}
}

// observed projects a domain onto the fields the spec sets, so unset fields never differ.
func observed(d domain, fp *v1alpha1.DomainParameters) managedFields {
	o := managedFields{Name: d.Name}
	if fp.Description != nil {
		o.Description = &d.Description
	}
	if fp.Enabled != nil {
		o.Enabled = &d.Enabled
	}
	return o
}
