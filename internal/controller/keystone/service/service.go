// Package service manages Keystone services of the service catalog.
package service

import (
	"context"
	"net/url"
	"slices"

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
	errCreate = "cannot create Keystone service %q of type %s"
	errUpdate = "cannot update Keystone service %q (ID %s)"
	errDelete = "cannot delete Keystone service %q (ID %s)"

	typeName = "Keystone service"
)

// service is a Keystone service as the identity API returns it (keystone.Service, the shape
// the importer reads too).
type service = keystone.Service

var services = keystone.Services

func idOf(o service) string { return o.ID }

// mr is a Service of either scope: the driver is written once against it.
type mr interface {
	resource.Managed
	Parameters() *v1alpha1.ServiceParameters
	Observation() *v1alpha1.ServiceObservation
	GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy
}

// scopes are the Service kinds: cluster-scoped (legacy) and namespaced.
var scopes = []managedkind.Scoped[mr]{
	{GVK: clusterv1alpha1.ServiceGroupVersionKind, Obj: &clusterv1alpha1.Service{}},
	{GVK: v1alpha1.ServiceGroupVersionKind, Obj: &v1alpha1.Service{}},
}

// Setup adds the controllers that reconcile Service managed resources of both scopes.
func Setup(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopes(mgr, o, scopes, setup)
}

// SetupGated adds each scope's controller once its Service CRD is installed.
func SetupGated(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopesGated(mgr, o, scopes, setup)
}

func setup(mgr ctrl.Manager, o managedkind.Options, gvk schema.GroupVersionKind, obj mr) error {
	return managedkind.SetupKeystone(mgr, o, managedkind.Kind[mr, keystone.API, service]{
		GVK: gvk, Object: obj,
		NewDriver: sharedDriver(o.SharedReads),
	})
}

// sharedDriver returns the driver over a client, whose reads of the services (one list) are
// shared by every resource as o says.
func sharedDriver(o clients.SharedReadOptions) func(keystone.API) adoption.Driver[mr, service] {
	shared := keystone.NewShared(services, idOf, o)
	return func(sc keystone.API) adoption.Driver[mr, service] { return &external{sc: sc, services: shared} }
}

// external drives Keystone services for the adoption engine.
type external struct {
	sc keystone.API
	// services reads and writes through the lists shared by every resource of the kind.
	services keystone.Shared[service]
}

func (e *external) Get(ctx context.Context, _ mr, id string) (service, error) {
	return e.services.Get(ctx, e.sc, nil, id)
}

// Find looks the service up by type and name. Keystone keeps neither unique, so nothing would
// refuse a twin: the lookup always asks Keystone (a shared list could miss a service made by
// hand a moment ago, and the create would then make a second one). One service found is judged
// by its marker (a hand-made one is AdoptionRequired, never written); two or more are
// ambiguous until the external name names one. Only exact matches count, in case a backend
// compares loosely.
func (e *external) Find(ctx context.Context, mg mr) ([]service, error) {
	fp := mg.Parameters()
	all, err := services.List(ctx, e.sc, url.Values{"type": {fp.Type}, "name": {fp.Name}})
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(all, func(s service) bool { return s.Type != fp.Type || s.Name != fp.Name }), nil
}

func (e *external) IsNotFound(err error) bool { return keystone.IsNotFound(err) }

func (e *external) Describe(s service) adoption.Description {
	return adoption.Description{ID: s.ID, Type: typeName, Key: s.Name + " (type " + s.Type + ")", Marker: keystone.ParseMarker(s.Marker)}
}

func (e *external) Observe(mg mr, s service, p identityv1alpha1.Provenance) adoption.Observation {
	*mg.Observation() = v1alpha1.ServiceObservation{ID: s.ID, Type: s.Type, Name: s.Name, Description: s.Description, Enabled: s.Enabled, Provenance: p}
	fp := mg.Parameters()
	diff := cmp.Diff(desired(fp), observed(s, fp))
	return adoption.Observation{UpToDate: diff == "", Diff: diff}
}

func (e *external) Create(ctx context.Context, mg mr, m provenance.Marker) (string, managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return "", nil, err
	}
	fp := mg.Parameters()
	body := desired(fp)
	body.Marker = m.Encode()
	s, err := e.services.Create(ctx, e.sc, nil, body)
	if err != nil {
		return "", nil, keystone.Wrap(err, errCreate, fp.Name, fp.Type)
	}
	return s.ID, nil, nil
}

// Update patches the managed fields and the marker.
func (e *external) Update(ctx context.Context, mg mr, s service, m provenance.Marker) (managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return nil, err
	}
	body := desired(mg.Parameters())
	body.Marker = m.Encode()
	if err := e.services.Update(ctx, e.sc, nil, s.ID, body); err != nil {
		return nil, keystone.Wrap(err, errUpdate, s.Name, s.ID)
	}
	return nil, nil
}

// Dependents lists the service's endpoints: Keystone deletes every endpoint of a service with
// it, whoever made them.
func (e *external) Dependents(ctx context.Context, _ mr, s service) ([]adoption.Dependent, error) {
	return keystone.EndpointsOfService(ctx, e.sc, s.ID)
}

func (e *external) Delete(ctx context.Context, _ mr, s service) error {
	return keystone.Wrap(keystone.IgnoreNotFound(e.services.Delete(ctx, e.sc, nil, s.ID)), errDelete, s.Name, s.ID)
}

// managedFields is what the spec manages; only these are compared and written.
type managedFields struct {
	Type        string  `json:"type"`
	Name        string  `json:"name"`
	Description *string `json:"description,omitempty"`
	Enabled     *bool   `json:"enabled,omitempty"`
	Marker      string  `json:"crossplane_provenance,omitempty"`
}

func desired(fp *v1alpha1.ServiceParameters) managedFields {
	return managedFields{Type: fp.Type, Name: fp.Name, Description: fp.Description, Enabled: fp.Enabled}
}

// observed projects a service onto the fields the spec sets, so unset fields never differ.
func observed(s service, fp *v1alpha1.ServiceParameters) managedFields {
	o := managedFields{Type: s.Type, Name: s.Name}
	if fp.Description != nil {
		o.Description = &s.Description
	}
	if fp.Enabled != nil {
		o.Enabled = &s.Enabled
	}
	return o
}
