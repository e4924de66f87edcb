// Package proxyprovider manages authentik proxy providers.
package proxyprovider

import (
	"context"
	"slices"
	"strconv"

	api "goauthentik.io/api/v3"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"

	"github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/shared"
	"github.com/crossplane-contrib/provider-identity/internal/managedkind"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

const (
	errGet       = "cannot read authentik proxy provider %s"
	errList      = "cannot look up authentik proxy providers named %q"
	errCreate    = "cannot create authentik proxy provider %q"
	errNameTaken = "cannot create authentik proxy provider %q: a provider of another type (OAuth2, SAML, LDAP...) already has this name, and provider names are unique across all types in authentik; choose another name"
	errUpdate    = "cannot update authentik proxy provider %q (ID %d)"
	errDelete    = "cannot delete authentik proxy provider %q (ID %d)"

	typeName = "authentik proxy provider"
)

// ServerAddedScopeMappings are the managed scope mappings authentik adds to every proxy
// provider on each create and update (ProxyProviderSerializer's set_oauth_defaults). They are
// never drift.
var ServerAddedScopeMappings = []string{
	"goauthentik.io/providers/oauth2/scope-openid",
	"goauthentik.io/providers/oauth2/scope-email",
	"goauthentik.io/providers/oauth2/scope-profile",
	"goauthentik.io/providers/proxy/scope-proxy",
}

// Setup adds a controller that reconciles ProxyProvider managed resources.
func Setup(mgr ctrl.Manager, o managedkind.Options) error {
	return shared.Setup(mgr, o, v1alpha1.ProxyProviderGroupVersionKind, &v1alpha1.ProxyProvider{},
		func(c shared.Client) adoption.Driver[*v1alpha1.ProxyProvider, Observed] { return New(c) },
		func(mg *v1alpha1.ProxyProvider) identityv1alpha1.AdoptionPolicy { return mg.Spec.GetAdoptionPolicy() })
}

// SetupGated adds the controller once the ProxyProvider CRD is installed.
func SetupGated(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupGated(mgr, o, v1alpha1.ProxyProviderGroupVersionKind, Setup)
}

// Observed is a proxy provider as authentik returns it, with the marker of the application
// using it when it was found by name.
type Observed struct {
	Provider  api.ProxyProvider
	AppMarker *provenance.Marker
	// Unrecorded is set for a provider found by name that is not the one the resource's
	// external name records.
	Unrecorded bool
}

// External drives authentik proxy providers for the adoption engine, for one reconcile.
type External struct {
	shared.Client
	res *shared.Resolver

	prepared bool
	want     shared.Fields
	// serverAdded are the primary keys of ServerAddedScopeMappings, resolved when the spec
	// manages property mappings.
	serverAdded []string
	wantErr     error
}

// New returns a driver for one reconcile.
func New(c shared.Client) *External {
	return &External{Client: c, res: shared.NewResolver(c.API)}
}

var _ adoption.Driver[*v1alpha1.ProxyProvider, Observed] = &External{}

// Get reads the provider with the ID.
func (e *External) Get(ctx context.Context, mg *v1alpha1.ProxyProvider, id string) (Observed, error) {
	pk, err := shared.ParsePK(id)
	if err != nil {
		return Observed{}, err
	}
	p, resp, err := e.API.ProvidersAPI.ProvidersProxyRetrieve(ctx, pk).Execute()
	if err != nil {
		return Observed{}, shared.Wrap(err, resp, errGet, id)
	}
	e.prepare(ctx, mg)
	return Observed{Provider: *p}, nil
}

// Find looks the provider up by name. authentik filters proxy providers by name only
// case-insensitively; the name is compared exactly here.
func (e *External) Find(ctx context.Context, mg *v1alpha1.ProxyProvider) ([]Observed, error) {
	name := mg.Spec.ForProvider.Name
	all, err := authentik.ListAll(ctx, func(page int32) ([]api.ProxyProvider, int32, error) {
		l, resp, err := e.API.ProvidersAPI.ProvidersProxyList(ctx).NameIexact(name).Page(page).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return nil, 0, shared.Wrap(err, resp, errList, name)
		}
		return l.Results, authentik.NextPage(l.Pagination), nil
	})
	if err != nil {
		return nil, err
	}
	var out []Observed
	for _, p := range all {
		if p.Name != name {
			continue
		}
		m, err := e.AppMarker(ctx, p.Name, p.GetAssignedApplicationSlug())
		if err != nil {
			return nil, err
		}
		out = append(out, Observed{Provider: p, AppMarker: m, Unrecorded: shared.Unrecorded(mg, p.Pk)})
	}
	e.prepare(ctx, mg)
	return out, nil
}

