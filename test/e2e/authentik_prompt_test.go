//go:build e2e

package e2e

import (
	"bytes"
	"slices"
	"testing"
	"time"

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

const (
	akPrompts      = "stages/prompt/prompts"
	akPromptStages = "stages/prompt/stages"
	akUserWrite    = "stages/user_write"
	akValidate     = "stages/authenticator/validate"
)

func newAKPrompt(name string, p akv1alpha1.PromptParameters) *akv1alpha1.Prompt {
	return &akv1alpha1.Prompt{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: akv1alpha1.PromptSpec{ClusterManagedResourceSpec: onAuthentik, ForProvider: p}}
}

// An enrollment form: two prompts, a validation policy and a group, a prompt stage and a user
// write stage naming them by reference, and an authenticator validation stage offering a
// configuration stage. Changes reach authentik; a prompt's deletion is refused while a
// hand-made prompt stage shows it, and waits for our prompt stage.
func TestAuthentikPromptStages(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	user := newAKPrompt("ak-prompt-user", akv1alpha1.PromptParameters{Name: "e2e-prompt-user", FieldKey: "username", Label: "Username", Type: "username", Order: ptr(int32(1))})
	mail := newAKPrompt("ak-prompt-mail", akv1alpha1.PromptParameters{Name: "e2e-prompt-mail", FieldKey: "email", Label: "Email", Type: "email", Order: ptr(int32(2))})
	pol := newAKPolicy("ak-prompt-pol", akv1alpha1.PolicyParameters{Name: "e2e-prompt-pol", Expression: &akv1alpha1.ExpressionPolicy{Expression: "return True"}})
	g := newAKGroup("ak-prompt-group", "e2e-prompt-group")
	form := newAKStage("ak-prompt-form", akv1alpha1.StageParameters{Name: "e2e-prompt-form", Prompt: &akv1alpha1.PromptStage{
		PromptRefs: []xpv2.Reference{{Name: "ak-prompt-user"}, {Name: "ak-prompt-mail"}}, ValidationPolicyRefs: []xpv2.Reference{{Name: "ak-prompt-pol"}}}})
	write := newAKStage("ak-prompt-write", akv1alpha1.StageParameters{Name: "e2e-prompt-write", UserWrite: &akv1alpha1.UserWriteStage{
		UserCreationMode: ptr("always_create"), CreateUsersAsInactive: ptr(true), CreateUsersGroupRef: &xpv2.Reference{Name: "ak-prompt-group"}}})
	cfg := newAKStage("ak-prompt-cfg", akv1alpha1.StageParameters{Name: "e2e-prompt-cfg", Deny: &akv1alpha1.DenyStage{}})
	mfa := newAKStage("ak-prompt-mfa", akv1alpha1.StageParameters{Name: "e2e-prompt-mfa", AuthenticatorValidation: &akv1alpha1.AuthenticatorValidationStage{
		DeviceClasses: []string{"totp", "webauthn"}, NotConfiguredAction: ptr("configure"),
		ConfigurationStageRefs: []xpv2.Reference{{Name: "ak-prompt-cfg"}}, LastAuthThreshold: ptr("minutes=5")}})
	all := []resource.Managed{user, mail, pol, g, form, write, cfg, mfa}
	for _, o := range all {
		create(t, o)
	}
	for _, o := range all {
		waitReady(t, o)
	}
	s := authentikAPI.object(t, akPromptStages, meta.GetExternalName(form))
	if got := stringsOf(s["fields"]); len(got) != 2 || !slices.Contains(got, meta.GetExternalName(user)) || !slices.Contains(got, meta.GetExternalName(mail)) {
		t.Errorf("prompt stage fields: %v", got)
	}
	if got := stringsOf(s["validation_policies"]); len(got) != 1 || got[0] != meta.GetExternalName(pol) {
		t.Errorf("prompt stage validation policies: %v", got)
	}
	if w := authentikAPI.object(t, akUserWrite, meta.GetExternalName(write)); w["create_users_group"] != meta.GetExternalName(g) || w["create_users_as_inactive"] != true {
		t.Errorf("user write stage: %v", w)
	}
	if v := authentikAPI.object(t, akValidate, meta.GetExternalName(mfa)); !slices.Equal(stringsOf(v["configuration_stages"]), []string{meta.GetExternalName(cfg)}) || v["last_auth_threshold"] != "minutes=5" {
		t.Errorf("validation stage: %v", v)
	}
	// The prompt may be Ready before the stage that shows it exists: its next poll lists it.
	eventually(t, 30*time.Second, "status.atProvider.stages of the prompt to be [e2e-prompt-form]", func() bool {
		return slices.Equal(get(t, user).Status.AtProvider.Stages, []string{"e2e-prompt-form"})
	})

	update(t, mail, func(p *akv1alpha1.Prompt) {
		p.Spec.ForProvider.Label = "E-mail"
		p.Spec.ForProvider.Required = ptr(false)
	})
	update(t, mfa, func(s *akv1alpha1.Stage) {
		s.Spec.ForProvider.AuthenticatorValidation.NotConfiguredAction = ptr("deny")
	})
	eventually(t, 30*time.Second, "the changes in authentik", func() bool {
		p := authentikAPI.object(t, akPrompts, meta.GetExternalName(mail))
		return p["label"] == "E-mail" && p["required"] == false &&
			authentikAPI.object(t, akValidate, meta.GetExternalName(mfa))["not_configured_action"] == "deny"
	})

	// A hand-made prompt stage showing our prompt: the prompt's deletion is refused.
	hand := authentikAPI.seed(t, akPromptStages, map[string]any{"name": "e2e-prompt-hand", "fields": []any{meta.GetExternalName(user)}})
	t.Cleanup(func() { authentikAPI.del(t, "stages/all", hand["pk"].(string)) })
	deleteResource(t, user)
	waitDeletionBlocked(t, user, adoption.ReasonForeignDependents, "e2e-prompt-hand", "not created or adopted by this installation")
	if !authentikAPI.exists(t, akPrompts, meta.GetExternalName(user)) {
		t.Fatal("the prompt was deleted under the hand-made stage")
	}
	authentikAPI.del(t, "stages/all", hand["pk"].(string))
	// Our prompt stage still shows it: the prompt waits for the stage, deleted with it.
	deleteResource(t, form)
	waitGone(t, user)
	waitGone(t, form)
	if authentikAPI.exists(t, akPrompts, meta.GetExternalName(user)) || authentikAPI.exists(t, akPromptStages, meta.GetExternalName(form)) {
		t.Error("prompt or prompt stage still in authentik")
	}
	for _, o := range []resource.Managed{mail, pol, g, write, cfg, mfa} {
		deleteResource(t, o)
	}
	for _, o := range []resource.Managed{mail, pol, g, write, cfg, mfa} {
		waitGone(t, o)
	}
}

// A hand-made prompt and prompt stage with the resources' names are left byte-identical
// (FailOnConflict); observe-only resources never write; AdoptExisting takes each over and then
// follows the spec.
func TestAuthentikPromptConflictAdoptObserve(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	hp := authentikAPI.seed(t, akPrompts, map[string]any{"name": "e2e-prompt-handp", "field_key": "nick", "label": "Nick", "type": "text"})
	hs := authentikAPI.seed(t, akPromptStages, map[string]any{"name": "e2e-prompt-hands", "fields": []any{hp["pk"]}})
	t.Cleanup(func() {
		authentikAPI.del(t, "stages/all", hs["pk"].(string))
		authentikAPI.del(t, akPrompts, hp["pk"].(string))
	})
	rawAll := func() map[string][]byte {
		return map[string][]byte{"prompt": authentikAPI.raw(t, akPrompts, hp["pk"].(string)), "stage": authentikAPI.raw(t, akPromptStages, hs["pk"].(string))}
	}
	before := rawAll()
	p := newAKPrompt("ak-prompt-handp", akv1alpha1.PromptParameters{Name: "e2e-prompt-handp", FieldKey: "nick", Label: "Nickname", Type: "text"})
	s := newAKStage("ak-prompt-hands", akv1alpha1.StageParameters{Name: "e2e-prompt-hands", Prompt: &akv1alpha1.PromptStage{Prompts: []string{"e2e-prompt-handp"}}})
	p.SetDeletionPolicy(xpv2.DeletionOrphan)
	s.SetDeletionPolicy(xpv2.DeletionOrphan)
	create(t, p)
	create(t, s)
	waitAdoptionRequired(t, p, "authentik prompt", "e2e-prompt-handp")
	waitAdoptionRequired(t, s, "authentik stage", "e2e-prompt-hands")
	time.Sleep(2 * time.Second)
	for k, after := range rawAll() {
		if !bytes.Equal(before[k], after) {
			t.Errorf("hand-made %s changed:\n%s\n%s", k, before[k], after)
		}
	}

	obs := newAKPrompt("ak-prompt-observe", p.Spec.ForProvider)
	obs.Spec.ManagementPolicies = xpv2.ManagementPolicies{xpv2.ManagementActionObserve}
	create(t, obs)
	waitReady(t, obs)
	if got := get(t, obs).Status.AtProvider.Provenance; got != identityv1alpha1.Observed {
		t.Errorf("observe-only provenance: got %q", got)
	}
	if !bytes.Equal(before["prompt"], rawAll()["prompt"]) {
		t.Error("observe-only resource wrote the prompt")
	}
	deleteResource(t, obs)
	waitGone(t, obs)
	if !authentikAPI.exists(t, akPrompts, hp["pk"].(string)) {
		t.Fatal("deleting the observe-only resource deleted the prompt")
	}

	updateWith(t, p, func() { p.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting })
	updateWith(t, s, func() { s.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting })
	waitReady(t, p)
	waitReady(t, s)
	if meta.GetExternalName(p) != hp["pk"] || meta.GetExternalName(s) != hs["pk"] {
		t.Errorf("adopted other objects: prompt %s, stage %s", meta.GetExternalName(p), meta.GetExternalName(s))
	}
	eventually(t, 30*time.Second, "the adopted prompt to follow its spec", func() bool {
		return authentikAPI.object(t, akPrompts, hp["pk"].(string))["label"] == "Nickname"
	})
	if got := get(t, p).Status.AtProvider.Provenance; got != identityv1alpha1.Adopted {
		t.Errorf("adopted prompt provenance: got %q", got)
	}
}

// The namespaced kinds: a prompt, a group and a prompt and user write stage naming them by
// reference in one namespace, Ready, and deleted together (the prompt waits for its stage).
func TestNamespacedAuthentikPromptStages(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	const ns = "ak-prompts"
	namespace(t, ns)
	cpc := &nsidentityv1alpha1.ClusterProviderConfig{ObjectMeta: metav1.ObjectMeta{Name: "e2e-ak-prompts"}, Spec: authentikProviderConfig("unused", "authentik-token").Spec}
	create(t, cpc)
	releaseNamespacedProviderConfig(t, cpc)
	onPC := xpv2.ManagedResourceSpec{ProviderConfigReference: nsRef("ClusterProviderConfig", cpc.GetName())}
	p := &nsakv1alpha1.Prompt{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "name"}, Spec: nsakv1alpha1.PromptSpec{ManagedResourceSpec: onPC,
		ForProvider: nsakv1alpha1.PromptParameters{Name: "e2e-ns-prompt-name", FieldKey: "name", Label: "Name", Type: "text"}}}
	g := &nsakv1alpha1.Group{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "new-users"},
		Spec: nsakv1alpha1.GroupSpec{ManagedResourceSpec: onPC, ForProvider: nsakv1alpha1.GroupParameters{Name: "e2e-ns-prompt-new-users"}}}
	form := &nsakv1alpha1.Stage{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "form"}, Spec: nsakv1alpha1.StageSpec{ManagedResourceSpec: onPC,
		ForProvider: nsakv1alpha1.StageParameters{Name: "e2e-ns-prompt-form", Prompt: &nsakv1alpha1.PromptStage{PromptRefs: []xpv2.Reference{{Name: "name"}}}}}}
	write := &nsakv1alpha1.Stage{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "write"}, Spec: nsakv1alpha1.StageSpec{ManagedResourceSpec: onPC,
		ForProvider: nsakv1alpha1.StageParameters{Name: "e2e-ns-prompt-write", UserWrite: &nsakv1alpha1.UserWriteStage{CreateUsersGroupRef: &xpv2.Reference{Name: "new-users"}}}}}
	all := []resource.Managed{p, g, form, write}
	for _, o := range all {
		create(t, o)
	}
	for _, o := range all {
		waitReady(t, o)
	}
	if got := stringsOf(authentikAPI.object(t, akPromptStages, meta.GetExternalName(form))["fields"]); !slices.Equal(got, []string{meta.GetExternalName(p)}) {
		t.Errorf("prompt stage fields: %v", got)
	}
	if got := authentikAPI.object(t, akUserWrite, meta.GetExternalName(write))["create_users_group"]; got != meta.GetExternalName(g) {
		t.Errorf("user write group: %v", got)
	}
	update(t, p, func(p *nsakv1alpha1.Prompt) { p.Spec.ForProvider.SubText = ptr("As you like to be called") })
	eventually(t, 30*time.Second, "the sub text in authentik", func() bool {
		return authentikAPI.object(t, akPrompts, meta.GetExternalName(p))["sub_text"] == "As you like to be called"
	})
	for _, o := range all {
		deleteResource(t, o)
	}
	for _, o := range all {
		waitGone(t, o)
	}
	if authentikAPI.exists(t, akPrompts, meta.GetExternalName(p)) || authentikAPI.exists(t, akPromptStages, meta.GetExternalName(form)) {
		t.Error("prompt or prompt stage still in authentik")
	}
}

