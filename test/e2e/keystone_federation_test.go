//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	ksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
	"github.com/crossplane-contrib/provider-identity/internal/usage"
)

func oidcRules(issuer string) []ksv1alpha1.MappingRule {
	return []ksv1alpha1.MappingRule{{
		Local: []ksv1alpha1.MappingLocal{
			{User: &ksv1alpha1.MappingUser{Name: ptr("{0}"), Type: ptr("ephemeral")}},
			{Group: &ksv1alpha1.MappingGroup{Name: ptr("federated-users"), Domain: &ksv1alpha1.MappingDomain{Name: ptr("e2e-fed")}}},
		},
		Remote: []ksv1alpha1.MappingRemote{
			{Type: "HTTP_OIDC_PREFERRED_USERNAME"},
			{Type: "HTTP_OIDC_ISS", AnyOneOf: []string{issuer}},
		},
	}}
}

// Identity provider, mapping and protocol (and their domain), applied together in reverse
// dependency order, become Ready; Keystone holds exactly what the specs say; a mapping rule
// edit is applied in place; deleting everything in the worst order leaves Keystone as before.
func TestFederationLifecycle(t *testing.T) {
	// Not parallel: it compares Keystone's whole lists of identity providers and mappings,
	// and checks every federation request at steady state.
	idpsBefore, mappingsBefore := keystoneIDs(t, "identity_providers", "identity_providers"), keystoneIDs(t, "mappings", "mappings")

	const issuer = "https://e2e-fed.example.com/realms/e2e"
	dom := newDomain("e2e-fed", "e2e-fed")
	idp := newIdentityProvider("e2e-fed", "e2e-fed-idp", "e2e-fed", func(o *ksv1alpha1.IdentityProvider) {
		o.Spec.ForProvider.RemoteIDs = []string{issuer}
		o.Spec.ForProvider.Description = ptr("Keycloak realm e2e")
		o.Spec.ForProvider.AuthorizationTTL = ptr(int32(30))
	})
	mapping := newMapping("e2e-fed", "e2e-fed-mapping", oidcRules(issuer))
	proto := newProtocol("e2e-fed", "e2e-fed", "e2e-fed", func(o *ksv1alpha1.Protocol) {
		o.Spec.ForProvider.RemoteIDAttribute = ptr("HTTP_OIDC_ISS")
	})
	apply(t, proto, mapping, idp, dom)
	cleanup(t, proto, mapping, idp, dom)
	for _, mg := range []resource.Managed{dom, idp, mapping, proto} {
		waitReady(t, mg)
	}
	domainID := meta.GetExternalName(dom)
	if got := meta.GetExternalName(proto); got != "e2e-fed-idp/openid" {
		t.Errorf("Protocol external name %q, want e2e-fed-idp/openid", got)
	}

	// The identity provider: exactly the spec, the marker on the description's last line.
	raw := keystone.raw(t, "OS-FEDERATION", "identity_providers", "e2e-fed-idp")
	desc := jsonOf(t, raw, "identity_provider", "description").(string)
	rest, m, found, err := provenance.ExtractFromText(desc)
	if !found || err != nil || rest != "Keycloak realm e2e" || m.Resource != "IdentityProvider.keystone.identity.crossplane.io/e2e-fed" || m.Installation != installationID {
		t.Errorf("description %q: rest %q, marker %+v (found %v, %v)", desc, rest, m, found, err)
	}
	for k, want := range map[string]any{"domain_id": domainID, "enabled": true, "remote_ids": []any{issuer}, "authorization_ttl": float64(30)} {
		if got := jsonOf(t, raw, "identity_provider", k); !jsonEqual(got, want) {
			t.Errorf("identity provider %s: got %v, want %v", k, got, want)
		}
	}
	if p := get(t, idp).Status.AtProvider; p.Description != "Keycloak realm e2e" || p.Provenance != identityv1alpha1.Owned {
		t.Errorf("IdentityProvider atProvider %+v", p)
	}

	// The mapping: the rules, in Keystone's snake_case JSON, exactly.
	wantRules := mustJSON(t, `[{"local":[{"user":{"name":"{0}","type":"ephemeral"}},{"group":{"name":"federated-users","domain":{"name":"e2e-fed"}}}],
		"remote":[{"type":"HTTP_OIDC_PREFERRED_USERNAME"},{"type":"HTTP_OIDC_ISS","any_one_of":["`+issuer+`"]}]}]`)
	if got := jsonOf(t, keystone.raw(t, "OS-FEDERATION", "mappings", "e2e-fed-mapping"), "mapping", "rules"); !jsonEqual(got, wantRules) {
		t.Errorf("mapping rules:\n got  %v\n want %v", got, wantRules)
	}

	// The protocol, as the list shows it (GET omits remote_id_attribute).
	if got, want := protocolsOf(t, "e2e-fed-idp"), mustJSON(t, `[{"id":"openid","mapping_id":"e2e-fed-mapping","remote_id_attribute":"HTTP_OIDC_ISS"}]`); !jsonEqual(got, want) {
		t.Errorf("protocols: got %v, want %v", got, want)
	}

	// The markerless kinds keep their marker on the resource; the used resources carry the
	// Protocol's finalizer.
	for _, mg := range []client.Object{get(t, mapping), get(t, proto)} {
		if _, err := provenance.Parse(mg.GetAnnotations()[adoption.AnnotationMarker]); err != nil {
			t.Errorf("%s: marker annotation: %v", mg.GetName(), err)
		}
	}
	fin := usage.FinalizerName("Protocol", proto.Name)
	for _, mg := range []client.Object{get(t, idp), get(t, mapping)} {
		if !slices.Contains(mg.GetFinalizers(), fin) {
			t.Errorf("%s lacks finalizer %s: %v", mg.GetName(), fin, mg.GetFinalizers())
		}
	}
	if !slices.Contains(get(t, dom).GetFinalizers(), usage.FinalizerName("IdentityProvider", idp.Name)) {
		t.Errorf("Domain lacks the IdentityProvider's finalizer: %v", dom.GetFinalizers())
	}

	// At steady state nothing is written and nothing is read twice per poll.
	steadyState(t, []string{"/v3/OS-FEDERATION/", "/v3/domains/" + domainID}, map[string]int{
		"GET /v3/OS-FEDERATION/identity_providers/e2e-fed-idp":           1,
		"GET /v3/OS-FEDERATION/mappings/e2e-fed-mapping":                 1,
		"GET /v3/OS-FEDERATION/identity_providers/e2e-fed-idp/protocols": 1,
		"GET /v3/domains/" + domainID:                                    1,
	})

	// Editing a rule updates the mapping in place: one PATCH, no delete, no create.
	before := counter.snapshot()
	update(t, mapping, func(m *ksv1alpha1.Mapping) {
		r := &m.Spec.ForProvider.Rules[0]
		r.Remote[1].AnyOneOf = []string{issuer, "https://other.example.com"}
		r.Local[0].User.Email = ptr("{2}")
		r.Remote = append(r.Remote, ksv1alpha1.MappingRemote{Type: "HTTP_OIDC_EMAIL"})
	})
	wantRules = mustJSON(t, `[{"local":[{"user":{"name":"{0}","email":"{2}","type":"ephemeral"}},{"group":{"name":"federated-users","domain":{"name":"e2e-fed"}}}],
		"remote":[{"type":"HTTP_OIDC_PREFERRED_USERNAME"},{"type":"HTTP_OIDC_ISS","any_one_of":["`+issuer+`","https://other.example.com"]},{"type":"HTTP_OIDC_EMAIL"}]}]`)
	eventually(t, 30*time.Second, "the edited rules in Keystone", func() bool {
		return jsonEqual(jsonOf(t, keystone.raw(t, "OS-FEDERATION", "mappings", "e2e-fed-mapping"), "mapping", "rules"), wantRules)
	})
	after := counter.snapshot()
	d := delta(before, after)
	if d["PATCH /v3/OS-FEDERATION/mappings/e2e-fed-mapping"] != 1 || d["DELETE /v3/OS-FEDERATION/mappings/e2e-fed-mapping"] != 0 || d["PUT /v3/OS-FEDERATION/mappings/e2e-fed-mapping"] != 0 {
		t.Errorf("requests for the rule edit: %v", d)
	}

	// Delete everything, the used ones first: each waits for its users.
	deleteAll(t, dom, idp, mapping, proto)
	for _, p := range [][]string{{"OS-FEDERATION", "identity_providers", "e2e-fed-idp"}, {"OS-FEDERATION", "mappings", "e2e-fed-mapping"}, {"domains", domainID}} {
		if keystone.exists(t, p...) {
			t.Errorf("%v outlived its resource", p)
		}
	}
	if got := protocolsOf(t, "e2e-fed-idp"); len(got) != 0 {
		t.Errorf("protocols left: %v", got)
	}
	if a, b := keystoneIDs(t, "identity_providers", "identity_providers"), keystoneIDs(t, "mappings", "mappings"); !slices.Equal(a, idpsBefore) || !slices.Equal(b, mappingsBefore) {
		t.Errorf("Keystone's identity providers %v and mappings %v differ from before the test (%v, %v)", a, b, idpsBefore, mappingsBefore)
	}
}

