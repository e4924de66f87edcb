// Package stage manages authentik stages of the types a Stage's blocks name (identification,
// password, user login, user logout, deny, consent, authenticator validation, user write,
// prompt): one kind, one driver, the type chosen by the block the spec sets
// (docs/adr/0007-one-stage-kind.md).
package stage

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
	typeName = "authentik stage"

	errNoType    = "authentik stage %q: spec.forProvider sets no stage type, or more than one: set exactly one of identification, password, userLogin, userLogout, deny, consent, authenticatorValidation, userWrite and prompt"
	errGet       = "cannot read authentik %s stage %s"
	errList      = "cannot look up authentik stages named %q"
	errOtherType = "authentik stage %q (pk %s) is a %s, not the %s stage spec.forProvider.%s asks for; stage names are unique across all types in authentik: choose another name"
	errCreate    = "cannot create authentik %s stage %q"
	errUpdate    = "cannot update authentik %s stage %q (pk %s)"
	errDelete    = "cannot delete authentik stage %q (pk %s)"
)

// mr is a Stage of either scope: the driver is written once against it.
type mr interface {
	resource.Managed
	Parameters() *v1alpha1.StageParameters
	Observation() *v1alpha1.StageObservation
	GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy
}

// scopes are the Stage kinds: cluster-scoped (legacy) and namespaced.
var scopes = []managedkind.Scoped[mr]{
	{GVK: clusterv1alpha1.StageGroupVersionKind, Obj: &clusterv1alpha1.Stage{}},
	{GVK: v1alpha1.StageGroupVersionKind, Obj: &v1alpha1.Stage{}},
}

// Setup adds the controllers that reconcile Stage managed resources of both scopes.
func Setup(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopes(mgr, o, scopes, setup)
}

// SetupGated adds each scope's controller once its Stage CRD is installed.
func SetupGated(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopesGated(mgr, o, scopes, setup)
}

func setup(mgr ctrl.Manager, o managedkind.Options, gvk schema.GroupVersionKind, obj mr) error {
	return shared.Setup(mgr, o, gvk, obj, newDriver)
}

func newDriver(c shared.Client) adoption.Driver[mr, Object] {
	return &external{c: c.API, res: shared.NewResolver(c.API, c.Reads)}
}

// An Object is a stage as its typed endpoint returns it, in authentik's wire format.
type Object struct {
	// Model is authentik's meta_model_name of the stage's type.
	Model  string
	Fields shared.Fields
}

func (o Object) pk() string   { return fmt.Sprint(o.Fields["pk"]) }
func (o Object) name() string { return fmt.Sprint(o.Fields["name"]) }

// external drives authentik stages for the adoption engine. It lives for one reconcile: the
// flow slugs and stage names the spec uses are resolved once, when the stage is read, so that
// Observe compares without calling authentik.
type external struct {
	c   *api.APIClient
	res *shared.Resolver

	prepared bool
	want     shared.Fields
	wantErr  error
}

// Get reads the stage through the endpoint of the spec's type: a stage of another type with
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
	e.prepare(ctx, mg, t)
	return Object{Model: t.model, Fields: f}, nil
}

// Find looks the stage up by name across all types (/stages/all/): stage names are unique
// across types, so a stage of another type with the name is an error naming it, never a twin.
func (e *external) Find(ctx context.Context, mg mr) ([]Object, error) {
	fp := mg.Parameters()
	t := typeOf(fp)
	if t == nil {
		return nil, errors.Errorf(errNoType, fp.Name)
	}
	all, err := stagesNamed(ctx, e.c, fp.Name)
	if err != nil {
		return nil, errors.Wrapf(err, errList, fp.Name)
	}
	var out []Object
	for _, s := range all {
		if s.MetaModelName != t.model {
			return nil, errors.Errorf(errOtherType, s.Name, s.Pk, s.VerboseName, t.block, t.block)
		}
		o, err := e.Get(ctx, mg, s.Pk)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	e.prepare(ctx, mg, t)
	return out, nil
}

// stagesNamed lists the stages of every type with the name, compared exactly.
func stagesNamed(ctx context.Context, c *api.APIClient, name string) ([]api.Stage, error) {
	all, err := authentik.ListAll(ctx, func(page int32) ([]api.Stage, int32, error) {
		l, resp, err := c.StagesAPI.StagesAllList(ctx).Name(name).Page(page).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return nil, 0, authentik.AsError(err, resp)
		}
		return l.Results, authentik.NextPage(l.Pagination), nil
	})
	out := all[:0]
	for _, s := range all {
		if s.Name == name {
			out = append(out, s)
		}
	}
	return out, err
}

