package main

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/crossplane/function-sdk-go/logging"
	fnv1 "github.com/crossplane/function-sdk-go/proto/v1"
	"github.com/crossplane/function-sdk-go/resource"
	"github.com/crossplane/function-sdk-go/response"
)

// obj builds a protobuf struct from a Go map.
func obj(t *testing.T, m map[string]any) *structpb.Struct {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return resource.MustStructJSON(string(b))
}

func readyObj(kind, name string, ready bool) map[string]any {
	status := "False"
	if ready {
		status = "True"
	}
	return map[string]any{
		"apiVersion": "example.org/v1", "kind": kind, "metadata": map[string]any{"name": name},
		"status": map[string]any{"conditions": []any{map[string]any{"type": "Ready", "status": status, "reason": "Available"}}},
	}
}

func run(t *testing.T, req *fnv1.RunFunctionRequest) *fnv1.RunFunctionResponse {
	t.Helper()
	rsp, err := (&Function{log: logging.NewNopLogger()}).RunFunction(context.Background(), req)
	if err != nil {
		t.Fatalf("RunFunction: %v", err)
	}
	for _, r := range rsp.GetResults() {
		if r.GetSeverity() == fnv1.Severity_SEVERITY_FATAL {
			t.Fatalf("fatal result: %s", r.GetMessage())
		}
	}
	return rsp
}

type cond struct{ Type, Status, Reason string }

func conds(rsp *fnv1.RunFunctionResponse) map[string]cond {
	out := map[string]cond{}
	for _, c := range rsp.GetConditions() {
		s := map[fnv1.Status]string{fnv1.Status_STATUS_CONDITION_TRUE: "True", fnv1.Status_STATUS_CONDITION_FALSE: "False"}[c.GetStatus()]
		out[c.GetType()] = cond{Type: c.GetType(), Status: s, Reason: c.GetReason()}
		if c.GetTarget() != fnv1.Target_TARGET_COMPOSITE_AND_CLAIM {
			panic("condition " + c.GetType() + " does not target the claim")
		}
	}
	return out
}

func desiredNames(rsp *fnv1.RunFunctionResponse) []string {
	return slices.Sorted(maps.Keys(rsp.GetDesired().GetResources()))
}

func serviceClaimRequest(t *testing.T, tenant map[string]any, resolved bool, observed map[string]map[string]any) *fnv1.RunFunctionRequest {
	xr := map[string]any{
		"apiVersion": "platform.identity.crossplane.io/v1alpha1", "kind": "ServiceClaim",
		"metadata": map[string]any{"name": "web", "namespace": "team-payments"},
		"spec":     map[string]any{"image": "nginx:1.27", "replicas": 2, "tenantRef": map[string]any{"name": "payments"}},
	}
	req := &fnv1.RunFunctionRequest{
		Input: obj(t, map[string]any{"apiVersion": "platform.fn.identity.crossplane.io/v1beta1", "kind": "Input",
			"include": []any{map[string]any{"fieldPath": "spec.sso", "resources": []any{"oauth2provider", "sso-application"}}},
			"tenant": map[string]any{"namespaceFormat": "team-%s",
				"statusFieldPaths": map[string]any{"status.namespace": "status.namespace"}}}),
		Observed: &fnv1.State{Composite: &fnv1.Resource{Resource: obj(t, xr)}, Resources: map[string]*fnv1.Resource{}},
		Desired: &fnv1.State{Resources: map[string]*fnv1.Resource{
			"application":     {Resource: obj(t, map[string]any{"apiVersion": "argoproj.io/v1alpha1", "kind": "Application"})},
			"tenant-usage":    {Resource: obj(t, map[string]any{"apiVersion": "protection.crossplane.io/v1beta1", "kind": "Usage"})},
			"oauth2provider":  {Resource: obj(t, map[string]any{"apiVersion": authentikAPIVersion, "kind": "OAuth2Provider"})},
			"sso-application": {Resource: obj(t, map[string]any{"apiVersion": authentikAPIVersion, "kind": "Application"})},
		}},
	}
	for n, o := range observed {
		req.Observed.Resources[n] = &fnv1.Resource{Resource: obj(t, o)}
	}
	if resolved {
		req.RequiredResources = map[string]*fnv1.Resources{RequirementTenant: {}}
		if tenant != nil {
			req.RequiredResources[RequirementTenant].Items = []*fnv1.Resource{{Resource: obj(t, tenant)}}
		}
	}
	return req
}