// protocolsOf lists an identity provider's protocols as generic JSON, without links.
func protocolsOf(t *testing.T, idp string) []any {
	t.Helper()
	var l struct {
		Protocols []map[string]any `json:"protocols"`
	}
	if _, err := keystone.sc.Get(context.Background(), keystone.sc.ServiceURL("OS-FEDERATION", "identity_providers", idp, "protocols"), &l, nil); err != nil {
		t.Fatalf("cannot list protocols of %s: %v", idp, err)
	}
	out := make([]any, 0, len(l.Protocols))
	for _, p := range l.Protocols {
		delete(p, "links")
		delete(p, "idp_id")
		out = append(out, p)
	}
	return out
}

// The OIDC- and SAML-shaped examples (examples/keystone/federation) become Ready together, and
// `kubectl delete -f` of the directory, in file order (the domain first, then each identity
// provider before its mapping and protocol), leaves nothing in Keystone.
func TestFederationExamples(t *testing.T) {
	// Not parallel: it compares Keystone's whole lists of identity providers and mappings.
	idpsBefore, mappingsBefore := keystoneIDs(t, "identity_providers", "identity_providers"), keystoneIDs(t, "mappings", "mappings")
	objs := loadExamples(t, "keystone/federation")
	all := make([]client.Object, 0, len(objs))
	for _, u := range objs {
		all = append(all, u)
	}
	// Apply in reverse file order: protocols before what they use.
	rev := slices.Clone(all)
	slices.Reverse(rev)
	apply(t, rev...)
	cleanup(t, all...)
	for _, u := range objs {
		readyUnstructured(t, u)
	}
	if got := protocolsOf(t, "example-oidc"); !jsonEqual(got, mustJSON(t, `[{"id":"openid","mapping_id":"example-oidc","remote_id_attribute":"HTTP_OIDC_ISS"}]`)) {
		t.Errorf("example-oidc protocols: %v", got)
	}
	if got := protocolsOf(t, "example-saml"); !jsonEqual(got, mustJSON(t, `[{"id":"saml2","mapping_id":"example-saml","remote_id_attribute":"MELLON_IDP"}]`)) {
		t.Errorf("example-saml protocols: %v", got)
	}
	samlRules := mustJSON(t, `[{"local":[{"user":{"name":"{0}","type":"ephemeral"}},{"groups":"{1}","domain":{"name":"example-federated"}}],
		"remote":[{"type":"MELLON_NAME_ID"},{"type":"MELLON_groups","blacklist":["^internal-.*$"],"regex":true}]}]`)
	if got := jsonOf(t, keystone.raw(t, "OS-FEDERATION", "mappings", "example-saml"), "mapping", "rules"); !jsonEqual(got, samlRules) {
		t.Errorf("example-saml rules: %v", got)
	}
	deleteAll(t, all...)
	if a, b := keystoneIDs(t, "identity_providers", "identity_providers"), keystoneIDs(t, "mappings", "mappings"); !slices.Equal(a, idpsBefore) || !slices.Equal(b, mappingsBefore) {
		t.Errorf("Keystone's identity providers %v and mappings %v differ from before (%v, %v)", a, b, idpsBefore, mappingsBefore)
	}
	// The observed `member` role is Keystone's own: deleting its resource must leave it.
	var roles struct {
		Roles []map[string]any `json:"roles"`
	}
	if _, err := keystone.sc.Get(context.Background(), keystone.sc.ServiceURL("roles")+"?name=member", &roles, nil); err != nil || len(roles.Roles) != 1 {
		t.Errorf("Keystone's member role after deleting its observing resource: %v (err %v)", roles.Roles, err)
	}
}

