// Package endpoint manages Keystone endpoints of the service catalog.
package endpoint

import (
	"context"
	"net/url"
	"slices"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
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
	errNoService = "spec.forProvider.serviceId of endpoint %s is not known yet: set serviceId, or wait for serviceRef/serviceSelector to resolve"
	errCreate    = "cannot create Keystone endpoint %s of service %s"
	errUpdate    = "cannot update Keystone endpoint %s (ID %s)"
	errDelete    = "cannot delete Keystone endpoint %s (ID %s)"

	typeName = "Keystone endpoint"
)

// endpoint is a Keystone endpoint as the identity API returns it (keystone.Endpoint, the shape
// the importer reads too).
type endpoint = keystone.Endpoint

var endpoints = keystone.Endpoints

func idOf(o endpoint) string { return o.ID }

// ofService is the scope an endpoint is read in: the endpoints of its service (every endpoint
// while the service is not known).
func ofService(serviceID string) url.Values {
	if serviceID == "" {
		return nil
	}
	return url.Values{"service_id": {serviceID}}
}

// mr is an Endpoint of either scope: the driver is written once against it.
type mr interface {
	resource.Managed
	Parameters() *v1alpha1.EndpointParameters
	Observation() *v1alpha1.EndpointObservation
	GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy
}

// scopes are the Endpoint kinds: cluster-scoped (legacy) and namespaced.
var scopes = []managedkind.Scoped[mr]{
	{GVK: clusterv1alpha1.EndpointGroupVersionKind, Obj: &clusterv1alpha1.Endpoint{}},
	{GVK: v1alpha1.EndpointGroupVersionKind, Obj: &v1alpha1.Endpoint{}},
}

// Setup adds the controllers that reconcile Endpoint managed resources of both scopes.
func Setup(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopes(mgr, o, scopes, setup)
}

// SetupGated adds each scope's controller once its Endpoint CRD is installed.
func SetupGated(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopesGated(mgr, o, scopes, setup)
}

func setup(mgr ctrl.Manager, o managedkind.Options, gvk schema.GroupVersionKind, obj mr) error {
	return managedkind.SetupKeystone(mgr, o, managedkind.Kind[mr, keystone.API, endpoint]{
		GVK: gvk, Object: obj,
		NewDriver: sharedDriver(o.SharedReads),
	})
}

// sharedDriver returns the driver over a client, whose reads of the endpoints of one service
// are shared by every resource as o says.
func sharedDriver(o clients.SharedReadOptions) func(keystone.API) adoption.Driver[mr, endpoint] {
	shared := keystone.NewShared(endpoints, idOf, o)
	return func(sc keystone.API) adoption.Driver[mr, endpoint] { return &external{sc: sc, endpoints: shared} }
}

// external drives Keystone endpoints for the adoption engine.
type external struct {
	sc keystone.API
	// endpoints reads and writes through the lists shared by every resource of the kind.
	endpoints keystone.Shared[endpoint]
}

func (e *external) Get(ctx context.Context, mg mr, id string) (endpoint, error) {
	return e.endpoints.Get(ctx, e.sc, ofService(deref(mg.Parameters().ServiceID)), id)
}

// Find looks the endpoint up by service, interface and region (none when the spec names
// none). Keystone keeps none of that unique, so nothing would refuse a twin: the lookup
// always asks Keystone. One endpoint found is judged by its marker; two or more are ambiguous
// until the external name names one. Only exact matches count: without a region filter
// Keystone lists the endpoints of every region.
func (e *external) Find(ctx context.Context, mg mr) ([]endpoint, error) {
	fp := mg.Parameters()
	service := deref(fp.ServiceID)
	if service == "" {
		return keystone.Unresolved[endpoint](mg, errors.Errorf(errNoService, key(fp)))
	}
	q := url.Values{"service_id": {service}, "interface": {string(fp.Interface)}}
	region := deref(fp.RegionID)
	if region != "" {
		q.Set("region_id", region)
	}
	all, err := endpoints.List(ctx, e.sc, q)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(all, func(o endpoint) bool {
		return o.ServiceID != service || o.Interface != string(fp.Interface) || o.RegionID != region
	}), nil
}

