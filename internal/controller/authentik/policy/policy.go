// Package policy manages authentik policies of the types a Policy's blocks name (expression,
// password, reputation, event matcher, password expiry): one kind, one driver, the type chosen
// by the block the spec sets (docs/adr/0008-one-policy-kind.md).
package policy

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
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/shared"
	"github.com/crossplane-contrib/provider-identity/internal/managedkind"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

const (
	typeName = authentik.TypePolicy

	errNoType    = "authentik policy %q: spec.forProvider sets no policy type, or more than one: set exactly one of expression, password, reputation, eventMatcher and passwordExpiry"
	errGet       = "cannot read authentik %s policy %s"
	errList      = "cannot look up authentik policies named %q"
	errOtherType = "authentik policy %q (pk %s) is a %s, not the %s policy spec.forProvider.%s asks for; policy names are unique across all types in authentik: choose another name"
	errCreate    = "cannot create authentik %s policy %q"
	errUpdate    = "cannot update authentik %s policy %q (pk %s)"
	errDelete    = "cannot delete authentik policy %q (pk %s)"
)

// mr is a Policy of either scope: the driver is written once against it.
type mr interface {
	resource.Managed
	Parameters() *v1alpha1.PolicyParameters
	Observation() *v1alpha1.PolicyObservation
	GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy
}

// scopes are the Policy kinds: cluster-scoped (legacy) and namespaced.
var scopes = []managedkind.Scoped[mr]{
	{GVK: clusterv1alpha1.PolicyGroupVersionKind, Obj: &clusterv1alpha1.Policy{}},
	{GVK: v1alpha1.PolicyGroupVersionKind, Obj: &v1alpha1.Policy{}},
}

// Setup adds the controllers that reconcile Policy managed resources of both scopes.
func Setup(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopes(mgr, o, scopes, setup)
}

// SetupGated adds each scope's controller once its Policy CRD is installed.
func SetupGated(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopesGated(mgr, o, scopes, setup)
}

func setup(mgr ctrl.Manager, o managedkind.Options, gvk schema.GroupVersionKind, obj mr) error {
	return shared.Setup(mgr, o, gvk, obj, newDriver)
}

func newDriver(c shared.Client) adoption.Driver[mr, Object] {
	return &external{c: c.API}
}

// An Object is a policy as its typed endpoint returns it, in authentik's wire format.
type Object struct {
	// Model is authentik's meta_model_name of the policy's type.
	Model  string
	Fields shared.Fields
}

func (o Object) pk() string   { return fmt.Sprint(o.Fields["pk"]) }
func (o Object) name() string { return fmt.Sprint(o.Fields["name"]) }

// external drives authentik policies for the adoption engine. A policy names nothing else in
// authentik, so the spec needs no lookups and Observe compares without calling authentik.
type external struct {
	c *api.APIClient
}

// Get reads the policy through the endpoint of the spec's type: a policy of another type with
// that pk is not found there.
func (e *external) Get(ctx context.Context, mg mr, pk string) (Object, error) {
	t := typeOf(mg.Parameters())
	if t == nil {
		return Object{}, errors.Errorf(errNoType, mg.Parameters().Name)
	}
	f, resp, err := t.retrieve(ctx, e.c, pk)
	if err != nil {
		return Object{}, authentik.Wrap(err, resp, errGet, t.block, pk)
	}
	return Object{Model: t.model, Fields: f}, nil
}

// Find looks the policy up by name across all types (/policies/all/, which has no name filter
// but searches names): policy names are unique across types, so a policy of another type with
// the name is an error naming it, never a twin.
func (e *external) Find(ctx context.Context, mg mr) ([]Object, error) {
	fp := mg.Parameters()
	t := typeOf(fp)
	if t == nil {
		return nil, errors.Errorf(errNoType, fp.Name)
	}
	all, err := authentik.ListAll(ctx, func(page int32) ([]api.Policy, int32, error) {
		l, resp, err := e.c.PoliciesAPI.PoliciesAllList(ctx).Search(fp.Name).Page(page).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return nil, 0, authentik.AsError(err, resp)
		}
		return l.Results, authentik.NextPage(l.Pagination), nil
	})
	if err != nil {
		return nil, errors.Wrapf(err, errList, fp.Name)
	}
	var out []Object
	for _, p := range all {
		if p.Name != fp.Name {
			continue // search matches parts of names
		}
		if p.MetaModelName != t.model {
			return nil, errors.Errorf(errOtherType, p.Name, p.Pk, p.VerboseName, t.block, t.block)
		}
		o, err := e.Get(ctx, mg, p.Pk)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, nil
}

func (e *external) IsNotFound(err error) bool { return authentik.IsNotFound(err) }