// A hand-made identity provider with the same ID is never written under FailOnConflict: the
// resource reports AdoptionRequired and the object stays byte-identical; once it is gone the
// resource creates its own.
func TestFederationIdentityProviderConflict(t *testing.T) {
	t.Parallel()
	dom := newDomain("e2e-fed-conflict", "e2e-fed-conflict")
	create(t, dom)
	waitReady(t, dom)
	domainID := meta.GetExternalName(dom)
	keystone.put(t, []string{"OS-FEDERATION", "identity_providers", "e2e-fed-handmade"}, "identity_provider",
		map[string]any{"domain_id": domainID, "description": "tuned by hand", "remote_ids": []string{"https://handmade.example.com"}})
	t.Cleanup(func() { keystone.del(t, "OS-FEDERATION", "identity_providers", "e2e-fed-handmade") })
	before := keystone.raw(t, "OS-FEDERATION", "identity_providers", "e2e-fed-handmade")

	idp := newIdentityProvider("e2e-fed-handmade", "e2e-fed-handmade", "e2e-fed-conflict", func(o *ksv1alpha1.IdentityProvider) {
		o.Spec.ForProvider.Description = ptr("managed")
	})
	create(t, idp)
	eventually(t, 30*time.Second, "Ready=False with reason AdoptionRequired", func() bool {
		c := get(t, idp).GetCondition(xpv2.TypeReady)
		return c.Status == corev1.ConditionFalse && c.Reason == adoption.ReasonAdoptionRequired
	})
	msg := idp.GetCondition(xpv2.TypeReady).Message
	for _, want := range []string{"Keystone identity provider", `"e2e-fed-handmade"`, "spec.adoptionPolicy: AdoptExisting"} {
		if !strings.Contains(msg, want) {
			t.Errorf("AdoptionRequired message %q does not mention %s", msg, want)
		}
	}
	time.Sleep(3 * pollInterval)
	if after := keystone.raw(t, "OS-FEDERATION", "identity_providers", "e2e-fed-handmade"); !bytes.Equal(before, after) {
		t.Fatalf("the hand-made identity provider changed under FailOnConflict:\nbefore %s\nafter  %s", before, after)
	}

	keystone.del(t, "OS-FEDERATION", "identity_providers", "e2e-fed-handmade")
	waitReady(t, idp)
	if d := jsonOf(t, keystone.raw(t, "OS-FEDERATION", "identity_providers", "e2e-fed-handmade"), "identity_provider", "description").(string); !strings.HasPrefix(d, "managed\n[provider-identity: ") {
		t.Errorf("description of the provider's own identity provider: %q", d)
	}
}

