// Package outpost manages authentik outposts and publishes each outpost's API token to its
// connection Secret (docs/adr/0011-outposts.md).
package outpost

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
	errGet            = "cannot read authentik outpost %s"
	errList           = "cannot look up authentik outposts named %q"
	errCreate         = "cannot create authentik outpost %q"
	errUpdate         = "cannot update authentik outpost %q (%s)"
	errDelete         = "cannot delete authentik outpost %q (%s)"
	errEmbeddedDelete = "authentik outpost %q (%s) is authentik's embedded outpost: authentik makes it again when it starts, and deleting it stops every provider it serves; let the resource go without deleting it (managementPolicies without Delete, or deletionPolicy: Orphan on a cluster-scoped Outpost)"

	// Embedded is the managed mark authentik gives its own embedded outpost.
	Embedded = "goauthentik.io/outposts/embedded"
)

// mr is an Outpost of either scope: the driver is written once against it.
type mr interface {
	resource.Managed
	Parameters() *v1alpha1.OutpostParameters
	Observation() *v1alpha1.OutpostObservation
	GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy
}

// scopes are the Outpost kinds: cluster-scoped (legacy) and namespaced.
var scopes = []managedkind.Scoped[mr]{
	{GVK: clusterv1alpha1.OutpostGroupVersionKind, Obj: &clusterv1alpha1.Outpost{}},
	{GVK: v1alpha1.OutpostGroupVersionKind, Obj: &v1alpha1.Outpost{}},
}

// Setup adds the controllers that reconcile Outpost managed resources of both scopes.
func Setup(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopes(mgr, o, scopes, setup)
}

// SetupGated adds each scope's controller once its Outpost CRD is installed.
func SetupGated(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopesGated(mgr, o, scopes, setup)
}

func setup(mgr ctrl.Manager, o managedkind.Options, gvk schema.GroupVersionKind, obj mr) error {
	return shared.Setup(mgr, o, gvk, obj, func(c shared.Client) adoption.Driver[mr, Observed] { return New(c) })
}

// Observed is an outpost as authentik returns it, with the connection details read for it.
type Observed struct {
	Outpost api.Outpost
	Details managed.ConnectionDetails
}

// External drives authentik outposts for the adoption engine, for one reconcile.
type External struct {
	shared.Client
}

var _ adoption.Cascader[mr, Observed] = &External{}

// New returns a driver for one reconcile.
func New(c shared.Client) *External { return &External{Client: c} }

// Get reads the outpost with the UUID.
func (e *External) Get(ctx context.Context, mg mr, id string) (Observed, error) {
	if !uuid.MatchString(id) {
		return Observed{}, authentik.NotFound("authentik outpost " + id)
	}
	o, resp, err := e.API.OutpostsAPI.OutpostsInstancesRetrieve(ctx, id).Execute()
	if err != nil {
		return Observed{}, authentik.Wrap(err, resp, errGet, id)
	}
	return e.observed(ctx, mg, *o)
}

// Find looks the outpost up by name. authentik filters names case-insensitively; the name is
// compared exactly here.
func (e *External) Find(ctx context.Context, mg mr) ([]Observed, error) {
	name := mg.Parameters().Name
	all, err := authentik.ListAll(ctx, func(page int32) ([]api.Outpost, int32, error) {
		l, resp, err := e.API.OutpostsAPI.OutpostsInstancesList(ctx).NameIexact(name).Page(page).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return nil, 0, authentik.AsError(err, resp)
		}
		return l.Results, authentik.NextPage(l.Pagination), nil
	})
	if err != nil {
		return nil, errors.Wrapf(err, errList, name)
	}
	all = slices.DeleteFunc(all, func(o api.Outpost) bool { return o.Name != name })
	out := make([]Observed, 0, len(all))
	for _, o := range all {
		ob, err := e.observed(ctx, mg, o)
		if err != nil {
			return nil, err
		}
		out = append(out, ob)
	}
	return out, nil
}

func (e *External) observed(ctx context.Context, mg mr, o api.Outpost) (Observed, error) {
	cd, err := e.details(ctx, mg, o)
	if err != nil {
		return Observed{}, err
	}
	return Observed{Outpost: o, Details: cd}, nil
}

