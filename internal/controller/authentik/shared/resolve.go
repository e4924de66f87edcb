package shared

import (
	"context"
	"fmt"
	"slices"

	api "goauthentik.io/api/v3"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
)

const (
	errGetFlow      = "cannot read flow %q (spec.forProvider.%s)"
	errListCerts    = "cannot look up certificate-key pair %q (spec.forProvider.%s)"
	errListMappings = "cannot list %s property mappings"
)

// A MissingError is a name or slug in the spec that names nothing in authentik. Its message is
// what the user reads in the Synced condition.
type MissingError struct {
	// What is missing, for example `flow "my-flow"`.
	What string
	// Field is the spec field below spec.forProvider that names it.
	Field string
}

func (e *MissingError) Error() string {
	return fmt.Sprintf("%s, named in spec.forProvider.%s, does not exist in authentik: create it or correct the name", e.What, e.Field)
}

// A Resolver resolves the slugs and names a spec uses to authentik's primary keys. It reads
// each flow, certificate and mapping list at most once, so a driver makes one per reconcile;
// its lookups are shared with the other reconciles of the kind while fresh (see Reads).
type Resolver struct {
	api   *api.APIClient
	reads *Reads
	flows map[string]string
	certs map[string]string
	scope []mapping
	saml  []mapping
}

type mapping struct{ pk, name, managed string }

// NewResolver returns a Resolver over an API client, whose lookups are shared through reads
// (nil: not shared).
func NewResolver(c *api.APIClient, reads *Reads) *Resolver {
	return &Resolver{api: c, reads: reads, flows: map[string]string{}, certs: map[string]string{}}
}

// Flow returns the primary key of the flow with the slug.
func (r *Resolver) Flow(ctx context.Context, field, slug string) (string, error) {
	if pk, ok := r.flows[slug]; ok {
		return pk, nil
	}
	pk, err := r.reads.flow(ctx, r.api, slug, func(ctx context.Context) (string, error) {
		f, resp, err := r.api.FlowsAPI.FlowsInstancesRetrieve(ctx, slug).Execute()
		if err != nil {
			return "", authentik.Wrap(err, resp, errGetFlow, slug, field)
		}
		return f.Pk, nil
	})
	if err != nil {
		if authentik.IsNotFound(err) {
			return "", &MissingError{What: fmt.Sprintf("flow %q", slug), Field: field}
		}
		return "", err
	}
	r.flows[slug] = pk
	return pk, nil
}

// Flows resolves the flows every provider type names (spec.forProvider's ProviderFlows) into
// the fields of its request: authentik's request types differ, their flow fields do not. An
// unset authentication flow leaves authn alone.
func (r *Resolver) Flows(ctx context.Context, f v1alpha1.ProviderFlows, authz, inval **string, authn *api.NullableString) error {
	a, err := r.Flow(ctx, "authorizationFlow", f.AuthorizationFlow)
	if err != nil {
		return err
	}
	i, err := r.Flow(ctx, "invalidationFlow", f.InvalidationFlow)
	if err != nil {
		return err
	}
	*authz, *inval = &a, &i
	return r.OptionalFlow(ctx, "authenticationFlow", f.AuthenticationFlow, authn)
}

// OptionalFlow resolves a nullable flow reference into a request field: see setNullable.
func (r *Resolver) OptionalFlow(ctx context.Context, field string, slug *string, into *api.NullableString) error {
	return setNullable(slug, into, func(slug string) (string, error) { return r.Flow(ctx, field, slug) })
}

// Certificate resolves a nullable certificate-key pair reference by name into a request
// field: see setNullable.
func (r *Resolver) Certificate(ctx context.Context, field string, name *string, into *api.NullableString) error {
	return setNullable(name, into, func(name string) (string, error) { return r.certificate(ctx, field, name) })
}

// setNullable resolves a nullable reference into a request field: nil leaves the field alone
// (the spec does not manage it), the empty string clears it (a NullableString holding nil) and
// a name or slug sets it to the primary key resolve returns.
func setNullable(ref *string, into *api.NullableString, resolve func(string) (string, error)) error {
	if ref == nil {
		return nil
	}
	if *ref == "" {
		into.Set(nil)
		return nil
	}
	pk, err := resolve(*ref)
	if err != nil {
		return err
	}
	into.Set(&pk)
	return nil
}

func (r *Resolver) certificate(ctx context.Context, field, name string) (string, error) {
	if pk, ok := r.certs[name]; ok {
		return pk, nil
	}
	// The lookup answers the pk of the pair with exactly the name, "" when there is none.
	pk, err := r.reads.certificate(ctx, r.api, name, func(ctx context.Context) (string, error) {
		l, resp, err := r.api.CryptoAPI.CryptoCertificatekeypairsList(ctx).Name(name).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return "", authentik.Wrap(err, resp, errListCerts, name, field)
		}
		for _, c := range l.Results {
			if c.Name == name {
				return c.Pk, nil
			}
		}
		return "", nil
	})
	if err != nil {
		return "", err
	}
	if pk == "" {
		return "", &MissingError{What: fmt.Sprintf("certificate-key pair %q", name), Field: field}
	}
	r.certs[name] = pk
	return pk, nil
}

