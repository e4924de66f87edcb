// Package flowstagebinding manages authentik flow-stage bindings: a stage bound into a flow at
// an order.
package flowstagebinding

import (
	"context"
	"strconv"

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
	typeName = authentik.TypeFlowStageBinding

	errNoFlow  = "authentik flow-stage binding %q: spec.forProvider.flow is not set yet: set it to a flow's slug, or check that flowRef/flowSelector names a Flow that is Ready"
	errNoStage = "authentik flow-stage binding %q: spec.forProvider.stageId is not set yet: set it, or check that stageRef/stageSelector names a Stage that is Ready"
	errGet     = "cannot read authentik flow-stage binding %s"
	errList    = "cannot look up the binding of stage %s into flow %q at order %d"
	errCreate  = "cannot bind stage %s into authentik flow %q at order %d"
	errUpdate  = "cannot update authentik flow-stage binding %s"
	errDelete  = "cannot delete authentik flow-stage binding %s"
)

// mr is a FlowStageBinding of either scope: the driver is written once against it.
type mr interface {
	resource.Managed
	Parameters() *v1alpha1.FlowStageBindingParameters
	Observation() *v1alpha1.FlowStageBindingObservation
	GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy
}

// scopes are the FlowStageBinding kinds: cluster-scoped (legacy) and namespaced.
var scopes = []managedkind.Scoped[mr]{
	{GVK: clusterv1alpha1.FlowStageBindingGroupVersionKind, Obj: &clusterv1alpha1.FlowStageBinding{}},
	{GVK: v1alpha1.FlowStageBindingGroupVersionKind, Obj: &v1alpha1.FlowStageBinding{}},
}

// Setup adds the controllers that reconcile FlowStageBinding managed resources of both scopes.
func Setup(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopes(mgr, o, scopes, setup)
}

// SetupGated adds each scope's controller once its FlowStageBinding CRD is installed.
func SetupGated(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopesGated(mgr, o, scopes, setup)
}

func setup(mgr ctrl.Manager, o managedkind.Options, gvk schema.GroupVersionKind, obj mr) error {
	return shared.Setup(mgr, o, gvk, obj, newDriver)
}

func newDriver(c shared.Client) adoption.Driver[mr, api.FlowStageBinding] {
	return &external{c: c.API, res: shared.NewResolver(c.API, c.Reads)}
}

// external drives flow-stage bindings for the adoption engine. It lives for one reconcile:
// the flow's slug is resolved to its pk once, when the binding is read.
type external struct {
	c   *api.APIClient
	res *shared.Resolver

	prepared bool
	want     shared.Fields
	wantErr  error
}

// Get reads the binding with the pk.
func (e *external) Get(ctx context.Context, mg mr, pk string) (api.FlowStageBinding, error) {
	b, resp, err := e.c.FlowsAPI.FlowsBindingsRetrieve(ctx, pk).Execute()
	if err != nil {
		return api.FlowStageBinding{}, authentik.Wrap(err, resp, errGet, pk)
	}
	e.prepare(ctx, mg)
	return *b, nil
}

// Find looks the binding up by its natural key, (flow, stage, order), unique together in
// authentik.
func (e *external) Find(ctx context.Context, mg mr) ([]api.FlowStageBinding, error) {
	e.prepare(ctx, mg)
	if e.wantErr != nil {
		return nil, e.wantErr
	}
	fp := mg.Parameters()
	target, stage := e.want["target"].(string), *fp.StageID
	all, err := authentik.ListAll(ctx, func(page int32) ([]api.FlowStageBinding, int32, error) {
		l, resp, err := e.c.FlowsAPI.FlowsBindingsList(ctx).Target(target).Stage(stage).Order(fp.Order).
			Page(page).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return nil, 0, authentik.AsError(err, resp)
		}
		return l.Results, authentik.NextPage(l.Pagination), nil
	})
	if err != nil {
		return nil, errors.Wrapf(err, errList, stage, *fp.Flow, fp.Order)
	}
	out := all[:0]
	for _, b := range all {
		if b.Target == target && b.Stage == stage && b.Order == fp.Order {
			out = append(out, b)
		}
	}
	return out, nil
}

func (e *external) IsNotFound(err error) bool { return authentik.IsNotFound(err) }

// Describe presents the binding as markerless: it has no free field at all.
func (e *external) Describe(b api.FlowStageBinding) adoption.Description {
	return adoption.Description{ID: b.Pk, Type: typeName, Markerless: true,
		Key: "stage " + strconv.Quote(b.StageObj.Name) + " in flow " + b.Target + " at order " + strconv.Itoa(int(b.Order))}
}

// Observe records the binding and compares the fields the spec sets.
func (e *external) Observe(mg mr, b api.FlowStageBinding, p identityv1alpha1.Provenance) adoption.Observation {
	*mg.Observation() = observation(b, p)
	if e.wantErr != nil {
		return adoption.Observation{Diff: e.wantErr.Error()}
	}
	c, err := compare(e.want, b)
	if err != nil {
		return adoption.Observation{Diff: err.Error()}
	}
	return adoption.Observation{UpToDate: c.UpToDate(), Diff: c.Diff}
}

