package importer

import (
	"context"
	"fmt"
	"slices"
	"strings"

	api "goauthentik.io/api/v3"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	akv1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/proxyprovider"
)

const (
	unsupportedMissingRef = "names %s %s, which authentik did not list: a resource could not name it; skipped"
	noteClientSecret      = "the client secret is not imported (it never goes into a manifest): unset, the provider keeps its secret and never writes it; to manage it, put it in a Secret of the resource's namespace and set spec.forProvider.clientSecretSecretRef"
)

// providerObject fills what every provider kind shares: its ID, its marker evidence (the
// marker of the application that uses it, ADR 0002) and its flows; ok is false when a flow
// cannot be named (o is then unsupported).
func (l *akLister) providerObject(kind, typ string, pk int32, name string, app api.NullableString) *Object {
	o := akObject(kind, describeAk(typ, name, "ID", itoa(pk)), itoa(pk), name)
	o.Markerless = true
	l.providerKind[pk] = kind
	if slug := app.Get(); slug != nil && *slug != "" {
		o.Related = related(fmt.Sprintf("its application %q", *slug), l.appMarker[*slug])
	}
	return o
}

// flows names a provider's flows by slug; "" and false when one is not listed.
func (l *akLister) providerFlows(o *Object, authz, inval string, authn api.NullableString) akv1.ProviderFlows {
	f := akv1.ProviderFlows{AuthorizationFlow: l.flow(o, authz), InvalidationFlow: l.flow(o, inval)}
	if pk := authn.Get(); pk != nil && *pk != "" {
		f.AuthenticationFlow = new(l.flow(o, *pk))
	}
	return f
}

func (l *akLister) flow(o *Object, pk string) string {
	slug, ok := l.flows[pk]
	if !ok && o.Unsupported == "" {
		o.Unsupported = fmt.Sprintf(unsupportedMissingRef, "flow", pk)
	}
	return slug
}

// cert names a certificate-key pair; nil when the field is empty (the spec leaves it alone).
func (l *akLister) cert(o *Object, v api.NullableString) *string {
	pk := v.Get()
	if pk == nil || *pk == "" {
		return nil
	}
	name, ok := l.certs[*pk]
	if !ok && o.Unsupported == "" {
		o.Unsupported = fmt.Sprintf(unsupportedMissingRef, "certificate-key pair", *pk)
	}
	return &name
}

// mappingSelectors names property mappings, by managed ID where authentik ships them, else by
// name, sorted (authentik keeps them as a set); nil for none, leaving the spec's default.
func (l *akLister) mappingSelectors(o *Object, pks []string) []akv1.PropertyMappingSelector {
	if len(pks) == 0 {
		return nil
	}
	out := make([]akv1.PropertyMappingSelector, 0, len(pks))
	for _, pk := range pks {
		s, ok := l.mappings[pk]
		if !ok {
			if o.Unsupported == "" {
				o.Unsupported = fmt.Sprintf(unsupportedMissingRef, "property mapping", pk)
			}
			continue
		}
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b akv1.PropertyMappingSelector) int {
		return strings.Compare(deref(a.Managed)+"\x00"+deref(a.Name), deref(b.Managed)+"\x00"+deref(b.Name))
	})
	return out
}

// mappingsOrRefs names property mappings as mappingSelectors does, except those a resource
// stands for (an imported PropertyMapping, or one the namespace already manages), which are
// referenced by it: the provider's list is the union of both, so the two may be mixed.
func (l *akLister) mappingsOrRefs(r Refs, o *Object, pks []string) ([]akv1.PropertyMappingSelector, []xpv2.Reference) {
	var rest []string
	var refs []xpv2.Reference
	for _, pk := range pks {
		if n, ok := r.Name(kindPropertyMapping, pk); ok {
			refs = append(refs, xpv2.Reference{Name: n})
			continue
		}
		rest = append(rest, pk)
	}
	slices.SortFunc(refs, func(a, b xpv2.Reference) int { return strings.Compare(a.Name, b.Name) })
	return l.mappingSelectors(o, rest), refs
}

