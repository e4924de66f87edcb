// Package prompt manages authentik prompts, the fields of the forms prompt stages show
// (docs/adr/0007-one-stage-kind.md). A prompt is markerless: it has no field that is not shown
// to users or used by the form.
package prompt

import (
	"context"
	"fmt"
	"strings"

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
	typeName = authentik.TypePrompt

	errGet    = "cannot read authentik prompt %s"
	errList   = "cannot look up authentik prompts named %q"
	errCreate = "cannot create authentik prompt %q"
	errUpdate = "cannot update authentik prompt %q (pk %s)"
	errDelete = "cannot delete authentik prompt %q (pk %s)"
)

// mr is a Prompt of either scope: the driver is written once against it.
type mr interface {
	resource.Managed
	Parameters() *v1alpha1.PromptParameters
	Observation() *v1alpha1.PromptObservation
	GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy
}

// scopes are the Prompt kinds: cluster-scoped (legacy) and namespaced.
var scopes = []managedkind.Scoped[mr]{
	{GVK: clusterv1alpha1.PromptGroupVersionKind, Obj: &clusterv1alpha1.Prompt{}},
	{GVK: v1alpha1.PromptGroupVersionKind, Obj: &v1alpha1.Prompt{}},
}

// Setup adds the controllers that reconcile Prompt managed resources of both scopes.
func Setup(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopes(mgr, o, scopes, setup)
}

// SetupGated adds each scope's controller once its Prompt CRD is installed.
func SetupGated(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopesGated(mgr, o, scopes, setup)
}

func setup(mgr ctrl.Manager, o managedkind.Options, gvk schema.GroupVersionKind, obj mr) error {
	return shared.Setup(mgr, o, gvk, obj, newDriver)
}

func newDriver(c shared.Client) adoption.Driver[mr, Object] {
	return &external{c: c.API}
}

// An Object is a prompt as authentik returns it, in its wire format.
type Object shared.Fields

func (o Object) pk() string   { return fmt.Sprint(o["pk"]) }
func (o Object) name() string { return fmt.Sprint(o["name"]) }

// external drives authentik prompts for the adoption engine. A prompt names nothing else in
// authentik, so Observe compares without calling authentik.
type external struct {
	c *api.APIClient
}

func (e *external) Get(ctx context.Context, _ mr, pk string) (Object, error) {
	p, resp, err := e.c.StagesAPI.StagesPromptPromptsRetrieve(ctx, pk).Execute()
	if err != nil {
		return nil, authentik.Wrap(err, resp, errGet, pk)
	}
	f, err := shared.ToFields(p)
	return Object(f), errors.Wrapf(err, errGet, pk)
}

// Find looks the prompt up by its (unique) name.
func (e *external) Find(ctx context.Context, mg mr) ([]Object, error) {
	name := mg.Parameters().Name
	all, err := authentik.ListAll(ctx, func(page int32) ([]api.Prompt, int32, error) {
		l, resp, err := e.c.StagesAPI.StagesPromptPromptsList(ctx).Name(name).Page(page).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return nil, 0, authentik.AsError(err, resp)
		}
		return l.Results, authentik.NextPage(l.Pagination), nil
	})
	if err != nil {
		return nil, errors.Wrapf(err, errList, name)
	}
	var out []Object
	for _, p := range all {
		if p.Name != name {
			continue
		}
		f, err := shared.ToFields(p)
		if err != nil {
			return nil, errors.Wrapf(err, errList, name)
		}
		out = append(out, Object(f))
	}
	return out, nil
}

func (e *external) IsNotFound(err error) bool { return authentik.IsNotFound(err) }

// Describe presents the prompt as markerless: its name is its key, and every other text
// (label, placeholder, initial value, sub text) is shown to users or evaluated.
func (e *external) Describe(o Object) adoption.Description {
	return adoption.Description{ID: o.pk(), Type: typeName, Key: o.name(), Markerless: true}
}

// Observe records the prompt and compares the fields the spec sets.
func (e *external) Observe(mg mr, o Object, p identityv1alpha1.Provenance) adoption.Observation {
	*mg.Observation() = observation(o, p)
	c := shared.Compare(desired(mg.Parameters()), shared.Fields(o), nil)
	return adoption.Observation{UpToDate: c.UpToDate(), Diff: c.Diff}
}

