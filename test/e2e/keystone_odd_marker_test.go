//go:build e2e

package e2e

import (
	"bytes"
	"testing"
	"time"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
)

// A marker attribute set by hand to a number or an object is no marker, not a decode error:
// a same-named domain or project carrying one is AdoptionRequired and never written, and a
// resource whose own object was given such a value by hand lets go of it when deleted,
// without touching it.
func TestKeystoneNonStringMarker(t *testing.T) {
	t.Parallel()
	domID := keystone.post(t, "domains", "domain", map[string]any{"name": "e2e-odd-marker", "crossplane_provenance": 5})
	t.Cleanup(func() { keystone.deleteDomain(t, domID) })
	projID := keystone.post(t, "projects", "project", map[string]any{"name": "odd", "domain_id": domID, "crossplane_provenance": map[string]any{"v": "v1"}})
	domBefore, projBefore := keystone.raw(t, "domains", domID), keystone.raw(t, "projects", projID)

	dom := newDomain("odd-marker-dom", "e2e-odd-marker")
	proj := newProject("odd-marker-proj", "odd", inDomain(domID))
	create(t, dom)
	create(t, proj)
	waitAdoptionRequired(t, dom, "Keystone domain", domID)
	waitAdoptionRequired(t, proj, "Keystone project", projID)
	time.Sleep(2 * pollInterval)
	if after := keystone.raw(t, "domains", domID); !bytes.Equal(domBefore, after) {
		t.Errorf("the hand-made domain changed:\nbefore %s\nafter  %s", domBefore, after)
	}
	if after := keystone.raw(t, "projects", projID); !bytes.Equal(projBefore, after) {
		t.Errorf("the hand-made project changed:\nbefore %s\nafter  %s", projBefore, after)
	}

	// Our own project, its marker replaced by a number by hand: no longer provably ours, so the
	// resource reports AdoptionRequired and its deletion leaves the project as it is.
	own := newProject("odd-marker-own", "own", inDomain(domID))
	create(t, own)
	waitReady(t, own)
	ownID := meta.GetExternalName(own)
	keystone.patch(t, "projects", "project", ownID, map[string]any{"crossplane_provenance": 5})
	ownBefore := keystone.raw(t, "projects", ownID)
	waitAdoptionRequired(t, own)
	deleteAll(t, own)
	if after := keystone.raw(t, "projects", ownID); !bytes.Equal(ownBefore, after) {
		t.Errorf("the deleted resource touched the project it could not prove its own:\nbefore %s\nafter  %s", ownBefore, after)
	}
	keystone.del(t, "projects", ownID)
}