// ScopeMappings resolves OAuth2 scope mappings (also used by proxy providers); nil selects
// nothing and returns nil.
func (r *Resolver) ScopeMappings(ctx context.Context, field string, sel []v1alpha1.PropertyMappingSelector) ([]string, error) {
	if len(sel) == 0 {
		return nil, nil
	}
	if err := r.listScope(ctx); err != nil {
		return nil, err
	}
	return match(r.scope, "scope mapping", field, sel)
}

// ManagedScopeMappings returns the primary keys of the scope mappings with the given managed
// identifiers that exist, in that order; missing ones are skipped.
func (r *Resolver) ManagedScopeMappings(ctx context.Context, managed ...string) ([]string, error) {
	if err := r.listScope(ctx); err != nil {
		return nil, err
	}
	out := []string{}
	for _, id := range managed {
		for _, m := range r.scope {
			if m.managed == id {
				out = append(out, m.pk)
				break
			}
		}
	}
	return out, nil
}

// SAMLMappings resolves SAML property mappings; nil selects nothing and returns nil.
func (r *Resolver) SAMLMappings(ctx context.Context, field string, sel []v1alpha1.PropertyMappingSelector) ([]string, error) {
	if len(sel) == 0 {
		return nil, nil
	}
	if err := r.listSAML(ctx); err != nil {
		return nil, err
	}
	return match(r.saml, "SAML property mapping", field, sel)
}

// SAMLMapping resolves one optional SAML property mapping into a request field; nil leaves
// the field alone.
func (r *Resolver) SAMLMapping(ctx context.Context, field string, sel *v1alpha1.PropertyMappingSelector, into *api.NullableString) error {
	if sel == nil {
		return nil
	}
	pks, err := r.SAMLMappings(ctx, field, []v1alpha1.PropertyMappingSelector{*sel})
	if err != nil {
		return err
	}
	into.Set(&pks[0])
	return nil
}

func (r *Resolver) listScope(ctx context.Context) error {
	if r.scope != nil {
		return nil
	}
	all, err := r.reads.mappings(ctx, r.api, "scope", func(ctx context.Context) ([]mapping, error) {
		all, err := authentik.ListAll(ctx, func(page int32) ([]api.ScopeMapping, int32, error) {
			l, resp, err := r.api.PropertymappingsAPI.PropertymappingsProviderScopeList(ctx).Page(page).PageSize(authentik.PageSize).Execute()
			if err != nil {
				return nil, 0, authentik.Wrap(err, resp, errListMappings, "scope")
			}
			return l.Results, authentik.NextPage(l.Pagination), nil
		})
		out := make([]mapping, 0, len(all))
		for _, m := range all {
			out = append(out, mapping{pk: m.Pk, name: m.Name, managed: m.GetManaged()})
		}
		return out, err
	})
	if err != nil {
		return err
	}
	r.scope = all
	return nil
}

func (r *Resolver) listSAML(ctx context.Context) error {
	if r.saml != nil {
		return nil
	}
	all, err := r.reads.mappings(ctx, r.api, "saml", func(ctx context.Context) ([]mapping, error) {
		all, err := authentik.ListAll(ctx, func(page int32) ([]api.SAMLPropertyMapping, int32, error) {
			l, resp, err := r.api.PropertymappingsAPI.PropertymappingsProviderSamlList(ctx).Page(page).PageSize(authentik.PageSize).Execute()
			if err != nil {
				return nil, 0, authentik.Wrap(err, resp, errListMappings, "SAML")
			}
			return l.Results, authentik.NextPage(l.Pagination), nil
		})
		out := make([]mapping, 0, len(all))
		for _, m := range all {
			out = append(out, mapping{pk: m.Pk, name: m.Name, managed: m.GetManaged()})
		}
		return out, err
	})
	if err != nil {
		return err
	}
	r.saml = all
	return nil
}

// WithMappingIDs adds the pks of referenced PropertyMappings (propertyMappingIds, filled from
// propertyMappingRefs or propertyMappingSelector) to the mappings resolved by name: together
// they are the provider's mappings. Neither set leaves the field unset (nil).
func WithMappingIDs(byName, ids []string) []string {
	if len(ids) == 0 {
		return byName
	}
	out := append([]string{}, byName...)
	for _, id := range ids {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

func match(all []mapping, what, field string, sel []v1alpha1.PropertyMappingSelector) ([]string, error) {
	out := make([]string, 0, len(sel))
	for i, s := range sel {
		found := ""
		for _, m := range all {
			if (s.Name != nil && m.name == *s.Name) || (s.Managed != nil && m.managed == *s.Managed) {
				found = m.pk
				break
			}
		}
		if found == "" {
			desc := fmt.Sprintf("%s named %q", what, deref(s.Name))
			if s.Managed != nil {
				desc = fmt.Sprintf("%s with managed identifier %q", what, *s.Managed)
			}
			f := field
			if len(sel) > 1 || field == "propertyMappings" {
				f = fmt.Sprintf("%s[%d]", field, i)
			}
			return nil, &MissingError{What: desc, Field: f}
		}
		out = append(out, found)
	}
	return out, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// IsMissing reports whether err is a MissingError.
func IsMissing(err error) bool {
	var m *MissingError
	return errors.As(err, &m)
}