// IsNotFound reports whether err is authentik's 404.
func (e *External) IsNotFound(err error) bool { return authentik.IsNotFound(err) }

// Describe presents the outpost to the engine with the marker its config carries.
func (e *External) Describe(o Observed) adoption.Description {
	return adoption.Description{ID: o.Outpost.Pk, Type: authentik.TypeOutpost, Key: o.Outpost.Name, Marker: authentik.AttributeMarker(o.Outpost.Config)}
}

// Observe records the outpost, passes on its connection details and compares the fields the
// spec sets.
func (e *External) Observe(mg mr, o Observed, p identityv1alpha1.Provenance) adoption.Observation {
	*mg.Observation() = observation(o.Outpost, p)
	obs := adoption.Observation{ConnectionDetails: o.Details}
	want, err := desired(mg.Parameters())
	if err != nil {
		obs.Diff = err.Error()
		return obs
	}
	c, err := compare(want, o.Outpost)
	if err != nil {
		obs.Diff = err.Error()
		return obs
	}
	obs.UpToDate, obs.Diff = c.UpToDate(), c.Diff
	return obs
}

// Create creates the outpost with the spec's fields and the marker in its config. authentik
// makes the outpost's service account and API token itself; the token is published once it
// exists (see details).
func (e *External) Create(ctx context.Context, mg mr, m provenance.Marker) (string, managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return "", nil, err
	}
	fp := mg.Parameters()
	want, err := desired(fp)
	if err != nil {
		return "", nil, err
	}
	f := want.top
	cfg, _ := authentik.MergeAttributes(nil, want.config, m)
	f["config"] = cfg
	req, err := shared.Decode[api.OutpostRequest](f)
	if err != nil {
		return "", nil, err
	}
	o, resp, err := e.API.OutpostsAPI.OutpostsInstancesCreate(ctx).OutpostRequest(req).Execute()
	if err != nil {
		return "", nil, authentik.Wrap(err, resp, errCreate, fp.Name)
	}
	return o.Pk, nil, nil
}

// Update PATCHes exactly the managed fields that differ, and the config when it or the marker
// does; an outpost in sync is never written.
func (e *External) Update(ctx context.Context, mg mr, o Observed, m provenance.Marker) (managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return nil, err
	}
	want, err := desired(mg.Parameters())
	if err != nil {
		return nil, err
	}
	body, err := patch(want, o.Outpost, m)
	if err != nil || len(body) == 0 {
		return nil, err
	}
	req, err := shared.Decode[api.PatchedOutpostRequest](body)
	if err != nil {
		return nil, err
	}
	updated, resp, err := e.API.OutpostsAPI.OutpostsInstancesPartialUpdate(ctx, o.Outpost.Pk).PatchedOutpostRequest(req).Execute()
	if err != nil {
		return nil, authentik.Wrap(err, resp, errUpdate, o.Outpost.Name, o.Outpost.Pk)
	}
	*mg.Observation() = observation(*updated, mg.Observation().Provenance)
	return nil, nil
}

// Delete deletes the outpost; authentik deletes its service account and API token with it.
// The embedded outpost is never deleted (see errEmbeddedDelete).
func (e *External) Delete(ctx context.Context, _ mr, o Observed) error {
	if o.Outpost.GetManaged() == Embedded {
		return errors.Errorf(errEmbeddedDelete, o.Outpost.Name, o.Outpost.Pk)
	}
	resp, err := e.API.OutpostsAPI.OutpostsInstancesDestroy(ctx, o.Outpost.Pk).Execute()
	return authentik.IgnoreNotFound(authentik.Wrap(err, resp, errDelete, o.Outpost.Name, o.Outpost.Pk))
}

func observation(o api.Outpost, p identityv1alpha1.Provenance) v1alpha1.OutpostObservation {
	return v1alpha1.OutpostObservation{
		ID: o.Pk, Name: o.Name, Type: string(o.Type), ProviderIDs: providerIDs(o.Providers),
		TokenIdentifier: o.TokenIdentifier, Managed: o.GetManaged(), Provenance: p,
	}
}
