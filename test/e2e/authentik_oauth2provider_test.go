//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	akv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// An OAuth2 application end to end: the provider creates the OAuth2 provider with working
// grant types and scope mappings, an Application uses it by reference, and the client ID,
// generated client secret, issuer and OpenID configuration URLs land in the connection Secret.
// Spec changes are PATCHed; deleting the resources deletes both objects.
func TestAuthentikOAuth2ApplicationConnectionSecret(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	p := newAKOAuth2("ak-oauth2-grafana", "e2e-oauth2-grafana", func(p *akv1alpha1.OAuth2Provider) {
		p.Spec.WriteConnectionSecretToReference = &xpv2.SecretReference{Namespace: "crossplane-system", Name: "ak-oauth2-grafana"}
		p.Spec.ForProvider.SigningKey = ptr("authentik Self-signed Certificate")
	})
	create(t, p)
	app := newAKApplication("ak-oauth2-grafana-app", "e2e-oauth2-grafana", func(a *akv1alpha1.Application) {
		a.Spec.ForProvider.OAuth2ProviderRef = &xpv2.Reference{Name: p.Name}
	})
	create(t, app)
	waitReady(t, p)
	waitReady(t, app)

	id := meta.GetExternalName(p)
	obj := authentikAPI.object(t, akOAuth2, id)
	if fmt.Sprint(obj["grant_types"]) != "[authorization_code refresh_token]" || len(obj["property_mappings"].([]any)) != 3 || obj["signing_key"] == nil {
		t.Errorf("a new OAuth2 provider must be able to sign users in: grant_types %v, property_mappings %v, signing_key %v", obj["grant_types"], obj["property_mappings"], obj["signing_key"])
	}
	if a := authentikAPI.object(t, akApps, "e2e-oauth2-grafana"); fmt.Sprint(a["provider"]) != fmt.Sprint(obj["pk"]) {
		t.Errorf("application provider: got %v, want %v", a["provider"], obj["pk"])
	}
	if get(t, app).Spec.ForProvider.OAuth2ProviderID == nil || *app.Spec.ForProvider.OAuth2ProviderID != id {
		t.Errorf("oauth2ProviderId not resolved from the reference: %v", app.Spec.ForProvider.OAuth2ProviderID)
	}

	want := map[string]string{
		"client_id":      obj["client_id"].(string),
		"client_secret":  obj["client_secret"].(string),
		"issuer_url":     authentikAPI.url + "/application/o/e2e-oauth2-grafana/",
		"well_known_url": authentikAPI.url + "/application/o/e2e-oauth2-grafana/.well-known/openid-configuration",
	}
	eventually(t, 30*time.Second, "client ID, secret, issuer and well-known URL in the connection Secret", func() bool {
		got := connectionSecret(t, "ak-oauth2-grafana")
		for k, v := range want {
			if got[k] != v {
				return false
			}
		}
		return true
	})
	if len(want["client_secret"]) != 128 {
		t.Errorf("generated client secret has %d characters", len(want["client_secret"]))
	}
	if strings.Contains(fmt.Sprintf("%+v", get(t, p).Status), want["client_secret"]) {
		t.Errorf("the client secret appears in the resource's status")
	}

	updateWith(t, p, func() {
		p.Spec.ForProvider.AccessTokenValidity = ptr("minutes=15")
		p.Spec.ForProvider.RedirectURIs = append(p.Spec.ForProvider.RedirectURIs, akv1alpha1.RedirectURI{URL: "https://.*\\.grafana\\.example\\.com/cb", MatchingMode: "regex"})
	})
	eventually(t, 30*time.Second, "the change to reach authentik", func() bool {
		o := authentikAPI.object(t, akOAuth2, id)
		return o["access_token_validity"] == "minutes=15" && len(o["redirect_uris"].([]any)) == 2
	})
	if o := authentikAPI.object(t, akOAuth2, id); o["client_secret"] != want["client_secret"] || o["client_id"] != want["client_id"] {
		t.Errorf("an update changed the client ID or the generated secret")
	}

	for _, mg := range []client.Object{app, p} {
		if err := kube.Delete(context.Background(), mg); err != nil {
			t.Fatal(err)
		}
		waitGone(t, mg)
	}
	if authentikAPI.exists(t, akApps, "e2e-oauth2-grafana") || authentikAPI.exists(t, akOAuth2, id) {
		t.Fatalf("application or provider still exists after their resources were deleted")
	}
}

