//go:build e2e

package e2e

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	akv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	nsakv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1"
	nsidentityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
)

const akExpressions = "policies/expression"

func newAKPolicy(name string, p akv1alpha1.PolicyParameters) *akv1alpha1.Policy {
	return &akv1alpha1.Policy{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: akv1alpha1.PolicySpec{ClusterManagedResourceSpec: onAuthentik, ForProvider: p}}
}

func newAKPolicyBinding(name string, p akv1alpha1.PolicyBindingParameters) *akv1alpha1.PolicyBinding {
	return &akv1alpha1.PolicyBinding{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: akv1alpha1.PolicyBindingSpec{ClusterManagedResourceSpec: onAuthentik, ForProvider: p}}
}

// Only a group may use an application: the group, the application, an expression policy and
// both bound to the application by reference. Changes reach authentik as PATCHes; the
// policy's deletion is refused while a hand-made binding of it exists, and waits for ours.
func TestAuthentikPolicyLifecycle(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	g := newAKGroup("ak-pol-staff", "e2e-pol-staff")
	app := newAKApplication("ak-pol-app", "e2e-pol-app")
	pol := newAKPolicy("ak-pol-expr", akv1alpha1.PolicyParameters{Name: "e2e-pol-expr", Expression: &akv1alpha1.ExpressionPolicy{Expression: "return True"}})
	gb := newAKPolicyBinding("ak-pol-bind-group", akv1alpha1.PolicyBindingParameters{
		GroupRef: &xpv2.Reference{Name: "ak-pol-staff"}, ApplicationRef: &xpv2.Reference{Name: "ak-pol-app"}, Order: 0})
	pb := newAKPolicyBinding("ak-pol-bind-policy", akv1alpha1.PolicyBindingParameters{
		PolicyRef: &xpv2.Reference{Name: "ak-pol-expr"}, ApplicationRef: &xpv2.Reference{Name: "ak-pol-app"}, Order: 1})
	for _, o := range []resource.Managed{g, app, pol, gb, pb} {
		create(t, o)
	}
	for _, o := range []resource.Managed{g, app, pol, gb, pb} {
		waitReady(t, o)
	}
	pbm := authentikAPI.object(t, akApps, "e2e-pol-app")["pbm_uuid"]
	b := authentikAPI.object(t, akBindings, meta.GetExternalName(gb))
	if b["target"] != pbm || b["group"] != meta.GetExternalName(g) || b["policy"] != nil {
		t.Errorf("group binding: %v", b)
	}
	if b := authentikAPI.object(t, akBindings, meta.GetExternalName(pb)); b["policy"] != meta.GetExternalName(pol) || b["order"] != float64(1) {
		t.Errorf("policy binding: %v", b)
	}

	update(t, pol, func(p *akv1alpha1.Policy) { p.Spec.ForProvider.Expression.Expression = "return False" })
	update(t, gb, func(b *akv1alpha1.PolicyBinding) { b.Spec.ForProvider.Negate = ptr(true) })
	eventually(t, 30*time.Second, "the changes in authentik", func() bool {
		return authentikAPI.object(t, akExpressions, meta.GetExternalName(pol))["expression"] == "return False" &&
			authentikAPI.object(t, akBindings, meta.GetExternalName(gb))["negate"] == true
	})

	// A hand-made binding of our policy: the policy's deletion is refused while it exists.
	other := authentikAPI.seed(t, akApps, map[string]any{"name": "e2e-pol-other", "slug": "e2e-pol-other"})
	t.Cleanup(func() { authentikAPI.del(t, akApps, "e2e-pol-other") })
	hand := authentikAPI.seed(t, akBindings, map[string]any{"target": other["pbm_uuid"], "policy": meta.GetExternalName(pol), "order": 3})
	deleteResource(t, pol)
	waitDeletionBlocked(t, pol, adoption.ReasonForeignDependents, `policy \"e2e-pol-expr\"`, "ID "+fmt.Sprint(hand["pk"]),
		"not created or adopted by this installation")
	if !authentikAPI.exists(t, akBindings, fmt.Sprint(hand["pk"])) || !authentikAPI.exists(t, akExpressions, meta.GetExternalName(pol)) {
		t.Fatal("the policy or the hand-made binding was deleted")
	}
	authentikAPI.del(t, akBindings, fmt.Sprint(hand["pk"]))
	// Our binding of the policy is still managed: the policy waits for it.
	deleteResource(t, pb)
	waitGone(t, pol)
	if authentikAPI.exists(t, akExpressions, meta.GetExternalName(pol)) || authentikAPI.exists(t, akBindings, meta.GetExternalName(pb)) {
		t.Error("policy or its binding still in authentik")
	}
	// The group and the application wait for the group's binding, deleted with them.
	for _, o := range []resource.Managed{g, app, gb} {
		deleteResource(t, o)
	}
	waitGone(t, g)
	waitGone(t, app)
	if authentikAPI.exists(t, akBindings, meta.GetExternalName(gb)) {
		t.Error("group binding still in authentik")
	}
}

