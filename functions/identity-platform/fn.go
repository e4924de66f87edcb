package main

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"
	"github.com/crossplane/function-sdk-go/errors"
	"github.com/crossplane/function-sdk-go/logging"
	fnv1 "github.com/crossplane/function-sdk-go/proto/v1"
	"github.com/crossplane/function-sdk-go/request"
	"github.com/crossplane/function-sdk-go/resource"
	"github.com/crossplane/function-sdk-go/response"

	"github.com/crossplane-contrib/provider-identity/functions/identity-platform/input/v1beta1"
)

// Condition types and reasons of the Tenant gate.
const (
	TypeTenantReady = "TenantReady"

	ReasonTenantReady    = "TenantReady"
	ReasonTenantNotFound = "TenantNotFound"
	ReasonTenantNotReady = "TenantNotReady"
	ReasonTenantDeleting = "TenantDeleting"
	// ReasonWrongNamespace: the XR is not in its Tenant's namespace.
	ReasonWrongNamespace = "WrongNamespace"

	// RequirementTenant is the key of the required Tenant.
	RequirementTenant = "tenant"

	defaultTenantAPIVersion = "platform.identity.crossplane.io/v1alpha1"
	defaultTenantKind       = "Tenant"
	defaultTenantNamePath   = "spec.tenantRef.name"

	// recheck is how soon a composite that is waiting (for its Tenant, or for composed
	// resources to become Ready) is composed again.
	recheck = 10 * time.Second
)

// Function is function-identity-platform.
type Function struct {
	fnv1.UnimplementedFunctionRunnerServiceServer

	log logging.Logger
}

// RunFunction runs one pipeline step.
func (f *Function) RunFunction(_ context.Context, req *fnv1.RunFunctionRequest) (*fnv1.RunFunctionResponse, error) {
	rsp := response.To(req, response.DefaultTTL)
	in, st, err := readRequest(req, rsp)
	if err == nil {
		err = st.compose(req, in)
	}
	if err == nil {
		err = st.setDesired()
	}
	if err != nil {
		response.Fatal(rsp, err)
	}
	return rsp, nil
}

// readRequest reads the function's input and the state of one run from the request.
func readRequest(req *fnv1.RunFunctionRequest, rsp *fnv1.RunFunctionResponse) (*v1beta1.Input, *state, error) {
	in := &v1beta1.Input{}
	if err := request.GetInput(req, in); err != nil {
		return nil, nil, errors.Wrap(err, "cannot read the function input")
	}
	oxr, err := request.GetObservedCompositeResource(req)
	if err != nil {
		return nil, nil, errors.Wrap(err, "cannot read the observed composite resource")
	}
	observed, err := request.GetObservedComposedResources(req)
	if err != nil {
		return nil, nil, errors.Wrap(err, "cannot read the observed composed resources")
	}
	desired, err := request.GetDesiredComposedResources(req)
	if err != nil {
		return nil, nil, errors.Wrap(err, "cannot read the desired composed resources")
	}
	dxr, err := request.GetDesiredCompositeResource(req)
	if err != nil {
		return nil, nil, errors.Wrap(err, "cannot read the desired composite resource")
	}
	st := &state{xr: fieldpath.Pave(oxr.Resource.Object), xrName: oxr.Resource.GetName(), xrNamespace: oxr.Resource.GetNamespace(), xrKind: oxr.Resource.GetKind(), observed: observed, desired: desired, rsp: rsp, dxr: dxr}
	return in, st, nil
}

// compose applies the input's steps, in order, to the desired state.
func (s *state) compose(req *fnv1.RunFunctionRequest, in *v1beta1.Input) error {
	for _, inc := range in.Include {
		if _, err := s.xr.GetValue(inc.FieldPath); err == nil {
			continue
		}
		for _, n := range inc.Resources {
			delete(s.desired, resource.Name(n))
		}
	}
	if in.KeystoneIdentityBackend != nil {
		if err := composeBackend(s, in.KeystoneIdentityBackend); err != nil {
			return err
		}
	}
	for _, l := range in.ObjectLists {
		if err := s.objectList(l); err != nil {
			return err
		}
	}
	if in.DeletionPolicy != nil {
		if err := s.deletionPolicy(in.DeletionPolicy); err != nil {
			return err
		}
	}
	for _, r := range in.Conditions {
		s.conditionRule(r)
	}
	if in.Tenant != nil {
		return s.gateOnTenant(req, in.Tenant)
	}
	return nil
}

