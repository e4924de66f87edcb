package importer

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	api "goauthentik.io/api/v3"
	extv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	akv1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// The authentik kinds the importer lists.
const (
	kindApplication    = "Application"
	kindOAuth2Provider = "OAuth2Provider"
	kindSAMLProvider   = "SAMLProvider"
	kindProxyProvider  = "ProxyProvider"
)

const (
	errAkList       = "cannot list authentik %s"
	errAkKind       = "--kind %q is not an authentik kind this command imports (%s)"
	errAkDomain     = "--domain is Keystone's: authentik has no domains; use --name to narrow the listing"
	errAkAttributes = "cannot render the attributes of %s"
)

// An akKind is one authentik kind: what it is called and how its objects are listed. The
// listers run in the table's order; a later one may use what an earlier one read (an
// application names its provider by the provider's kind, which the provider listers record).
// Adding a kind is adding a row.
type akKind struct {
	kind string
	list func(*akLister, context.Context) error
}

var akKinds = []akKind{
	{kindGroup, (*akLister).groups},
	{kindPropertyMapping, (*akLister).propertyMappings},
	{kindCertificateKeyPair, (*akLister).certificateKeyPairs},
	{kindUser, (*akLister).users},
	{kindOAuth2Provider, (*akLister).oauth2Providers},
	{kindSAMLProvider, (*akLister).samlProviders},
	{kindProxyProvider, (*akLister).proxyProviders},
	{kindLDAPProvider, (*akLister).ldapProviders},
	{kindOutpost, (*akLister).outposts},
	{kindApplication, (*akLister).applications},
	{kindFlow, (*akLister).flowObjects},
	{kindPrompt, (*akLister).prompts},
	{kindStage, (*akLister).stages},
	{kindFlowStageBinding, (*akLister).bindings},
	{kindBrand, (*akLister).brands},
	{kindToken, (*akLister).tokens},
	{kindPolicy, (*akLister).policies},
	{kindPolicyBinding, (*akLister).policyBindings},
}

// AuthentikKinds are the authentik kinds the importer knows, in the order they are listed.
func AuthentikKinds() []string {
	out := make([]string, 0, len(akKinds))
	for _, k := range akKinds {
		out = append(out, k.kind)
	}
	return out
}

// authentikLister lists through c.
func authentikLister(c *api.APIClient) func(context.Context, Filter) ([]*Object, error) {
	return func(ctx context.Context, f Filter) ([]*Object, error) { return ListAuthentik(ctx, c, f) }
}

// ListAuthentik lists the authentik objects the filter selects. Every provider type is read
// even when --kind leaves it out: an application names its provider by ID only, and its spec
// by the provider's kind.
func ListAuthentik(ctx context.Context, c *api.APIClient, f Filter) ([]*Object, error) {
	if f.Domain != "" {
		return nil, errors.New(errAkDomain)
	}
	for _, k := range f.Kinds {
		if !slices.ContainsFunc(AuthentikKinds(), func(s string) bool { return strings.EqualFold(s, k) }) {
			return nil, errors.Errorf(errAkKind, k, strings.Join(AuthentikKinds(), ", "))
		}
	}
	l := &akLister{api: c, f: f, providerKind: map[int32]string{}, appMarker: map[string]*provenance.Marker{},
		appSlug: map[string]string{}, groupMarker: map[string]*provenance.Marker{}, userMarker: map[string]*provenance.Marker{}}
	if err := l.references(ctx); err != nil {
		return nil, err
	}
	for _, k := range akKinds {
		if err := k.list(l, ctx); err != nil {
			return nil, err
		}
	}
	return l.out, nil
}