// A hand-made policy and binding with the resources' natural keys are left byte-identical
// (FailOnConflict); observe-only resources never write; AdoptExisting takes each over and then
// follows the spec.
func TestAuthentikPolicyConflictAdoptObserve(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	hp := authentikAPI.seed(t, "policies/reputation", map[string]any{"name": "e2e-pol-hand", "check_ip": true})
	happ := authentikAPI.seed(t, akApps, map[string]any{"name": "e2e-pol-hand-app", "slug": "e2e-pol-hand-app"})
	hb := authentikAPI.seed(t, akBindings, map[string]any{"target": happ["pbm_uuid"], "policy": hp["pk"], "order": 4})
	t.Cleanup(func() {
		authentikAPI.del(t, akApps, "e2e-pol-hand-app")
		authentikAPI.del(t, "policies/all", hp["pk"].(string))
	})
	rawAll := func() map[string][]byte {
		return map[string][]byte{"policy": authentikAPI.raw(t, "policies/reputation", hp["pk"].(string)), "binding": authentikAPI.raw(t, akBindings, hb["pk"].(string))}
	}
	before := rawAll()
	pol := newAKPolicy("ak-pol-hand", akv1alpha1.PolicyParameters{Name: "e2e-pol-hand", Reputation: &akv1alpha1.ReputationPolicy{Threshold: ptr(int32(-9))}})
	b := newAKPolicyBinding("ak-pol-bind-hand", akv1alpha1.PolicyBindingParameters{PolicyID: ptr(hp["pk"].(string)), Application: ptr("e2e-pol-hand-app"), Order: 4, Timeout: ptr(int32(7))})
	pol.SetDeletionPolicy(xpv2.DeletionOrphan)
	b.SetDeletionPolicy(xpv2.DeletionOrphan)
	create(t, pol)
	create(t, b)
	waitAdoptionRequired(t, pol, "authentik policy", "e2e-pol-hand")
	waitAdoptionRequired(t, b, "authentik policy binding")
	time.Sleep(2 * time.Second)
	for k, after := range rawAll() {
		if !bytes.Equal(before[k], after) {
			t.Errorf("hand-made %s changed:\n%s\n%s", k, before[k], after)
		}
	}

	obs := newAKPolicyBinding("ak-pol-bind-observe", b.Spec.ForProvider)
	obs.Spec.ManagementPolicies = xpv2.ManagementPolicies{xpv2.ManagementActionObserve}
	create(t, obs)
	waitReady(t, obs)
	if got := get(t, obs).Status.AtProvider.Provenance; got != identityv1alpha1.Observed {
		t.Errorf("observe-only provenance: got %q", got)
	}
	if !bytes.Equal(before["binding"], rawAll()["binding"]) {
		t.Error("observe-only resource wrote the binding")
	}
	deleteResource(t, obs)
	waitGone(t, obs)
	if !authentikAPI.exists(t, akBindings, hb["pk"].(string)) {
		t.Fatal("deleting the observe-only resource deleted the binding")
	}

	updateWith(t, pol, func() { pol.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting })
	updateWith(t, b, func() { b.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting })
	waitReady(t, pol)
	waitReady(t, b)
	if meta.GetExternalName(b) != hb["pk"] || meta.GetExternalName(pol) != hp["pk"] {
		t.Errorf("adopted other objects: binding %s, policy %s", meta.GetExternalName(b), meta.GetExternalName(pol))
	}
	eventually(t, 30*time.Second, "the adopted objects to follow their specs", func() bool {
		return authentikAPI.object(t, "policies/reputation", hp["pk"].(string))["threshold"] == float64(-9) &&
			authentikAPI.object(t, akBindings, hb["pk"].(string))["timeout"] == float64(7)
	})
	if got := get(t, pol).Status.AtProvider.Provenance; got != identityv1alpha1.Adopted {
		t.Errorf("adopted policy provenance: got %q", got)
	}
}