func TestTenantGate(t *testing.T) {
	readyTenant := readyObj("Tenant", "payments", true)
	readyTenant["status"].(map[string]any)["namespace"] = "team-payments"
	deleting := readyObj("Tenant", "payments", true)
	deleting["metadata"].(map[string]any)["deletionTimestamp"] = "2025-01-01T00:00:00Z"

	cases := map[string]struct {
		tenant    map[string]any
		resolved  bool
		observed  map[string]map[string]any
		reason    string
		status    string
		desired   []string
		xrReady   fnv1.Ready
		namespace string
	}{
		"NotYetResolved": {
			resolved: false, reason: ReasonTenantNotFound, status: "False", xrReady: fnv1.Ready_READY_FALSE,
		},
		"TenantMissing": {
			resolved: true, reason: ReasonTenantNotFound, status: "False", xrReady: fnv1.Ready_READY_FALSE,
		},
		"TenantNotReady": {
			tenant: readyObj("Tenant", "payments", false), resolved: true,
			reason: ReasonTenantNotReady, status: "False", xrReady: fnv1.Ready_READY_FALSE,
		},
		"TenantDeleting": {
			tenant: deleting, resolved: true, reason: ReasonTenantDeleting, status: "False", xrReady: fnv1.Ready_READY_FALSE,
		},
		"NotReadyKeepsExisting": {
			tenant: readyObj("Tenant", "payments", false), resolved: true,
			observed: map[string]map[string]any{"application": readyObj("Application", "payments-web", false)},
			reason:   ReasonTenantNotReady, status: "False", desired: []string{"application"}, xrReady: fnv1.Ready_READY_FALSE,
		},
		"TenantReady": {
			tenant: readyTenant, resolved: true, reason: ReasonTenantReady, status: "True",
			desired: []string{"application", "tenant-usage"}, xrReady: fnv1.Ready_READY_UNSPECIFIED, namespace: "team-payments",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			rsp := run(t, serviceClaimRequest(t, tc.tenant, tc.resolved, tc.observed))
			got := conds(rsp)[TypeTenantReady]
			if diff := cmp.Diff(cond{TypeTenantReady, tc.status, tc.reason}, got); diff != "" {
				t.Errorf("TenantReady (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.desired, desiredNames(rsp)); diff != "" {
				t.Errorf("desired resources (-want +got):\n%s", diff)
			}
			if got := rsp.GetDesired().GetComposite().GetReady(); got != tc.xrReady {
				t.Errorf("XR ready: want %v, got %v", tc.xrReady, got)
			}
			// Waiting re-runs the pipeline soon; a ready Tenant leaves the default TTL.
			wantTTL := response.DefaultTTL
			if tc.status == "False" {
				wantTTL = recheck
			}
			if got := rsp.GetMeta().GetTtl().AsDuration(); got != wantTTL {
				t.Errorf("TTL: want %v, got %v", wantTTL, got)
			}
			sel := rsp.GetRequirements().GetResources()[RequirementTenant]
			if sel.GetMatchName() != "payments" || sel.GetKind() != "Tenant" || sel.GetApiVersion() != "platform.identity.crossplane.io/v1alpha1" {
				t.Errorf("requirement: want Tenant payments, got %v", sel)
			}
			ns := rsp.GetDesired().GetComposite().GetResource().GetFields()["status"].GetStructValue().GetFields()["namespace"].GetStringValue()
			if ns != tc.namespace {
				t.Errorf("status.namespace: want %q, got %q", tc.namespace, ns)
			}
		})
	}
}

