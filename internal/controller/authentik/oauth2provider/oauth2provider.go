// Package oauth2provider manages authentik OAuth2/OpenID Connect providers.
package oauth2provider

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
	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/shared"
	"github.com/crossplane-contrib/provider-identity/internal/managedkind"
)

const (
	errSecret     = "cannot read the client secret from spec.forProvider.clientSecretSecretRef"
	errSecretSize = "the client secret in Secret %s/%s key %q is empty or longer than authentik's 255 characters"
)

// Connection detail keys.
const (
	ConnClientID     = "client_id"
	ConnClientSecret = "client_secret"
	ConnIssuerURL    = "issuer_url"
	ConnWellKnownURL = "well_known_url"
)

// DefaultGrantTypes are given to a new provider whose spec sets none: since authentik 2026.5
// a provider without grant types cannot sign anyone in.
var DefaultGrantTypes = []string{"authorization_code", "refresh_token"}

// DefaultScopeMappings are the managed scope mappings a new provider whose spec sets no
// property mappings gets (authentik's UI preselects them; without openid no ID token is
// issued).
var DefaultScopeMappings = []string{
	"goauthentik.io/providers/oauth2/scope-openid",
	"goauthentik.io/providers/oauth2/scope-email",
	"goauthentik.io/providers/oauth2/scope-profile",
}

// mr is a OAuth2Provider of either scope: the driver is written once against it.
type mr interface {
	resource.Managed
	Parameters() *v1alpha1.OAuth2ProviderParameters
	Observation() *v1alpha1.OAuth2ProviderObservation
	GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy
}

// scopes are the OAuth2Provider kinds: cluster-scoped (legacy) and namespaced.
var scopes = []managedkind.Scoped[mr]{
	{GVK: clusterv1alpha1.OAuth2ProviderGroupVersionKind, Obj: &clusterv1alpha1.OAuth2Provider{}},
	{GVK: v1alpha1.OAuth2ProviderGroupVersionKind, Obj: &v1alpha1.OAuth2Provider{}},
}

// Setup adds the controllers that reconcile OAuth2Provider managed resources of both scopes.
func Setup(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopes(mgr, o, scopes, setup)
}

// SetupGated adds each scope's controller once its OAuth2Provider CRD is installed.
func SetupGated(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopesGated(mgr, o, scopes, setup)
}

func setup(mgr ctrl.Manager, o managedkind.Options, gvk schema.GroupVersionKind, obj mr) error {
	return shared.Setup(mgr, o, gvk, obj, func(c shared.Client) adoption.Driver[mr, Observed] { return New(c) })
}

// Observed is an OAuth2 provider as authentik returns it.
type Observed = shared.Observed[api.OAuth2Provider]

// External drives authentik OAuth2 providers for the adoption engine, for one reconcile.
type External = shared.ProviderDriver[mr, api.OAuth2Provider, api.OAuth2ProviderRequest, api.PatchedOAuth2ProviderRequest]

// A provider's delete detaches the applications that use it (see shared.ProviderDriver.Dependents).
var _ adoption.Cascader[mr, Observed] = &External{}

// New returns a driver for one reconcile.
func New(c shared.Client) *External { return providerKind.New(c) }

// providerKind binds OAuth2 providers to the driver the provider kinds share: their calls in
// the generated client and what this kind adds.
var providerKind = &shared.ProviderKind[mr, api.OAuth2Provider, api.OAuth2ProviderRequest, api.PatchedOAuth2ProviderRequest]{
	Calls: shared.NewProviderCalls[api.OAuth2Provider, *api.PaginatedOAuth2ProviderList](
		(*api.ProvidersAPIService).ProvidersOauth2Retrieve,
		(*api.ProvidersAPIService).ProvidersOauth2List, api.ApiProvidersOauth2ListRequest.Name,
		(*api.ProvidersAPIService).ProvidersOauth2Create, api.ApiProvidersOauth2CreateRequest.OAuth2ProviderRequest,
		(*api.ProvidersAPIService).ProvidersOauth2PartialUpdate, api.ApiProvidersOauth2PartialUpdateRequest.PatchedOAuth2ProviderRequest,
		(*api.ProvidersAPIService).ProvidersOauth2Destroy),
	TypeName:   "authentik OAuth2 provider",
	List:       "providers/oauth2/",
	Pages:      authentik.OAuth2ProviderPages,
	Validate:   validate,
	OtherTypes: "SAML, proxy, LDAP...",
	Name:       func(mg mr) string { return mg.Parameters().Name },
	Desired: func(ctx context.Context, c shared.Client, r *shared.Resolver, mg mr) (shared.Want[api.OAuth2Provider], error) {
		f, err := desired(ctx, c, r, mg)
		return shared.Want[api.OAuth2Provider]{Fields: f, Compare: compare}, err
	},
	Defaults: defaults,
	Details: func(_ context.Context, c shared.Client, _ mr, p api.OAuth2Provider) (managed.ConnectionDetails, error) {
		return ConnectionDetails(p, c.BaseURL), nil
	},
	Status: status,
}