// Under AdoptExisting a hand-made identity provider is adopted: the marker is stamped on its
// description's last line, the user's text stays when the spec leaves description unset.
func TestFederationIdentityProviderAdopt(t *testing.T) {
	t.Parallel()
	dom := newDomain("e2e-fed-adopt", "e2e-fed-adopt")
	create(t, dom)
	waitReady(t, dom)
	domainID := meta.GetExternalName(dom)
	keystone.put(t, []string{"OS-FEDERATION", "identity_providers", "e2e-fed-adopted"}, "identity_provider",
		map[string]any{"domain_id": domainID, "description": "written by hand", "enabled": false})
	t.Cleanup(func() { keystone.del(t, "OS-FEDERATION", "identity_providers", "e2e-fed-adopted") })

	idp := newIdentityProvider("e2e-fed-adopted", "e2e-fed-adopted", "e2e-fed-adopt", func(o *ksv1alpha1.IdentityProvider) {
		o.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting
	})
	create(t, idp)
	waitReady(t, idp)
	eventually(t, 30*time.Second, "provenance Adopted", func() bool {
		return get(t, idp).Status.AtProvider.Provenance == identityv1alpha1.Adopted
	})
	raw := keystone.raw(t, "OS-FEDERATION", "identity_providers", "e2e-fed-adopted")
	rest, m, found, err := provenance.ExtractFromText(jsonOf(t, raw, "identity_provider", "description").(string))
	if !found || err != nil || rest != "written by hand" || m.Origin != provenance.OriginAdopted {
		t.Errorf("adopted description: rest %q, marker %+v, found %v, %v", rest, m, found, err)
	}
	if jsonOf(t, raw, "identity_provider", "enabled") != true {
		t.Errorf("enabled not reconciled to the spec's default (true): %s", raw)
	}
}