// IsNotFound reports whether err is authentik's 404.
func (e *External) IsNotFound(err error) bool { return shared.IsNotFound(err) }

// Describe presents the provider to the engine: see shared.DescribeProvider.
func (e *External) Describe(o Observed) adoption.Description {
	return shared.DescribeProvider(o.Provider.Pk, typeName, o.Provider.Name, o.AppMarker, e.Installation, o.Unrecorded)
}

// Observe records the provider and compares the fields the spec sets.
func (e *External) Observe(mg *v1alpha1.ProxyProvider, o Observed, p identityv1alpha1.Provenance) adoption.Observation {
	pr := o.Provider
	mg.Status.AtProvider = v1alpha1.ProxyProviderObservation{
		ProviderObservation: v1alpha1.ProviderObservation{ID: strconv.Itoa(int(pr.Pk)), Name: pr.Name, AssignedApplication: pr.GetAssignedApplicationSlug()},
		ClientID:            pr.ClientId,
		Mode:                string(pr.GetMode()),
		ExternalHost:        pr.ExternalHost,
		Provenance:          p,
	}
	obs := adoption.Observation{}
	if e.wantErr != nil {
		obs.Diff = e.wantErr.Error()
		return obs
	}
	c, err := compare(e.want, pr, e.serverAdded)
	if err != nil {
		obs.Diff = err.Error()
		return obs
	}
	obs.UpToDate, obs.Diff = c.UpToDate(), c.Diff
	return obs
}

// Create creates the provider.
func (e *External) Create(ctx context.Context, mg *v1alpha1.ProxyProvider, _ provenance.Marker) (string, managed.ConnectionDetails, error) {
	e.prepare(ctx, mg)
	if e.wantErr != nil {
		return "", nil, e.wantErr
	}
	req, err := shared.Decode[api.ProxyProviderRequest](e.want)
	if err != nil {
		return "", nil, err
	}
	p, resp, err := e.API.ProvidersAPI.ProvidersProxyCreate(ctx).ProxyProviderRequest(req).Execute()
	if err != nil {
		err = shared.Wrap(err, resp, errCreate, mg.Spec.ForProvider.Name)
		if shared.IsUniqueName(err) {
			return "", nil, errors.Errorf(errNameTaken, mg.Spec.ForProvider.Name)
		}
		return "", nil, err
	}
	return strconv.Itoa(int(p.Pk)), nil, nil
}

// Update PATCHes exactly the managed fields that differ; a provider in sync is never written.
func (e *External) Update(ctx context.Context, mg *v1alpha1.ProxyProvider, o Observed, _ provenance.Marker) (managed.ConnectionDetails, error) {
	if e.wantErr != nil {
		return nil, e.wantErr
	}
	c, err := compare(e.want, o.Provider, e.serverAdded)
	if err != nil || c.UpToDate() {
		return nil, err
	}
	req, err := shared.Decode[api.PatchedProxyProviderRequest](c.Changed)
	if err != nil {
		return nil, err
	}
	_, resp, err := e.API.ProvidersAPI.ProvidersProxyPartialUpdate(ctx, o.Provider.Pk).PatchedProxyProviderRequest(req).Execute()
	return nil, shared.Wrap(err, resp, errUpdate, o.Provider.Name, o.Provider.Pk)
}