// akLister lists one import's authentik objects.
type akLister struct {
	api *api.APIClient
	f   Filter
	out []*Object

	// providerKind maps every OAuth2, SAML, proxy and LDAP provider's ID to its kind.
	providerKind map[int32]string
	// appMarker maps every application's slug to its marker (nil: none).
	appMarker map[string]*provenance.Marker
	// appSlug maps every application's pk to its slug: a policy binding names its target by pk.
	appSlug map[string]string
	// groupMarker and userMarker map every group's and user's pk to its marker (nil: none),
	// which the policy bindings of that group or user are judged by.
	groupMarker, userMarker map[string]*provenance.Marker
	// fsbList is every flow-stage binding, read once when bindings or policy bindings are
	// listed.
	fsbList []api.FlowStageBinding
	fsbRead bool
	// flows, certs and mappings name what providers reference by primary key: flows by slug,
	// certificate-key pairs by name, property mappings by managed ID or name.
	flows, certs map[string]string
	mappings     map[string]akv1.PropertyMappingSelector
	// flowList is every flow as listed; certList, scopeList and samlList every
	// certificate-key pair, scope mapping and SAML property mapping.
	flowList  []api.Flow
	certList  []api.CertificateKeyPair
	scopeList []api.ScopeMapping
	samlList  []api.SAMLPropertyMapping
	// stageNames maps every stage's pk to its name, read when stages or bindings are listed.
	stageNames map[string]string
	// stageRefs fills the references of the stages whose blocks name other objects, by pk.
	stageRefs map[string]stageRefs
}

// akObject fills what every authentik object shares.
func akObject(kind, describe, id, name string) *Object {
	return &Object{
		Kind: kind, APIVersion: akv1.SchemeGroupVersion.String(),
		GroupKind: akv1.SchemeGroupVersion.WithKind(kind).GroupKind().String(),
		ID:        id, Name: name, Describe: describe,
	}
}

// emit adds o when the filter lists its kind and name.
func (l *akLister) emit(o *Object) {
	if l.f.kind(o.Kind) && l.f.name(o.Name) {
		l.out = append(l.out, o)
	}
}

// listAll reads every page of a list.
func listAll[T any](ctx context.Context, what string, page func(p int32) ([]T, api.Pagination, error)) ([]T, error) {
	all, err := authentik.ListAll(ctx, func(p int32) ([]T, int32, error) {
		items, pg, err := page(p)
		return items, authentik.NextPage(pg), err
	})
	return all, errors.Wrapf(err, errAkList, what)
}

// references reads what the objects reference by primary key, and the applications' markers,
// which providers are judged by (ADR 0002).
func (l *akLister) references(ctx context.Context) error {
	flows, err := listAll(ctx, "flows", func(p int32) ([]api.Flow, api.Pagination, error) {
		r, resp, err := l.api.FlowsAPI.FlowsInstancesList(ctx).Page(p).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return nil, api.Pagination{}, authentik.AsError(err, resp)
		}
		return r.Results, r.Pagination, nil
	})
	if err != nil {
		return err
	}
	l.flowList = flows
	l.flows = map[string]string{}
	for _, f := range flows {
		l.flows[f.Pk] = f.Slug
	}
	certs, err := listAll(ctx, "certificate-key pairs", func(p int32) ([]api.CertificateKeyPair, api.Pagination, error) {
		r, resp, err := l.api.CryptoAPI.CryptoCertificatekeypairsList(ctx).Page(p).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return nil, api.Pagination{}, authentik.AsError(err, resp)
		}
		return r.Results, r.Pagination, nil
	})
	if err != nil {
		return err
	}
	l.certList = certs
	l.certs = map[string]string{}
	for _, c := range certs {
		l.certs[c.Pk] = c.Name
	}
	if err := l.listMappings(ctx); err != nil {
		return err
	}
	return l.listAppMarkers(ctx)
}

