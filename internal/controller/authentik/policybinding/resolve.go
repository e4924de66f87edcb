package policybinding

import (
	"context"
	"fmt"
	"strconv"

	api "goauthentik.io/api/v3"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"

	"github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/shared"
)

const (
	errNoSubject = "authentik policy binding %q: nothing to bind yet: set policyId, groupId or userId, or check that the policy, group or user reference or selector names a resource that is Ready"
	errNoTarget  = "authentik policy binding %q: no target yet: set application, flow or flowStageBindingId, or check that the reference or selector names a resource that is Ready"
	errGetTarget = "cannot read %s (spec.forProvider.%s)"
)

// target is what a binding applies to: the policy binding model's UUID authentik takes as the
// binding's target, and the object's own pk, which authentik shows as the target of a flow's or
// a flow-stage binding's bindings where the two differ.
type target struct {
	pbm, pk string
	// what names it in messages, e.g. `application "grafana"`.
	what string
}

// subject is the wire field of what is bound (policy, group or user) and its value.
func subject(fp *v1alpha1.PolicyBindingParameters) (string, any, bool) {
	switch {
	case fp.PolicyID != nil && *fp.PolicyID != "":
		return "policy", *fp.PolicyID, true
	case fp.GroupID != nil && *fp.GroupID != "":
		return "group", *fp.GroupID, true
	case fp.UserID != nil && *fp.UserID != "":
		n, err := strconv.ParseInt(*fp.UserID, 10, 32)
		if err != nil {
			return "", nil, false
		}
		return "user", float64(n), true
	}
	return "", nil, false
}

// resolveTarget reads the target the spec names: one read per reconcile.
func resolveTarget(ctx context.Context, c *api.APIClient, mg mr) (target, error) {
	fp := mg.Parameters()
	switch {
	case fp.Application != nil && *fp.Application != "":
		what := fmt.Sprintf("application %q", *fp.Application)
		a, resp, err := c.CoreAPI.CoreApplicationsRetrieve(ctx, *fp.Application).Execute()
		if err != nil {
			return target{}, missing(authentik.Wrap(err, resp, errGetTarget, what, "application"), what, "application")
		}
		return target{pbm: a.PbmUuid, pk: a.PbmUuid, what: what}, nil
	case fp.Flow != nil && *fp.Flow != "":
		what := fmt.Sprintf("flow %q", *fp.Flow)
		f, resp, err := c.FlowsAPI.FlowsInstancesRetrieve(ctx, *fp.Flow).Execute()
		if err != nil {
			return target{}, missing(authentik.Wrap(err, resp, errGetTarget, what, "flow"), what, "flow")
		}
		return target{pbm: f.PolicybindingmodelPtrId, pk: f.Pk, what: what}, nil
	case fp.FlowStageBindingID != nil && *fp.FlowStageBindingID != "":
		what := "flow-stage binding " + *fp.FlowStageBindingID
		b, resp, err := c.FlowsAPI.FlowsBindingsRetrieve(ctx, *fp.FlowStageBindingID).Execute()
		if err != nil {
			return target{}, missing(authentik.Wrap(err, resp, errGetTarget, what, "flowStageBindingId"), what, "flowStageBindingId")
		}
		return target{pbm: b.PolicybindingmodelPtrId, pk: b.Pk, what: what}, nil
	}
	return target{}, errors.Errorf(errNoTarget, mg.GetName())
}

// missing turns a 404 into the message that names the spec field.
func missing(err error, what, field string) error {
	if authentik.IsNotFound(err) {
		return &shared.MissingError{What: what, Field: field}
	}
	return err
}

// desired is what the spec sets, in authentik's wire format: the target, what is bound (the
// other two of policy, group and user null), the order and the optional settings the spec sets.
func desired(ctx context.Context, c *api.APIClient, mg mr) (shared.Fields, target, error) {
	fp := mg.Parameters()
	k, v, ok := subject(fp)
	if !ok {
		return nil, target{}, errors.Errorf(errNoSubject, mg.GetName())
	}
	t, err := resolveTarget(ctx, c, mg)
	if err != nil {
		return nil, target{}, err
	}
	f := shared.Fields{"target": t.pbm, "policy": nil, "group": nil, "user": nil, "order": float64(fp.Order)}
	f[k] = v
	f.Bool("negate", fp.Negate)
	f.Bool("enabled", fp.Enabled)
	f.Int("timeout", fp.Timeout)
	f.Bool("failure_result", fp.FailureResult)
	return f, t, nil
}