// status records the provider in status.atProvider.
func status(c shared.Client, mg mr, pr api.OAuth2Provider, p identityv1alpha1.Provenance) {
	grants := make([]string, 0, len(pr.GrantTypes))
	for _, g := range pr.GrantTypes {
		grants = append(grants, string(g))
	}
	*mg.Observation() = v1alpha1.OAuth2ProviderObservation{
		ProviderObservation: v1alpha1.ProviderObservation{ID: strconv.Itoa(int(pr.Pk)), Name: pr.Name, AssignedApplication: pr.GetAssignedApplicationSlug()},
		ClientID:            pr.GetClientId(),
		ClientType:          string(pr.GetClientType()),
		GrantTypes:          grants,
		IssuerURL:           IssuerURL(pr, c.BaseURL),
		Provenance:          p,
	}
}

// defaults gives a new provider the grant types and scope mappings a working OpenID Connect
// login needs when the spec sets none.
func defaults(ctx context.Context, r *shared.Resolver, f shared.Fields) error {
	if _, ok := f["redirect_uris"]; !ok {
		f["redirect_uris"] = []any{}
	}
	if _, ok := f["grant_types"]; !ok {
		f["grant_types"] = DefaultGrantTypes
	}
	if _, ok := f["property_mappings"]; !ok {
		pks, err := r.ManagedScopeMappings(ctx, DefaultScopeMappings...)
		if err != nil {
			return err
		}
		f["property_mappings"] = pks
	}
	return nil
}

// desired renders the fields the spec sets, in authentik's wire format.
func desired(ctx context.Context, c shared.Client, res *shared.Resolver, mg mr) (shared.Fields, error) {
	fp := mg.Parameters()
	r := api.PatchedOAuth2ProviderRequest{Name: &fp.Name}
	if err := res.Flows(ctx, fp.ProviderFlows, &r.AuthorizationFlow, &r.InvalidationFlow, &r.AuthenticationFlow); err != nil {
		return nil, err
	}
	if err := res.Certificate(ctx, "signingKey", fp.SigningKey, &r.SigningKey); err != nil {
		return nil, err
	}
	if fp.SigningKeyID != nil {
		r.SigningKey.Set(fp.SigningKeyID)
	}
	if err := res.Certificate(ctx, "encryptionKey", fp.EncryptionKey, &r.EncryptionKey); err != nil {
		return nil, err
	}
	var err error
	if r.PropertyMappings, err = res.ScopeMappings(ctx, "propertyMappings", fp.PropertyMappings); err != nil {
		return nil, err
	}
	r.PropertyMappings = shared.WithMappingIDs(r.PropertyMappings, fp.PropertyMappingIDs)
	if ref := fp.ClientSecretSecretRef; ref != nil {
		s, err := clientSecret(ctx, c, mg, *ref)
		if err != nil {
			return nil, err
		}
		r.ClientSecret = &s
	}
	return Desired(fp, r)
}

// clientSecret reads the client secret in mg's scope: a namespaced OAuth2Provider reads its
// own namespace only (see clients.ResourceSecrets).
func clientSecret(ctx context.Context, c shared.Client, mg mr, ref identityv1alpha1.SecretKeySelector) (string, error) {
	key := clients.SecretKey(mg, ref.SecretReference)
	v, err := clients.SecretValue(ctx, clients.ResourceSecrets(c.Kube, mg),
		identityv1alpha1.SecretKeySelector{SecretReference: identityv1alpha1.SecretReference{Namespace: key.Namespace, Name: key.Name}, Key: ref.Key})
	if err != nil {
		return "", errors.Wrap(err, errSecret)
	}
	if len(v) == 0 || len(v) > 255 {
		return "", errors.Errorf(errSecretSize, key.Namespace, key.Name, ref.Key)
	}
	return string(v), nil
}

