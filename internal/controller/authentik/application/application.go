// Package application manages authentik applications.
package application

import (
	"context"
	"strconv"

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
	errGet    = "cannot read authentik application %q"
	errCreate = "cannot create authentik application %q"
	errUpdate = "cannot update authentik application %q"
	errDelete = "cannot delete authentik application %q"
	errID     = "provider ID %q in spec.forProvider is not an integer"

	typeName = "authentik application"

	fieldDescription = "meta_description"
	fieldProvider    = "provider"
)

// mr is an Application of either scope: the driver is written once against it.
type mr interface {
	resource.Managed
	Parameters() *v1alpha1.ApplicationParameters
	Observation() *v1alpha1.ApplicationObservation
	GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy
}

// scopes are the Application kinds: cluster-scoped (legacy) and namespaced.
var scopes = []managedkind.Scoped[mr]{
	{GVK: clusterv1alpha1.ApplicationGroupVersionKind, Obj: &clusterv1alpha1.Application{}},
	{GVK: v1alpha1.ApplicationGroupVersionKind, Obj: &v1alpha1.Application{}},
}

// Setup adds the controllers that reconcile Application managed resources of both scopes.
func Setup(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopes(mgr, o, scopes, setup)
}

// SetupGated adds each scope's controller once its Application CRD is installed.
func SetupGated(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopesGated(mgr, o, scopes, setup)
}

func setup(mgr ctrl.Manager, o managedkind.Options, gvk schema.GroupVersionKind, obj mr) error {
	owners := managedkind.NewOwners(mgr, o)
	return shared.Setup(mgr, o, gvk, obj, func(c shared.Client) adoption.Driver[mr, api.Application] {
		e := New(c)
		e.Providers = owners
		return e
	})
}

// External drives authentik applications for the adoption engine. Applications carry their
// provenance marker as the last line of meta_description (provenance.EmbedInText); the rest
// of the description is what spec.forProvider.description manages.
type External struct {
	shared.Client
	// objs share the reads of applications by slug among the kind's reconciles.
	objs *authentik.Shared[api.Application]
	// Providers, when set, refreshes the resources of the providers an application assigns
	// or releases; nil leaves them to their next poll.
	Providers Refresher
}

// New returns a driver.
func New(c shared.Client) *External { return &External{Client: c, objs: objects(c.Reads)} }

// objects are the kind's shared reads of applications: the list of all of them (every one,
// not only those the token's user may open: superuser_full_list) renders them as a read does.
func objects(r *shared.Reads) *authentik.Shared[api.Application] {
	const list = "core/applications/?superuser_full_list=true"
	return shared.ObjectsOf(r, list, authentik.ApplicationPages(list), func(a api.Application) string { return a.Slug })
}

var _ adoption.Driver[mr, api.Application] = &External{}

// Get reads the application with the slug.
func (e *External) Get(ctx context.Context, _ mr, slug string) (api.Application, error) {
	return e.objs.Get(ctx, e.API, slug, func(ctx context.Context) (api.Application, error) {
		a, resp, err := e.API.CoreAPI.CoreApplicationsRetrieve(ctx, slug).Execute()
		if err != nil {
			return api.Application{}, authentik.Wrap(err, resp, errGet, slug)
		}
		return *a, nil
	})
}

// Find looks the application up by its slug, its natural key and external name alike.
func (e *External) Find(ctx context.Context, mg mr) ([]api.Application, error) {
	a, err := e.Get(ctx, mg, mg.Parameters().Slug)
	return adoption.FoundByKey(a, err, authentik.IsNotFound)
}

// IsNotFound reports whether err is authentik's 404.
func (e *External) IsNotFound(err error) bool { return authentik.IsNotFound(err) }

// IsTwin: authentik refuses a second application with the same slug (adoption.TwinRefuser).
func (e *External) IsTwin(err error) bool { return authentik.IsTaken(err, "slug") }

// Describe reads the marker from the last line of the description. An unreadable marker
// proves nothing.
func (e *External) Describe(a api.Application) adoption.Description {
	d := adoption.Description{ID: a.Slug, Type: typeName, Key: a.Slug}
	if _, m, found, err := provenance.ExtractFromText(a.GetMetaDescription()); found && err == nil {
		d.Marker = &m
	}
	return d
}

// Observe records the application and compares the fields the spec sets.
func (e *External) Observe(mg mr, a api.Application, p identityv1alpha1.Provenance) adoption.Observation {
	*mg.Observation() = v1alpha1.ApplicationObservation{
		ID: a.Slug, UUID: a.Pk, Name: a.Name, LaunchURL: a.GetLaunchUrl(), Provenance: p,
	}
	mg.Observation().ProviderID = assignedProvider(a)
	c, err := Compare(mg.Parameters(), a)
	if err != nil {
		return adoption.Observation{Diff: err.Error()}
	}
	return adoption.Observation{UpToDate: c.UpToDate(), Diff: c.Diff}
}