// A client secret from a Secret is written to authentik and published; rotating the Secret
// rotates the provider's secret.
func TestAuthentikOAuth2ClientSecretFromSecret(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	sec := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "crossplane-system", Name: "ak-oauth2-wiki-input"}, StringData: map[string]string{"secret": "chosen-secret-1"}}
	create(t, sec)
	p := newAKOAuth2("ak-oauth2-wiki", "e2e-oauth2-wiki", func(p *akv1alpha1.OAuth2Provider) {
		p.Spec.ForProvider.ClientID = ptr("wiki")
		p.Spec.ForProvider.ClientSecretSecretRef = &identityv1alpha1.SecretKeySelector{SecretReference: identityv1alpha1.SecretReference{Namespace: "crossplane-system", Name: sec.Name}, Key: "secret"}
		p.Spec.WriteConnectionSecretToReference = &xpv2.SecretReference{Namespace: "crossplane-system", Name: "ak-oauth2-wiki"}
	})
	create(t, p)
	waitReady(t, p)
	id := meta.GetExternalName(p)
	if o := authentikAPI.object(t, akOAuth2, id); o["client_secret"] != "chosen-secret-1" || o["client_id"] != "wiki" {
		t.Fatalf("client ID/secret in authentik: %v/%v", o["client_id"], o["client_secret"] == "chosen-secret-1")
	}
	eventually(t, 30*time.Second, "the chosen secret in the connection Secret", func() bool {
		return connectionSecret(t, "ak-oauth2-wiki")["client_secret"] == "chosen-secret-1"
	})

	sec.Data = map[string][]byte{"secret": []byte("chosen-secret-2")}
	sec.StringData = nil
	if err := kube.Update(context.Background(), sec); err != nil {
		t.Fatal(err)
	}
	eventually(t, 30*time.Second, "the rotated secret in authentik and in the connection Secret", func() bool {
		return authentikAPI.object(t, akOAuth2, id)["client_secret"] == "chosen-secret-2" && connectionSecret(t, "ak-oauth2-wiki")["client_secret"] == "chosen-secret-2"
	})
	for _, e := range events(t, get(t, p)) {
		if strings.Contains(e.Message, "chosen-secret") {
			t.Errorf("an event shows the client secret: %s", e.Message)
		}
	}
}

// An OAuth2 provider in sync is never written (the Terraform provider's PUT on every run broke
// production logins): over several polls, the provider sends no write for any of them.
func TestAuthentikOAuth2SteadyStateNoWrites(t *testing.T) {
	// Not parallel: akWritesTo matches an integer pk anywhere in a path, so writes to another
	// test's user with the same pk (users have their own sequence) would count.
	authentikAPI.noNewViolations(t)
	const n = 3
	ps := make([]*akv1alpha1.OAuth2Provider, n)
	for i := range ps {
		ps[i] = newAKOAuth2(fmt.Sprintf("ak-oauth2-steady-%d", i), fmt.Sprintf("e2e-oauth2-steady-%d", i), func(p *akv1alpha1.OAuth2Provider) {
			fp := &p.Spec.ForProvider
			fp.GrantTypes = []string{"refresh_token", "authorization_code"}
			fp.PropertyMappings = []akv1alpha1.PropertyMappingSelector{{Managed: ptr("goauthentik.io/providers/oauth2/scope-openid")}, {Managed: ptr("goauthentik.io/providers/oauth2/scope-email")}}
			fp.SigningKey = ptr("authentik Self-signed Certificate")
			fp.AccessTokenValidity = ptr("minutes=5")
			fp.SubMode = ptr("user_email")
			p.Spec.WriteConnectionSecretToReference = &xpv2.SecretReference{Namespace: "crossplane-system", Name: p.Name}
		})
	}
	createAll(t, ps...)
	ids := make([]string, 0, len(ps))
	for _, p := range ps {
		waitReady(t, p)
		ids = append(ids, meta.GetExternalName(p))
	}
	time.Sleep(pollInterval) // let the reconciles that follow the creates settle
	before := counter.snapshot()
	window := 5 * pollInterval
	time.Sleep(window)
	after := counter.snapshot()
	d := delta(before, after)
	if w := akWritesTo(d, ids...); len(w) != 0 {
		t.Fatalf("OAuth2 providers in sync were written: %v", w)
	}
	polls := int(window / pollInterval)
	for _, id := range ids {
		got := d["GET /api/v3/providers/oauth2/"+id+"/"]
		if got < polls-1 || got > polls+1 {
			t.Errorf("provider %s: %d GETs in %s, want about %d (one per poll)", id, got, window, polls)
		}
	}
}