// certOrRef names a certificate-key pair by the resource that stands for it, else by name as
// cert does.
func (l *akLister) certOrRef(r Refs, o *Object, v api.NullableString) (*string, *xpv2.Reference) {
	if pk := v.Get(); pk != nil && *pk != "" {
		if n, ok := r.Name(kindCertificateKeyPair, *pk); ok {
			return nil, &xpv2.Reference{Name: n}
		}
	}
	return l.cert(o, v), nil
}

func (l *akLister) oauth2Providers(ctx context.Context) error {
	ps, err := listAll(ctx, "OAuth2 providers", func(p int32) ([]api.OAuth2Provider, api.Pagination, error) {
		r, resp, err := l.api.ProvidersAPI.ProvidersOauth2List(ctx).Page(p).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return nil, api.Pagination{}, authentik.AsError(err, resp)
		}
		return r.Results, r.Pagination, nil
	})
	if err != nil {
		return err
	}
	for _, p := range ps {
		o := l.providerObject(kindOAuth2Provider, "OAuth2 provider", p.Pk, p.Name, p.AssignedApplicationSlug)
		o.Notes = []string{noteClientSecret}
		fp := akv1.OAuth2ProviderParameters{Name: p.Name,
			ProviderFlows: l.providerFlows(o, p.AuthorizationFlow, p.InvalidationFlow, p.AuthenticationFlow),
			ClientType:    (*string)(p.ClientType), ClientID: p.ClientId,
			AccessCodeValidity: p.AccessCodeValidity, AccessTokenValidity: p.AccessTokenValidity,
			RefreshTokenValidity: p.RefreshTokenValidity, RefreshTokenThreshold: p.RefreshTokenThreshold,
			IncludeClaimsInIDToken: p.IncludeClaimsInIdToken,
			SigningKey:             l.cert(o, p.SigningKey), EncryptionKey: l.cert(o, p.EncryptionKey),
			PropertyMappings: l.mappingSelectors(o, p.PropertyMappings),
			SubMode:          (*string)(p.SubMode), IssuerMode: (*string)(p.IssuerMode),
			LogoutURI: p.LogoutUri, LogoutMethod: (*string)(p.LogoutMethod)}
		for _, u := range p.RedirectUris {
			ru := akv1.RedirectURI{URL: u.Url, MatchingMode: string(u.MatchingMode)}
			if u.RedirectUriType != nil {
				ru.Type = string(*u.RedirectUriType)
			}
			fp.RedirectURIs = append(fp.RedirectURIs, ru)
		}
		for _, g := range p.GrantTypes {
			fp.GrantTypes = append(fp.GrantTypes, string(g))
		}
		slices.Sort(fp.GrantTypes)
		o.Build = func(r Refs) any {
			fp := fp
			fp.SigningKey, fp.SigningKeyRef = l.certOrRef(r, o, p.SigningKey)
			fp.PropertyMappings, fp.PropertyMappingRefs = l.mappingsOrRefs(r, o, p.PropertyMappings)
			return fp
		}
		l.emit(o)
	}
	return nil
}