// Mappings and protocols cannot carry a marker: a hand-made mapping with the same ID is a
// conflict, and so is the resource's own mapping once the resource was deleted with
// deletionPolicy Orphan and created again (ADR 0003); AdoptExisting takes it over.
func TestFederationMappingMarkerless(t *testing.T) {
	t.Parallel()
	rules := oidcRules("https://markerless.example.com")
	keystone.put(t, []string{"OS-FEDERATION", "mappings", "e2e-fed-handmade-map"}, "mapping", map[string]any{
		"rules": []any{map[string]any{"local": []any{map[string]any{"user": map[string]any{"name": "{0}"}}}, "remote": []any{map[string]any{"type": "REMOTE_USER"}}}},
	})
	t.Cleanup(func() { keystone.del(t, "OS-FEDERATION", "mappings", "e2e-fed-handmade-map") })
	before := keystone.raw(t, "OS-FEDERATION", "mappings", "e2e-fed-handmade-map")
	hand := newMapping("e2e-fed-handmade-map", "e2e-fed-handmade-map", rules)
	create(t, hand)
	eventually(t, 30*time.Second, "AdoptionRequired for the hand-made mapping", func() bool {
		return conditionReason(get(t, hand), xpv2.TypeReady) == string(adoption.ReasonAdoptionRequired)
	})
	time.Sleep(2 * pollInterval)
	if after := keystone.raw(t, "OS-FEDERATION", "mappings", "e2e-fed-handmade-map"); !bytes.Equal(before, after) {
		t.Fatalf("the hand-made mapping changed:\nbefore %s\nafter  %s", before, after)
	}

	// Its own mapping, orphaned and claimed again: no marker in Keystone proves it is ours.
	own := newMapping("e2e-fed-orphan", "e2e-fed-orphan", rules, func(o *ksv1alpha1.Mapping) { o.Spec.DeletionPolicy = xpv2.DeletionOrphan })
	apply(t, own)
	waitReady(t, own)
	t.Cleanup(func() { keystone.del(t, "OS-FEDERATION", "mappings", "e2e-fed-orphan") })
	deleteAll(t, own)
	if !keystone.exists(t, "OS-FEDERATION", "mappings", "e2e-fed-orphan") {
		t.Fatal("deletionPolicy Orphan deleted the mapping")
	}
	again := newMapping("e2e-fed-orphan", "e2e-fed-orphan", rules)
	create(t, again)
	eventually(t, 30*time.Second, "AdoptionRequired for the orphaned mapping", func() bool {
		return conditionReason(get(t, again), xpv2.TypeReady) == string(adoption.ReasonAdoptionRequired)
	})
	update(t, again, func(m *ksv1alpha1.Mapping) { m.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting })
	waitReady(t, again)
	eventually(t, 30*time.Second, "provenance Adopted with the marker annotation", func() bool {
		get(t, again)
		m, err := provenance.Parse(again.GetAnnotations()[adoption.AnnotationMarker])
		return again.Status.AtProvider.Provenance == identityv1alpha1.Adopted && err == nil && m.Origin == provenance.OriginAdopted
	})
}

