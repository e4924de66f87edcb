// Package brand manages authentik brands. A brand carries its provenance marker in its
// attributes, as groups and users do; authentik's own default brand (authentik-default)
// carries none, so it is only ever written by a Brand that adopts it explicitly.
package brand

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"

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
	typeName = "authentik brand"

	errGet        = "cannot read authentik brand %s"
	errList       = "cannot look up authentik brands with domain %q"
	errCreate     = "cannot create authentik brand %q"
	errUpdate     = "cannot update authentik brand %q (brand_uuid %s)"
	errDelete     = "cannot delete authentik brand %q (brand_uuid %s)"
	errAttributes = "cannot use spec.forProvider.attributes of authentik brand %q"
	errDefault    = "authentik brand %q cannot become the default: authentik allows one default brand, and %s is it; set default to false there first (authentik's own brand authentik-default is changed only by a Brand that adopts it), or leave spec.forProvider.default unset"
)

// mr is a Brand of either scope: the driver is written once against it.
type mr interface {
	resource.Managed
	Parameters() *v1alpha1.BrandParameters
	Observation() *v1alpha1.BrandObservation
	GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy
}

// scopes are the Brand kinds: cluster-scoped (legacy) and namespaced.
var scopes = []managedkind.Scoped[mr]{
	{GVK: clusterv1alpha1.BrandGroupVersionKind, Obj: &clusterv1alpha1.Brand{}},
	{GVK: v1alpha1.BrandGroupVersionKind, Obj: &v1alpha1.Brand{}},
}

// Setup adds the controllers that reconcile Brand managed resources of both scopes.
func Setup(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopes(mgr, o, scopes, setup)
}

// SetupGated adds each scope's controller once its Brand CRD is installed.
func SetupGated(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopesGated(mgr, o, scopes, setup)
}

func setup(mgr ctrl.Manager, o managedkind.Options, gvk schema.GroupVersionKind, obj mr) error {
	return shared.Setup(mgr, o, gvk, obj, newDriver)
}

func newDriver(c shared.Client) adoption.Driver[mr, api.Brand] {
	return &external{c: c.API, res: shared.NewResolver(c.API, c.Reads)}
}

// external drives authentik brands for the adoption engine. It lives for one reconcile: the
// spec's flows and default application are resolved to pks once, when the brand is read, so
// that Observe compares without I/O.
type external struct {
	c   *api.APIClient
	res *shared.Resolver

	prepared bool
	want     desiredBrand
	wantErr  error
}

// Get reads the brand with the brand_uuid.
func (e *external) Get(ctx context.Context, mg mr, id string) (api.Brand, error) {
	b, resp, err := e.c.CoreAPI.CoreBrandsRetrieve(ctx, id).Execute()
	if err != nil {
		return api.Brand{}, authentik.Wrap(err, resp, errGet, id)
	}
	e.prepare(ctx, mg)
	return *b, nil
}

// Find looks the brand up by domain, which authentik keeps unique.
func (e *external) Find(ctx context.Context, mg mr) ([]api.Brand, error) {
	domain := mg.Parameters().Domain
	all, err := authentik.ListAll(ctx, func(page int32) ([]api.Brand, int32, error) {
		l, resp, err := e.c.CoreAPI.CoreBrandsList(ctx).Domain(domain).Page(page).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return nil, 0, authentik.AsError(err, resp)
		}
		return l.Results, authentik.NextPage(l.Pagination), nil
	})
	if err != nil {
		return nil, errors.Wrapf(err, errList, domain)
	}
	e.prepare(ctx, mg)
	return slices.DeleteFunc(all, func(b api.Brand) bool { return b.Domain != domain }), nil
}

func (e *external) IsNotFound(err error) bool { return authentik.IsNotFound(err) }

func (e *external) Describe(b api.Brand) adoption.Description {
	return adoption.Description{ID: b.BrandUuid, Type: typeName, Key: b.Domain, Marker: authentik.AttributeMarker(b.Attributes)}
}

// Observe records the brand and compares the fields the spec sets.
func (e *external) Observe(mg mr, b api.Brand, p identityv1alpha1.Provenance) adoption.Observation {
	*mg.Observation() = observation(b, p)
	if e.wantErr != nil {
		return adoption.Observation{Diff: e.wantErr.Error()}
	}
	c, err := e.want.compare(b)
	if err != nil {
		return adoption.Observation{Diff: err.Error()}
	}
	return adoption.Observation{UpToDate: c.UpToDate(), Diff: c.Diff}
}

