//go:build e2e

package e2e

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	akv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
)

// A SAML application end to end: keys and mappings by name, and the IdP metadata in the
// connection Secret once an Application uses the provider.
func TestAuthentikSAMLApplicationMetadata(t *testing.T) {
	// Not parallel: akWritesTo matches an integer pk anywhere in a path, so writes to another
	// test's user with the same pk (users have their own sequence) would count.
	authentikAPI.noNewViolations(t)
	p := newAKSAML("ak-saml-wiki", "e2e-saml-wiki", func(p *akv1alpha1.SAMLProvider) {
		fp := &p.Spec.ForProvider
		fp.SigningKey = ptr("authentik Self-signed Certificate")
		fp.SPBinding = ptr("post")
		fp.Audience = ptr("https://e2e-saml-wiki.example.com")
		fp.PropertyMappings = []akv1alpha1.PropertyMappingSelector{
			{Managed: ptr("goauthentik.io/providers/saml/email")},
			{Name: ptr("authentik default SAML Mapping: Username")},
		}
		fp.NameIDMapping = &akv1alpha1.PropertyMappingSelector{Managed: ptr("goauthentik.io/providers/saml/email")}
		fp.SignatureAlgorithm = ptr("http://www.w3.org/2001/04/xmldsig-more#rsa-sha512")
		fp.AssertionValidNotOnOrAfter = ptr("minutes=10")
		fp.SessionValidNotOnOrAfter = ptr("hours=8")
		p.Spec.WriteConnectionSecretToReference = &xpv2.SecretReference{Namespace: "crossplane-system", Name: "ak-saml-wiki"}
	})
	create(t, p)
	waitReady(t, p)
	id := meta.GetExternalName(p)
	obj := authentikAPI.object(t, akSAML, id)
	if obj["sp_binding"] != "post" || obj["signing_kp"] == nil || obj["name_id_mapping"] == nil || len(obj["property_mappings"].([]any)) != 2 || obj["session_valid_not_on_or_after"] != "hours=8" {
		t.Errorf("SAML provider: %v", obj)
	}

	app := newAKApplication("ak-saml-wiki-app", "e2e-saml-wiki", func(a *akv1alpha1.Application) {
		a.Spec.ForProvider.SAMLProviderRef = &xpv2.Reference{Name: p.Name}
	})
	create(t, app)
	waitReady(t, app)
	eventually(t, 30*time.Second, "the IdP metadata in the connection Secret", func() bool {
		s := connectionSecret(t, "ak-saml-wiki")
		return strings.Contains(s["metadata"], "EntityDescriptor") && strings.Contains(s["metadata"], "X509Certificate") &&
			strings.Contains(s["metadata"], "/application/saml/e2e-saml-wiki/") && strings.HasSuffix(s["metadata_url"], "/providers/saml/"+id+"/metadata/?download")
	})
	if get(t, p).Status.AtProvider.EntityID == "" {
		eventually(t, 30*time.Second, "the entity ID in status", func() bool { return get(t, p).Status.AtProvider.EntityID != "" })
	}

	// In sync: no writes for some polls.
	before := counter.snapshot()
	time.Sleep(3 * pollInterval)
	after := counter.snapshot()
	if w := akWritesTo(delta(before, after), id, "e2e-saml-wiki"); len(w) != 0 {
		t.Fatalf("SAML provider or application in sync were written: %v", w)
	}

	updateWith(t, p, func() {
		p.Spec.ForProvider.ACSURL = "https://e2e-saml-wiki.example.com/saml/new-acs"
	})
	eventually(t, 30*time.Second, "the new ACS URL in authentik", func() bool {
		return authentikAPI.object(t, akSAML, id)["acs_url"] == "https://e2e-saml-wiki.example.com/saml/new-acs"
	})
}

// Case 3 for SAML providers: the hand-made provider stays byte-identical.
func TestAuthentikSAMLFailOnConflict(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	hand := authentikAPI.seed(t, akSAML, map[string]any{"name": "e2e-saml-hand", "acs_url": "https://hand.example.com/acs", "audience": "hand"})
	handID := akIntPK(hand)
	t.Cleanup(func() { authentikAPI.del(t, akSAML, handID) })
	before := authentikAPI.raw(t, akSAML, handID)
	p := newAKSAML("ak-saml-hand", "e2e-saml-hand")
	create(t, p)
	waitAdoptionRequired(t, p, "authentik SAML provider", `"e2e-saml-hand"`, "ID "+handID)
	time.Sleep(3 * pollInterval)
	if after := authentikAPI.raw(t, akSAML, handID); !bytes.Equal(before, after) {
		t.Fatalf("the hand-made SAML provider changed:\nbefore %s\nafter  %s", before, after)
	}
}

func TestAuthentikSAMLValidation(t *testing.T) {
	t.Parallel()
	akReject(t, newAKSAML("ak-saml-cel-logout", "x", func(p *akv1alpha1.SAMLProvider) {
		p.Spec.ForProvider.LogoutMethod = ptr("backchannel")
	}), "logoutMethod backchannel needs slsBinding: post")
	akReject(t, newAKSAML("ak-saml-cel-acs", "x", func(p *akv1alpha1.SAMLProvider) {
		p.Spec.ForProvider.ACSURL = "not-a-url"
	}), "spec.forProvider.acsUrl")
	akReject(t, newAKSAML("ak-saml-cel-digest", "x", func(p *akv1alpha1.SAMLProvider) {
		p.Spec.ForProvider.DigestAlgorithm = ptr("md5")
	}), "spec.forProvider.digestAlgorithm")
}