// Every CEL rule the new blocks add rejects what it is for, and the type rules cover them.
func TestAuthentikPromptStageValidation(t *testing.T) {
	t.Parallel()
	akReject(t, newAKStage("ak-prompt-cel-noprompts", akv1alpha1.StageParameters{Name: "x", Prompt: &akv1alpha1.PromptStage{ValidationPolicies: []string{"p"}}}),
		"a prompt stage shows at least one prompt")
	akReject(t, newAKStage("ak-prompt-cel-configure", akv1alpha1.StageParameters{Name: "x", AuthenticatorValidation: &akv1alpha1.AuthenticatorValidationStage{
		NotConfiguredAction: ptr("configure")}}), "notConfiguredAction configure needs the stages")
	akReject(t, newAKStage("ak-prompt-cel-two", akv1alpha1.StageParameters{Name: "x", UserWrite: &akv1alpha1.UserWriteStage{},
		Prompt: &akv1alpha1.PromptStage{Prompts: []string{"p"}}}), "a stage has exactly one type")
	akReject(t, newAKPrompt("ak-prompt-cel-type", akv1alpha1.PromptParameters{Name: "x", FieldKey: "k", Label: "L", Type: "textbox"}), "Unsupported value")

	// Transition rule: a user write stage cannot become a prompt stage.
	st := newAKStage("ak-prompt-cel", akv1alpha1.StageParameters{Name: "e2e-prompt-cel", UserWrite: &akv1alpha1.UserWriteStage{}})
	st.Spec.ManagementPolicies = xpv2.ManagementPolicies{xpv2.ManagementActionObserve}
	create(t, st)
	changeRefused(t, st, func(s *akv1alpha1.Stage) {
		s.Spec.ForProvider.UserWrite, s.Spec.ForProvider.Prompt = nil, &akv1alpha1.PromptStage{Prompts: []string{"p"}}
	}, "the stage type cannot be changed")
}
