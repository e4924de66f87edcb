// Package samlprovider manages authentik SAML providers.
package samlprovider

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
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/shared"
	"github.com/crossplane-contrib/provider-identity/internal/managedkind"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

const (
	errGet       = "cannot read authentik SAML provider %s"
	errList      = "cannot look up authentik SAML providers named %q"
	errMetadata  = "cannot read the SAML metadata of authentik SAML provider %q (ID %d)"
	errCreate    = "cannot create authentik SAML provider %q"
	errNameTaken = "cannot create authentik SAML provider %q: a provider of another type (OAuth2, proxy, LDAP...) already has this name, and provider names are unique across all types in authentik; choose another name"
	errUpdate    = "cannot update authentik SAML provider %q (ID %d)"
	errDelete    = "cannot delete authentik SAML provider %q (ID %d)"

	typeName = "authentik SAML provider"
)

// Connection detail keys.
const (
	// ConnMetadata is the IdP metadata XML a service provider is configured with.
	ConnMetadata = "metadata"
	// ConnMetadataURL is where the metadata can be downloaded.
	ConnMetadataURL = "metadata_url"
)

// Setup adds a controller that reconciles SAMLProvider managed resources.
func Setup(mgr ctrl.Manager, o managedkind.Options) error {
	return shared.Setup(mgr, o, v1alpha1.SAMLProviderGroupVersionKind, &v1alpha1.SAMLProvider{},
		func(c shared.Client) adoption.Driver[*v1alpha1.SAMLProvider, Observed] { return New(c) },
		func(mg *v1alpha1.SAMLProvider) identityv1alpha1.AdoptionPolicy { return mg.Spec.GetAdoptionPolicy() })
}

// SetupGated adds the controller once the SAMLProvider CRD is installed.
func SetupGated(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupGated(mgr, o, v1alpha1.SAMLProviderGroupVersionKind, Setup)
}

// Observed is a SAML provider as authentik returns it, with its IdP metadata (read only when
// the resource publishes a connection secret and an application uses the provider) and the
// marker of the application using it when it was found by name.
type Observed struct {
	Provider  api.SAMLProvider
	Metadata  string
	AppMarker *provenance.Marker
	// Unrecorded is set for a provider found by name that is not the one the resource's
	// external name records.
	Unrecorded bool
}

// External drives authentik SAML providers for the adoption engine, for one reconcile.
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

var _ adoption.Driver[*v1alpha1.SAMLProvider, Observed] = &External{}

// Get reads the provider with the ID.
func (e *External) Get(ctx context.Context, mg *v1alpha1.SAMLProvider, id string) (Observed, error) {
	pk, err := shared.ParsePK(id)
	if err != nil {
		return Observed{}, err
	}
	p, resp, err := e.API.ProvidersAPI.ProvidersSamlRetrieve(ctx, pk).Execute()
	if err != nil {
		return Observed{}, shared.Wrap(err, resp, errGet, id)
	}
	o := Observed{Provider: *p}
	if o.Metadata, err = e.metadata(ctx, mg, *p); err != nil {
		return Observed{}, err
	}
	e.prepare(ctx, mg)
	return o, nil
}