func (e *external) IsNotFound(err error) bool { return authentik.IsNotFound(err) }

// Describe presents the stage as markerless: a stage has no field but its name that is not
// functional (docs/adr/0002-authentik-provenance.md).
func (e *external) Describe(o Object) adoption.Description {
	return adoption.Description{ID: o.pk(), Type: typeName, Key: o.name(), Markerless: true}
}

// Observe records the stage and compares the fields the spec sets.
func (e *external) Observe(mg mr, o Object, p identityv1alpha1.Provenance) adoption.Observation {
	*mg.Observation() = observation(o, p)
	if e.wantErr != nil {
		return adoption.Observation{Diff: e.wantErr.Error()}
	}
	c := shared.Compare(e.want, o.Fields, normalizers)
	return adoption.Observation{UpToDate: c.UpToDate(), Diff: c.Diff}
}

// normalizers compare the lists authentik keeps as sets.
var normalizers = map[string]shared.Normalizer{
	"user_fields": shared.Set, "backends": shared.Set, "device_classes": shared.Set, "configuration_stages": shared.Set,
	"fields": shared.Set, "validation_policies": shared.Set,
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
	e.prepare(ctx, mg, t)
	if e.wantErr != nil {
		return "", nil, e.wantErr
	}
	f, resp, err := t.create(ctx, e.c, e.want)
	if err != nil {
		return "", nil, authentik.Wrap(err, resp, errCreate, t.block, fp.Name)
	}
	return fmt.Sprint(f["pk"]), nil, nil
}

// Update PATCHes exactly the managed fields that differ; a stage in sync is never written.
func (e *external) Update(ctx context.Context, mg mr, o Object, _ provenance.Marker) (managed.ConnectionDetails, error) {
	t := typeOf(mg.Parameters())
	if t == nil {
		return nil, errors.Errorf(errNoType, mg.Parameters().Name)
	}
	if err := validate(mg); err != nil {
		return nil, err
	}
	if e.wantErr != nil {
		return nil, e.wantErr
	}
	c := shared.Compare(e.want, o.Fields, normalizers)
	if c.UpToDate() {
		return nil, nil
	}
	carryConfigurationStages(c.Changed, e.want, o.Fields)
	f, resp, err := t.patch(ctx, e.c, o.pk(), c.Changed)
	if err != nil {
		return nil, authentik.Wrap(err, resp, errUpdate, t.block, o.name(), o.pk())
	}
	*mg.Observation() = observation(Object{Model: o.Model, Fields: f}, mg.Observation().Provenance)
	return nil, nil
}

// carryConfigurationStages adds configuration_stages to a PATCH that sets an authenticator
// validation stage's not_configured_action: authentik checks "configure" against the stages
// the request itself carries, not the stored ones. They come from the spec, else the stage.
func carryConfigurationStages(patch, want, have shared.Fields) {
	if _, ok := patch["not_configured_action"]; !ok {
		return
	}
	if _, ok := patch["configuration_stages"]; ok {
		return
	}
	if v, ok := want["configuration_stages"]; ok {
		patch["configuration_stages"] = v
	} else if v, ok := have["configuration_stages"]; ok {
		patch["configuration_stages"] = v
	}
}

// Delete deletes the stage through /stages/all/, which serves every type.
func (e *external) Delete(ctx context.Context, _ mr, o Object) error {
	resp, err := e.c.StagesAPI.StagesAllDestroy(ctx, o.pk()).Execute()
	return authentik.IgnoreNotFound(authentik.Wrap(err, resp, errDelete, o.name(), o.pk()))
}

// prepare resolves the spec once per reconcile, when Get or Find has read the stage (so that
// Observe and Update find it resolved) or Create is about to make it. A failure is kept for
// Observe (the stage is then not up to date), Create and Update to report.
func (e *external) prepare(ctx context.Context, mg mr, t *stageType) {
	if e.prepared {
		return
	}
	e.prepared = true
	e.want, e.wantErr = desired(ctx, e.c, e.res, mg.Parameters(), t)
}

func observation(o Object, p identityv1alpha1.Provenance) v1alpha1.StageObservation {
	obs := v1alpha1.StageObservation{ID: o.pk(), Name: o.name(), Type: o.Model, Provenance: p}
	fs, _ := o.Fields["flow_set"].([]any)
	for _, f := range fs {
		if m, ok := f.(map[string]any); ok {
			obs.Flows = append(obs.Flows, fmt.Sprint(m["slug"]))
		}
	}
	return obs
}
