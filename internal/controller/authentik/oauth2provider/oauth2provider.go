// Package oauth2provider manages authentik OAuth2/OpenID Connect providers.
package oauth2provider

import (
	"context"
	"strconv"

	api "goauthentik.io/api/v3"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"

	"github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/shared"
	"github.com/crossplane-contrib/provider-identity/internal/managedkind"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

const (
	errGet        = "cannot read authentik OAuth2 provider %s"
	errList       = "cannot look up authentik OAuth2 providers named %q"
	errCreate     = "cannot create authentik OAuth2 provider %q"
	errNameTaken  = "cannot create authentik OAuth2 provider %q: a provider of another type (SAML, proxy, LDAP...) already has this name, and provider names are unique across all types in authentik; choose another name"
	errUpdate     = "cannot update authentik OAuth2 provider %q (ID %d)"
	errDelete     = "cannot delete authentik OAuth2 provider %q (ID %d)"
	errSecret     = "cannot read the client secret from spec.forProvider.clientSecretSecretRef"
	errSecretSize = "the client secret in Secret %s/%s key %q is empty or longer than authentik's 255 characters"

	typeName = "authentik OAuth2 provider"
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

// Setup adds a controller that reconciles OAuth2Provider managed resources.
func Setup(mgr ctrl.Manager, o managedkind.Options) error {
	return shared.Setup(mgr, o, v1alpha1.OAuth2ProviderGroupVersionKind, &v1alpha1.OAuth2Provider{},
		func(c shared.Client) adoption.Driver[*v1alpha1.OAuth2Provider, Observed] { return New(c) },
		func(mg *v1alpha1.OAuth2Provider) identityv1alpha1.AdoptionPolicy { return mg.Spec.GetAdoptionPolicy() })
}

// SetupGated adds the controller once the OAuth2Provider CRD is installed.
func SetupGated(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupGated(mgr, o, v1alpha1.OAuth2ProviderGroupVersionKind, Setup)
}

// Observed is an OAuth2 provider as authentik returns it, with the marker of the application
// using it when it was found by name.
type Observed struct {
	Provider  api.OAuth2Provider
	AppMarker *provenance.Marker
	// Unrecorded is set for a provider found by name that is not the one the resource's
	// external name records.
	Unrecorded bool
}

// External drives authentik OAuth2 providers for the adoption engine. It lives for one
// reconcile: it resolves the spec's flow slugs, certificate and mapping names and client
// secret once, while reading the provider, so that Observe compares without calling authentik.
type External struct {
	shared.Client
	res *shared.Resolver

	prepared bool
	want     shared.Fields
	wantErr  error
}

// New returns a driver for one reconcile.
func New(c shared.Client) *External {
	return &External{Client: c, res: shared.NewResolver(c.API)}
}

var _ adoption.Driver[*v1alpha1.OAuth2Provider, Observed] = &External{}

// Get reads the provider with the ID.
func (e *External) Get(ctx context.Context, mg *v1alpha1.OAuth2Provider, id string) (Observed, error) {
	pk, err := shared.ParsePK(id)
	if err != nil {
		return Observed{}, err
	}
	p, resp, err := e.API.ProvidersAPI.ProvidersOauth2Retrieve(ctx, pk).Execute()
	if err != nil {
		return Observed{}, shared.Wrap(err, resp, errGet, id)
	}
	e.prepare(ctx, mg)
	return Observed{Provider: *p}, nil
}

// Find looks the provider up by name.
func (e *External) Find(ctx context.Context, mg *v1alpha1.OAuth2Provider) ([]Observed, error) {
	name := mg.Spec.ForProvider.Name
	all, err := authentik.ListAll(ctx, func(page int32) ([]api.OAuth2Provider, int32, error) {
		l, resp, err := e.API.ProvidersAPI.ProvidersOauth2List(ctx).Name(name).Page(page).PageSize(authentik.PageSize).Execute()
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

// Observe records the provider, publishes its connection details and compares the fields the
// spec sets.
func (e *External) Observe(mg *v1alpha1.OAuth2Provider, o Observed, p identityv1alpha1.Provenance) adoption.Observation {
	pr := o.Provider
	grants := []string{}
	for _, g := range pr.GrantTypes {
		grants = append(grants, string(g))
	}
	mg.Status.AtProvider = v1alpha1.OAuth2ProviderObservation{
		ProviderObservation: v1alpha1.ProviderObservation{ID: strconv.Itoa(int(pr.Pk)), Name: pr.Name, AssignedApplication: pr.GetAssignedApplicationSlug()},
		ClientID:            pr.GetClientId(),
		ClientType:          string(pr.GetClientType()),
		GrantTypes:          grants,
		IssuerURL:           IssuerURL(pr, e.BaseURL),
		Provenance:          p,
	}
	obs := adoption.Observation{ConnectionDetails: ConnectionDetails(pr, e.BaseURL)}
	if e.wantErr != nil {
		obs.Diff = e.wantErr.Error()
		return obs
	}
	c, err := compare(e.want, pr)
	if err != nil {
		obs.Diff = err.Error()
		return obs
	}
	obs.UpToDate, obs.Diff = c.UpToDate(), c.Diff
	return obs
}

// Create creates the provider. Grant types and scope mappings the spec leaves unset get the
// defaults a working OpenID Connect login needs.
func (e *External) Create(ctx context.Context, mg *v1alpha1.OAuth2Provider, _ provenance.Marker) (string, managed.ConnectionDetails, error) {
	e.prepare(ctx, mg)
	if e.wantErr != nil {
		return "", nil, e.wantErr
	}
	f := shared.Fields{}
	for k, v := range e.want {
		f[k] = v
	}
	if _, ok := f["redirect_uris"]; !ok {
		f["redirect_uris"] = []any{}
	}
	if _, ok := f["grant_types"]; !ok {
		f["grant_types"] = DefaultGrantTypes
	}
	if _, ok := f["property_mappings"]; !ok {
		pks, err := e.res.ManagedScopeMappings(ctx, DefaultScopeMappings...)
		if err != nil {
			return "", nil, err
		}
		f["property_mappings"] = pks
	}
	req, err := shared.Decode[api.OAuth2ProviderRequest](f)
	if err != nil {
		return "", nil, err
	}
	p, resp, err := e.API.ProvidersAPI.ProvidersOauth2Create(ctx).OAuth2ProviderRequest(req).Execute()
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
func (e *External) Update(ctx context.Context, mg *v1alpha1.OAuth2Provider, o Observed, _ provenance.Marker) (managed.ConnectionDetails, error) {
	if e.wantErr != nil {
		return nil, e.wantErr
	}
	c, err := compare(e.want, o.Provider)
	if err != nil || c.UpToDate() {
		return nil, err
	}
	req, err := shared.Decode[api.PatchedOAuth2ProviderRequest](c.Changed)
	if err != nil {
		return nil, err
	}
	_, resp, err := e.API.ProvidersAPI.ProvidersOauth2PartialUpdate(ctx, o.Provider.Pk).PatchedOAuth2ProviderRequest(req).Execute()
	return nil, shared.Wrap(err, resp, errUpdate, o.Provider.Name, o.Provider.Pk)
}

// Delete deletes the provider.
func (e *External) Delete(ctx context.Context, _ *v1alpha1.OAuth2Provider, o Observed) error {
	resp, err := e.API.ProvidersAPI.ProvidersOauth2Destroy(ctx, o.Provider.Pk).Execute()
	if err = shared.Wrap(err, resp, errDelete, o.Provider.Name, o.Provider.Pk); shared.IsNotFound(err) {
		return nil
	}
	return err
}

// prepare resolves the spec into authentik's fields once per reconcile. A failure is kept for
// Observe (the provider is then not up to date), Create and Update to report, so that it never
// stands in the way of observing or deleting the provider.
func (e *External) prepare(ctx context.Context, mg *v1alpha1.OAuth2Provider) {
	if e.prepared {
		return
	}
	e.prepared = true
	e.want, e.wantErr = e.desired(ctx, &mg.Spec.ForProvider)
}

// desired renders the fields the spec sets, in authentik's wire format.
func (e *External) desired(ctx context.Context, fp *v1alpha1.OAuth2ProviderParameters) (shared.Fields, error) {
	r := api.PatchedOAuth2ProviderRequest{Name: &fp.Name}
	if err := e.res.Flows(ctx, fp.ProviderFlows, &r.AuthorizationFlow, &r.InvalidationFlow, &r.AuthenticationFlow); err != nil {
		return nil, err
	}
	if err := e.res.Certificate(ctx, "signingKey", fp.SigningKey, &r.SigningKey); err != nil {
		return nil, err
	}
	if err := e.res.Certificate(ctx, "encryptionKey", fp.EncryptionKey, &r.EncryptionKey); err != nil {
		return nil, err
	}
	var err error
	if r.PropertyMappings, err = e.res.ScopeMappings(ctx, "propertyMappings", fp.PropertyMappings); err != nil {
		return nil, err
	}
	if ref := fp.ClientSecretSecretRef; ref != nil {
		v, err := clients.SecretValue(ctx, e.Kube, *ref)
		if err != nil {
			return nil, errors.Wrap(err, errSecret)
		}
		if len(v) == 0 || len(v) > 255 {
			return nil, errors.Errorf(errSecretSize, ref.Namespace, ref.Name, ref.Key)
		}
		s := string(v)
		r.ClientSecret = &s
	}
	return Desired(fp, r)
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
