//go:build e2e

package e2e

import (
	"testing"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"

	akv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// Hole 9: a provider made by hand after someone deleted the one the resource had created is
// AdoptionRequired; adopted under AdoptExisting, it is Adopted (not Owned), and the resource's
// record (the annotation) says so, so a later deletion of the resource is judged on that.
func TestAuthentikOAuth2ReplacedProviderAdopted(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	p := newAKOAuth2("ak-oauth2-replaced", "e2e-oauth2-replaced")
	create(t, p)
	waitReady(t, p)
	old := meta.GetExternalName(p)
	authentikAPI.del(t, akOAuth2, old)
	hand := authentikAPI.seed(t, akOAuth2, map[string]any{"name": "e2e-oauth2-replaced", "client_id": "by-hand"})
	handID := akIntPK(hand)
	t.Cleanup(func() { authentikAPI.del(t, akOAuth2, handID) })
	waitAdoptionRequired(t, p, "ID "+handID, "spec.adoptionPolicy: AdoptExisting")

	update(t, p, func(p *akv1alpha1.OAuth2Provider) { p.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting })
	eventually(t, 60*time.Second, "the hand-made provider to be adopted", func() bool {
		get(t, p)
		return meta.GetExternalName(p) == handID && p.Status.AtProvider.ID == handID
	})
	waitReady(t, p)
	// Several polls: before the fix the first poll after the adoption said Adopted (the
	// engine's verdict) and every later one Owned (the stale annotation).
	time.Sleep(3 * pollInterval)
	if got := get(t, p).Status.AtProvider.Provenance; got != identityv1alpha1.Adopted {
		t.Errorf("provenance of the adopted provider %s: got %q, want %q", handID, got, identityv1alpha1.Adopted)
	}
	m, err := provenance.Parse(p.GetAnnotations()[adoption.AnnotationMarker])
	if err != nil || m.Origin != provenance.OriginAdopted {
		t.Errorf("marker on the resource: %+v, %v; want origin adopted", m, err)
	}
	if got := authentikAPI.object(t, akOAuth2, handID)["client_id"]; got != "by-hand" {
		t.Errorf("client_id of the adopted provider: got %v, want it kept", got)
	}
}