func (e *external) Create(ctx context.Context, mg mr, m provenance.Marker) (string, managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return "", nil, err
	}
	e.prepare(ctx, mg)
	if e.wantErr != nil {
		return "", nil, e.wantErr
	}
	domain := mg.Parameters().Domain
	f := shared.Fields{}
	for k, v := range e.want.fields {
		f[k] = v
	}
	f["attributes"], _ = authentik.MergeAttributes(nil, e.want.attributes, m)
	req, err := shared.Decode[api.BrandRequest](f)
	if err != nil {
		return "", nil, errors.Wrapf(err, errCreate, domain)
	}
	b, resp, err := e.c.CoreAPI.CoreBrandsCreate(ctx).BrandRequest(req).Execute()
	if err != nil {
		return "", nil, e.explain(ctx, authentik.Wrap(err, resp, errCreate, domain), domain)
	}
	return b.BrandUuid, nil, nil
}

// Update PATCHes exactly the managed fields that differ, and the attributes when a managed
// key or the marker differs (a PATCH of attributes replaces them all, so the others are
// sent as they are). A brand in sync is never written.
func (e *external) Update(ctx context.Context, mg mr, b api.Brand, m provenance.Marker) (managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return nil, err
	}
	if e.wantErr != nil {
		return nil, e.wantErr
	}
	c, err := e.want.compare(b)
	if err != nil {
		return nil, err
	}
	patch := shared.Fields{}
	for k, v := range c.Changed {
		if k != "attributes" {
			patch[k] = v
		}
	}
	if attrs, changed := authentik.MergeAttributes(b.Attributes, e.want.attributes, m); changed {
		patch["attributes"] = attrs
	}
	if len(patch) == 0 {
		return nil, nil
	}
	req, err := shared.Decode[api.PatchedBrandRequest](patch)
	if err != nil {
		return nil, errors.Wrapf(err, errUpdate, b.Domain, b.BrandUuid)
	}
	updated, resp, err := e.c.CoreAPI.CoreBrandsPartialUpdate(ctx, b.BrandUuid).PatchedBrandRequest(req).Execute()
	if err != nil {
		return nil, e.explain(ctx, authentik.Wrap(err, resp, errUpdate, b.Domain, b.BrandUuid), b.Domain)
	}
	*mg.Observation() = observation(*updated, mg.Observation().Provenance)
	return nil, nil
}

// Delete deletes the brand. Nothing in authentik refers to a brand, so it takes nothing with
// it; domains it answered for fall back to the default brand.
func (e *external) Delete(ctx context.Context, _ mr, b api.Brand) error {
	resp, err := e.c.CoreAPI.CoreBrandsDestroy(ctx, b.BrandUuid).Execute()
	return authentik.IgnoreNotFound(authentik.Wrap(err, resp, errDelete, b.Domain, b.BrandUuid))
}

// explain turns authentik's refusal of a second default brand into a message naming the
// brand that is the default; other errors pass unchanged.
func (e *external) explain(ctx context.Context, err error, domain string) error {
	var ae *authentik.Error
	if !errors.As(err, &ae) || ae.Status != http.StatusBadRequest || !strings.Contains(ae.Message, "default") {
		return err
	}
	who := "another brand"
	if l, _, lerr := e.c.CoreAPI.CoreBrandsList(ctx).Default_(true).Execute(); lerr == nil {
		for _, b := range l.Results {
			if b.Domain != domain {
				who = "brand " + strconv.Quote(b.Domain) + " (brand_uuid " + b.BrandUuid + ")"
				break
			}
		}
	}
	return errors.Errorf(errDefault, domain, who)
}

// prepare resolves the spec once per reconcile.
func (e *external) prepare(ctx context.Context, mg mr) {
	if e.prepared {
		return
	}
	e.prepared = true
	e.want, e.wantErr = desired(ctx, e.c, e.res, mg)
}

func observation(b api.Brand, p identityv1alpha1.Provenance) v1alpha1.BrandObservation {
	o := v1alpha1.BrandObservation{
		ID: b.BrandUuid, Domain: b.Domain, Default: b.GetDefault(), BrandingTitle: b.GetBrandingTitle(),
		DefaultApplicationID: b.GetDefaultApplication(), WebCertificateID: b.GetWebCertificate(), Provenance: p,
	}
	have, err := shared.ToFields(b)
	if err != nil {
		return o
	}
	for _, f := range flowFields {
		if pk, ok := have[f.wire].(string); ok && pk != "" {
			if o.Flows == nil {
				o.Flows = map[string]string{}
			}
			o.Flows[f.use] = pk
		}
	}
	return o
}
