//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	akv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	nsakv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1"
	nsidentityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
)

const (
	akFlowInstances = "flows/instances"
	akFlowBindings  = "flows/bindings"
)

var onAuthentik = xpv2.ClusterManagedResourceSpec{ProviderConfigReference: &xpv2.Reference{Name: "authentik"}}

func newAKFlow(name, slug string) *akv1alpha1.Flow {
	return &akv1alpha1.Flow{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: akv1alpha1.FlowSpec{
		ClusterManagedResourceSpec: onAuthentik,
		ForProvider:                akv1alpha1.FlowParameters{Name: "Login " + slug, Slug: slug, Title: "Welcome", Designation: "authentication"},
	}}
}

func newAKStage(name string, p akv1alpha1.StageParameters) *akv1alpha1.Stage {
	return &akv1alpha1.Stage{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: akv1alpha1.StageSpec{ClusterManagedResourceSpec: onAuthentik, ForProvider: p}}
}

func newAKBinding(name, flow, stage string, order int32) *akv1alpha1.FlowStageBinding {
	return &akv1alpha1.FlowStageBinding{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: akv1alpha1.FlowStageBindingSpec{
		ClusterManagedResourceSpec: onAuthentik,
		ForProvider: akv1alpha1.FlowStageBindingParameters{
			FlowRef: &xpv2.Reference{Name: flow}, StageRef: &xpv2.Reference{Name: stage}, Order: order,
		},
	}}
}

// A login flow built from resources: the flow, identification (showing the password stage),
// password and user login stages, bound by reference. Changes reach authentik as PATCHes and
// a flow in sync is never written; the flow's deletion waits for the bindings our resources
// delete, and a binding made by hand keeps a flow from being deleted at all.
func TestAuthentikFlowLifecycle(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	flow := newAKFlow("ak-flow-login", "e2e-flow-login")
	pw := newAKStage("ak-stage-pw", akv1alpha1.StageParameters{Name: "e2e-stage-pw",
		Password: &akv1alpha1.PasswordStage{Backends: []string{"authentik.core.auth.InbuiltBackend"}}})
	id := newAKStage("ak-stage-id", akv1alpha1.StageParameters{Name: "e2e-stage-id",
		Identification: &akv1alpha1.IdentificationStage{UserFields: []string{"username", "email"}, PasswordStage: ptr("e2e-stage-pw")}})
	login := newAKStage("ak-stage-login", akv1alpha1.StageParameters{Name: "e2e-stage-login",
		UserLogin: &akv1alpha1.UserLoginStage{SessionDuration: ptr("hours=8")}})
	b1 := newAKBinding("ak-bind-id", "ak-flow-login", "ak-stage-id", 10)
	b2 := newAKBinding("ak-bind-login", "ak-flow-login", "ak-stage-login", 100)
	create(t, flow)
	create(t, pw)
	create(t, id)
	create(t, login)
	create(t, b1)
	create(t, b2)
	waitReady(t, flow)
	waitReady(t, pw)
	waitReady(t, id)
	waitReady(t, login)
	waitReady(t, b1)
	waitReady(t, b2)

	if meta.GetExternalName(flow) != "e2e-flow-login" {
		t.Fatalf("flow external name: want the slug, got %q", meta.GetExternalName(flow))
	}
	f := authentikAPI.object(t, akFlowInstances, "e2e-flow-login")
	if got, want := authentik.SortedSet(stringsOf(f["stages"])), authentik.SortedSet([]string{meta.GetExternalName(id), meta.GetExternalName(login)}); !slices.Equal(got, want) {
		t.Errorf("flow's stages: got %v, want %v", got, want)
	}
	if got := authentikAPI.object(t, "stages/identification", meta.GetExternalName(id))["password_stage"]; got != meta.GetExternalName(pw) {
		t.Errorf("identification's password stage: got %v, want %s", got, meta.GetExternalName(pw))
	}
	if b := authentikAPI.object(t, akFlowBindings, meta.GetExternalName(b1)); b["target"] != f["pk"] || b["stage"] != meta.GetExternalName(id) {
		t.Errorf("binding: %v", b)
	}

	// Update: one field each, and authentik follows.
	update(t, flow, func(f *akv1alpha1.Flow) { f.Spec.ForProvider.Layout = ptr("sidebar_left") })
	update(t, b2, func(b *akv1alpha1.FlowStageBinding) { b.Spec.ForProvider.InvalidResponseAction = ptr("restart") })
	update(t, login, func(s *akv1alpha1.Stage) { s.Spec.ForProvider.UserLogin.TerminateOtherSessions = ptr(true) })
	eventually(t, 30*time.Second, "the changes in authentik", func() bool {
		return authentikAPI.object(t, akFlowInstances, "e2e-flow-login")["layout"] == "sidebar_left" &&
			authentikAPI.object(t, akFlowBindings, meta.GetExternalName(b2))["invalid_response_action"] == "restart" &&
			authentikAPI.object(t, "stages/user_login", meta.GetExternalName(login))["terminate_other_sessions"] == true
	})

	// A hand-made binding into our flow: the flow's deletion is refused while it exists.
	deny := authentikAPI.seed(t, "stages/deny", map[string]any{"name": "e2e-flow-handmade-deny"})
	t.Cleanup(func() { authentikAPI.del(t, "stages/deny", deny["pk"].(string)) })
	hand := authentikAPI.seed(t, akFlowBindings, map[string]any{"target": f["pk"], "stage": deny["pk"], "order": 50})
	if err := kube.Delete(context.Background(), flow); err != nil {
		t.Fatal(err)
	}
	eventually(t, 60*time.Second, "the flow's deletion to be blocked by the hand-made binding", func() bool {
		c := condition(get(t, flow), "DeletionBlocked")
		return c.Status == corev1.ConditionTrue && strings.Contains(c.Message, fmt.Sprint(hand["pk"])) &&
			strings.Contains(c.Message, "not created or adopted by this installation")
	})
	if !authentikAPI.exists(t, akFlowBindings, fmt.Sprint(hand["pk"])) || !authentikAPI.exists(t, akFlowInstances, "e2e-flow-login") {
		t.Fatal("the flow or the hand-made binding was deleted")
	}
	authentikAPI.del(t, akFlowBindings, fmt.Sprint(hand["pk"]))
	// Our bindings are still managed: the flow waits for them, so delete them too.
	for _, b := range []*akv1alpha1.FlowStageBinding{b1, b2} {
		if err := kube.Delete(context.Background(), b); err != nil {
			t.Fatal(err)
		}
	}
	waitGone(t, flow)
	if authentikAPI.exists(t, akFlowInstances, "e2e-flow-login") {
		t.Error("flow still in authentik")
	}
}