func (e *external) Create(ctx context.Context, mg mr, _ provenance.Marker) (string, managed.ConnectionDetails, error) {
	fp := mg.Parameters()
	if err := validate(mg); err != nil {
		return "", nil, err
	}
	req, err := shared.Decode[api.PromptRequest](desired(fp))
	if err != nil {
		return "", nil, errors.Wrapf(err, errCreate, fp.Name)
	}
	p, resp, err := e.c.StagesAPI.StagesPromptPromptsCreate(ctx).PromptRequest(req).Execute()
	if err != nil {
		return "", nil, authentik.Wrap(err, resp, errCreate, fp.Name)
	}
	return p.Pk, nil, nil
}

// Update PATCHes exactly the managed fields that differ; a prompt in sync is never written.
func (e *external) Update(ctx context.Context, mg mr, o Object, _ provenance.Marker) (managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return nil, err
	}
	c := shared.Compare(desired(mg.Parameters()), shared.Fields(o), nil)
	if c.UpToDate() {
		return nil, nil
	}
	req, err := shared.Decode[api.PatchedPromptRequest](c.Changed)
	if err != nil {
		return nil, errors.Wrapf(err, errUpdate, o.name(), o.pk())
	}
	p, resp, err := e.c.StagesAPI.StagesPromptPromptsPartialUpdate(ctx, o.pk()).PatchedPromptRequest(req).Execute()
	if err != nil {
		return nil, authentik.Wrap(err, resp, errUpdate, o.name(), o.pk())
	}
	if f, err := shared.ToFields(p); err == nil {
		*mg.Observation() = observation(Object(f), mg.Observation().Provenance)
	}
	return nil, nil
}

func (e *external) Delete(ctx context.Context, _ mr, o Object) error {
	resp, err := e.c.StagesAPI.StagesPromptPromptsDestroy(ctx, o.pk()).Execute()
	return authentik.IgnoreNotFound(authentik.Wrap(err, resp, errDelete, o.name(), o.pk()))
}

var _ adoption.Cascader[mr, Object] = &external{}

// Dependents lists the prompt stages that show the prompt: authentik takes the prompt out of
// their forms, and a stage left without prompts cannot even be saved again.
func (e *external) Dependents(ctx context.Context, _ mr, o Object) ([]adoption.Dependent, error) {
	return authentik.PromptStagesOf(ctx, e.c, o.pk(), o.name())
}

// desired is what the spec sets, in authentik's wire format: unset fields are absent, so they
// are neither compared nor written.
func desired(fp *v1alpha1.PromptParameters) shared.Fields {
	f := shared.Fields{"name": fp.Name, "field_key": fp.FieldKey, "label": fp.Label, "type": fp.Type}
	f.Bool("required", fp.Required)
	f.Str("placeholder", fp.Placeholder)
	f.Bool("placeholder_expression", fp.PlaceholderExpression)
	f.Str("initial_value", fp.InitialValue)
	f.Bool("initial_value_expression", fp.InitialValueExpression)
	f.Int("order", fp.Order)
	f.Str("sub_text", fp.SubText)
	return f
}

// validate checks, right before a write, what the CRD checks at admission.
func validate(mg mr) error {
	fp := mg.Parameters()
	return clients.CheckFields(typeName, mg.GetName(),
		clients.F("spec.forProvider.name", fp.Name, authentik.Name),
		clients.F("spec.forProvider.fieldKey", fp.FieldKey, fieldKey),
		clients.F("spec.forProvider.label", fp.Label, label),
		clients.FP("spec.forProvider.placeholder", fp.Placeholder, clients.Text),
		clients.FP("spec.forProvider.initialValue", fp.InitialValue, clients.Text),
		clients.FP("spec.forProvider.subText", fp.SubText, clients.Text),
	)
}

// fieldKey is a form field's name: not empty, no whitespace or control characters.
func fieldKey(v string) string {
	if v == "" || strings.ContainsAny(v, " \t\n\r\v\f") {
		return "is empty or contains whitespace"
	}
	return clients.SingleLine(v)
}

func label(v string) string {
	if v == "" {
		return "is empty"
	}
	return clients.SingleLine(v)
}

func observation(o Object, p identityv1alpha1.Provenance) v1alpha1.PromptObservation {
	obs := v1alpha1.PromptObservation{ID: o.pk(), Name: o.name(), Provenance: p}
	ss, _ := o["prompt_stages_obj"].([]any)
	for _, s := range ss {
		if m, ok := s.(map[string]any); ok {
			obs.Stages = append(obs.Stages, fmt.Sprint(m["name"]))
		}
	}
	return obs
}