// Create creates the application with the marker below its description.
func (e *External) Create(ctx context.Context, mg mr, m provenance.Marker) (string, managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return "", nil, err
	}
	fp := mg.Parameters()
	f, err := Desired(fp)
	if err != nil {
		return "", nil, err
	}
	f[fieldDescription] = provenance.EmbedInText(deref(fp.Description), m)
	req, err := shared.Decode[api.ApplicationRequest](f)
	if err != nil {
		return "", nil, err
	}
	a, resp, err := e.API.CoreAPI.CoreApplicationsCreate(ctx).ApplicationRequest(req).Execute()
	e.objs.Wrote(e.API, fp.Slug, a, err)
	if err != nil {
		return "", nil, authentik.Wrap(err, resp, errCreate, fp.Slug)
	}
	e.refreshProviders(ctx, providerOf(fp))
	return a.Slug, nil, nil
}

// Update PATCHes the managed fields that differ, and the description when its marker is not
// this resource's (an adoption): the rest of the description is kept unless the spec sets it.
func (e *External) Update(ctx context.Context, mg mr, a api.Application, m provenance.Marker) (managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return nil, err
	}
	fp := mg.Parameters()
	c, err := Compare(fp, a)
	if err != nil {
		return nil, err
	}
	patch := c.Changed
	rest, have, found, _ := provenance.ExtractFromText(a.GetMetaDescription())
	if _, ok := patch[fieldDescription]; ok || !found || have != m {
		text := rest
		if fp.Description != nil {
			text = *fp.Description
		}
		patch[fieldDescription] = provenance.EmbedInText(text, m)
	}
	req, err := shared.Decode[api.PatchedApplicationRequest](patch)
	if err != nil {
		return nil, err
	}
	updated, resp, err := e.API.CoreAPI.CoreApplicationsPartialUpdate(ctx, a.Slug).PatchedApplicationRequest(req).Execute()
	e.objs.Wrote(e.API, a.Slug, updated, err)
	if err != nil {
		return nil, authentik.Wrap(err, resp, errUpdate, a.Slug)
	}
	if _, moved := patch[fieldProvider]; moved {
		e.refreshProviders(ctx, assignedProvider(a), providerOf(fp))
	}
	return nil, nil
}

// Delete deletes the application.
func (e *External) Delete(ctx context.Context, _ mr, a api.Application) error {
	resp, err := e.API.CoreAPI.CoreApplicationsDestroy(ctx, a.Slug).Execute()
	e.objs.Forget(e.API, a.Slug)
	return authentik.IgnoreNotFound(authentik.Wrap(err, resp, errDelete, a.Slug))
}

// Desired renders the fields the spec sets in authentik's wire format; the description is
// the user's part, without the marker.
func Desired(fp *v1alpha1.ApplicationParameters) (shared.Fields, error) {
	r := api.PatchedApplicationRequest{Name: &fp.Name, Slug: &fp.Slug}
	for _, id := range []*string{fp.OAuth2ProviderID, fp.SAMLProviderID, fp.ProxyProviderID, fp.LDAPProviderID} {
		if id == nil {
			continue
		}
		pk, err := parseID(*id)
		if err != nil {
			return nil, err
		}
		r.Provider.Set(&pk)
		break
	}
	if len(fp.BackchannelProviderIDs) > 0 {
		r.BackchannelProviders = make([]int32, 0, len(fp.BackchannelProviderIDs))
		for _, id := range fp.BackchannelProviderIDs {
			pk, err := parseID(id)
			if err != nil {
				return nil, err
			}
			r.BackchannelProviders = append(r.BackchannelProviders, pk)
		}
	}
	r.Group = fp.Group
	r.MetaLaunchUrl = fp.LaunchURL
	r.MetaDescription = fp.Description
	r.MetaPublisher = fp.Publisher
	r.MetaIcon = fp.IconURL
	r.PolicyEngineMode = (*api.PolicyEngineMode)(fp.PolicyEngineMode)
	r.OpenInNewTab = fp.OpenInNewTab
	r.MetaHide = fp.Hidden
	return shared.ToFields(r)
}

var normalizers = map[string]shared.Normalizer{"backchannel_providers": shared.Set}

// Compare compares the fields the spec sets with the application; its description is
// compared without the marker line.
func Compare(fp *v1alpha1.ApplicationParameters, a api.Application) (shared.Comparison, error) {
	want, err := Desired(fp)
	if err != nil {
		return shared.Comparison{}, err
	}
	have, err := shared.ToFields(a)
	if err != nil {
		return shared.Comparison{}, err
	}
	rest, _, _, _ := provenance.ExtractFromText(a.GetMetaDescription())
	have[fieldDescription] = rest
	return shared.Compare(want, have, normalizers), nil
}

func parseID(id string) (int32, error) {
	pk, err := strconv.ParseInt(id, 10, 32)
	if err != nil {
		return 0, errors.Errorf(errID, id)
	}
	return int32(pk), nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
