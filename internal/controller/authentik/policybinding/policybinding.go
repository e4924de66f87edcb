// Package policybinding manages authentik policy bindings: a policy, a group or a user bound to
// an application, a flow or a flow-stage binding at an order.
package policybinding

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
	typeName = authentik.TypeBinding

	errGet    = "cannot read authentik policy binding %s"
	errList   = "cannot look up the policy bindings on %s at order %d"
	errCreate = "cannot create the authentik policy binding on %s at order %d"
	errUpdate = "cannot update authentik policy binding %s"
	errDelete = "cannot delete authentik policy binding %s"
)

// mr is a PolicyBinding of either scope: the driver is written once against it.
type mr interface {
	resource.Managed
	Parameters() *v1alpha1.PolicyBindingParameters
	Observation() *v1alpha1.PolicyBindingObservation
	GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy
}

// scopes are the PolicyBinding kinds: cluster-scoped (legacy) and namespaced.
var scopes = []managedkind.Scoped[mr]{
	{GVK: clusterv1alpha1.PolicyBindingGroupVersionKind, Obj: &clusterv1alpha1.PolicyBinding{}},
	{GVK: v1alpha1.PolicyBindingGroupVersionKind, Obj: &v1alpha1.PolicyBinding{}},
}

// Setup adds the controllers that reconcile PolicyBinding managed resources of both scopes.
func Setup(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopes(mgr, o, scopes, setup)
}

// SetupGated adds each scope's controller once its PolicyBinding CRD is installed.
func SetupGated(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopesGated(mgr, o, scopes, setup)
}

func setup(mgr ctrl.Manager, o managedkind.Options, gvk schema.GroupVersionKind, obj mr) error {
	return shared.Setup(mgr, o, gvk, obj, newDriver)
}

func newDriver(c shared.Client) adoption.Driver[mr, api.PolicyBinding] {
	return &external{c: c.API}
}

// external drives policy bindings for the adoption engine. It lives for one reconcile: the
// target is read once, when the binding is read, so that Observe compares without calling
// authentik.
type external struct {
	c *api.APIClient

	prepared bool
	want     shared.Fields
	target   target
	wantErr  error
}

// Get reads the binding with the pk.
func (e *external) Get(ctx context.Context, mg mr, pk string) (api.PolicyBinding, error) {
	b, resp, err := e.c.PoliciesAPI.PoliciesBindingsRetrieve(ctx, pk).Execute()
	if err != nil {
		return api.PolicyBinding{}, authentik.Wrap(err, resp, errGet, pk)
	}
	e.prepare(ctx, mg)
	return *b, nil
}

// Find looks the binding up by the target, what it binds and the order. authentik keeps
// (policy, target, order) unique; bindings of a group or a user are not, so two such bindings
// at one order are ambiguous and the engine asks for the external name.
func (e *external) Find(ctx context.Context, mg mr) ([]api.PolicyBinding, error) {
	e.prepare(ctx, mg)
	if e.wantErr != nil {
		return nil, e.wantErr
	}
	order := mg.Parameters().Order
	all, err := authentik.ListAll(ctx, func(page int32) ([]api.PolicyBinding, int32, error) {
		r := e.c.PoliciesAPI.PoliciesBindingsList(ctx).Target(e.target.pbm).Order(order).Page(page).PageSize(authentik.PageSize)
		if p, ok := e.want["policy"].(string); ok {
			r = r.Policy(p)
		}
		l, resp, err := r.Execute()
		if err != nil {
			return nil, 0, authentik.AsError(err, resp)
		}
		return l.Results, authentik.NextPage(l.Pagination), nil
	})
	if err != nil {
		return nil, errors.Wrapf(err, errList, e.target.what, order)
	}
	var out []api.PolicyBinding
	for _, b := range all {
		if c, err := e.compare(b, "target", "policy", "group", "user", "order"); err == nil && c.UpToDate() {
			out = append(out, b)
		}
	}
	return out, nil
}

func (e *external) IsNotFound(err error) bool { return authentik.IsNotFound(err) }

// Describe presents the binding as markerless: it has no free field at all.
func (e *external) Describe(b api.PolicyBinding) adoption.Description {
	return adoption.Description{ID: b.Pk, Type: typeName, Markerless: true,
		Key: bound(b) + " on target " + b.Target + " at order " + strconv.Itoa(int(b.Order))}
}

