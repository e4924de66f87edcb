// Package region manages Keystone regions of the service catalog.
package region

import (
	"context"

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
	errFind   = "cannot look up Keystone region %q"
	errCreate = "cannot create Keystone region %q"
	errUpdate = "cannot update Keystone region %q"
	errDelete = "cannot delete Keystone region %q"
	errOther  = "Keystone answered the read of region %q with region %q: nothing was decided from it"

	typeName = "Keystone region"
)

// region is a Keystone region as the identity API returns it (keystone.Region, the shape the
// importer reads too).
type region = keystone.Region

var regions = keystone.Regions

func idOf(o region) string { return o.ID }

// mr is a Region of either scope: the driver is written once against it.
type mr interface {
	resource.Managed
	Parameters() *v1alpha1.RegionParameters
	Observation() *v1alpha1.RegionObservation
	GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy
}

// scopes are the Region kinds: cluster-scoped (legacy) and namespaced.
var scopes = []managedkind.Scoped[mr]{
	{GVK: clusterv1alpha1.RegionGroupVersionKind, Obj: &clusterv1alpha1.Region{}},
	{GVK: v1alpha1.RegionGroupVersionKind, Obj: &v1alpha1.Region{}},
}

// Setup adds the controllers that reconcile Region managed resources of both scopes.
func Setup(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopes(mgr, o, scopes, setup)
}

// SetupGated adds each scope's controller once its Region CRD is installed.
func SetupGated(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopesGated(mgr, o, scopes, setup)
}

func setup(mgr ctrl.Manager, o managedkind.Options, gvk schema.GroupVersionKind, obj mr) error {
	return managedkind.SetupKeystone(mgr, o, managedkind.Kind[mr, keystone.API, region]{
		GVK: gvk, Object: obj,
		NewDriver: sharedDriver(o.SharedReads),
	})
}

// sharedDriver returns the driver over a client, whose reads of the regions (one list: Keystone
// has no scope for them) are shared by every resource as o says.
func sharedDriver(o clients.SharedReadOptions) func(keystone.API) adoption.Driver[mr, region] {
	shared := keystone.NewShared(regions, idOf, o)
	return func(sc keystone.API) adoption.Driver[mr, region] { return &external{sc: sc, regions: shared} }
}

// external drives Keystone regions for the adoption engine.
type external struct {
	sc keystone.API
	// regions reads and writes through the lists shared by every resource of the kind.
	regions keystone.Shared[region]
}

func (e *external) Get(ctx context.Context, _ mr, id string) (region, error) {
	return e.regions.Get(ctx, e.sc, nil, id)
}

// Find reads the region by the ID the spec chooses, its natural key. It may be answered by a
// shared list: a region made by hand since the list makes our create fail with 409 (Keystone
// refuses a second region with an ID), and the next lookup reads it.
func (e *external) Find(ctx context.Context, mg mr) ([]region, error) {
	id := mg.Parameters().ID
	r, err := e.regions.Get(ctx, e.sc, nil, id)
	if keystone.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, keystone.Wrap(err, errFind, id)
	}
	if r.ID != id {
		return nil, errors.Errorf(errOther, id, r.ID)
	}
	return []region{r}, nil
}

func (e *external) IsNotFound(err error) bool { return keystone.IsNotFound(err) }

func (e *external) Describe(r region) adoption.Description {
	return adoption.Description{ID: r.ID, Type: typeName, Key: r.ID, Marker: keystone.ParseMarker(r.Marker)}
}

func (e *external) Observe(mg mr, r region, p identityv1alpha1.Provenance) adoption.Observation {
	*mg.Observation() = v1alpha1.RegionObservation{ID: r.ID, ParentRegionID: r.ParentRegionID, Description: r.Description, Provenance: p}
	fp := mg.Parameters()
	diff := cmp.Diff(desired(fp), observed(r, fp))
	return adoption.Observation{UpToDate: diff == "", Diff: diff}
}

// Create creates the region under the spec's ID. Keystone answers 409 when the ID is taken, so
// a region made by hand meanwhile is never claimed.
func (e *external) Create(ctx context.Context, mg mr, m provenance.Marker) (string, managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return "", nil, err
	}
	fp := mg.Parameters()
	body := desired(fp)
	body.ID = fp.ID
	body.Marker = m.Encode()
	r, err := e.regions.Create(ctx, e.sc, nil, body)
	if err != nil {
		return "", nil, keystone.Wrap(err, errCreate, fp.ID)
	}
	return r.ID, nil, nil
}

// Update patches the parent, the description and the marker.
func (e *external) Update(ctx context.Context, mg mr, r region, m provenance.Marker) (managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return nil, err
	}
	body := desired(mg.Parameters())
	body.Marker = m.Encode()
	if err := e.regions.Update(ctx, e.sc, nil, r.ID, body); err != nil {
		return nil, keystone.Wrap(err, errUpdate, r.ID)
	}
	return nil, nil
}

// Dependents lists what is in the way of the region's delete: its child regions, which
// Keystone deletes with it (and theirs), and its endpoints, for which Keystone refuses the
// delete. A child's own children and endpoints are the child's: the child in the way already
// blocks.
func (e *external) Dependents(ctx context.Context, _ mr, r region) ([]adoption.Dependent, error) {
	return adoption.Gather(ctx,
		func() ([]adoption.Dependent, error) { return keystone.ChildRegions(ctx, e.sc, r.ID) },
		func() ([]adoption.Dependent, error) { return keystone.EndpointsInRegion(ctx, e.sc, r.ID) },
	)
}

func (e *external) Delete(ctx context.Context, _ mr, r region) error {
	return keystone.Wrap(keystone.IgnoreNotFound(e.regions.Delete(ctx, e.sc, nil, r.ID)), errDelete, r.ID)
}

// managedFields is what the spec manages; only these are compared and written.
type managedFields struct {
	ID             string  `json:"id,omitempty"`
	ParentRegionID *string `json:"parent_region_id,omitempty"`
	Description    *string `json:"description,omitempty"`
	Marker         string  `json:"crossplane_provenance,omitempty"`
}

func desired(fp *v1alpha1.RegionParameters) managedFields {
	return managedFields{ParentRegionID: fp.ParentRegionID, Description: fp.Description}
}

// observed projects a region onto the fields the spec sets, so unset fields never differ.
func observed(r region, fp *v1alpha1.RegionParameters) managedFields {
	var o managedFields
	if fp.ParentRegionID != nil {
		o.ParentRegionID = &r.ParentRegionID
	}
	if fp.Description != nil {
		o.Description = &r.Description
	}
	return o
}