// Describe presents the policy as markerless: a policy has no field but its name that is not
// functional (docs/adr/0002-authentik-provenance.md).
func (e *external) Describe(o Object) adoption.Description {
	return adoption.Description{ID: o.pk(), Type: typeName, Key: o.name(), Markerless: true}
}

// Observe records the policy and compares the fields the spec sets.
func (e *external) Observe(mg mr, o Object, p identityv1alpha1.Provenance) adoption.Observation {
	*mg.Observation() = observation(o, p)
	t := typeOf(mg.Parameters())
	if t == nil {
		return adoption.Observation{Diff: fmt.Sprintf(errNoType, mg.Parameters().Name)}
	}
	c := shared.Compare(desired(mg.Parameters(), t), o.Fields, nil)
	return adoption.Observation{UpToDate: c.UpToDate(), Diff: c.Diff}
}

// Create makes the policy through its type's endpoint. authentik refuses a reputation policy
// whose request checks neither the IP nor the username, even though both default to true, so
// a reputation create carries both (authentik's defaults where the spec sets none).
func (e *external) Create(ctx context.Context, mg mr, _ provenance.Marker) (string, managed.ConnectionDetails, error) {
	fp := mg.Parameters()
	t := typeOf(fp)
	if t == nil {
		return "", nil, errors.Errorf(errNoType, fp.Name)
	}
	if err := validate(mg); err != nil {
		return "", nil, err
	}
	want := desired(fp, t)
	if t == &reputation {
		carryChecks(want, shared.Fields{"check_ip": true, "check_username": true})
	}
	f, resp, err := t.create(ctx, e.c, want)
	if err != nil {
		return "", nil, authentik.Wrap(err, resp, errCreate, t.block, fp.Name)
	}
	return fmt.Sprint(f["pk"]), nil, nil
}

// Update PATCHes exactly the managed fields that differ; a policy in sync is never written.
// authentik validates a reputation policy's checks from the fields a request carries, so every
// reputation PATCH carries check_ip and check_username (the spec's, else the policy's own).
func (e *external) Update(ctx context.Context, mg mr, o Object, _ provenance.Marker) (managed.ConnectionDetails, error) {
	t := typeOf(mg.Parameters())
	if t == nil {
		return nil, errors.Errorf(errNoType, mg.Parameters().Name)
	}
	if err := validate(mg); err != nil {
		return nil, err
	}
	want := desired(mg.Parameters(), t)
	c := shared.Compare(want, o.Fields, nil)
	if c.UpToDate() {
		return nil, nil
	}
	if t == &reputation {
		carryChecks(c.Changed, want)
		carryChecks(c.Changed, o.Fields)
	}
	f, resp, err := t.patch(ctx, e.c, o.pk(), c.Changed)
	if err != nil {
		return nil, authentik.Wrap(err, resp, errUpdate, t.block, o.name(), o.pk())
	}
	*mg.Observation() = observation(Object{Model: o.Model, Fields: f}, mg.Observation().Provenance)
	return nil, nil
}

// carryChecks adds the reputation checks from src that f does not carry yet.
func carryChecks(f, src shared.Fields) {
	for _, k := range []string{"check_ip", "check_username"} {
		if _, ok := f[k]; ok {
			continue
		}
		if v, ok := src[k]; ok {
			f[k] = v
		}
	}
}

// Delete deletes the policy through /policies/all/, which serves every type.
func (e *external) Delete(ctx context.Context, _ mr, o Object) error {
	resp, err := e.c.PoliciesAPI.PoliciesAllDestroy(ctx, o.pk()).Execute()
	return authentik.IgnoreNotFound(authentik.Wrap(err, resp, errDelete, o.name(), o.pk()))
}

var _ adoption.Cascader[mr, Object] = &external{}

// Dependents lists the policy's bindings, which authentik deletes with it (CASCADE): each
// target would lose the check, and an application without its last binding is open to every
// user. The prompt stages that validate with the policy would silently stop checking what
// users enter with it, so they count too.
func (e *external) Dependents(ctx context.Context, _ mr, o Object) ([]adoption.Dependent, error) {
	out, err := authentik.BindingsOfPolicy(ctx, e.c, o.pk(), o.name())
	if err != nil {
		return nil, err
	}
	ds, err := authentik.PromptStagesValidatingWith(ctx, e.c, o.pk(), o.name())
	if err != nil {
		return nil, err
	}
	return append(out, ds...), nil
}

func observation(o Object, p identityv1alpha1.Provenance) v1alpha1.PolicyObservation {
	obs := v1alpha1.PolicyObservation{ID: o.pk(), Name: o.name(), Type: o.Model, Provenance: p}
	if n, ok := o.Fields["bound_to"].(float64); ok {
		obs.BoundTo = int32(n)
	}
	return obs
}
