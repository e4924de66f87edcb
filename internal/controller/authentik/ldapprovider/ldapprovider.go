// Package ldapprovider manages authentik LDAP providers.
package ldapprovider

import (
	"context"
	"strconv"

	api "goauthentik.io/api/v3"
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	clusterv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/shared"
	"github.com/crossplane-contrib/provider-identity/internal/managedkind"
)

const errFlowUnresolved = "spec.forProvider.%s of LDAPProvider %q is not set: its reference or selector has not been resolved yet (is the Flow it names there and ready?)"

// mr is an LDAPProvider of either scope: the driver is written once against it.
type mr interface {
	resource.Managed
	Parameters() *v1alpha1.LDAPProviderParameters
	Observation() *v1alpha1.LDAPProviderObservation
	GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy
}

// scopes are the LDAPProvider kinds: cluster-scoped (legacy) and namespaced.
var scopes = []managedkind.Scoped[mr]{
	{GVK: clusterv1alpha1.LDAPProviderGroupVersionKind, Obj: &clusterv1alpha1.LDAPProvider{}},
	{GVK: v1alpha1.LDAPProviderGroupVersionKind, Obj: &v1alpha1.LDAPProvider{}},
}

// Setup adds the controllers that reconcile LDAPProvider managed resources of both scopes.
func Setup(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopes(mgr, o, scopes, setup)
}

// SetupGated adds each scope's controller once its LDAPProvider CRD is installed.
func SetupGated(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopesGated(mgr, o, scopes, setup)
}

func setup(mgr ctrl.Manager, o managedkind.Options, gvk schema.GroupVersionKind, obj mr) error {
	return shared.Setup(mgr, o, gvk, obj, func(c shared.Client) adoption.Driver[mr, Observed] { return New(c) })
}

// Observed is an LDAP provider as authentik returns it.
type Observed = shared.Observed[api.LDAPProvider]

// External drives authentik LDAP providers for the adoption engine, for one reconcile.
type External = shared.ProviderDriver[mr, api.LDAPProvider, api.LDAPProviderRequest, api.PatchedLDAPProviderRequest]

// A provider's delete detaches the applications and outposts that use it (see
// shared.ProviderDriver.Dependents).
var _ adoption.Cascader[mr, Observed] = &External{}

// New returns a driver for one reconcile.
func New(c shared.Client) *External { return providerKind.New(c) }

// providerKind binds LDAP providers to the driver the provider kinds share. authentik filters
// LDAP providers by name only case-insensitively (NameIexact); the driver compares the name
// exactly.
var providerKind = &shared.ProviderKind[mr, api.LDAPProvider, api.LDAPProviderRequest, api.PatchedLDAPProviderRequest]{
	Calls: shared.NewProviderCalls[api.LDAPProvider, *api.PaginatedLDAPProviderList](
		(*api.ProvidersAPIService).ProvidersLdapRetrieve,
		(*api.ProvidersAPIService).ProvidersLdapList, api.ApiProvidersLdapListRequest.NameIexact,
		(*api.ProvidersAPIService).ProvidersLdapCreate, api.ApiProvidersLdapCreateRequest.LDAPProviderRequest,
		(*api.ProvidersAPIService).ProvidersLdapPartialUpdate, api.ApiProvidersLdapPartialUpdateRequest.PatchedLDAPProviderRequest,
		(*api.ProvidersAPIService).ProvidersLdapDestroy),
	TypeName:   "authentik LDAP provider",
	List:       "providers/ldap/",
	Pages:      authentik.LDAPProviderPages,
	Validate:   validate,
	OtherTypes: "OAuth2, SAML, proxy...",
	Name:       func(mg mr) string { return mg.Parameters().Name },
	Desired:    desired,
	Status:     status,
}

// status records the provider in status.atProvider.
func status(_ shared.Client, mg mr, p api.LDAPProvider, prov identityv1alpha1.Provenance) {
	*mg.Observation() = v1alpha1.LDAPProviderObservation{
		ProviderObservation: v1alpha1.ProviderObservation{ID: strconv.Itoa(int(p.Pk)), Name: p.Name, AssignedApplication: p.GetAssignedApplicationSlug()},
		BaseDN:              p.GetBaseDn(),
		Outposts:            p.OutpostSet,
		Provenance:          prov,
	}
}

// desired resolves the flows' slugs and the certificate's name, then renders the spec.
func desired(ctx context.Context, _ shared.Client, res *shared.Resolver, mg mr) (shared.Want[api.LDAPProvider], error) {
	fp := mg.Parameters()
	flows, err := flowSlugs(mg)
	if err != nil {
		return shared.Want[api.LDAPProvider]{}, err
	}
	r := api.PatchedLDAPProviderRequest{}
	if err := res.Flows(ctx, flows, &r.AuthorizationFlow, &r.InvalidationFlow, &r.AuthenticationFlow); err != nil {
		return shared.Want[api.LDAPProvider]{}, err
	}
	if err := res.Certificate(ctx, "certificate", fp.Certificate, &r.Certificate); err != nil {
		return shared.Want[api.LDAPProvider]{}, err
	}
	f, err := Desired(fp, r)
	return shared.Want[api.LDAPProvider]{Fields: f, Compare: compare}, err
}

// flowSlugs are the spec's two flows, filled in by their references by now. A reference that
// has not resolved leaves its field empty; that is reported, not sent.
func flowSlugs(mg mr) (v1alpha1.ProviderFlows, error) {
	fp := mg.Parameters()
	f := v1alpha1.ProviderFlows{}
	for _, x := range []struct {
		field string
		slug  *string
		into  *string
	}{{"authorizationFlow", fp.AuthorizationFlow, &f.AuthorizationFlow}, {"invalidationFlow", fp.InvalidationFlow, &f.InvalidationFlow}} {
		if x.slug == nil || *x.slug == "" {
			return f, errors.Errorf(errFlowUnresolved, x.field, mg.GetName())
		}
		*x.into = *x.slug
	}
	return f, nil
}

// Desired completes r, which holds the resolved references, with the spec's plain fields and
// renders it in authentik's wire format.
func Desired(fp *v1alpha1.LDAPProviderParameters, r api.PatchedLDAPProviderRequest) (shared.Fields, error) {
	r.Name = &fp.Name
	r.BaseDn = fp.BaseDN
	if fp.BindMode != nil {
		r.BindMode = new(api.LDAPAPIAccessMode(*fp.BindMode))
	}
	if fp.SearchMode != nil {
		r.SearchMode = new(api.LDAPAPIAccessMode(*fp.SearchMode))
	}
	r.MfaSupport = fp.MFASupport
	r.UidStartNumber = fp.UIDStartNumber
	r.GidStartNumber = fp.GIDStartNumber
	r.TlsServerName = fp.TLSServerName
	return shared.ToFields(r)
}

// compare compares the managed fields in authentik's wire format.
func compare(want shared.Fields, p api.LDAPProvider) (shared.Comparison, error) {
	have, err := shared.ToFields(p)
	if err != nil {
		return shared.Comparison{}, err
	}
	return shared.Compare(want, have, nil), nil
}