// Case 3: a hand-made OAuth2 provider with the same name is never written under
// FailOnConflict; the resource proceeds once it is gone.
func TestAuthentikOAuth2FailOnConflict(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	hand := authentikAPI.seed(t, akOAuth2, map[string]any{"name": "e2e-oauth2-hand", "client_id": "hand-made", "grant_types": []string{"implicit"}})
	handID := akIntPK(hand)
	before := authentikAPI.raw(t, akOAuth2, handID)

	p := newAKOAuth2("ak-oauth2-hand", "e2e-oauth2-hand")
	create(t, p)
	waitAdoptionRequired(t, p, "authentik OAuth2 provider", `"e2e-oauth2-hand"`, "ID "+handID, "spec.adoptionPolicy: AdoptExisting")
	eventually(t, 30*time.Second, "a Warning event", func() bool { return hasEvent(t, p, corev1.EventTypeWarning, "CannotObserveExternalResource") })
	if meta.GetExternalName(p) != "" {
		t.Errorf("external name bound to a hand-made provider: %q", meta.GetExternalName(p))
	}
	time.Sleep(3 * pollInterval)
	if after := authentikAPI.raw(t, akOAuth2, handID); !bytes.Equal(before, after) {
		t.Fatalf("the hand-made provider changed under FailOnConflict:\nbefore %s\nafter  %s", before, after)
	}

	authentikAPI.del(t, akOAuth2, handID)
	waitReady(t, get(t, p))
	if id := meta.GetExternalName(p); id == "" || id == handID {
		t.Fatalf("expected a new provider after the conflict cleared, got %q", id)
	}
}

// Case 4: a provider used by an application another installation manages is that
// installation's: not adopted even under AdoptExisting, and named in the condition.
func TestAuthentikOAuth2ForeignInstallation(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	hand := authentikAPI.seed(t, akOAuth2, map[string]any{"name": "e2e-oauth2-foreign"})
	handID := akIntPK(hand)
	foreign := provenance.Marker{Installation: "other-cluster", Resource: "Application.authentik.identity.crossplane.io/x", Origin: provenance.OriginCreated}
	authentikAPI.seed(t, akApps, map[string]any{"name": "Foreign", "slug": "e2e-oauth2-foreign", "provider": hand["pk"], "meta_description": provenance.EmbedInText("theirs", foreign)})
	t.Cleanup(func() {
		authentikAPI.del(t, akApps, "e2e-oauth2-foreign")
		authentikAPI.del(t, akOAuth2, handID)
	})
	before := authentikAPI.raw(t, akOAuth2, handID)

	p := newAKOAuth2("ak-oauth2-foreign", "e2e-oauth2-foreign", func(p *akv1alpha1.OAuth2Provider) { p.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting })
	create(t, p)
	waitAdoptionRequired(t, p, `"other-cluster"`, handID)
	time.Sleep(2 * pollInterval)
	if after := authentikAPI.raw(t, akOAuth2, handID); !bytes.Equal(before, after) {
		t.Fatalf("another installation's provider changed:\nbefore %s\nafter  %s", before, after)
	}
}