// A hand-made flow, stage and binding with the resources' natural keys are left
// byte-identical (FailOnConflict); AdoptExisting takes each over and then follows the spec;
// observe-only resources never write.
func TestAuthentikFlowConflictAdoptObserve(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	hf := authentikAPI.seed(t, akFlowInstances, map[string]any{"slug": "e2e-flow-hand", "name": "hand", "title": "hand", "designation": "authentication"})
	hs := authentikAPI.seed(t, "stages/consent", map[string]any{"name": "e2e-stage-hand"})
	hb := authentikAPI.seed(t, akFlowBindings, map[string]any{"target": hf["pk"], "stage": hs["pk"], "order": 7})
	t.Cleanup(func() {
		authentikAPI.del(t, akFlowInstances, "e2e-flow-hand")
		authentikAPI.del(t, "stages/consent", hs["pk"].(string))
	})
	before := map[string][]byte{
		"flow": authentikAPI.raw(t, akFlowInstances, "e2e-flow-hand"), "stage": authentikAPI.raw(t, "stages/consent", hs["pk"].(string)),
		"binding": authentikAPI.raw(t, akFlowBindings, hb["pk"].(string)),
	}

	flow := newAKFlow("ak-flow-hand", "e2e-flow-hand")
	flow.Spec.ForProvider.Title = "ours"
	st := newAKStage("ak-stage-hand", akv1alpha1.StageParameters{Name: "e2e-stage-hand", Consent: &akv1alpha1.ConsentStage{Mode: ptr("permanent")}})
	b := newAKBinding("ak-bind-hand", "ak-flow-hand", "ak-stage-hand", 7)
	b.Spec.ForProvider.FlowRef, b.Spec.ForProvider.Flow = nil, ptr("e2e-flow-hand")
	b.Spec.ForProvider.StageRef, b.Spec.ForProvider.StageID = nil, ptr(hs["pk"].(string))
	b.Spec.ForProvider.PolicyEngineMode = ptr("all")
	for _, o := range []interface {
		SetDeletionPolicy(xpv2.DeletionPolicy)
	}{flow, st, b} {
		o.SetDeletionPolicy(xpv2.DeletionOrphan)
	}
	create(t, flow)
	create(t, st)
	create(t, b)
	waitAdoptionRequired(t, flow, "authentik flow", "e2e-flow-hand")
	waitAdoptionRequired(t, st, "authentik stage", "e2e-stage-hand")
	waitAdoptionRequired(t, b, "authentik flow-stage binding")
	time.Sleep(2 * time.Second)
	after := map[string][]byte{
		"flow": authentikAPI.raw(t, akFlowInstances, "e2e-flow-hand"), "stage": authentikAPI.raw(t, "stages/consent", hs["pk"].(string)),
		"binding": authentikAPI.raw(t, akFlowBindings, hb["pk"].(string)),
	}
	for k := range before {
		if !bytes.Equal(before[k], after[k]) {
			t.Errorf("hand-made %s changed:\n%s\n%s", k, before[k], after[k])
		}
	}

	// Observe-only: a second resource on the same flow only reads it.
	obs := newAKFlow("ak-flow-hand-observe", "e2e-flow-hand")
	obs.Spec.ManagementPolicies = xpv2.ManagementPolicies{xpv2.ManagementActionObserve}
	create(t, obs)
	waitReady(t, obs)
	if got := get(t, obs).Status.AtProvider.Provenance; got != identityv1alpha1.Observed {
		t.Errorf("observe-only provenance: got %q", got)
	}
	if !bytes.Equal(before["flow"], authentikAPI.raw(t, akFlowInstances, "e2e-flow-hand")) {
		t.Error("observe-only resource wrote the flow")
	}
	// One object has one resource: the observer goes before the flow is adopted.
	if err := kube.Delete(context.Background(), obs); err != nil {
		t.Fatal(err)
	}
	waitGone(t, obs)
	if !authentikAPI.exists(t, akFlowInstances, "e2e-flow-hand") {
		t.Fatal("deleting the observe-only resource deleted the flow")
	}

	updateWith(t, flow, func() { flow.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting })
	updateWith(t, st, func() { st.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting })
	updateWith(t, b, func() { b.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting })
	waitReady(t, flow)
	waitReady(t, st)
	waitReady(t, b)
	if meta.GetExternalName(b) != hb["pk"] || meta.GetExternalName(st) != hs["pk"] {
		t.Errorf("adopted other objects: binding %s, stage %s", meta.GetExternalName(b), meta.GetExternalName(st))
	}
	eventually(t, 30*time.Second, "the adopted objects to follow their specs", func() bool {
		return authentikAPI.object(t, akFlowInstances, "e2e-flow-hand")["title"] == "ours" &&
			authentikAPI.object(t, "stages/consent", hs["pk"].(string))["mode"] == "permanent" &&
			authentikAPI.object(t, akFlowBindings, hb["pk"].(string))["policy_engine_mode"] == "all"
	})
	if got := get(t, flow).Status.AtProvider.Provenance; got != identityv1alpha1.Adopted {
		t.Errorf("adopted flow provenance: got %q", got)
	}
}