func (e *external) Create(ctx context.Context, mg mr, _ provenance.Marker) (string, managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return "", nil, err
	}
	e.prepare(ctx, mg)
	if e.wantErr != nil {
		return "", nil, e.wantErr
	}
	fp := mg.Parameters()
	req, err := shared.Decode[api.FlowStageBindingRequest](e.want)
	if err != nil {
		return "", nil, errors.Wrapf(err, errCreate, *fp.StageID, *fp.Flow, fp.Order)
	}
	b, resp, err := e.c.FlowsAPI.FlowsBindingsCreate(ctx).FlowStageBindingRequest(req).Execute()
	if err != nil {
		return "", nil, authentik.Wrap(err, resp, errCreate, *fp.StageID, *fp.Flow, fp.Order)
	}
	return b.Pk, nil, nil
}

// Update PATCHes exactly the managed fields that differ; a binding in sync is never written.
// authentik checks that policies are evaluated at least once from the fields a request
// carries, taking evaluate_on_plan as false when it is absent, so a PATCH that turns
// re_evaluate_policies off carries evaluate_on_plan too.
func (e *external) Update(ctx context.Context, mg mr, b api.FlowStageBinding, _ provenance.Marker) (managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return nil, err
	}
	if e.wantErr != nil {
		return nil, e.wantErr
	}
	c, err := compare(e.want, b)
	if err != nil || c.UpToDate() {
		return nil, err
	}
	if _, ok := c.Changed["re_evaluate_policies"]; ok {
		c.Changed["evaluate_on_plan"] = b.GetEvaluateOnPlan()
		if v, ok := e.want["evaluate_on_plan"]; ok {
			c.Changed["evaluate_on_plan"] = v
		}
	}
	req, err := shared.Decode[api.PatchedFlowStageBindingRequest](c.Changed)
	if err != nil {
		return nil, errors.Wrapf(err, errUpdate, b.Pk)
	}
	updated, resp, err := e.c.FlowsAPI.FlowsBindingsPartialUpdate(ctx, b.Pk).PatchedFlowStageBindingRequest(req).Execute()
	if err != nil {
		return nil, authentik.Wrap(err, resp, errUpdate, b.Pk)
	}
	*mg.Observation() = observation(*updated, mg.Observation().Provenance)
	return nil, nil
}

func (e *external) Delete(ctx context.Context, _ mr, b api.FlowStageBinding) error {
	resp, err := e.c.FlowsAPI.FlowsBindingsDestroy(ctx, b.Pk).Execute()
	return authentik.IgnoreNotFound(authentik.Wrap(err, resp, errDelete, b.Pk))
}

// prepare resolves the spec once per reconcile: the flow's slug to its pk.
func (e *external) prepare(ctx context.Context, mg mr) {
	if e.prepared {
		return
	}
	e.prepared = true
	e.want, e.wantErr = desired(ctx, e.res, mg)
}

func desired(ctx context.Context, r *shared.Resolver, mg mr) (shared.Fields, error) {
	fp := mg.Parameters()
	if fp.Flow == nil || *fp.Flow == "" {
		return nil, errors.Errorf(errNoFlow, mg.GetName())
	}
	if fp.StageID == nil || *fp.StageID == "" {
		return nil, errors.Errorf(errNoStage, mg.GetName())
	}
	target, err := r.Flow(ctx, "flow", *fp.Flow)
	if err != nil {
		return nil, err
	}
	f := shared.Fields{"target": target, "stage": *fp.StageID, "order": float64(fp.Order)}
	if fp.EvaluateOnPlan != nil {
		f["evaluate_on_plan"] = *fp.EvaluateOnPlan
	}
	if fp.ReEvaluatePolicies != nil {
		f["re_evaluate_policies"] = *fp.ReEvaluatePolicies
	}
	if fp.InvalidResponseAction != nil {
		f["invalid_response_action"] = *fp.InvalidResponseAction
	}
	if fp.PolicyEngineMode != nil {
		f["policy_engine_mode"] = *fp.PolicyEngineMode
	}
	return f, nil
}

func compare(want shared.Fields, b api.FlowStageBinding) (shared.Comparison, error) {
	have, err := shared.ToFields(b)
	if err != nil {
		return shared.Comparison{}, err
	}
	return shared.Compare(want, have, nil), nil
}

func observation(b api.FlowStageBinding, p identityv1alpha1.Provenance) v1alpha1.FlowStageBindingObservation {
	return v1alpha1.FlowStageBindingObservation{
		ID: b.Pk, PolicyBindingModelID: b.PolicybindingmodelPtrId, FlowID: b.Target, StageName: b.StageObj.Name,
		Order: b.Order, Provenance: p,
	}
}