func TestIncludeKeepsSSOWhenSet(t *testing.T) {
	req := serviceClaimRequest(t, readyObj("Tenant", "payments", true), true, nil)
	xr := req.GetObserved().GetComposite().GetResource()
	xr.GetFields()["spec"].GetStructValue().GetFields()["sso"] = structpb.NewStructValue(obj(t, map[string]any{"redirectURIs": []any{"https://web/cb"}}))
	rsp := run(t, req)
	want := []string{"application", "oauth2provider", "sso-application", "tenant-usage"}
	if diff := cmp.Diff(want, desiredNames(rsp)); diff != "" {
		t.Errorf("desired resources (-want +got):\n%s", diff)
	}
}

func TestTenantGateRequiresName(t *testing.T) {
	req := serviceClaimRequest(t, nil, false, nil)
	delete(req.GetObserved().GetComposite().GetResource().GetFields()["spec"].GetStructValue().GetFields(), "tenantRef")
	rsp, err := (&Function{log: logging.NewNopLogger()}).RunFunction(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(rsp.GetResults()) != 1 || rsp.GetResults()[0].GetSeverity() != fnv1.Severity_SEVERITY_FATAL {
		t.Fatalf("want one fatal result, got %v", rsp.GetResults())
	}
}

func TestConditionRules(t *testing.T) {
	req := &fnv1.RunFunctionRequest{
		Input: obj(t, map[string]any{"apiVersion": "platform.fn.identity.crossplane.io/v1beta1", "kind": "Input",
			"conditions": []any{
				map[string]any{"type": "AuthentikReady", "resources": []any{"provider", "app"}, "trueReason": "Provisioned", "falseReason": "Waiting"},
				map[string]any{"type": "KeystoneReady", "resources": []any{"idp"}},
			}}),
		Observed: &fnv1.State{
			Composite: &fnv1.Resource{Resource: obj(t, map[string]any{"apiVersion": "x/v1", "kind": "X", "metadata": map[string]any{"name": "x"}})},
			Resources: map[string]*fnv1.Resource{
				"provider": {Resource: obj(t, readyObj("OAuth2Provider", "p", true))},
				"app":      {Resource: obj(t, readyObj("Application", "a", true))},
				"idp":      {Resource: obj(t, readyObj("IdentityProvider", "i", false))},
			},
		},
		Desired: &fnv1.State{Resources: map[string]*fnv1.Resource{
			"provider": {Resource: obj(t, map[string]any{"apiVersion": "a/v1", "kind": "OAuth2Provider"})},
			"app":      {Resource: obj(t, map[string]any{"apiVersion": "a/v1", "kind": "Application"})},
			"idp":      {Resource: obj(t, map[string]any{"apiVersion": "k/v1", "kind": "IdentityProvider"})},
		}},
	}
	rsp := run(t, req)
	got := conds(rsp)
	want := map[string]cond{
		"AuthentikReady": {"AuthentikReady", "True", "Provisioned"},
		"KeystoneReady":  {"KeystoneReady", "False", "Creating"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("conditions (-want +got):\n%s", diff)
	}
	// Something is not Ready yet: the pipeline runs again soon.
	if ttl := rsp.GetMeta().GetTtl().AsDuration(); ttl != recheck {
		t.Errorf("TTL: want %v, got %v", recheck, ttl)
	}
}

func TestSlugAndNames(t *testing.T) {
	if got := slug("federated-users"); got != "federated-users" {
		t.Errorf("slug kept a valid name: got %q", got)
	}
	if slug("Admins_A") == slug("admins.a") {
		t.Errorf("slug must keep differently spelled names apart")
	}
	long := mrName("a-very-long-composite-resource-name-abcde", "group-some-group-with-a-long-name")
	if len(long) > 63 {
		t.Errorf("mrName longer than 63: %q", long)
	}
	if long != mrName("a-very-long-composite-resource-name-abcde", "group-some-group-with-a-long-name") {
		t.Errorf("mrName must be stable")
	}
}

// A ServiceClaim outside its Tenant's namespace composes nothing: it would deploy for a team it
// does not belong to.
func TestTenantGateWrongNamespace(t *testing.T) {
	readyTenant := readyObj("Tenant", "payments", true)
	req := serviceClaimRequest(t, readyTenant, true, nil)
	req.GetObserved().GetComposite().GetResource().GetFields()["metadata"].GetStructValue().GetFields()["namespace"] = structpb.NewStringValue("team-billing")
	rsp := run(t, req)
	if diff := cmp.Diff(cond{TypeTenantReady, "False", ReasonWrongNamespace}, conds(rsp)[TypeTenantReady]); diff != "" {
		t.Errorf("TenantReady (-want +got):\n%s", diff)
	}
	if got := desiredNames(rsp); len(got) != 0 {
		t.Errorf("want nothing composed, got %v", got)
	}
	if got := rsp.GetDesired().GetComposite().GetReady(); got != fnv1.Ready_READY_FALSE {
		t.Errorf("XR ready: want False, got %v", got)
	}
}

func TestDeletionPolicy(t *testing.T) {
	retain := []any{"Observe", "Create", "Update", "LateInitialize"}
	cases := map[string]struct {
		policy string
		want   map[string]any // spec.managementPolicies by resource; nil: none set
	}{
		"Delete": {"Delete", map[string]any{"project": []any{"*"}, "lookup": []any{"Observe"}, "namespace": nil, "legacy": nil}},
		"Retain": {"Retain", map[string]any{"project": retain, "lookup": []any{"Observe"}, "namespace": nil, "legacy": nil}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			req := &fnv1.RunFunctionRequest{
				Input: obj(t, map[string]any{"apiVersion": "platform.fn.identity.crossplane.io/v1beta1", "kind": "Input",
					"deletionPolicy": map[string]any{}}),
				Observed: &fnv1.State{Composite: &fnv1.Resource{Resource: obj(t, map[string]any{
					"apiVersion": "platform.identity.crossplane.io/v1alpha1", "kind": "Tenant",
					"metadata": map[string]any{"name": "payments"}, "spec": map[string]any{"deletionPolicy": tc.policy}})}},
				Desired: &fnv1.State{Resources: map[string]*fnv1.Resource{
					"project": {Resource: obj(t, map[string]any{"apiVersion": keystoneAPIVersion, "kind": "Project"})},
					// A lookup keeps its own policies.
					"lookup": {Resource: obj(t, map[string]any{"apiVersion": keystoneAPIVersion, "kind": "Role",
						"spec": map[string]any{"managementPolicies": []any{"Observe"}}})},
					// Not the provider's namespaced kinds: untouched.
					"namespace": {Resource: obj(t, map[string]any{"apiVersion": "v1", "kind": "Namespace"})},
					"legacy":    {Resource: obj(t, map[string]any{"apiVersion": "keystone.identity.crossplane.io/v1alpha1", "kind": "Project"})},
				}},
			}
			rsp := run(t, req)
			for n, want := range tc.want {
				spec, _ := rsp.GetDesired().GetResources()[n].GetResource().AsMap()["spec"].(map[string]any)
				if diff := cmp.Diff(want, spec["managementPolicies"]); diff != "" {
					t.Errorf("%s managementPolicies (-want +got):\n%s", n, diff)
				}
			}
		})
	}
}

func TestDeletionPolicyRejectsOthers(t *testing.T) {
	req := &fnv1.RunFunctionRequest{
		Input: obj(t, map[string]any{"apiVersion": "platform.fn.identity.crossplane.io/v1beta1", "kind": "Input",
			"deletionPolicy": map[string]any{"fieldPath": "spec.keep"}}),
		Observed: &fnv1.State{Composite: &fnv1.Resource{Resource: obj(t, map[string]any{
			"apiVersion": "platform.identity.crossplane.io/v1alpha1", "kind": "Tenant",
			"metadata": map[string]any{"name": "payments"}, "spec": map[string]any{"keep": "Orphan"}})}},
	}
	rsp, err := (&Function{log: logging.NewNopLogger()}).RunFunction(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(rsp.GetResults()) != 1 || rsp.GetResults()[0].GetSeverity() != fnv1.Severity_SEVERITY_FATAL {
		t.Fatalf("want one fatal result for deletionPolicy Orphan, got %v", rsp.GetResults())
	}
}