// A policy whose name a policy of another type has is refused with a message saying so.
func TestAuthentikPolicyNameOfAnotherType(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	hp := authentikAPI.seed(t, "policies/password_expiry", map[string]any{"name": "e2e-pol-othertype", "days": 5})
	t.Cleanup(func() { authentikAPI.del(t, "policies/all", hp["pk"].(string)) })
	pol := newAKPolicy("ak-pol-othertype", akv1alpha1.PolicyParameters{Name: "e2e-pol-othertype", Expression: &akv1alpha1.ExpressionPolicy{Expression: "return True"}})
	create(t, pol)
	eventually(t, 30*time.Second, "the policy to report the other type", func() bool {
		c := condition(get(t, pol), xpv2.TypeSynced)
		return c.Status == corev1.ConditionFalse && strings.Contains(c.Message, "is a Password Expiry Policy")
	})
}

// The namespaced kinds: only a group may use an application, by references in one namespace;
// a reputation policy on a flow; deleted together.
func TestNamespacedAuthentikPolicy(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	const ns = "ak-policies"
	namespace(t, ns)
	cpc := &nsidentityv1alpha1.ClusterProviderConfig{ObjectMeta: metav1.ObjectMeta{Name: "e2e-ak-policies"}, Spec: authentikProviderConfig("unused", "authentik-token").Spec}
	create(t, cpc)
	releaseNamespacedProviderConfig(t, cpc)
	onPC := xpv2.ManagedResourceSpec{ProviderConfigReference: nsRef("ClusterProviderConfig", cpc.GetName())}
	g := &nsakv1alpha1.Group{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "staff"},
		Spec: nsakv1alpha1.GroupSpec{ManagedResourceSpec: onPC, ForProvider: nsakv1alpha1.GroupParameters{Name: "e2e-ns-pol-staff"}}}
	app := &nsakv1alpha1.Application{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "app"},
		Spec: nsakv1alpha1.ApplicationSpec{ManagedResourceSpec: onPC, ForProvider: nsakv1alpha1.ApplicationParameters{Name: "App", Slug: "e2e-ns-pol-app"}}}
	pol := &nsakv1alpha1.Policy{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "rep"},
		Spec: nsakv1alpha1.PolicySpec{ManagedResourceSpec: onPC, ForProvider: nsakv1alpha1.PolicyParameters{Name: "e2e-ns-pol-rep",
			Reputation: &nsakv1alpha1.ReputationPolicy{CheckUsername: ptr(false)}}}}
	gb := &nsakv1alpha1.PolicyBinding{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "staff-app"},
		Spec: nsakv1alpha1.PolicyBindingSpec{ManagedResourceSpec: onPC, ForProvider: nsakv1alpha1.PolicyBindingParameters{
			GroupRef: &xpv2.Reference{Name: "staff"}, ApplicationRef: &xpv2.Reference{Name: "app"}}}}
	pb := &nsakv1alpha1.PolicyBinding{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "rep-flow"},
		Spec: nsakv1alpha1.PolicyBindingSpec{ManagedResourceSpec: onPC, ForProvider: nsakv1alpha1.PolicyBindingParameters{
			PolicyRef: &xpv2.Reference{Name: "rep"}, Flow: ptr("default-authentication-flow"), Order: 900}}}
	for _, o := range []resource.Managed{g, app, pol, gb, pb} {
		create(t, o)
	}
	for _, o := range []resource.Managed{g, app, pol, gb, pb} {
		waitReady(t, o)
	}
	if got := authentikAPI.object(t, "policies/reputation", meta.GetExternalName(pol)); got["check_username"] != false || got["check_ip"] != true {
		t.Errorf("reputation checks: %v", got)
	}
	if got := get(t, gb).Spec.ForProvider.Application; got == nil || *got != "e2e-ns-pol-app" {
		t.Errorf("applicationRef resolved to %v", got)
	}
	update(t, pol, func(p *nsakv1alpha1.Policy) { p.Spec.ForProvider.Reputation.Threshold = ptr(int32(-2)) })
	eventually(t, 30*time.Second, "the threshold in authentik", func() bool {
		return authentikAPI.object(t, "policies/reputation", meta.GetExternalName(pol))["threshold"] == float64(-2)
	})
	for _, o := range []resource.Managed{g, app, pol, gb, pb} {
		deleteResource(t, o)
	}
	for _, o := range []resource.Managed{g, app, pol, gb, pb} {
		waitGone(t, o)
	}
	if authentikAPI.exists(t, "policies/reputation", meta.GetExternalName(pol)) || authentikAPI.exists(t, akBindings, meta.GetExternalName(gb)) {
		t.Error("policy or binding still in authentik")
	}
}