func (l *akLister) listMappings(ctx context.Context) error {
	l.mappings = map[string]akv1.PropertyMappingSelector{}
	add := func(pk, name string, managed api.NullableString) {
		if m := managed.Get(); m != nil && *m != "" {
			l.mappings[pk] = akv1.PropertyMappingSelector{Managed: new(*m)}
			return
		}
		l.mappings[pk] = akv1.PropertyMappingSelector{Name: new(name)}
	}
	scope, err := listAll(ctx, "scope mappings", func(p int32) ([]api.ScopeMapping, api.Pagination, error) {
		r, resp, err := l.api.PropertymappingsAPI.PropertymappingsProviderScopeList(ctx).Page(p).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return nil, api.Pagination{}, authentik.AsError(err, resp)
		}
		return r.Results, r.Pagination, nil
	})
	if err != nil {
		return err
	}
	l.scopeList = scope
	for _, m := range scope {
		add(m.Pk, m.Name, m.Managed)
	}
	saml, err := listAll(ctx, "SAML property mappings", func(p int32) ([]api.SAMLPropertyMapping, api.Pagination, error) {
		r, resp, err := l.api.PropertymappingsAPI.PropertymappingsProviderSamlList(ctx).Page(p).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return nil, api.Pagination{}, authentik.AsError(err, resp)
		}
		return r.Results, r.Pagination, nil
	})
	if err != nil {
		return err
	}
	l.samlList = saml
	for _, m := range saml {
		add(m.Pk, m.Name, m.Managed)
	}
	return nil
}

func (l *akLister) listAppMarkers(ctx context.Context) error {
	apps, err := l.listApplications(ctx)
	if err != nil {
		return err
	}
	for _, a := range apps {
		l.appMarker[a.Slug] = appMarker(a)
		l.appSlug[a.Pk] = a.Slug
	}
	return nil
}

func (l *akLister) listApplications(ctx context.Context) ([]api.Application, error) {
	return listAll(ctx, "applications", func(p int32) ([]api.Application, api.Pagination, error) {
		r, resp, err := l.api.CoreAPI.CoreApplicationsList(ctx).SuperuserFullList(true).Page(p).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return nil, api.Pagination{}, authentik.AsError(err, resp)
		}
		return r.Results, r.Pagination, nil
	})
}

// appMarker reads an application's marker, the last line of its description; an unreadable
// one proves nothing.
func appMarker(a api.Application) *provenance.Marker {
	if _, m, found, err := provenance.ExtractFromText(a.GetMetaDescription()); found && err == nil {
		return &m
	}
	return nil
}

// attributes returns a group's or user's attributes without the provider's own keys (its
// marker, a password's Secret version), as the spec holds them; nil when none are left.
func attributes(describe string, attrs map[string]any) (akv1.Attributes, error) {
	out := akv1.Attributes{}
	for k, v := range attrs {
		if strings.HasPrefix(k, authentik.ReservedPrefix) {
			continue
		}
		raw, err := json.Marshal(v)
		if err != nil {
			return nil, errors.Wrapf(err, errAkAttributes, describe)
		}
		out[k] = extv1.JSON{Raw: raw}
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}

// refsOrIDs returns references to the resources that stand for the objects of kind with the
// IDs, or the IDs (sorted, never nil: the spec manages the whole list) when any of them has
// none: resolving references replaces the list, so a spec holds either the refs or the IDs.
func refsOrIDs(r Refs, kind string, ids []string) ([]string, []xpv2.Reference) {
	names := make([]string, 0, len(ids))
	for _, id := range ids {
		n, ok := r.Name(kind, id)
		if !ok {
			return authentik.NonNil(authentik.SortedSet(ids)), nil
		}
		names = append(names, n)
	}
	if len(names) == 0 {
		return []string{}, nil
	}
	slices.Sort(names)
	out := make([]xpv2.Reference, 0, len(names))
	for _, n := range names {
		out = append(out, xpv2.Reference{Name: n})
	}
	return nil, out
}

func describeAk(typ, name, idLabel, id string) string {
	return fmt.Sprintf("authentik %s %q (%s %s)", typ, name, idLabel, id)
}

func itoa(pk int32) string { return strconv.Itoa(int(pk)) }