// Delete deletes the provider.
func (e *External) Delete(ctx context.Context, _ *v1alpha1.ProxyProvider, o Observed) error {
	resp, err := e.API.ProvidersAPI.ProvidersProxyDestroy(ctx, o.Provider.Pk).Execute()
	if err = shared.Wrap(err, resp, errDelete, o.Provider.Name, o.Provider.Pk); shared.IsNotFound(err) {
		return nil
	}
	return err
}

// prepare resolves the spec once per reconcile; see the OAuth2 driver.
func (e *External) prepare(ctx context.Context, mg *v1alpha1.ProxyProvider) {
	if e.prepared {
		return
	}
	e.prepared = true
	e.want, e.wantErr = e.desired(ctx, &mg.Spec.ForProvider)
}

func (e *External) desired(ctx context.Context, fp *v1alpha1.ProxyProviderParameters) (shared.Fields, error) {
	r := api.PatchedProxyProviderRequest{}
	if err := e.res.Flows(ctx, fp.ProviderFlows, &r.AuthorizationFlow, &r.InvalidationFlow, &r.AuthenticationFlow); err != nil {
		return nil, err
	}
	if err := e.res.Certificate(ctx, "certificate", fp.Certificate, &r.Certificate); err != nil {
		return nil, err
	}
	var err error
	if len(fp.PropertyMappings) > 0 {
		if r.PropertyMappings, err = e.res.ScopeMappings(ctx, "propertyMappings", fp.PropertyMappings); err != nil {
			return nil, err
		}
		if e.serverAdded, err = e.res.ManagedScopeMappings(ctx, ServerAddedScopeMappings...); err != nil {
			return nil, err
		}
	}
	return Desired(fp, r)
}

// Desired completes r, which holds the resolved references, with the spec's plain fields and
// renders it in authentik's wire format.
func Desired(fp *v1alpha1.ProxyProviderParameters, r api.PatchedProxyProviderRequest) (shared.Fields, error) {
	r.Name = &fp.Name
	mode := api.ProxyMode(fp.Mode)
	r.Mode = &mode
	r.ExternalHost = &fp.ExternalHost
	r.InternalHost = fp.InternalHost
	r.InternalHostSslValidation = fp.InternalHostSSLValidation
	r.CookieDomain = fp.CookieDomain
	r.SkipPathRegex = fp.SkipPathRegex
	r.BasicAuthEnabled = fp.BasicAuthEnabled
	r.BasicAuthUserAttribute = fp.BasicAuthUserAttribute
	r.BasicAuthPasswordAttribute = fp.BasicAuthPasswordAttribute
	r.InterceptHeaderAuth = fp.InterceptHeaderAuth
	r.AccessTokenValidity = fp.AccessTokenValidity
	r.RefreshTokenValidity = fp.RefreshTokenValidity
	return shared.ToFields(r)
}

var normalizers = map[string]shared.Normalizer{"property_mappings": shared.Set}

// compare compares the managed fields, ignoring the scope mappings authentik adds by itself
// unless the spec asks for them.
func compare(want shared.Fields, p api.ProxyProvider, serverAdded []string) (shared.Comparison, error) {
	have, err := shared.ToFields(p)
	if err != nil {
		return shared.Comparison{}, err
	}
	if w, ok := want["property_mappings"].([]any); ok {
		kept := []any{}
		for _, pk := range asList(have["property_mappings"]) {
			if s, _ := pk.(string); slices.Contains(serverAdded, s) && !slices.Contains(w, pk) {
				continue
			}
			kept = append(kept, pk)
		}
		have["property_mappings"] = kept
	}
	return shared.Compare(want, have, normalizers), nil
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}