func (e *external) IsNotFound(err error) bool { return keystone.IsNotFound(err) }

func (e *external) Describe(o endpoint) adoption.Description {
	return adoption.Description{ID: o.ID, Type: typeName, Key: keystone.EndpointKey(o) + " of service " + o.ServiceID, Marker: keystone.ParseMarker(o.Marker)}
}

func (e *external) Observe(mg mr, o endpoint, p identityv1alpha1.Provenance) adoption.Observation {
	*mg.Observation() = v1alpha1.EndpointObservation{ID: o.ID, ServiceID: o.ServiceID, Interface: o.Interface, URL: o.URL,
		RegionID: o.RegionID, Enabled: o.Enabled, Provenance: p}
	fp := mg.Parameters()
	diff := cmp.Diff(desired(fp), observed(o, fp))
	return adoption.Observation{UpToDate: diff == "", Diff: diff}
}

func (e *external) Create(ctx context.Context, mg mr, m provenance.Marker) (string, managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return "", nil, err
	}
	fp := mg.Parameters()
	if deref(fp.ServiceID) == "" {
		return "", nil, errors.Errorf(errNoService, key(fp))
	}
	body := desired(fp)
	body.Marker = m.Encode()
	o, err := e.endpoints.Create(ctx, e.sc, ofService(body.ServiceID), body)
	if err != nil {
		return "", nil, keystone.Wrap(err, errCreate, key(fp), body.ServiceID)
	}
	return o.ID, nil, nil
}

// Update patches the managed fields and the marker. Keystone can move an endpoint to another
// service, interface or region in place.
func (e *external) Update(ctx context.Context, mg mr, o endpoint, m provenance.Marker) (managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return nil, err
	}
	fp := mg.Parameters()
	body := desired(fp)
	if body.ServiceID == "" {
		body.ServiceID = o.ServiceID
	}
	body.Marker = m.Encode()
	if err := e.endpoints.Update(ctx, e.sc, ofService(o.ServiceID), o.ID, body); err != nil {
		return nil, keystone.Wrap(err, errUpdate, keystone.EndpointKey(o), o.ID)
	}
	return nil, nil
}

// Dependents lists the endpoint's project associations (the endpoint filter): Keystone removes
// them with the endpoint, and no kind of ours manages them.
func (e *external) Dependents(ctx context.Context, _ mr, o endpoint) ([]adoption.Dependent, error) {
	return keystone.ProjectsOfEndpoint(ctx, e.sc, o.ID)
}

func (e *external) Delete(ctx context.Context, _ mr, o endpoint) error {
	err := e.endpoints.Delete(ctx, e.sc, ofService(o.ServiceID), o.ID)
	return keystone.Wrap(keystone.IgnoreNotFound(err), errDelete, keystone.EndpointKey(o), o.ID)
}

// managedFields is what the spec manages; only these are compared and written.
type managedFields struct {
	ServiceID string  `json:"service_id"`
	Interface string  `json:"interface"`
	URL       string  `json:"url"`
	RegionID  *string `json:"region_id,omitempty"`
	Enabled   *bool   `json:"enabled,omitempty"`
	Marker    string  `json:"crossplane_provenance,omitempty"`
}

func desired(fp *v1alpha1.EndpointParameters) managedFields {
	return managedFields{ServiceID: deref(fp.ServiceID), Interface: string(fp.Interface), URL: fp.URL, RegionID: fp.RegionID, Enabled: fp.Enabled}
}

// observed projects an endpoint onto the fields the spec sets, so unset fields never differ.
// The service, the interface and the URL are always compared: every endpoint resource names
// them.
func observed(o endpoint, fp *v1alpha1.EndpointParameters) managedFields {
	m := managedFields{ServiceID: o.ServiceID, Interface: o.Interface, URL: o.URL}
	if fp.RegionID != nil {
		m.RegionID = &o.RegionID
	}
	if fp.Enabled != nil {
		m.Enabled = &o.Enabled
	}
	return m
}

// key names the endpoint the spec describes, for errors.
func key(fp *v1alpha1.EndpointParameters) string {
	return keystone.EndpointKey(endpoint{Interface: string(fp.Interface), URL: fp.URL, RegionID: deref(fp.RegionID)})
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