// setDesired puts the desired composed and composite resources into the response.
func (s *state) setDesired() error {
	// SetDesiredComposedResources adds to what response.To copied from the request: start from
	// nothing so that dropped resources are really dropped.
	if s.rsp.Desired == nil {
		s.rsp.Desired = &fnv1.State{}
	}
	s.rsp.Desired.Resources = map[string]*fnv1.Resource{}
	if err := response.SetDesiredComposedResources(s.rsp, s.desired); err != nil {
		return errors.Wrap(err, "cannot set the desired composed resources")
	}
	if err := response.SetDesiredCompositeResource(s.rsp, s.dxr); err != nil {
		return errors.Wrap(err, "cannot set the desired composite resource")
	}
	return nil
}

// state is what one run works on.
type state struct {
	xr     *fieldpath.Paved
	xrName string
	xrKind string
	// xrNamespace is empty for a cluster-scoped XR.
	xrNamespace string
	observed    map[resource.Name]resource.ObservedComposed
	desired     map[resource.Name]*resource.DesiredComposed
	dxr         *resource.Composite
	rsp         *fnv1.RunFunctionResponse
}

// waiting marks the XR not Ready whatever its composed resources say, and rechecks soon.
func (s *state) waiting() {
	s.dxr.Ready = resource.ReadyFalse
	s.recheckSoon()
}

// recheckSoon asks Crossplane to run the pipeline again after recheck instead of the default
// TTL. Crossplane does not watch a Tenant on a ServiceClaim's behalf, and its realtime watch of
// composed resources sheds events while its circuit breaker is open (a composite with a dozen
// resources being created trips it): without a short TTL, a wait could outlast what it waits
// for by a minute.
func (s *state) recheckSoon() { s.rsp.Meta.Ttl = durationpb.New(recheck) }

// resourceState is what the function knows about one composed resource.
type resourceState struct {
	exists bool
	ready  bool
	// reason and message of the first of Synced or Ready that is not True.
	reason, message string
	// readyReason is the reason of the Ready condition (e.g. AdoptionRequired).
	readyReason string
}

func (s *state) resourceState(name string) resourceState {
	o, ok := s.observed[resource.Name(name)]
	if !ok || o.Resource == nil {
		return resourceState{}
	}
	rs := resourceState{exists: true}
	conds := conditions(o.Resource.Object)
	if c, ok := conds["Synced"]; ok && c.status == "False" {
		rs.reason, rs.message = c.reason, c.message
	}
	if c, ok := conds["Ready"]; ok {
		rs.ready = c.status == "True"
		rs.readyReason = c.reason
		if !rs.ready && rs.reason == "" {
			rs.reason, rs.message = c.reason, c.message
		}
	}
	return rs
}

type condition struct{ status, reason, message string }

// conditions of an object by type, from status.conditions.
func conditions(obj map[string]any) map[string]condition {
	out := map[string]condition{}
	st, _ := obj["status"].(map[string]any)
	list, _ := st["conditions"].([]any)
	for _, c := range list {
		m, _ := c.(map[string]any)
		t, _ := m["type"].(string)
		s, _ := m["status"].(string)
		r, _ := m["reason"].(string)
		msg, _ := m["message"].(string)
		out[t] = condition{status: s, reason: r, message: msg}
	}
	return out
}

// conditionRule reports r's condition from its resources' readiness.
func (s *state) conditionRule(r v1beta1.ConditionRule) {
	var pending []string
	for _, n := range r.Resources {
		if _, want := s.desired[resource.Name(n)]; !want {
			continue
		}
		if !s.resourceState(n).ready {
			pending = append(pending, n)
		}
	}
	trueReason, falseReason := r.TrueReason, r.FalseReason
	if trueReason == "" {
		trueReason = "Available"
	}
	if falseReason == "" {
		falseReason = "Creating"
	}
	if len(pending) == 0 {
		response.ConditionTrue(s.rsp, r.Type, trueReason).TargetCompositeAndClaim()
		return
	}
	s.recheckSoon()
	response.ConditionFalse(s.rsp, r.Type, falseReason).
		WithMessage("waiting for " + strings.Join(pending, ", ") + " to become Ready").
		TargetCompositeAndClaim()
}