func (l *akLister) samlProviders(ctx context.Context) error {
	ps, err := listAll(ctx, "SAML providers", func(p int32) ([]api.SAMLProvider, api.Pagination, error) {
		r, resp, err := l.api.ProvidersAPI.ProvidersSamlList(ctx).Page(p).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return nil, api.Pagination{}, authentik.AsError(err, resp)
		}
		return r.Results, r.Pagination, nil
	})
	if err != nil {
		return err
	}
	for _, p := range ps {
		o := l.providerObject(kindSAMLProvider, "SAML provider", p.Pk, p.Name, p.AssignedApplicationSlug)
		fp := akv1.SAMLProviderParameters{Name: p.Name,
			ProviderFlows: l.providerFlows(o, p.AuthorizationFlow, p.InvalidationFlow, p.AuthenticationFlow),
			ACSURL:        p.AcsUrl, SLSURL: p.SlsUrl, Audience: p.Audience, Issuer: p.IssuerOverride,
			SPBinding: (*string)(p.SpBinding), SLSBinding: (*string)(p.SlsBinding),
			SigningKey: l.cert(o, p.SigningKp), VerificationKey: l.cert(o, p.VerificationKp), EncryptionKey: l.cert(o, p.EncryptionKp),
			PropertyMappings:   l.mappingSelectors(o, p.PropertyMappings),
			SignatureAlgorithm: (*string)(p.SignatureAlgorithm), DigestAlgorithm: (*string)(p.DigestAlgorithm),
			AssertionValidNotBefore: p.AssertionValidNotBefore, AssertionValidNotOnOrAfter: p.AssertionValidNotOnOrAfter,
			SessionValidNotOnOrAfter: p.SessionValidNotOnOrAfter, SignAssertion: p.SignAssertion, SignResponse: p.SignResponse,
			DefaultRelayState: p.DefaultRelayState, DefaultNameIDPolicy: (*string)(p.DefaultNameIdPolicy),
			LogoutMethod: (*string)(p.LogoutMethod)}
		if pk := p.NameIdMapping.Get(); pk != nil && *pk != "" {
			if m := l.mappingSelectors(o, []string{*pk}); len(m) == 1 {
				fp.NameIDMapping = &m[0]
			}
		}
		o.Build = func(r Refs) any {
			fp := fp
			fp.SigningKey, fp.SigningKeyRef = l.certOrRef(r, o, p.SigningKp)
			fp.VerificationKey, fp.VerificationKeyRef = l.certOrRef(r, o, p.VerificationKp)
			fp.PropertyMappings, fp.PropertyMappingRefs = l.mappingsOrRefs(r, o, p.PropertyMappings)
			return fp
		}
		l.emit(o)
	}
	return nil
}

func (l *akLister) proxyProviders(ctx context.Context) error {
	ps, err := listAll(ctx, "proxy providers", func(p int32) ([]api.ProxyProvider, api.Pagination, error) {
		r, resp, err := l.api.ProvidersAPI.ProvidersProxyList(ctx).Page(p).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return nil, api.Pagination{}, authentik.AsError(err, resp)
		}
		return r.Results, r.Pagination, nil
	})
	if err != nil {
		return err
	}
	for _, p := range ps {
		o := l.providerObject(kindProxyProvider, "proxy provider", p.Pk, p.Name, p.AssignedApplicationSlug)
		fp := akv1.ProxyProviderParameters{Name: p.Name,
			ProviderFlows: l.providerFlows(o, p.AuthorizationFlow, p.InvalidationFlow, p.AuthenticationFlow),
			ExternalHost:  p.ExternalHost, InternalHost: p.InternalHost, InternalHostSSLValidation: p.InternalHostSslValidation,
			CookieDomain: p.CookieDomain, SkipPathRegex: p.SkipPathRegex, BasicAuthEnabled: p.BasicAuthEnabled,
			BasicAuthUserAttribute: p.BasicAuthUserAttribute, BasicAuthPasswordAttribute: p.BasicAuthPasswordAttribute,
			InterceptHeaderAuth: p.InterceptHeaderAuth, Certificate: l.cert(o, p.Certificate),
			AccessTokenValidity: p.AccessTokenValidity, RefreshTokenValidity: p.RefreshTokenValidity}
		if p.Mode != nil {
			fp.Mode = string(*p.Mode)
		}
		// authentik adds its own scope mappings to every proxy provider; the spec names only
		// the others (the driver never counts those as drift).
		var own []string
		for _, pk := range p.PropertyMappings {
			if s, ok := l.mappings[pk]; ok && s.Managed != nil && slices.Contains(proxyprovider.ServerAddedScopeMappings, *s.Managed) {
				continue
			}
			own = append(own, pk)
		}
		fp.PropertyMappings = l.mappingSelectors(o, own)
		o.Build = func(Refs) any { return fp }
		l.emit(o)
	}
	return nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