// A stage whose name a stage of another type has is refused with a message saying so, and
// nothing is written.
func TestAuthentikStageNameOfAnotherType(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	hs := authentikAPI.seed(t, "stages/deny", map[string]any{"name": "e2e-stage-othertype"})
	t.Cleanup(func() { authentikAPI.del(t, "stages/deny", hs["pk"].(string)) })
	st := newAKStage("ak-stage-othertype", akv1alpha1.StageParameters{Name: "e2e-stage-othertype", UserLogout: &akv1alpha1.UserLogoutStage{}})
	create(t, st)
	eventually(t, 30*time.Second, "the stage to report the other type", func() bool {
		c := condition(get(t, st), xpv2.TypeSynced)
		return c.Status == corev1.ConditionFalse && strings.Contains(c.Message, "is a Deny Stage")
	})
	if l := authentikAPI.list(t, "stages/all", url.Values{"name": {"e2e-stage-othertype"}}); len(l) != 1 {
		t.Errorf("stages with the name: want the hand-made one alone, got %v", l)
	}
}

// The namespaced kinds: a flow with a deny stage bound by reference in one namespace, Ready,
// and deleted together (the flow waits for its binding).
func TestNamespacedAuthentikFlow(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	const ns = "ak-flows"
	namespace(t, ns)
	cpc := &nsidentityv1alpha1.ClusterProviderConfig{ObjectMeta: metav1.ObjectMeta{Name: "e2e-ak-flows"}, Spec: authentikProviderConfig("unused", "authentik-token").Spec}
	create(t, cpc)
	releaseNamespacedProviderConfig(t, cpc)
	onPC := xpv2.ManagedResourceSpec{ProviderConfigReference: nsRef("ClusterProviderConfig", cpc.GetName())}
	flow := &nsakv1alpha1.Flow{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "blocked"}, Spec: nsakv1alpha1.FlowSpec{ManagedResourceSpec: onPC,
		ForProvider: nsakv1alpha1.FlowParameters{Name: "Blocked", Slug: "e2e-ns-flow-blocked", Title: "Blocked", Designation: "authorization", DeniedAction: ptr("message")}}}
	st := &nsakv1alpha1.Stage{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "deny"}, Spec: nsakv1alpha1.StageSpec{ManagedResourceSpec: onPC,
		ForProvider: nsakv1alpha1.StageParameters{Name: "e2e-ns-stage-deny", Deny: &nsakv1alpha1.DenyStage{Message: ptr("Not for you")}}}}
	b := &nsakv1alpha1.FlowStageBinding{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "deny"}, Spec: nsakv1alpha1.FlowStageBindingSpec{ManagedResourceSpec: onPC,
		ForProvider: nsakv1alpha1.FlowStageBindingParameters{FlowRef: &xpv2.Reference{Name: "blocked"}, StageRef: &xpv2.Reference{Name: "deny"}, Order: 0}}}
	create(t, flow)
	create(t, st)
	create(t, b)
	waitReady(t, flow)
	waitReady(t, st)
	waitReady(t, b)
	if got := authentikAPI.object(t, "stages/deny", meta.GetExternalName(st))["deny_message"]; got != "Not for you" {
		t.Errorf("deny message: %v", got)
	}
	if got := get(t, b).Spec.ForProvider.Flow; got == nil || *got != "e2e-ns-flow-blocked" {
		t.Errorf("flowRef resolved to %v", got)
	}
	if err := kube.Delete(context.Background(), flow); err != nil {
		t.Fatal(err)
	}
	if err := kube.Delete(context.Background(), b); err != nil {
		t.Fatal(err)
	}
	waitGone(t, flow)
	if authentikAPI.exists(t, akFlowInstances, "e2e-ns-flow-blocked") || authentikAPI.exists(t, akFlowBindings, meta.GetExternalName(b)) {
		t.Error("flow or binding still in authentik")
	}
}