// gateOnTenant requires the Tenant and holds back what needs it until the Tenant is Ready.
func (s *state) gateOnTenant(req *fnv1.RunFunctionRequest, g *v1beta1.TenantGate) error {
	path, apiVersion, kind := tenantGateDefaults(g)
	name, err := s.xr.GetString(path)
	if err != nil || name == "" {
		return errors.Errorf("%s is not set: it must name the %s this resource belongs to", path, kind)
	}
	if s.inWrongNamespace(g.NamespaceFormat, kind, name) {
		s.hold(kind, name)
		return nil
	}
	s.rsp.Requirements = &fnv1.Requirements{Resources: map[string]*fnv1.ResourceSelector{
		RequirementTenant: {ApiVersion: apiVersion, Kind: kind, Match: &fnv1.ResourceSelector_MatchName{MatchName: name}},
	}}

	tenants, resolved, err := request.GetRequiredResource(req, RequirementTenant)
	if err != nil {
		return errors.Wrapf(err, "cannot read the required %s %q", kind, name)
	}
	reason, msg := tenantReadiness(tenants, resolved, kind, name)
	if reason == ReasonTenantReady {
		response.ConditionTrue(s.rsp, TypeTenantReady, reason).WithMessage(msg).TargetCompositeAndClaim()
		return s.copyTenantStatus(tenants[0].Resource.Object, g.StatusFieldPaths)
	}

	response.ConditionFalse(s.rsp, TypeTenantReady, reason).WithMessage(msg).TargetCompositeAndClaim()
	s.hold(kind, name)
	return nil
}

// tenantGateDefaults are the gate's name field path, apiVersion and kind, defaulted.
func tenantGateDefaults(g *v1beta1.TenantGate) (path, apiVersion, kind string) {
	path, apiVersion, kind = g.NameFieldPath, g.APIVersion, g.Kind
	if path == "" {
		path = defaultTenantNamePath
	}
	if apiVersion == "" {
		apiVersion = defaultTenantAPIVersion
	}
	if kind == "" {
		kind = defaultTenantKind
	}
	return path, apiVersion, kind
}

// inWrongNamespace reports (as TenantReady False, WrongNamespace) a composite that is not in
// the namespace namespaceFormat gives its Tenant. A namespaced composite composes into its own
// namespace only: one in another team's namespace would deploy for a Tenant it does not belong
// to. An empty namespaceFormat checks nothing.
func (s *state) inWrongNamespace(namespaceFormat, kind, name string) bool {
	if namespaceFormat == "" {
		return false
	}
	want := fmt.Sprintf(namespaceFormat, name)
	if s.xrNamespace == want {
		return false
	}
	response.ConditionFalse(s.rsp, TypeTenantReady, ReasonWrongNamespace).
		WithMessage(fmt.Sprintf("%s %q belongs to %s %q, whose resources live in namespace %s, but it is in namespace %q: create it in namespace %s",
			s.xrKind, s.xrName, kind, name, want, s.xrNamespace, want)).
		TargetCompositeAndClaim()
	return true
}

// tenantReadiness is the TenantReady reason and message for the required Tenant as Crossplane
// returned it.
func tenantReadiness(tenants []resource.Required, resolved bool, kind, name string) (reason, msg string) {
	switch {
	case !resolved:
		// Crossplane calls again with the Tenant (or its absence) once it has read the requirement.
		return ReasonTenantNotFound, fmt.Sprintf("looking up %s %q", kind, name)
	case len(tenants) == 0:
		return ReasonTenantNotFound, fmt.Sprintf("%s %q does not exist (yet): waiting for it; nothing that needs it is created until it is Ready", kind, name)
	case tenants[0].Resource.GetDeletionTimestamp() != nil:
		return ReasonTenantDeleting, fmt.Sprintf("%s %q is being deleted: nothing new is created for it", kind, name)
	}
	c, ok := conditions(tenants[0].Resource.Object)["Ready"]
	if !ok || c.status != "True" {
		msg = fmt.Sprintf("%s %q is not Ready yet: waiting for it", kind, name)
		if ok && c.message != "" {
			msg += " (" + c.message + ")"
		}
		return ReasonTenantNotReady, msg
	}
	return ReasonTenantReady, fmt.Sprintf("%s %q is Ready", kind, name)
}

// hold keeps the XR waiting for its Tenant: nothing that does not exist yet is created
// (existing resources are kept, never deleted).
func (s *state) hold(kind, name string) {
	s.waiting()
	var held []string
	for n := range s.desired {
		if _, exists := s.observed[n]; !exists {
			delete(s.desired, n)
			held = append(held, string(n))
		}
	}
	if len(held) > 0 {
		sort.Strings(held)
		response.Normalf(s.rsp, "waiting for %s %q before creating %s", kind, name, strings.Join(held, ", "))
	}
}

func (s *state) copyTenantStatus(tenant map[string]any, paths map[string]string) error {
	if len(paths) == 0 {
		return nil
	}
	t := fieldpath.Pave(tenant)
	dxr := fieldpath.Pave(s.dxr.Resource.Object)
	keys := make([]string, 0, len(paths))
	for k := range paths {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, to := range keys {
		v, err := t.GetValue(paths[to])
		if err != nil {
			continue
		}
		if err := dxr.SetValue(to, v); err != nil {
			return errors.Wrapf(err, "cannot set %s of the composite resource", to)
		}
	}
	return nil
}
