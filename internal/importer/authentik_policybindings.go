package importer

import (
	"context"
	"fmt"

	api "goauthentik.io/api/v3"

	akv1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
)

// A bindingTarget is what a policy binding applies to, as the importer names it.
type bindingTarget struct {
	// kind is the target's kind (Application, Flow or FlowStageBinding); "" when none of them.
	kind string
	// id is the target's external name: an application's or flow's slug, a binding's pk.
	id string
	// name is what the binding's resource name starts with, and describe names it for a person.
	name, describe string
	// builtIn is why a target authentik ships is left out ("" when it is not one).
	builtIn string
}

// policyBindings makes the policy bindings of applications, flows and flow-stage bindings.
// What a binding binds and what it applies to are referenced by their resources when they
// are imported (or already managed in the namespace), else by slug, UUID or pk.
func (l *akLister) policyBindings(ctx context.Context) error {
	if !l.f.kind(kindPolicyBinding) {
		return nil
	}
	bs, err := listAll(ctx, "policy bindings", func(p int32) ([]api.PolicyBinding, api.Pagination, error) {
		r, resp, err := l.api.PoliciesAPI.PoliciesBindingsList(ctx).Page(p).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return nil, api.Pagination{}, authentik.AsError(err, resp)
		}
		return r.Results, r.Pagination, nil
	})
	if err != nil {
		return err
	}
	targets, err := l.bindingTargets(ctx)
	if err != nil {
		return err
	}
	for _, b := range bs {
		l.emit(l.policyBinding(b, targets))
	}
	return nil
}

// bindingTargets maps the pk of every application, flow and flow-stage binding to what a
// policy binding names it by.
func (l *akLister) bindingTargets(ctx context.Context) (map[string]bindingTarget, error) {
	out := map[string]bindingTarget{}
	for pk, slug := range l.appSlug {
		out[pk] = bindingTarget{kind: kindApplication, id: slug, name: slug, describe: fmt.Sprintf("application %q", slug)}
	}
	for _, f := range l.flowList {
		t := bindingTarget{kind: kindFlow, id: f.Slug, name: f.Slug, describe: fmt.Sprintf("flow %q", f.Slug)}
		if builtInFlow(f.Slug) {
			t.builtIn = "applies to flow " + fmt.Sprintf("%q", f.Slug)
		}
		out[f.Pk] = t
	}
	fsbs, err := l.flowStageBindings(ctx)
	if err != nil {
		return nil, err
	}
	for _, b := range fsbs {
		slug, stage := l.flows[b.Target], l.stageNames[b.Stage]
		t := bindingTarget{kind: kindFlowStageBinding, id: b.Pk, name: slug + "-" + stage,
			describe: fmt.Sprintf("the binding of stage %q into flow %q", stage, slug)}
		if builtInFlow(slug) {
			t.builtIn = fmt.Sprintf("applies to a stage binding of flow %q", slug)
		}
		out[b.Pk] = t
	}
	return out, nil
}

// policyBinding makes one policy binding. Like a group membership, it keeps no marker: its
// target application and its group or user may carry another installation's, which refuses it.
func (l *akLister) policyBinding(b api.PolicyBinding, targets map[string]bindingTarget) *Object {
	t, ok := targets[b.Target]
	boundKind, boundID, boundName := policyBound(b)
	describe := fmt.Sprintf("authentik policy binding of %s %q to %s at order %d (pk %s)", boundKind, boundName, t.describe, b.Order, b.Pk)
	if !ok {
		describe = fmt.Sprintf("authentik policy binding of %s %q to target %s at order %d (pk %s)", boundKind, boundName, b.Target, b.Order, b.Pk)
	}
	o := akMarkerlessObj(kindPolicyBinding, describe, b.Pk, t.name+"-"+boundName, "policy bindings")
	switch boundKind {
	case "group":
		o.Related = related(fmt.Sprintf("its group %q", boundName), l.groupMarker[boundID])
	case "user":
		o.Related = related(fmt.Sprintf("its user %q", boundName), l.userMarker[boundID])
	}
	if t.kind == kindApplication {
		o.Related = append(o.Related, related(fmt.Sprintf("its application %q", t.id), l.appMarker[t.id])...)
	}
	o.Unsupported = l.policyBindingSkip(b, t, ok, boundKind, boundName)
	o.Build = func(r Refs) any { return policyBindingParameters(r, b, t, boundKind, boundID) }
	return o
}

// policyBindingSkip says why a policy binding is not written: a target or bound object no
// PolicyBinding can name, or something authentik ships; "" when it is written.
func (l *akLister) policyBindingSkip(b api.PolicyBinding, t bindingTarget, known bool, boundKind, boundName string) string {
	switch {
	case !known:
		return fmt.Sprintf(unsupportedTarget, "target "+b.Target)
	case boundKind == "":
		return unsupportedBound
	case l.f.BuiltIn:
		return ""
	case t.builtIn != "":
		return fmt.Sprintf(skipBuiltInPolBinding, t.builtIn)
	case boundKind == "policy" && builtInPolicy(boundName):
		return fmt.Sprintf(skipBuiltInPolBinding, fmt.Sprintf("binds policy %q", boundName))
	}
	return ""
}

// policyBindingParameters is a binding's spec: what it binds and its target by their resources
// where r has them, else by ID.
func policyBindingParameters(r Refs, b api.PolicyBinding, t bindingTarget, boundKind, boundID string) akv1.PolicyBindingParameters {
	fp := akv1.PolicyBindingParameters{Order: b.Order, Negate: b.Negate, Enabled: b.Enabled, Timeout: b.Timeout, FailureResult: b.FailureResult}
	switch boundKind {
	case "policy":
		fp.PolicyRef, fp.PolicyID = ref(r, kindPolicy, boundID)
	case "group":
		fp.GroupRef, fp.GroupID = ref(r, kindGroup, boundID)
	case "user":
		fp.UserRef, fp.UserID = ref(r, kindUser, boundID)
	}
	switch t.kind {
	case kindApplication:
		fp.ApplicationRef, fp.Application = ref(r, kindApplication, t.id)
	case kindFlow:
		fp.FlowRef, fp.Flow = ref(r, kindFlow, t.id)
	case kindFlowStageBinding:
		fp.FlowStageBindingRef, fp.FlowStageBindingID = ref(r, kindFlowStageBinding, t.id)
	}
	return fp
}

// policyBound is what a binding binds: "policy", "group" or "user" ("" for none), its ID as
// the kind's external name, and its name.
func policyBound(b api.PolicyBinding) (kind, id, name string) {
	switch {
	case b.Policy.Get() != nil && *b.Policy.Get() != "":
		name = *b.Policy.Get()
		if p := b.PolicyObj.Get(); p != nil {
			name = p.Name
		}
		return "policy", *b.Policy.Get(), name
	case b.Group.Get() != nil && *b.Group.Get() != "":
		name = *b.Group.Get()
		if g := b.GroupObj.Get(); g != nil {
			name = g.Name
		}
		return "group", *b.Group.Get(), name
	case b.User.Get() != nil:
		id = itoa(*b.User.Get())
		name = id
		if u := b.UserObj.Get(); u != nil {
			name = u.Username
		}
		return "user", id, name
	}
	return "", "", ""
}