// Observe records the binding and compares the fields the spec sets.
func (e *external) Observe(mg mr, b api.PolicyBinding, p identityv1alpha1.Provenance) adoption.Observation {
	*mg.Observation() = observation(b, p)
	if e.wantErr != nil {
		return adoption.Observation{Diff: e.wantErr.Error()}
	}
	c, err := e.compare(b)
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
	order := mg.Parameters().Order
	req, err := shared.Decode[api.PolicyBindingRequest](e.want)
	if err != nil {
		return "", nil, errors.Wrapf(err, errCreate, e.target.what, order)
	}
	b, resp, err := e.c.PoliciesAPI.PoliciesBindingsCreate(ctx).PolicyBindingRequest(req).Execute()
	if err != nil {
		return "", nil, authentik.Wrap(err, resp, errCreate, e.target.what, order)
	}
	return b.Pk, nil, nil
}

// Update PATCHes the managed fields that differ; a binding in sync is never written. authentik
// validates a binding from the fields a request carries (it needs the target, and exactly one
// of policy, group and user set), so every PATCH carries the target and all three.
func (e *external) Update(ctx context.Context, mg mr, b api.PolicyBinding, _ provenance.Marker) (managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return nil, err
	}
	if e.wantErr != nil {
		return nil, e.wantErr
	}
	c, err := e.compare(b)
	if err != nil || c.UpToDate() {
		return nil, err
	}
	for _, k := range []string{"target", "policy", "group", "user"} {
		c.Changed[k] = e.want[k]
	}
	req, err := shared.Decode[api.PatchedPolicyBindingRequest](c.Changed)
	if err != nil {
		return nil, errors.Wrapf(err, errUpdate, b.Pk)
	}
	updated, resp, err := e.c.PoliciesAPI.PoliciesBindingsPartialUpdate(ctx, b.Pk).PatchedPolicyBindingRequest(req).Execute()
	if err != nil {
		return nil, authentik.Wrap(err, resp, errUpdate, b.Pk)
	}
	*mg.Observation() = observation(*updated, mg.Observation().Provenance)
	return nil, nil
}

// Delete deletes the binding. Nothing goes with it: the target loses the check, which is what
// deleting the resource asks for.
func (e *external) Delete(ctx context.Context, _ mr, b api.PolicyBinding) error {
	resp, err := e.c.PoliciesAPI.PoliciesBindingsDestroy(ctx, b.Pk).Execute()
	return authentik.IgnoreNotFound(authentik.Wrap(err, resp, errDelete, b.Pk))
}

// prepare resolves the spec once per reconcile.
func (e *external) prepare(ctx context.Context, mg mr) {
	if e.prepared {
		return
	}
	e.prepared = true
	e.want, e.target, e.wantErr = desired(ctx, e.c, mg)
}

// compare compares the wanted fields (only those named, when any are) with the binding's. A
// target shown as the object's own pk (authentik does so for flows and flow-stage bindings,
// whose pk is not their policy binding model's) is the same target.
func (e *external) compare(b api.PolicyBinding, only ...string) (shared.Comparison, error) {
	have, err := shared.ToFields(b)
	if err != nil {
		return shared.Comparison{}, err
	}
	if have["target"] == e.target.pk {
		have["target"] = e.target.pbm
	}
	want := e.want
	if len(only) > 0 {
		want = shared.Fields{}
		for _, k := range only {
			want[k] = e.want[k]
		}
	}
	return shared.Compare(want, have, nil), nil
}

// bound names what the binding binds.
func bound(b api.PolicyBinding) string {
	switch {
	case b.PolicyObj.Get() != nil:
		return "policy " + strconv.Quote(b.PolicyObj.Get().Name)
	case b.GroupObj.Get() != nil:
		return "group " + strconv.Quote(b.GroupObj.Get().Name)
	case b.UserObj.Get() != nil:
		return "user " + strconv.Quote(b.UserObj.Get().Username)
	}
	return "nothing"
}

func observation(b api.PolicyBinding, p identityv1alpha1.Provenance) v1alpha1.PolicyBindingObservation {
	return v1alpha1.PolicyBindingObservation{ID: b.Pk, Target: b.Target, Bound: bound(b), Order: b.Order, Provenance: p}
}
