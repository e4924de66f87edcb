// Package samlprovider manages authentik SAML providers.
package samlprovider

import (
	"context"
	"strconv"

	api "goauthentik.io/api/v3"
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	clusterv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/shared"
	"github.com/crossplane-contrib/provider-identity/internal/managedkind"
)

const (
	errMetadata = "cannot read the SAML metadata of authentik SAML provider %q (ID %d)"
)

// Connection detail keys.
const (
	// ConnMetadata is the IdP metadata XML a service provider is configured with.
	ConnMetadata = "metadata"
	// ConnMetadataURL is where the metadata can be downloaded.
	ConnMetadataURL = "metadata_url"
)

// mr is a SAMLProvider of either scope: the driver is written once against it.
type mr interface {
	resource.Managed
	Parameters() *v1alpha1.SAMLProviderParameters
	Observation() *v1alpha1.SAMLProviderObservation
	GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy
}

// scopes are the SAMLProvider kinds: cluster-scoped (legacy) and namespaced.
var scopes = []managedkind.Scoped[mr]{
	{GVK: clusterv1alpha1.SAMLProviderGroupVersionKind, Obj: &clusterv1alpha1.SAMLProvider{}},
	{GVK: v1alpha1.SAMLProviderGroupVersionKind, Obj: &v1alpha1.SAMLProvider{}},
}

// Setup adds the controllers that reconcile SAMLProvider managed resources of both scopes.
func Setup(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopes(mgr, o, scopes, setup)
}

// SetupGated adds each scope's controller once its SAMLProvider CRD is installed.
func SetupGated(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopesGated(mgr, o, scopes, setup)
}

func setup(mgr ctrl.Manager, o managedkind.Options, gvk schema.GroupVersionKind, obj mr) error {
	return shared.Setup(mgr, o, gvk, obj, func(c shared.Client) adoption.Driver[mr, Observed] { return New(c) })
}

// Observed is a SAML provider as authentik returns it, with its IdP metadata in the connection
// details.
type Observed = shared.Observed[api.SAMLProvider]

// External drives authentik SAML providers for the adoption engine, for one reconcile.
type External = shared.ProviderDriver[mr, api.SAMLProvider, api.SAMLProviderRequest, api.PatchedSAMLProviderRequest]

// A provider's delete detaches the applications that use it (see shared.ProviderDriver.Dependents).
var _ adoption.Cascader[mr, Observed] = &External{}

// New returns a driver for one reconcile.
func New(c shared.Client) *External { return providerKind.New(c) }

// providerKind binds SAML providers to the driver the provider kinds share: their calls in
// the generated client and what this kind adds.
var providerKind = &shared.ProviderKind[mr, api.SAMLProvider, api.SAMLProviderRequest, api.PatchedSAMLProviderRequest]{
	Calls: shared.NewProviderCalls[api.SAMLProvider, *api.PaginatedSAMLProviderList](
		(*api.ProvidersAPIService).ProvidersSamlRetrieve,
		(*api.ProvidersAPIService).ProvidersSamlList, api.ApiProvidersSamlListRequest.Name,
		(*api.ProvidersAPIService).ProvidersSamlCreate, api.ApiProvidersSamlCreateRequest.SAMLProviderRequest,
		(*api.ProvidersAPIService).ProvidersSamlPartialUpdate, api.ApiProvidersSamlPartialUpdateRequest.PatchedSAMLProviderRequest,
		(*api.ProvidersAPIService).ProvidersSamlDestroy),
	TypeName:   "authentik SAML provider",
	List:       "providers/saml/",
	Pages:      authentik.SAMLProviderPages,
	Validate:   validate,
	OtherTypes: "OAuth2, proxy, LDAP...",
	Name:       func(mg mr) string { return mg.Parameters().Name },
	Desired: func(ctx context.Context, _ shared.Client, r *shared.Resolver, mg mr) (shared.Want[api.SAMLProvider], error) {
		f, err := desired(ctx, r, mg.Parameters())
		return shared.Want[api.SAMLProvider]{Fields: f, Compare: compare}, err
	},
	Details: details,
	Status:  status,
}

// details reads the IdP metadata when it will be published: authentik serves it only once an
// application uses the provider.
func details(ctx context.Context, c shared.Client, mg mr, p api.SAMLProvider) (managed.ConnectionDetails, error) {
	if !shared.WritesConnectionSecret(mg) || p.GetAssignedApplicationSlug() == "" {
		return ConnectionDetails(p, ""), nil
	}
	md, resp, err := c.API.ProvidersAPI.ProvidersSamlMetadataRetrieve(ctx, p.Pk).Execute()
	if err != nil {
		err = authentik.Wrap(err, resp, errMetadata, p.Name, p.Pk)
		if authentik.IsNotFound(err) {
			return ConnectionDetails(p, ""), nil
		}
		return nil, err
	}
	return ConnectionDetails(p, md.Metadata), nil
}

// status records the provider in status.atProvider.
func status(_ shared.Client, mg mr, pr api.SAMLProvider, p identityv1alpha1.Provenance) {
	*mg.Observation() = v1alpha1.SAMLProviderObservation{
		ProviderObservation: v1alpha1.ProviderObservation{ID: strconv.Itoa(int(pr.Pk)), Name: pr.Name, AssignedApplication: pr.GetAssignedApplicationSlug()},
		EntityID:            known(pr.UrlIssuer),
		MetadataURL:         pr.UrlDownloadMetadata,
		Provenance:          p,
	}
}

func desired(ctx context.Context, res *shared.Resolver, fp *v1alpha1.SAMLProviderParameters) (shared.Fields, error) {
	r := api.PatchedSAMLProviderRequest{}
	if err := res.Flows(ctx, fp.ProviderFlows, &r.AuthorizationFlow, &r.InvalidationFlow, &r.AuthenticationFlow); err != nil {
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
		if err := res.Certificate(ctx, c.field, c.name, c.into); err != nil {
			return nil, err
		}
	}
	// References to our CertificateKeyPairs arrive as their pks (CEL keeps them apart from the
	// names above).
	if fp.SigningKeyID != nil {
		r.SigningKp.Set(fp.SigningKeyID)
	}
	if fp.VerificationKeyID != nil {
		r.VerificationKp.Set(fp.VerificationKeyID)
	}
	var err error
	if r.PropertyMappings, err = res.SAMLMappings(ctx, "propertyMappings", fp.PropertyMappings); err != nil {
		return nil, err
	}
	r.PropertyMappings = shared.WithMappingIDs(r.PropertyMappings, fp.PropertyMappingIDs)
	if err := res.SAMLMapping(ctx, "nameIdMapping", fp.NameIDMapping, &r.NameIdMapping); err != nil {
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
func ConnectionDetails(p api.SAMLProvider, metadata string) managed.ConnectionDetails {
	cd := managed.ConnectionDetails{}
	if metadata != "" {
		cd[ConnMetadata] = []byte(metadata)
	}
	if p.UrlDownloadMetadata != "" {
		cd[ConnMetadataURL] = []byte(p.UrlDownloadMetadata)
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
