package shared

import (
	"context"
	"maps"
	"strconv"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

const (
	errGetProvider       = "cannot read %s %s"
	errListProviders     = "cannot look up %ss named %q"
	errCreateProvider    = "cannot create %s %q"
	errProviderNameTaken = "cannot create %s %q: a provider of another type (%s) already has this name, and provider names are unique across all types in authentik; choose another name"
	errUpdateProvider    = "cannot update %s %q (ID %d)"
	errDeleteProvider    = "cannot delete %s %q (ID %d)"
)

// A ProviderKind is what one provider kind (OAuth2Provider, SAMLProvider, ProxyProvider) adds
// to the driver they share: the generated client's calls for its provider type P and how its
// spec and status map to authentik's fields.
type ProviderKind[MG resource.Managed, P, Req, Patch any] struct {
	Calls ProviderCalls[P, Req, Patch]
	// TypeName names the provider type in errors and to the engine, e.g. "authentik OAuth2
	// provider".
	TypeName string
	// List names the list of all providers of the type (e.g. providers/oauth2/), whose
	// resources share their reads of providers by ID; empty: not shared.
	List string
	// Pages reads pages of List (e.g. authentik.OAuth2ProviderPages).
	Pages func(list string) authentik.ListPage[P]
	// OtherTypes are examples of the other provider types, named in the error for a name one of
	// them already has, e.g. "SAML, proxy, LDAP...".
	OtherTypes string
	// Name is spec.forProvider.name, the natural key.
	Name func(mg MG) string
	// Desired resolves the spec into the fields it sets, once per reconcile.
	Desired func(ctx context.Context, c Client, r *Resolver, mg MG) (Want[P], error)
	// Defaults, when set, completes the fields of a new provider that the spec leaves unset.
	Defaults func(ctx context.Context, r *Resolver, f Fields) error
	// Details, when set, returns the connection details of a provider just read. It may call
	// authentik (the SAML metadata), which Status and the comparison must not.
	Details func(ctx context.Context, c Client, mg MG, p P) (managed.ConnectionDetails, error)
	// Status records the provider in status.atProvider.
	Status func(c Client, mg MG, p P, prov identityv1alpha1.Provenance)
	// Validate, when set, checks the spec right before a create or update, as its CRD does at
	// admission: a resource stored before a rule existed never went through it.
	Validate func(mg MG) error
}

// A Want is what a spec asks of a provider, resolved for one reconcile.
type Want[P any] struct {
	// Fields are the fields the spec sets, in authentik's wire format.
	Fields Fields
	// Compare compares the fields with a provider's. It may use what resolving the spec found
	// (the proxy kind ignores the scope mappings authentik adds by itself).
	Compare func(want Fields, p P) (Comparison, error)
}

// Observed is a provider as authentik returns it, with its connection details and the marker
// of the application using it when it was found by name.
type Observed[P any] struct {
	Provider P
	Details  managed.ConnectionDetails
	// AppMarker is set for a provider found by name: see DescribeProvider.
	AppMarker *provenance.Marker
}

// New returns a driver for one reconcile.
func (k *ProviderKind[MG, P, Req, Patch]) New(c Client) *ProviderDriver[MG, P, Req, Patch] {
	return &ProviderDriver[MG, P, Req, Patch]{Client: c, kind: k, res: NewResolver(c.API, c.Reads)}
}

// A ProviderDriver drives one type of authentik provider for the adoption engine. It lives for
// one reconcile: it resolves the spec's flow slugs, certificate and mapping names and secrets
// once, while reading the provider, so that Observe compares without calling authentik.
type ProviderDriver[MG resource.Managed, P, Req, Patch any] struct {
	Client
	kind *ProviderKind[MG, P, Req, Patch]
	res  *Resolver

	prepared bool
	want     Want[P]
	wantErr  error
}

// Get reads the provider with the ID.
func (d *ProviderDriver[MG, P, Req, Patch]) Get(ctx context.Context, mg MG, id string) (Observed[P], error) {
	pk, err := ParsePK(id)
	if err != nil {
		return Observed[P]{}, err
	}
	p, err := d.objects().Get(ctx, d.API, id, func(ctx context.Context) (P, error) {
		p, resp, err := d.kind.Calls.retrieve(ctx, d.API, pk)
		if err != nil {
			var zero P
			return zero, authentik.Wrap(err, resp, errGetProvider, d.kind.TypeName, id)
		}
		return *p, nil
	})
	if err != nil {
		return Observed[P]{}, err
	}
	o := Observed[P]{Provider: p}
	if o.Details, err = d.details(ctx, mg, p); err != nil {
		return Observed[P]{}, err
	}
	d.prepare(ctx, mg)
	return o, nil
}

// Find looks the provider up by name. The name is compared exactly here, also where authentik
// can only filter by it case-insensitively (proxy providers).
func (d *ProviderDriver[MG, P, Req, Patch]) Find(ctx context.Context, mg MG) ([]Observed[P], error) {
	name := d.kind.Name(mg)
	all, err := d.kind.Calls.list(ctx, d.API, name)
	if err != nil {
		return nil, errors.Wrapf(err, errListProviders, d.kind.TypeName, name)
	}
	var out []Observed[P]
	for _, p := range all {
		po := d.kind.Calls.object(&p)
		if po.GetName() != name {
			continue
		}
		m, err := d.AppMarker(ctx, po.GetName(), po.GetAssignedApplicationSlug())
		if err != nil {
			return nil, err
		}
		cd, err := d.details(ctx, mg, p)
		if err != nil {
			return nil, err
		}
		out = append(out, Observed[P]{Provider: p, Details: cd, AppMarker: m})
	}
	d.prepare(ctx, mg)
	return out, nil
}

func (d *ProviderDriver[MG, P, Req, Patch]) details(ctx context.Context, mg MG, p P) (managed.ConnectionDetails, error) {
	if d.kind.Details == nil {
		return nil, nil
	}
	return d.kind.Details(ctx, d.Client, mg, p)
}

// IsNotFound reports whether err is authentik's 404.
func (d *ProviderDriver[MG, P, Req, Patch]) IsNotFound(err error) bool {
	return authentik.IsNotFound(err)
}

// Describe presents the provider to the engine: see DescribeProvider.
func (d *ProviderDriver[MG, P, Req, Patch]) Describe(o Observed[P]) adoption.Description {
	po := d.kind.Calls.object(&o.Provider)
	return DescribeProvider(po.GetPk(), d.kind.TypeName, po.GetName(), o.AppMarker, d.Installation)
}

// Observe records the provider, publishes its connection details and compares the fields the
// spec sets.
func (d *ProviderDriver[MG, P, Req, Patch]) Observe(mg MG, o Observed[P], p identityv1alpha1.Provenance) adoption.Observation {
	d.kind.Status(d.Client, mg, o.Provider, p)
	obs := adoption.Observation{ConnectionDetails: o.Details}
	if meta.WasDeleted(mg) {
		// Nothing is compared for a resource being deleted (see prepare).
		obs.UpToDate = true
		return obs
	}
	if d.wantErr != nil {
		obs.Diff = d.wantErr.Error()
		return obs
	}
	c, err := d.want.Compare(d.want.Fields, o.Provider)
	if err != nil {
		obs.Diff = err.Error()
		return obs
	}
	obs.UpToDate, obs.Diff = c.UpToDate(), c.Diff
	return obs
}

// Create creates the provider, with the kind's defaults for what the spec leaves unset.
func (d *ProviderDriver[MG, P, Req, Patch]) Create(ctx context.Context, mg MG, _ provenance.Marker) (string, managed.ConnectionDetails, error) {
	if err := d.validate(mg); err != nil {
		return "", nil, err
	}
	d.prepare(ctx, mg)
	if d.wantErr != nil {
		return "", nil, d.wantErr
	}
	f := d.want.Fields
	if d.kind.Defaults != nil {
		// A copy: the defaults are not what the spec asks, and must not make Observe see drift.
		f = Fields{}
		maps.Copy(f, d.want.Fields)
		if err := d.kind.Defaults(ctx, d.res, f); err != nil {
			return "", nil, err
		}
	}
	req, err := Decode[Req](f)
	if err != nil {
		return "", nil, err
	}
	p, resp, err := d.kind.Calls.create(ctx, d.API, req)
	if err != nil {
		name := d.kind.Name(mg)
		err = authentik.Wrap(err, resp, errCreateProvider, d.kind.TypeName, name)
		if authentik.IsTaken(err, "name") {
			return "", nil, errors.Errorf(errProviderNameTaken, d.kind.TypeName, name, d.kind.OtherTypes)
		}
		return "", nil, err
	}
	id := strconv.Itoa(int(d.kind.Calls.object(p).GetPk()))
	d.objects().Wrote(d.API, id, p, nil)
	return id, nil, nil
}

// Update PATCHes exactly the managed fields that differ; a provider in sync is never written.
func (d *ProviderDriver[MG, P, Req, Patch]) Update(ctx context.Context, mg MG, o Observed[P], _ provenance.Marker) (managed.ConnectionDetails, error) {
	if err := d.validate(mg); err != nil {
		return nil, err
	}
	if d.wantErr != nil {
		return nil, d.wantErr
	}
	c, err := d.want.Compare(d.want.Fields, o.Provider)
	if err != nil || c.UpToDate() {
		return nil, err
	}
	req, err := Decode[Patch](c.Changed)
	if err != nil {
		return nil, err
	}
	po := d.kind.Calls.object(&o.Provider)
	updated, resp, err := d.kind.Calls.update(ctx, d.API, po.GetPk(), req)
	d.objects().Wrote(d.API, strconv.Itoa(int(po.GetPk())), updated, err)
	return nil, authentik.Wrap(err, resp, errUpdateProvider, d.kind.TypeName, po.GetName(), po.GetPk())
}

func (d *ProviderDriver[MG, P, Req, Patch]) validate(mg MG) error {
	if d.kind.Validate == nil {
		return nil
	}
	return d.kind.Validate(mg)
}

// Delete deletes the provider.
func (d *ProviderDriver[MG, P, Req, Patch]) Delete(ctx context.Context, _ MG, o Observed[P]) error {
	po := d.kind.Calls.object(&o.Provider)
	resp, err := d.kind.Calls.destroy(ctx, d.API, po.GetPk())
	d.objects().Forget(d.API, strconv.Itoa(int(po.GetPk())))
	return authentik.IgnoreNotFound(authentik.Wrap(err, resp, errDeleteProvider, d.kind.TypeName, po.GetName(), po.GetPk()))
}

// objects are the kind's shared reads of providers by ID; nil when the kind does not share.
func (d *ProviderDriver[MG, P, Req, Patch]) objects() *authentik.Shared[P] {
	if d.kind.List == "" {
		return nil
	}
	return ObjectsOf(d.Reads, d.kind.List, d.kind.Pages(d.kind.List), func(p P) string {
		return strconv.Itoa(int(d.kind.Calls.object(&p).GetPk()))
	})
}

// prepare resolves the spec into authentik's fields once per reconcile, when Get or Find has
// read the provider (so Observe and Update always find it resolved) or Create is about to make
// it. A failure is kept for Observe (the provider is then not up to date), Create and Update
// to report, so that it never stands in the way of observing or deleting the provider. A
// resource being deleted resolves nothing: its spec is never compared or written again, and
// its flows, keys and mappings would cost four lookups per deletion.
func (d *ProviderDriver[MG, P, Req, Patch]) prepare(ctx context.Context, mg MG) {
	if d.prepared {
		return
	}
	d.prepared = true
	if meta.WasDeleted(mg) {
		return
	}
	d.want, d.wantErr = d.kind.Desired(ctx, d.Client, d.res, mg)
}