func stringsOf(v any) []string {
	l, _ := v.([]any)
	out := make([]string, 0, len(l))
	for _, x := range l {
		out = append(out, fmt.Sprint(x))
	}
	return out
}

// Every CEL rule of the three kinds rejects what it is for.
func TestAuthentikFlowValidation(t *testing.T) {
	t.Parallel()
	akReject(t, newAKStage("ak-stage-cel-none", akv1alpha1.StageParameters{Name: "x"}), "a stage has exactly one type")
	akReject(t, newAKStage("ak-stage-cel-two", akv1alpha1.StageParameters{Name: "x", Deny: &akv1alpha1.DenyStage{}, UserLogout: &akv1alpha1.UserLogoutStage{}}),
		"a stage has exactly one type")
	b := newAKBinding("ak-bind-cel-flow", "f", "s", 0)
	b.Spec.ForProvider.FlowRef = nil
	akReject(t, b, "a binding needs its flow")
	b = newAKBinding("ak-bind-cel-stage", "f", "s", 0)
	b.Spec.ForProvider.StageRef = nil
	akReject(t, b, "a binding needs its stage")
	b = newAKBinding("ak-bind-cel-eval", "f", "s", 0)
	b.Spec.ForProvider.ReEvaluatePolicies = ptr(false)
	akReject(t, b, "with reEvaluatePolicies false, set evaluateOnPlan true")

	// Transition rules: the flow's slug and the stage's type cannot change.
	flow := newAKFlow("ak-flow-cel", "e2e-flow-cel")
	flow.Spec.ManagementPolicies = xpv2.ManagementPolicies{xpv2.ManagementActionObserve}
	create(t, flow)
	changeRefused(t, flow, func(f *akv1alpha1.Flow) { f.Spec.ForProvider.Slug = "e2e-flow-cel2" }, "slug cannot be changed")
	st := newAKStage("ak-stage-cel", akv1alpha1.StageParameters{Name: "e2e-stage-cel", Deny: &akv1alpha1.DenyStage{}})
	st.Spec.ManagementPolicies = xpv2.ManagementPolicies{xpv2.ManagementActionObserve}
	create(t, st)
	changeRefused(t, st, func(s *akv1alpha1.Stage) {
		s.Spec.ForProvider.Deny, s.Spec.ForProvider.UserLogout = nil, &akv1alpha1.UserLogoutStage{}
	}, "the stage type cannot be changed")
}
