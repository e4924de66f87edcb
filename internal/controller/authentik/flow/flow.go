// Package flow manages authentik flows.
package flow

import (
	"context"
	"slices"

	api "goauthentik.io/api/v3"
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	clusterv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/shared"
	"github.com/crossplane-contrib/provider-identity/internal/managedkind"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

const (
	typeName = "authentik flow"

	errGet    = "cannot read authentik flow %q"
	errList   = "cannot look up authentik flows with slug %q"
	errCreate = "cannot create authentik flow %q"
	errUpdate = "cannot update authentik flow %q (pk %s)"
	errDelete = "cannot delete authentik flow %q (pk %s)"
)

// mr is a Flow of either scope: the driver is written once against it.
type mr interface {
	resource.Managed
	Parameters() *v1alpha1.FlowParameters
	Observation() *v1alpha1.FlowObservation
	GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy
}

// scopes are the Flow kinds: cluster-scoped (legacy) and namespaced.
var scopes = []managedkind.Scoped[mr]{
	{GVK: clusterv1alpha1.FlowGroupVersionKind, Obj: &clusterv1alpha1.Flow{}},
	{GVK: v1alpha1.FlowGroupVersionKind, Obj: &v1alpha1.Flow{}},
}

// Setup adds the controllers that reconcile Flow managed resources of both scopes.
func Setup(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopes(mgr, o, scopes, setup)
}

// SetupGated adds each scope's controller once its Flow CRD is installed.
func SetupGated(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopesGated(mgr, o, scopes, setup)
}

func setup(mgr ctrl.Manager, o managedkind.Options, gvk schema.GroupVersionKind, obj mr) error {
	return shared.Setup(mgr, o, gvk, obj, newDriver)
}

func newDriver(c shared.Client) adoption.Driver[mr, api.Flow] { return &external{c: c.API} }

// external drives authentik flows for the adoption engine. A flow's external name is its slug,
// the identifier authentik's flow API is addressed by.
type external struct {
	c *api.APIClient
}

// Get reads the flow with the slug.
func (e *external) Get(ctx context.Context, _ mr, slug string) (api.Flow, error) {
	f, resp, err := e.c.FlowsAPI.FlowsInstancesRetrieve(ctx, slug).Execute()
	if err != nil {
		return api.Flow{}, authentik.Wrap(err, resp, errGet, slug)
	}
	return *f, nil
}

// Find looks the flow up by slug (unique in authentik), compared exactly here too.
func (e *external) Find(ctx context.Context, mg mr) ([]api.Flow, error) {
	slug := mg.Parameters().Slug
	all, err := authentik.ListAll(ctx, func(page int32) ([]api.Flow, int32, error) {
		l, resp, err := e.c.FlowsAPI.FlowsInstancesList(ctx).Slug(slug).Page(page).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return nil, 0, authentik.AsError(err, resp)
		}
		return l.Results, authentik.NextPage(l.Pagination), nil
	})
	if err != nil {
		return nil, errors.Wrapf(err, errList, slug)
	}
	return slices.DeleteFunc(all, func(f api.Flow) bool { return f.Slug != slug }), nil
}

func (e *external) IsNotFound(err error) bool { return authentik.IsNotFound(err) }

// Describe presents the flow as markerless: no field of a flow can carry a marker without
// being shown to users or changing what the flow does (docs/adr/0002-authentik-provenance.md).
func (e *external) Describe(f api.Flow) adoption.Description {
	return adoption.Description{ID: f.Slug, Type: typeName, Key: f.Slug, Markerless: true}
}

// Observe records the flow and compares the fields the spec sets.
func (e *external) Observe(mg mr, f api.Flow, p identityv1alpha1.Provenance) adoption.Observation {
	*mg.Observation() = observation(f, p)
	c, err := compare(mg.Parameters(), f)
	if err != nil {
		return adoption.Observation{Diff: err.Error()}
	}
	return adoption.Observation{UpToDate: c.UpToDate(), Diff: c.Diff}
}

func (e *external) Create(ctx context.Context, mg mr, _ provenance.Marker) (string, managed.ConnectionDetails, error) {
	fp := mg.Parameters()
	if err := validate(mg); err != nil {
		return "", nil, err
	}
	req, err := shared.Decode[api.FlowRequest](desired(fp))
	if err != nil {
		return "", nil, errors.Wrapf(err, errCreate, fp.Slug)
	}
	f, resp, err := e.c.FlowsAPI.FlowsInstancesCreate(ctx).FlowRequest(req).Execute()
	if err != nil {
		return "", nil, authentik.Wrap(err, resp, errCreate, fp.Slug)
	}
	return f.Slug, nil, nil
}

// Update PATCHes exactly the managed fields that differ; a flow in sync is never written.
func (e *external) Update(ctx context.Context, mg mr, f api.Flow, _ provenance.Marker) (managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return nil, err
	}
	c, err := compare(mg.Parameters(), f)
	if err != nil || c.UpToDate() {
		return nil, err
	}
	req, err := shared.Decode[api.PatchedFlowRequest](c.Changed)
	if err != nil {
		return nil, errors.Wrapf(err, errUpdate, f.Slug, f.Pk)
	}
	updated, resp, err := e.c.FlowsAPI.FlowsInstancesPartialUpdate(ctx, f.Slug).PatchedFlowRequest(req).Execute()
	if err != nil {
		return nil, authentik.Wrap(err, resp, errUpdate, f.Slug, f.Pk)
	}
	*mg.Observation() = observation(*updated, mg.Observation().Provenance)
	return nil, nil
}

func (e *external) Delete(ctx context.Context, _ mr, f api.Flow) error {
	resp, err := e.c.FlowsAPI.FlowsInstancesDestroy(ctx, f.Slug).Execute()
	return authentik.IgnoreNotFound(authentik.Wrap(err, resp, errDelete, f.Slug, f.Pk))
}

func observation(f api.Flow, p identityv1alpha1.Provenance) v1alpha1.FlowObservation {
	return v1alpha1.FlowObservation{
		ID: f.Pk, PolicyBindingModelID: f.PolicybindingmodelPtrId, Slug: f.Slug, Designation: string(f.Designation),
		Stages: f.Stages, Provenance: p,
	}
}

// desired is what the spec sets, in authentik's wire format: unset fields are absent, so they
// are neither compared nor written.
func desired(fp *v1alpha1.FlowParameters) shared.Fields {
	f := shared.Fields{"name": fp.Name, "slug": fp.Slug, "title": fp.Title, "designation": fp.Designation}
	for k, v := range map[string]*string{
		"authentication": fp.Authentication, "layout": fp.Layout, "policy_engine_mode": fp.PolicyEngineMode, "denied_action": fp.DeniedAction,
	} {
		if v != nil {
			f[k] = *v
		}
	}
	if fp.CompatibilityMode != nil {
		f["compatibility_mode"] = *fp.CompatibilityMode
	}
	return f
}

func compare(fp *v1alpha1.FlowParameters, f api.Flow) (shared.Comparison, error) {
	have, err := shared.ToFields(f)
	if err != nil {
		return shared.Comparison{}, err
	}
	return shared.Compare(desired(fp), have, nil), nil
}
