// Package proxyprovider manages authentik proxy providers.
package proxyprovider

import (
	"context"
	"slices"
	"strconv"

	api "goauthentik.io/api/v3"
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	clusterv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/shared"
	"github.com/crossplane-contrib/provider-identity/internal/managedkind"
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

// mr is a ProxyProvider of either scope: the driver is written once against it.
type mr interface {
	resource.Managed
	Parameters() *v1alpha1.ProxyProviderParameters
	Observation() *v1alpha1.ProxyProviderObservation
	GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy
}

// scopes are the ProxyProvider kinds: cluster-scoped (legacy) and namespaced.
var scopes = []managedkind.Scoped[mr]{
	{GVK: clusterv1alpha1.ProxyProviderGroupVersionKind, Obj: &clusterv1alpha1.ProxyProvider{}},
	{GVK: v1alpha1.ProxyProviderGroupVersionKind, Obj: &v1alpha1.ProxyProvider{}},
}

// Setup adds the controllers that reconcile ProxyProvider managed resources of both scopes.
func Setup(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopes(mgr, o, scopes, setup)
}

// SetupGated adds each scope's controller once its ProxyProvider CRD is installed.
func SetupGated(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopesGated(mgr, o, scopes, setup)
}

func setup(mgr ctrl.Manager, o managedkind.Options, gvk schema.GroupVersionKind, obj mr) error {
	return shared.Setup(mgr, o, gvk, obj, func(c shared.Client) adoption.Driver[mr, Observed] { return New(c) })
}

// Observed is a proxy provider as authentik returns it.
type Observed = shared.Observed[api.ProxyProvider]

// External drives authentik proxy providers for the adoption engine, for one reconcile.
type External = shared.ProviderDriver[mr, api.ProxyProvider, api.ProxyProviderRequest, api.PatchedProxyProviderRequest]

// A provider's delete detaches the applications that use it (see shared.ProviderDriver.Dependents).
var _ adoption.Cascader[mr, Observed] = &External{}

// New returns a driver for one reconcile.
func New(c shared.Client) *External { return providerKind.New(c) }

// providerKind binds proxy providers to the driver the provider kinds share: their calls in
// the generated client and what this kind adds. authentik filters proxy providers by name only
// case-insensitively (NameIexact); the driver compares the name exactly.
var providerKind = &shared.ProviderKind[mr, api.ProxyProvider, api.ProxyProviderRequest, api.PatchedProxyProviderRequest]{
	Calls: shared.NewProviderCalls[api.ProxyProvider, *api.PaginatedProxyProviderList](
		(*api.ProvidersAPIService).ProvidersProxyRetrieve,
		(*api.ProvidersAPIService).ProvidersProxyList, api.ApiProvidersProxyListRequest.NameIexact,
		(*api.ProvidersAPIService).ProvidersProxyCreate, api.ApiProvidersProxyCreateRequest.ProxyProviderRequest,
		(*api.ProvidersAPIService).ProvidersProxyPartialUpdate, api.ApiProvidersProxyPartialUpdateRequest.PatchedProxyProviderRequest,
		(*api.ProvidersAPIService).ProvidersProxyDestroy),
	TypeName:   "authentik proxy provider",
	List:       "providers/proxy/",
	Pages:      authentik.ProxyProviderPages,
	Validate:   validate,
	OtherTypes: "OAuth2, SAML, LDAP...",
	Name:       func(mg mr) string { return mg.Parameters().Name },
	Desired:    desired,
	Status:     status,
}

// status records the provider in status.atProvider.
func status(_ shared.Client, mg mr, pr api.ProxyProvider, p identityv1alpha1.Provenance) {
	*mg.Observation() = v1alpha1.ProxyProviderObservation{
		ProviderObservation: v1alpha1.ProviderObservation{ID: strconv.Itoa(int(pr.Pk)), Name: pr.Name, AssignedApplication: pr.GetAssignedApplicationSlug()},
		ClientID:            pr.ClientId,
		Mode:                string(pr.GetMode()),
		ExternalHost:        pr.ExternalHost,
		Provenance:          p,
	}
}

// desired resolves the spec and, when it manages property mappings, the mappings authentik
// adds by itself, which the comparison then ignores unless the spec asks for them.
func desired(ctx context.Context, _ shared.Client, res *shared.Resolver, mg mr) (shared.Want[api.ProxyProvider], error) {
	fp := mg.Parameters()
	r := api.PatchedProxyProviderRequest{}
	if err := res.Flows(ctx, fp.ProviderFlows, &r.AuthorizationFlow, &r.InvalidationFlow, &r.AuthenticationFlow); err != nil {
		return shared.Want[api.ProxyProvider]{}, err
	}
	if err := res.Certificate(ctx, "certificate", fp.Certificate, &r.Certificate); err != nil {
		return shared.Want[api.ProxyProvider]{}, err
	}
	var serverAdded []string
	var err error
	if len(fp.PropertyMappings) > 0 {
		if r.PropertyMappings, err = res.ScopeMappings(ctx, "propertyMappings", fp.PropertyMappings); err != nil {
			return shared.Want[api.ProxyProvider]{}, err
		}
		if serverAdded, err = res.ManagedScopeMappings(ctx, ServerAddedScopeMappings...); err != nil {
			return shared.Want[api.ProxyProvider]{}, err
		}
	}
	f, err := Desired(fp, r)
	return shared.Want[api.ProxyProvider]{Fields: f, Compare: func(want shared.Fields, p api.ProxyProvider) (shared.Comparison, error) {
		return compare(want, p, serverAdded)
	}}, err
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