// Desired completes r, which holds the resolved references, with the spec's plain fields and
// renders it in authentik's wire format.
func Desired(fp *v1alpha1.OAuth2ProviderParameters, r api.PatchedOAuth2ProviderRequest) (shared.Fields, error) {
	r.ClientType = (*api.ClientTypeEnum)(fp.ClientType)
	r.ClientId = fp.ClientID
	if len(fp.RedirectURIs) > 0 {
		r.RedirectUris = make([]api.RedirectURIRequest, 0, len(fp.RedirectURIs))
		for _, u := range fp.RedirectURIs {
			mode, typ := u.MatchingMode, u.Type
			if mode == "" {
				mode = string(api.MATCHINGMODEENUM_STRICT)
			}
			if typ == "" {
				typ = string(api.REDIRECTURITYPEENUM_AUTHORIZATION)
			}
			t := api.RedirectURITypeEnum(typ)
			r.RedirectUris = append(r.RedirectUris, api.RedirectURIRequest{MatchingMode: api.MatchingModeEnum(mode), Url: u.URL, RedirectUriType: &t})
		}
	}
	if len(fp.GrantTypes) > 0 {
		r.GrantTypes = make([]api.GrantTypeEnum, 0, len(fp.GrantTypes))
		for _, g := range fp.GrantTypes {
			r.GrantTypes = append(r.GrantTypes, api.GrantTypeEnum(g))
		}
	}
	r.AccessCodeValidity = fp.AccessCodeValidity
	r.AccessTokenValidity = fp.AccessTokenValidity
	r.RefreshTokenValidity = fp.RefreshTokenValidity
	r.RefreshTokenThreshold = fp.RefreshTokenThreshold
	r.IncludeClaimsInIdToken = fp.IncludeClaimsInIDToken
	r.SubMode = (*api.SubModeEnum)(fp.SubMode)
	r.IssuerMode = (*api.IssuerModeEnum)(fp.IssuerMode)
	r.LogoutUri = fp.LogoutURI
	r.LogoutMethod = (*api.OAuth2ProviderLogoutMethodEnum)(fp.LogoutMethod)
	return shared.ToFields(r)
}

var normalizers = map[string]shared.Normalizer{
	"property_mappings": shared.Set,
	"grant_types":       shared.Set,
}

func compare(want shared.Fields, p api.OAuth2Provider) (shared.Comparison, error) {
	have, err := shared.ToFields(p)
	if err != nil {
		return shared.Comparison{}, err
	}
	return shared.Compare(want, have, normalizers, "client_secret"), nil
}

// IssuerURL is the issuer of the provider's tokens as authentik computes it: authentik's root
// in global issuer mode, otherwise below the slug of the application using the provider
// (unknown while none does).
func IssuerURL(p api.OAuth2Provider, base string) string {
	if p.GetIssuerMode() == api.ISSUERMODEENUM_GLOBAL {
		return base + "/"
	}
	if slug := p.GetAssignedApplicationSlug(); slug != "" {
		return base + "/application/o/" + slug + "/"
	}
	return ""
}

// ConnectionDetails are what a client of the provider needs: its ID and secret, and, once an
// application uses the provider, the issuer and OpenID configuration URLs.
func ConnectionDetails(p api.OAuth2Provider, base string) managed.ConnectionDetails {
	cd := managed.ConnectionDetails{ConnClientID: []byte(p.GetClientId())}
	if p.GetClientType() != api.CLIENTTYPEENUM_PUBLIC && p.GetClientSecret() != "" {
		cd[ConnClientSecret] = []byte(p.GetClientSecret())
	}
	if iss := IssuerURL(p, base); iss != "" {
		cd[ConnIssuerURL] = []byte(iss)
	}
	if slug := p.GetAssignedApplicationSlug(); slug != "" {
		cd[ConnWellKnownURL] = []byte(base + "/application/o/" + slug + "/.well-known/openid-configuration")
	}
	return cd
}
