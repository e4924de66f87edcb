// Package propertymapping manages authentik provider property mappings: OAuth2 scope mappings
// and SAML property mappings, one kind with a block per type (docs/adr/0009).
package propertymapping

import (
	"context"
	"fmt"

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
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

const (
	typeName = "authentik property mapping"

	errNoType    = "property mapping %q sets no type: set exactly one of spec.forProvider.scope and spec.forProvider.saml"
	errGet       = "cannot read authentik %s property mapping %s"
	errList      = "cannot look up authentik %s property mappings named %q"
	errCreate    = "cannot create authentik %s property mapping %q"
	errNameTaken = "cannot create authentik %s property mapping %q: a property mapping of another type (a source's, another provider type's, or the other block's) already has this name, and names are unique across all mapping types in authentik; choose another name"
	errUpdate    = "cannot update authentik %s property mapping %q (pk %s)"
	errDelete    = "cannot delete authentik property mapping %q (pk %s)"
)

// mr is a PropertyMapping of either scope: the driver is written once against it.
type mr interface {
	resource.Managed
	Parameters() *v1alpha1.PropertyMappingParameters
	Observation() *v1alpha1.PropertyMappingObservation
	GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy
}

// scopes are the PropertyMapping kinds: cluster-scoped (legacy) and namespaced.
var scopes = []managedkind.Scoped[mr]{
	{GVK: clusterv1alpha1.PropertyMappingGroupVersionKind, Obj: &clusterv1alpha1.PropertyMapping{}},
	{GVK: v1alpha1.PropertyMappingGroupVersionKind, Obj: &v1alpha1.PropertyMapping{}},
}

// Setup adds the controllers that reconcile PropertyMapping managed resources of both scopes.
func Setup(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopes(mgr, o, scopes, setup)
}

// SetupGated adds each scope's controller once its PropertyMapping CRD is installed.
func SetupGated(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopesGated(mgr, o, scopes, setup)
}

func setup(mgr ctrl.Manager, o managedkind.Options, gvk schema.GroupVersionKind, obj mr) error {
	return shared.Setup(mgr, o, gvk, obj, newDriver)
}

func newDriver(c shared.Client) adoption.Driver[mr, Object] { return &external{c: c.API} }

// An Object is a mapping as its typed endpoint returns it, in authentik's wire format.
type Object struct {
	// Model is authentik's meta_model_name of the mapping's type.
	Model  string
	Fields shared.Fields
}

func (o Object) pk() string   { return fmt.Sprint(o.Fields["pk"]) }
func (o Object) name() string { return fmt.Sprint(o.Fields["name"]) }

// external drives authentik property mappings for the adoption engine.
type external struct {
	c *api.APIClient
}

// Get reads the mapping through the endpoint of the spec's type: a mapping of another type
// with that pk is not found there.
func (e *external) Get(ctx context.Context, mg mr, pk string) (Object, error) {
	t := typeOf(mg.Parameters())
	if t == nil {
		return Object{}, errors.Errorf(errNoType, mg.Parameters().Name)
	}
	f, resp, err := t.get(ctx, e.c, pk)
	if err != nil {
		return Object{}, authentik.Wrap(err, resp, errGet, t.block, pk)
	}
	return Object{Model: t.model, Fields: f}, nil
}

// Find looks the mapping up by name (compared exactly) among the mappings of the spec's type.
// A mapping of another type with the name is not a twin: authentik refuses the create, and
// Create says so.
func (e *external) Find(ctx context.Context, mg mr) ([]Object, error) {
	fp := mg.Parameters()
	t := typeOf(fp)
	if t == nil {
		return nil, errors.Errorf(errNoType, fp.Name)
	}
	all, err := authentik.ListAll(ctx, func(page int32) ([]shared.Fields, int32, error) {
		items, next, resp, err := t.list(ctx, e.c, fp.Name, page)
		if err != nil {
			return nil, 0, authentik.AsError(err, resp)
		}
		return items, next, nil
	})
	if err != nil {
		return nil, errors.Wrapf(err, errList, t.block, fp.Name)
	}
	var out []Object
	for _, f := range all {
		if o := (Object{Model: t.model, Fields: f}); o.name() == fp.Name {
			out = append(out, o)
		}
	}
	return out, nil
}

func (e *external) IsNotFound(err error) bool { return authentik.IsNotFound(err) }

// Describe presents the mapping as markerless: its fields are its name (the natural key), its
// expression (code authentik runs) and its type's functional settings (ADR 0002).
func (e *external) Describe(o Object) adoption.Description {
	return adoption.Description{ID: o.pk(), Type: typeName, Key: o.name(), Markerless: true}
}

// Observe records the mapping and compares the fields the spec sets.
func (e *external) Observe(mg mr, o Object, p identityv1alpha1.Provenance) adoption.Observation {
	*mg.Observation() = observation(o, p)
	c := shared.Compare(desired(mg.Parameters()), o.Fields, nil)
	return adoption.Observation{UpToDate: c.UpToDate(), Diff: c.Diff}
}

func (e *external) Create(ctx context.Context, mg mr, _ provenance.Marker) (string, managed.ConnectionDetails, error) {
	fp := mg.Parameters()
	t := typeOf(fp)
	if t == nil {
		return "", nil, errors.Errorf(errNoType, fp.Name)
	}
	if err := validate(mg); err != nil {
		return "", nil, err
	}
	f, resp, err := t.post(ctx, e.c, desired(fp))
	if err != nil {
		err = authentik.Wrap(err, resp, errCreate, t.block, fp.Name)
		if authentik.IsTaken(err, "name") { // by a mapping of any type
			return "", nil, errors.Errorf(errNameTaken, t.block, fp.Name)
		}
		return "", nil, err
	}
	return fmt.Sprint(f["pk"]), nil, nil
}

// Update PATCHes exactly the managed fields that differ; a mapping in sync is never written.
func (e *external) Update(ctx context.Context, mg mr, o Object, _ provenance.Marker) (managed.ConnectionDetails, error) {
	fp := mg.Parameters()
	t := typeOf(fp)
	if t == nil {
		return nil, errors.Errorf(errNoType, fp.Name)
	}
	if err := validate(mg); err != nil {
		return nil, err
	}
	c := shared.Compare(desired(fp), o.Fields, nil)
	if c.UpToDate() {
		return nil, nil
	}
	f, resp, err := t.patch(ctx, e.c, o.pk(), c.Changed)
	if err != nil {
		return nil, authentik.Wrap(err, resp, errUpdate, t.block, o.name(), o.pk())
	}
	*mg.Observation() = observation(Object{Model: o.Model, Fields: f}, mg.Observation().Provenance)
	return nil, nil
}

// Delete deletes the mapping through its type's endpoint.
func (e *external) Delete(ctx context.Context, mg mr, o Object) error {
	t := typeOf(mg.Parameters())
	if t == nil {
		return errors.Errorf(errNoType, mg.Parameters().Name)
	}
	resp, err := t.del(ctx, e.c, o.pk())
	return authentik.IgnoreNotFound(authentik.Wrap(err, resp, errDelete, o.name(), o.pk()))
}

var _ adoption.Cascader[mr, Object] = &external{}

// Dependents lists the providers that use the mapping: authentik drops it from their
// property mappings (and clears a SAML provider's name-ID mapping), which changes them.
func (e *external) Dependents(ctx context.Context, _ mr, o Object) ([]adoption.Dependent, error) {
	return authentik.ProvidersOfMapping(ctx, e.c, o.pk(), o.name())
}

// desired is what the spec sets, in authentik's wire format: unset fields are absent, so they
// are neither compared nor written.
func desired(fp *v1alpha1.PropertyMappingParameters) shared.Fields {
	f := shared.Fields{"name": fp.Name, "expression": fp.Expression}
	if t := typeOf(fp); t != nil {
		t.fields(fp, f)
	}
	return f
}

func observation(o Object, p identityv1alpha1.Provenance) v1alpha1.PropertyMappingObservation {
	return v1alpha1.PropertyMappingObservation{ID: o.pk(), Name: o.name(), Type: o.Model, Provenance: p}
}

// validate checks, right before a write, what the CRD checks at admission: a resource stored
// before a rule existed never went through it.
func validate(mg mr) error {
	fp := mg.Parameters()
	fields := []clients.Field{clients.F("spec.forProvider.name", fp.Name, authentik.Name)}
	if fp.Expression == "" {
		fields = append(fields, clients.F("spec.forProvider.expression", fp.Expression, authentik.Name))
	}
	if fp.SAML != nil {
		fields = append(fields, clients.F("spec.forProvider.saml.samlName", fp.SAML.SAMLName, authentik.Name))
	}
	return clients.CheckFields(typeName, mg.GetName(), fields...)
}
