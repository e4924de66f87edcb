//go:build e2e

package e2e

import (
	"bytes"
	"testing"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"

	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
)

// Odd attribute values never break decoding: a same-named group whose marker attribute is a
// number (and whose other attributes are objects and lists) is AdoptionRequired and left
// as it is, and a resource whose own group was given such a marker by hand lets go of it when
// deleted, without touching it.
func TestAuthentikGroupNonStringMarker(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	odd := map[string]any{authentik.MarkerAttribute: 5, "o": map[string]any{"a": []any{1, "y"}}, "l": []any{"x"}}
	hand := authentikAPI.seed(t, akGroups, map[string]any{"name": "e2e-ak-odd-marker", "attributes": odd})
	handID := hand["pk"].(string)
	t.Cleanup(func() { authentikAPI.del(t, akGroups, handID) })
	before := authentikAPI.raw(t, akGroups, handID)
	mg := newAKGroup("ak-odd-marker", "e2e-ak-odd-marker")
	create(t, mg)
	waitAdoptionRequired(t, mg, "authentik group", handID)
	if after := authentikAPI.raw(t, akGroups, handID); !bytes.Equal(before, after) {
		t.Errorf("the hand-made group changed:\nbefore %s\nafter  %s", before, after)
	}

	own := newAKGroup("ak-odd-marker-own", "e2e-ak-odd-marker-own")
	create(t, own)
	waitReady(t, own)
	ownID := meta.GetExternalName(own)
	t.Cleanup(func() { authentikAPI.del(t, akGroups, ownID) })
	authentikAPI.patch(t, akGroups, ownID, map[string]any{"attributes": map[string]any{authentik.MarkerAttribute: map[string]any{"v": "v1"}, "l": []any{1}}})
	ownBefore := authentikAPI.raw(t, akGroups, ownID)
	waitAdoptionRequired(t, own, "authentik group", ownID)
	deleteAll(t, own)
	if after := authentikAPI.raw(t, akGroups, ownID); !bytes.Equal(ownBefore, after) {
		t.Errorf("the deleted resource touched the group it could not prove its own:\nbefore %s\nafter  %s", ownBefore, after)
	}
}