// Find looks the provider up by name.
func (e *External) Find(ctx context.Context, mg *v1alpha1.SAMLProvider) ([]Observed, error) {
	name := mg.Spec.ForProvider.Name
	all, err := authentik.ListAll(ctx, func(page int32) ([]api.SAMLProvider, int32, error) {
		l, resp, err := e.API.ProvidersAPI.ProvidersSamlList(ctx).Name(name).Page(page).PageSize(authentik.PageSize).Execute()
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
		md, err := e.metadata(ctx, mg, p)
		if err != nil {
			return nil, err
		}
		out = append(out, Observed{Provider: p, Metadata: md, AppMarker: m, Unrecorded: shared.Unrecorded(mg, p.Pk)})
	}
	e.prepare(ctx, mg)
	return out, nil
}

// metadata reads the IdP metadata when it will be published: authentik serves it only once an
// application uses the provider.
func (e *External) metadata(ctx context.Context, mg *v1alpha1.SAMLProvider, p api.SAMLProvider) (string, error) {
	if mg.GetWriteConnectionSecretToReference() == nil || p.GetAssignedApplicationSlug() == "" {
		return "", nil
	}
	md, resp, err := e.API.ProvidersAPI.ProvidersSamlMetadataRetrieve(ctx, p.Pk).Execute()
	if err != nil {
		err = shared.Wrap(err, resp, errMetadata, p.Name, p.Pk)
		if shared.IsNotFound(err) {
			return "", nil
		}
		return "", err
	}
	return md.Metadata, nil
}

// IsNotFound reports whether err is authentik's 404.
func (e *External) IsNotFound(err error) bool { return shared.IsNotFound(err) }

// Describe presents the provider to the engine: see shared.DescribeProvider.
func (e *External) Describe(o Observed) adoption.Description {
	return shared.DescribeProvider(o.Provider.Pk, typeName, o.Provider.Name, o.AppMarker, e.Installation, o.Unrecorded)
}

// Observe records the provider, publishes its metadata and compares the fields the spec sets.
func (e *External) Observe(mg *v1alpha1.SAMLProvider, o Observed, p identityv1alpha1.Provenance) adoption.Observation {
	pr := o.Provider
	mg.Status.AtProvider = v1alpha1.SAMLProviderObservation{
		ProviderObservation: v1alpha1.ProviderObservation{ID: strconv.Itoa(int(pr.Pk)), Name: pr.Name, AssignedApplication: pr.GetAssignedApplicationSlug()},
		EntityID:            known(pr.UrlIssuer),
		MetadataURL:         pr.UrlDownloadMetadata,
		Provenance:          p,
	}
	obs := adoption.Observation{ConnectionDetails: ConnectionDetails(o)}
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

// Create creates the provider.
func (e *External) Create(ctx context.Context, mg *v1alpha1.SAMLProvider, _ provenance.Marker) (string, managed.ConnectionDetails, error) {
	e.prepare(ctx, mg)
	if e.wantErr != nil {
		return "", nil, e.wantErr
	}
	req, err := shared.Decode[api.SAMLProviderRequest](e.want)
	if err != nil {
		return "", nil, err
	}
	p, resp, err := e.API.ProvidersAPI.ProvidersSamlCreate(ctx).SAMLProviderRequest(req).Execute()
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
func (e *External) Update(ctx context.Context, mg *v1alpha1.SAMLProvider, o Observed, _ provenance.Marker) (managed.ConnectionDetails, error) {
	if e.wantErr != nil {
		return nil, e.wantErr
	}
	c, err := compare(e.want, o.Provider)
	if err != nil || c.UpToDate() {
		return nil, err
	}
	req, err := shared.Decode[api.PatchedSAMLProviderRequest](c.Changed)
	if err != nil {
		return nil, err
	}
	_, resp, err := e.API.ProvidersAPI.ProvidersSamlPartialUpdate(ctx, o.Provider.Pk).PatchedSAMLProviderRequest(req).Execute()
	return nil, shared.Wrap(err, resp, errUpdate, o.Provider.Name, o.Provider.Pk)
}

// Delete deletes the provider.
func (e *External) Delete(ctx context.Context, _ *v1alpha1.SAMLProvider, o Observed) error {
	resp, err := e.API.ProvidersAPI.ProvidersSamlDestroy(ctx, o.Provider.Pk).Execute()
	if err = shared.Wrap(err, resp, errDelete, o.Provider.Name, o.Provider.Pk); shared.IsNotFound(err) {
		return nil
	}
	return err
}

// prepare resolves the spec once per reconcile; see the OAuth2 driver.
func (e *External) prepare(ctx context.Context, mg *v1alpha1.SAMLProvider) {
	if e.prepared {
		return
	}
	e.prepared = true
	e.want, e.wantErr = e.desired(ctx, &mg.Spec.ForProvider)
}

func (e *External) desired(ctx context.Context, fp *v1alpha1.SAMLProviderParameters) (shared.Fields, error) {
	r := api.PatchedSAMLProviderRequest{}
	if err := e.res.Flows(ctx, fp.ProviderFlows, &r.AuthorizationFlow, &r.InvalidationFlow, &r.AuthenticationFlow); err != nil {
		return nil, err
	}
	certs := []struct {
		field string
		name  *string
		into  *api.NullableString
	}{
		{"signingKey", fp.SigningKey, &r.SigningKp},
		{"verificationKey", fp.VerificationKey, &r.VerificationKp},
		{"encryptionKey", fp.EncryptionKey, &r.EncryptionKp},
	}
	for _, c := range certs {
		if err := e.res.Certificate(ctx, c.field, c.name, c.into); err != nil {
			return nil, err
		}
	}
	var err error
	if r.PropertyMappings, err = e.res.SAMLMappings(ctx, "propertyMappings", fp.PropertyMappings); err != nil {
		return nil, err
	}
	if err := e.res.SAMLMapping(ctx, "nameIdMapping", fp.NameIDMapping, &r.NameIdMapping); err != nil {
		return nil, err
	}
	return Desired(fp, r)
}

// Desired completes r, which holds the resolved references, with the spec's plain fields and
// renders it in authentik's wire format.
func Desired(fp *v1alpha1.SAMLProviderParameters, r api.PatchedSAMLProviderRequest) (shared.Fields, error) {
	r.Name = &fp.Name
	r.AcsUrl = &fp.ACSURL
	r.SlsUrl = fp.SLSURL
	r.Audience = fp.Audience
	r.IssuerOverride = fp.Issuer
	r.SpBinding = (*api.SAMLBindingsEnum)(fp.SPBinding)
	r.SlsBinding = (*api.SAMLBindingsEnum)(fp.SLSBinding)
	r.SignatureAlgorithm = (*api.SignatureAlgorithmEnum)(fp.SignatureAlgorithm)
	r.DigestAlgorithm = (*api.DigestAlgorithmEnum)(fp.DigestAlgorithm)
	r.AssertionValidNotBefore = fp.AssertionValidNotBefore
	r.AssertionValidNotOnOrAfter = fp.AssertionValidNotOnOrAfter
	r.SessionValidNotOnOrAfter = fp.SessionValidNotOnOrAfter
	r.SignAssertion = fp.SignAssertion
	r.SignResponse = fp.SignResponse
	r.DefaultRelayState = fp.DefaultRelayState
	r.DefaultNameIdPolicy = (*api.SAMLNameIDPolicyEnum)(fp.DefaultNameIDPolicy)
	r.LogoutMethod = (*api.SAMLLogoutMethods)(fp.LogoutMethod)
	return shared.ToFields(r)
}

var normalizers = map[string]shared.Normalizer{"property_mappings": shared.Set}

func compare(want shared.Fields, p api.SAMLProvider) (shared.Comparison, error) {
	have, err := shared.ToFields(p)
	if err != nil {
		return shared.Comparison{}, err
	}
	return shared.Compare(want, have, normalizers), nil
}

// ConnectionDetails publish the IdP metadata once authentik serves it.
func ConnectionDetails(o Observed) managed.ConnectionDetails {
	cd := managed.ConnectionDetails{}
	if o.Metadata != "" {
		cd[ConnMetadata] = []byte(o.Metadata)
	}
	if o.Provider.UrlDownloadMetadata != "" {
		cd[ConnMetadataURL] = []byte(o.Provider.UrlDownloadMetadata)
	}
	return cd
}

// known drops authentik's "-" for URLs that are unknown while no application uses the
// provider.
func known(s string) string {
	if s == "-" {
		return ""
	}
	return s
}