// Every CEL rule of the two kinds rejects what it is for.
func TestAuthentikPolicyValidation(t *testing.T) {
	t.Parallel()
	akReject(t, newAKPolicy("ak-pol-cel-none", akv1alpha1.PolicyParameters{Name: "x"}), "a policy has exactly one type")
	akReject(t, newAKPolicy("ak-pol-cel-two", akv1alpha1.PolicyParameters{Name: "x", Expression: &akv1alpha1.ExpressionPolicy{Expression: "x"},
		PasswordExpiry: &akv1alpha1.PasswordExpiryPolicy{Days: 1}}), "a policy has exactly one type")
	akReject(t, newAKPolicy("ak-pol-cel-rep", akv1alpha1.PolicyParameters{Name: "x", Reputation: &akv1alpha1.ReputationPolicy{CheckIP: ptr(false), CheckUsername: ptr(false)}}),
		"checkIp and checkUsername cannot both be false")
	akReject(t, newAKPolicy("ak-pol-cel-em", akv1alpha1.PolicyParameters{Name: "x", EventMatcher: &akv1alpha1.EventMatcherPolicy{App: ptr("")}}),
		"needs at least one criterion")
	app := &xpv2.Reference{Name: "a"}
	akReject(t, newAKPolicyBinding("ak-pol-cel-nosubject", akv1alpha1.PolicyBindingParameters{ApplicationRef: app}), "binds exactly one of a policy, a group or a user")
	akReject(t, newAKPolicyBinding("ak-pol-cel-twosubjects", akv1alpha1.PolicyBindingParameters{ApplicationRef: app,
		GroupRef: &xpv2.Reference{Name: "g"}, UserID: ptr("1")}), "binds exactly one of a policy, a group or a user")
	akReject(t, newAKPolicyBinding("ak-pol-cel-notarget", akv1alpha1.PolicyBindingParameters{GroupRef: &xpv2.Reference{Name: "g"}}), "exactly one target")
	akReject(t, newAKPolicyBinding("ak-pol-cel-twotargets", akv1alpha1.PolicyBindingParameters{GroupRef: &xpv2.Reference{Name: "g"},
		ApplicationRef: app, Flow: ptr("f")}), "exactly one target")

	// Transition rule: the policy's type cannot change.
	pol := newAKPolicy("ak-pol-cel", akv1alpha1.PolicyParameters{Name: "e2e-pol-cel", PasswordExpiry: &akv1alpha1.PasswordExpiryPolicy{Days: 1}})
	pol.Spec.ManagementPolicies = xpv2.ManagementPolicies{xpv2.ManagementActionObserve}
	create(t, pol)
	changeRefused(t, pol, func(p *akv1alpha1.Policy) {
		p.Spec.ForProvider.PasswordExpiry, p.Spec.ForProvider.Expression = nil, &akv1alpha1.ExpressionPolicy{Expression: "return True"}
	}, "the policy type cannot be changed")
}