// Deleting only a Mapping that a Protocol uses waits for the Protocol; a protocol made by hand
// (no resource, no finalizer) blocks the mapping's deletion too, with a message naming it.
func TestFederationMappingInUse(t *testing.T) {
	t.Parallel()
	dom := newDomain("e2e-fed-inuse", "e2e-fed-inuse")
	idp := newIdentityProvider("e2e-fed-inuse", "e2e-fed-inuse", "e2e-fed-inuse")
	mapping := newMapping("e2e-fed-inuse", "e2e-fed-inuse", oidcRules("https://inuse.example.com"))
	apply(t, dom, idp, mapping)
	cleanup(t, mapping, idp, dom)
	for _, mg := range []resource.Managed{dom, idp, mapping} {
		waitReady(t, mg)
	}
	keystone.put(t, []string{"OS-FEDERATION", "identity_providers", "e2e-fed-inuse", "protocols", "mapped"}, "protocol", map[string]any{"mapping_id": "e2e-fed-inuse"})
	if err := kube.Delete(context.Background(), mapping); err != nil {
		t.Fatal(err)
	}
	eventually(t, 30*time.Second, "a deletion error naming the hand-made protocol", func() bool {
		c := get(t, mapping).GetCondition(xpv2.TypeSynced)
		return c.Status == corev1.ConditionFalse && strings.Contains(c.Message, `protocol "mapped" of identity provider "e2e-fed-inuse"`)
	})
	if !keystone.exists(t, "OS-FEDERATION", "mappings", "e2e-fed-inuse") {
		t.Fatal("the mapping was deleted while a protocol used it")
	}
	keystone.del(t, "OS-FEDERATION", "identity_providers", "e2e-fed-inuse", "protocols", "mapped")
	waitGone(t, mapping)
	if keystone.exists(t, "OS-FEDERATION", "mappings", "e2e-fed-inuse") {
		t.Fatal("the mapping outlived its resource")
	}
}

// put creates an object by hand under a chosen ID (federation objects).
func (k *keystoneEnv) put(t *testing.T, path []string, singular string, body map[string]any) {
	t.Helper()
	if _, err := k.sc.Put(context.Background(), k.sc.ServiceURL(path...), map[string]any{singular: body}, nil, nil); err != nil {
		t.Fatalf("cannot create %v by hand: %v", path, err)
	}
}

// steadyState watches the provider's requests for a few polls: under the given path prefixes it
// must send no writes, and each listed request at most perPoll times per poll (plus one poll of
// jitter).
func steadyState(t *testing.T, prefixes []string, perPoll map[string]int) {
	t.Helper()
	time.Sleep(pollInterval)
	before := counter.snapshot()
	const polls = 4
	time.Sleep(polls * pollInterval)
	after := counter.snapshot()
	for k, n := range delta(before, after) {
		method, path, _ := strings.Cut(k, " ")
		if !slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(path, p) }) {
			continue
		}
		if method != "GET" {
			t.Errorf("write at steady state: %s x%d", k, n)
			continue
		}
		if limit, ok := perPoll[k]; ok && n > limit*(polls+1) {
			t.Errorf("%s x%d in %d polls, want at most %d per poll", k, n, polls, limit)
		}
	}
}