// Case 5: AdoptExisting takes a hand-made provider over: the marker is kept on the resource
// (providers have no field for it), the fields are reconciled and the adoption is recorded.
func TestAuthentikOAuth2AdoptExisting(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	hand := authentikAPI.seed(t, akOAuth2, map[string]any{"name": "e2e-oauth2-adopt", "access_token_validity": "hours=9", "client_id": "kept"})
	handID := akIntPK(hand)
	p := newAKOAuth2("ak-oauth2-adopt", "e2e-oauth2-adopt", func(p *akv1alpha1.OAuth2Provider) {
		p.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting
		p.Spec.ForProvider.AccessTokenValidity = ptr("hours=1")
	})
	create(t, p)
	waitReady(t, p)
	eventually(t, 30*time.Second, "provenance Adopted", func() bool { return get(t, p).Status.AtProvider.Provenance == identityv1alpha1.Adopted })
	if meta.GetExternalName(p) != handID {
		t.Fatalf("external name %q, want the adopted provider %s", meta.GetExternalName(p), handID)
	}
	o := authentikAPI.object(t, akOAuth2, handID)
	if o["access_token_validity"] != "hours=1" || o["client_id"] != "kept" {
		t.Errorf("adopted provider: access_token_validity %v, client_id %v", o["access_token_validity"], o["client_id"])
	}
	m, err := provenance.Parse(p.GetAnnotations()[adoption.AnnotationMarker])
	if err != nil || m.Origin != provenance.OriginAdopted || m.Installation != installationID {
		t.Errorf("marker on the resource: %+v, %v", m, err)
	}
	if !eventRecorded(t, p, "AdoptedExternalResource") {
		t.Errorf("no AdoptedExternalResource event")
	}
}

func TestAuthentikOAuth2Validation(t *testing.T) {
	t.Parallel()
	akReject(t, newAKOAuth2("ak-oauth2-cel-public", "x", func(p *akv1alpha1.OAuth2Provider) {
		p.Spec.ForProvider.ClientType = ptr("public")
		p.Spec.ForProvider.ClientSecretSecretRef = &identityv1alpha1.SecretKeySelector{SecretReference: identityv1alpha1.SecretReference{Namespace: "crossplane-system", Name: "s"}, Key: "k"}
	}), "clientSecretSecretRef is only used by confidential clients")
	akReject(t, newAKOAuth2("ak-oauth2-cel-mapping", "x", func(p *akv1alpha1.OAuth2Provider) {
		p.Spec.ForProvider.PropertyMappings = []akv1alpha1.PropertyMappingSelector{{Name: ptr("a"), Managed: ptr("b")}}
	}), "set exactly one of name and managed")
	akReject(t, newAKOAuth2("ak-oauth2-cel-mapping-none", "x", func(p *akv1alpha1.OAuth2Provider) {
		p.Spec.ForProvider.PropertyMappings = []akv1alpha1.PropertyMappingSelector{{}}
	}), "set exactly one of name and managed")
	akReject(t, newAKOAuth2("ak-oauth2-cel-duration", "x", func(p *akv1alpha1.OAuth2Provider) {
		p.Spec.ForProvider.AccessTokenValidity = ptr("1h")
	}), "spec.forProvider.accessTokenValidity")
	akReject(t, newAKOAuth2("ak-oauth2-cel-grant", "x", func(p *akv1alpha1.OAuth2Provider) {
		p.Spec.ForProvider.GrantTypes = []string{"magic"}
	}), "spec.forProvider.grantTypes[0]")
	akReject(t, newAKOAuth2("ak-oauth2-cel-flow", "x", func(p *akv1alpha1.OAuth2Provider) {
		p.Spec.ForProvider.AuthorizationFlow = ""
	}), "spec.forProvider.authorizationFlow")
}

// A missing flow stops the reconcile with a condition that names it; nothing is created.
func TestAuthentikOAuth2MissingFlow(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	p := newAKOAuth2("ak-oauth2-noflow", "e2e-oauth2-noflow", func(p *akv1alpha1.OAuth2Provider) {
		p.Spec.ForProvider.AuthorizationFlow = "e2e-no-such-flow"
	})
	create(t, p)
	eventually(t, 30*time.Second, "Synced=False naming the missing flow", func() bool {
		c := condition(get(t, p), xpv2.TypeSynced)
		return c.Status == corev1.ConditionFalse && strings.Contains(c.Message, `flow "e2e-no-such-flow", named in spec.forProvider.authorizationFlow, does not exist in authentik`)
	})
	if l := providersNamed(t, akOAuth2, "e2e-oauth2-noflow"); len(l) != 0 {
		t.Fatalf("a provider was created despite the missing flow: %v", l)
	}
}
