//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	extv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	akv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

const akGroups = "core/groups"

func newAKGroup(name, akName string, mutate ...func(*akv1alpha1.Group)) *akv1alpha1.Group {
	g := &akv1alpha1.Group{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: akv1alpha1.GroupSpec{
			ClusterManagedResourceSpec: xpv2.ClusterManagedResourceSpec{ProviderConfigReference: &xpv2.Reference{Name: "authentik"}},
			ForProvider:                akv1alpha1.GroupParameters{Name: akName, Attributes: jsonAttrs("made-by", `"`+name+`"`)},
		},
	}
	for _, m := range mutate {
		m(g)
	}
	return g
}

// jsonAttrs are attributes from pairs of a key and its value as JSON.
func jsonAttrs(kv ...string) akv1alpha1.Attributes {
	a := akv1alpha1.Attributes{}
	for i := 0; i+1 < len(kv); i += 2 {
		a[kv[i]] = extv1.JSON{Raw: []byte(kv[i+1])}
	}
	if len(kv)%2 != 0 {
		panic("jsonAttrs: a key without a value: " + kv[len(kv)-1])
	}
	return a
}

func akMarker(installation, resource string) string {
	return provenance.Marker{Installation: installation, Resource: resource, Origin: provenance.OriginCreated}.Encode()
}

func akAttributes(obj map[string]any) map[string]any {
	a, _ := obj["attributes"].(map[string]any)
	return a
}

// groupsNamed lists the authentik groups with exactly this name.
func groupsNamed(t *testing.T, name string) []map[string]any {
	t.Helper()
	return authentikAPI.list(t, akGroups, url.Values{"name": {name}, "include_users": {"false"}})
}

// A group the provider creates carries its marker among its attributes, follows spec changes
// (parents by reference, roles by name), has drift of managed keys undone while keys set by
// others stay, and is deleted with the resource.
func TestAuthentikGroupLifecycle(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	role := authentikAPI.seed(t, "rbac/roles", map[string]any{"name": "e2e-ak-viewer"})
	t.Cleanup(func() { authentikAPI.del(t, "rbac/roles", role["pk"].(string)) })

	parent := newAKGroup("ak-parent", "e2e-ak-parent")
	create(t, parent)
	mg := newAKGroup("ak-lifecycle", "e2e-ak-lifecycle", func(g *akv1alpha1.Group) {
		g.Spec.ForProvider.IsSuperuser = ptr(false)
		g.Spec.ForProvider.Attributes = jsonAttrs("team", `"sre"`, "oncall", `{"rota": [1, 2]}`)
	})
	create(t, mg)
	waitReady(t, mg)

	id := meta.GetExternalName(mg)
	obj := authentikAPI.object(t, akGroups, id)
	if obj["name"] != "e2e-ak-lifecycle" || obj["is_superuser"] != false {
		t.Fatalf("authentik group: got %v", obj)
	}
	if a := akAttributes(obj); a["team"] != "sre" || fmt.Sprint(a["oncall"]) != "map[rota:[1 2]]" {
		t.Errorf("attributes: got %v", a)
	}
	if m := akMarkerOf(t, obj); m.Installation != installationID || m.Resource != "Group.authentik.identity.crossplane.io/ak-lifecycle" || m.Origin != provenance.OriginCreated {
		t.Errorf("marker: got %+v", m)
	}
	if p := mg.Status.AtProvider.Provenance; p != identityv1alpha1.Owned || mg.Status.AtProvider.ID != id {
		t.Errorf("status.atProvider: got %+v", mg.Status.AtProvider)
	}

	// Spec changes: a parent by reference, a role by name, an attribute value.
	waitReady(t, parent)
	updateWith(t, mg, func() {
		mg.Spec.ForProvider.ParentRefs = []xpv2.Reference{{Name: parent.Name}}
		mg.Spec.ForProvider.Roles = []string{"e2e-ak-viewer"}
		mg.Spec.ForProvider.Attributes["team"] = extv1.JSON{Raw: []byte(`"platform"`)}
	})
	eventually(t, 30*time.Second, "parent, role and attribute to reach authentik", func() bool {
		o := authentikAPI.object(t, akGroups, id)
		return fmt.Sprint(o["parents"]) == fmt.Sprint([]any{meta.GetExternalName(parent)}) &&
			fmt.Sprint(o["roles"]) == fmt.Sprint([]any{role["pk"]}) && akAttributes(o)["team"] == "platform"
	})

	// Drift of a managed key is undone; a key someone else added is kept.
	authentikAPI.patch(t, akGroups, id, map[string]any{"attributes": map[string]any{
		"team": "hijacked", "added-by-hand": true, authentik.MarkerAttribute: akAttributes(authentikAPI.object(t, akGroups, id))[authentik.MarkerAttribute],
	}})
	eventually(t, 30*time.Second, "the drifted attribute to be restored", func() bool {
		a := akAttributes(authentikAPI.object(t, akGroups, id))
		return a["team"] == "platform" && a["added-by-hand"] == true && a["made-by"] == nil && fmt.Sprint(a["oncall"]) == "map[rota:[1 2]]"
	})

	if err := kube.Delete(context.Background(), mg); err != nil {
		t.Fatal(err)
	}
	waitGone(t, mg)
	if authentikAPI.exists(t, akGroups, id) {
		t.Fatalf("group %s still exists after its resource was deleted with deletionPolicy Delete", id)
	}
}

// Case 3: a same-named group made by hand is never written under FailOnConflict (every byte
// of it stays); the resource says AdoptionRequired and proceeds by itself once the hand-made
// group is gone.
func TestAuthentikGroupFailOnConflict(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	hand := authentikAPI.seed(t, akGroups, map[string]any{"name": "e2e-ak-handmade", "attributes": map[string]any{"owner": "alice"}})
	handID := hand["pk"].(string)
	before := authentikAPI.raw(t, akGroups, handID)

	mg := newAKGroup("ak-conflict", "e2e-ak-handmade")
	create(t, mg)
	eventually(t, 30*time.Second, "Ready=False with reason AdoptionRequired", func() bool {
		c := condition(get(t, mg), xpv2.TypeReady)
		return c.Status == corev1.ConditionFalse && c.Reason == "AdoptionRequired"
	})
	msg := condition(mg, xpv2.TypeReady).Message
	for _, want := range []string{"authentik group", `"e2e-ak-handmade"`, handID, "spec.adoptionPolicy: AdoptExisting", `spec.managementPolicies: ["Observe"]`} {
		if !strings.Contains(msg, want) {
			t.Errorf("AdoptionRequired message %q does not mention %s", msg, want)
		}
	}
	if s := condition(mg, xpv2.TypeSynced); s.Status != corev1.ConditionFalse {
		t.Errorf("Synced: got %s, want False", s.Status)
	}
	if meta.GetExternalName(mg) != "" {
		t.Errorf("external name was bound to a foreign group: %q", meta.GetExternalName(mg))
	}
	eventually(t, 30*time.Second, "a Warning event", func() bool { return hasEvent(t, mg, corev1.EventTypeWarning, "CannotObserveExternalResource") })

	time.Sleep(3 * pollInterval)
	if after := authentikAPI.raw(t, akGroups, handID); !bytes.Equal(before, after) {
		t.Fatalf("the hand-made group changed under FailOnConflict:\nbefore %s\nafter  %s", before, after)
	}

	authentikAPI.del(t, akGroups, handID)
	waitReady(t, get(t, mg))
	if id := meta.GetExternalName(mg); id == "" || id == handID {
		t.Fatalf("expected a new group after the conflict cleared, got external name %q", id)
	}
}

// Case 4: another installation's marker is a conflict even under AdoptExisting.
func TestAuthentikGroupForeignInstallation(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	hand := authentikAPI.seed(t, akGroups, map[string]any{"name": "e2e-ak-foreign", "attributes": map[string]any{
		authentik.MarkerAttribute: akMarker("other-cluster", "Group.authentik.identity.crossplane.io/ak-foreign"),
	}})
	handID := hand["pk"].(string)
	t.Cleanup(func() { authentikAPI.del(t, akGroups, handID) })
	before := authentikAPI.raw(t, akGroups, handID)

	mg := newAKGroup("ak-foreign", "e2e-ak-foreign", func(g *akv1alpha1.Group) { g.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting })
	create(t, mg)
	eventually(t, 30*time.Second, "AdoptionRequired naming the other installation", func() bool {
		c := condition(get(t, mg), xpv2.TypeReady)
		return c.Reason == "AdoptionRequired" && strings.Contains(c.Message, `"other-cluster"`) && strings.Contains(c.Message, handID)
	})
	time.Sleep(2 * pollInterval)
	if after := authentikAPI.raw(t, akGroups, handID); !bytes.Equal(before, after) {
		t.Fatalf("a group of another installation changed:\nbefore %s\nafter  %s", before, after)
	}
}

// Case 5: AdoptExisting stamps the marker, reconciles the managed fields, keeps every other
// attribute and records the adoption.
func TestAuthentikGroupAdoptExisting(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	hand := authentikAPI.seed(t, akGroups, map[string]any{"name": "e2e-ak-adopt", "is_superuser": true, "attributes": map[string]any{"owner": "alice", "team": "old"}})
	handID := hand["pk"].(string)
	mg := newAKGroup("ak-adopt", "e2e-ak-adopt", func(g *akv1alpha1.Group) {
		g.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting
		g.Spec.ForProvider.IsSuperuser = ptr(false)
		g.Spec.ForProvider.Attributes = jsonAttrs("team", `"platform"`)
	})
	create(t, mg)
	waitReady(t, mg)
	eventually(t, 30*time.Second, "provenance Adopted", func() bool {
		return get(t, mg).Status.AtProvider.Provenance == identityv1alpha1.Adopted
	})
	if got := meta.GetExternalName(mg); got != handID {
		t.Fatalf("external name: got %q, want the adopted group %q", got, handID)
	}
	obj := authentikAPI.object(t, akGroups, handID)
	if a := akAttributes(obj); obj["is_superuser"] != false || a["team"] != "platform" || a["owner"] != "alice" {
		t.Errorf("adopted group not reconciled to the spec (or lost others' attributes): %v", obj)
	}
	if m := akMarkerOf(t, obj); m.Origin != provenance.OriginAdopted || m.Installation != installationID || m.Resource != "Group.authentik.identity.crossplane.io/ak-adopt" {
		t.Errorf("adoption marker: got %+v", m)
	}
	if !eventRecorded(t, mg, "AdoptedExternalResource") {
		t.Errorf("no AdoptedExternalResource event")
	}
}

// Cases 1 and 2: a resource deleted with deletionPolicy Orphan and created again recognises
// its own group by the marker and manages it, under FailOnConflict.
func TestAuthentikGroupRecreatedResource(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	mg := newAKGroup("ak-recreated", "e2e-ak-recreated", func(g *akv1alpha1.Group) { g.Spec.DeletionPolicy = xpv2.DeletionOrphan })
	if err := kube.Create(context.Background(), mg); err != nil {
		t.Fatal(err)
	}
	waitReady(t, mg)
	id := meta.GetExternalName(mg)
	t.Cleanup(func() { authentikAPI.del(t, akGroups, id) })
	if err := kube.Delete(context.Background(), mg); err != nil {
		t.Fatal(err)
	}
	waitGone(t, mg)
	if !authentikAPI.exists(t, akGroups, id) {
		t.Fatalf("deletionPolicy Orphan deleted the group")
	}

	again := newAKGroup("ak-recreated", "e2e-ak-recreated", func(g *akv1alpha1.Group) {
		g.Spec.ForProvider.Attributes = jsonAttrs("life", `"second"`)
	})
	create(t, again)
	waitReady(t, again)
	if got := meta.GetExternalName(again); got != id {
		t.Fatalf("recreated resource bound %q, want its own group %q", got, id)
	}
	if p := again.Status.AtProvider.Provenance; p != identityv1alpha1.Owned {
		t.Errorf("provenance: got %q, want Owned", p)
	}
	eventually(t, 30*time.Second, "the update to reach authentik", func() bool {
		return akAttributes(authentikAPI.object(t, akGroups, id))["life"] == "second"
	})
	if !eventRecorded(t, again, "RecoveredExternalResource") {
		t.Errorf("no RecoveredExternalResource event")
	}
	if n := len(groupsNamed(t, "e2e-ak-recreated")); n != 1 {
		t.Errorf("%d groups named e2e-ak-recreated, want 1", n)
	}
}

// managementPolicies [Observe] reads an existing group, never writes it and never deletes it.
func TestAuthentikGroupObserveOnly(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	hand := authentikAPI.seed(t, akGroups, map[string]any{"name": "e2e-ak-observed", "is_superuser": true, "attributes": map[string]any{"owner": "alice"}})
	handID := hand["pk"].(string)
	t.Cleanup(func() { authentikAPI.del(t, akGroups, handID) })
	before := authentikAPI.raw(t, akGroups, handID)

	mg := newAKGroup("ak-observed", "e2e-ak-observed", func(g *akv1alpha1.Group) {
		g.Spec.ManagementPolicies = xpv2.ManagementPolicies{xpv2.ManagementActionObserve}
	})
	create(t, mg)
	waitReady(t, mg)
	if got := mg.Status.AtProvider; got.Provenance != identityv1alpha1.Observed || got.ID != handID || !got.IsSuperuser || got.Name != "e2e-ak-observed" {
		t.Fatalf("status.atProvider: got %+v", got)
	}
	time.Sleep(2 * pollInterval)
	if after := authentikAPI.raw(t, akGroups, handID); !bytes.Equal(before, after) {
		t.Fatalf("an observed group was written:\nbefore %s\nafter  %s", before, after)
	}
	if err := kube.Delete(context.Background(), mg); err != nil {
		t.Fatal(err)
	}
	waitGone(t, mg)
	if !authentikAPI.exists(t, akGroups, handID) {
		t.Fatal("an observed group was deleted")
	}
}

// At steady state the groups cost at most one read each per poll (their own GET, or their share
// of a shared list of all groups, which answers several) and nothing else: no write.
func TestAuthentikGroupSteadyStateRequests(t *testing.T) {
	// Not parallel: it checks every write to authentik at steady state, other tests' too.
	authentikAPI.noNewViolations(t)
	const n = 4
	mgs := make([]*akv1alpha1.Group, n)
	for i := range mgs {
		mgs[i] = newAKGroup(fmt.Sprintf("ak-steady-%d", i), fmt.Sprintf("e2e-ak-steady-%d", i))
	}
	createAll(t, mgs...)
	paths := make([]string, 0, len(mgs))
	for _, mg := range mgs {
		waitReady(t, mg)
		paths = append(paths, "GET /api/v3/core/groups/"+meta.GetExternalName(mg)+"/")
	}
	time.Sleep(pollInterval) // let in-flight reconciles of the creates settle
	before := counter.snapshot()
	window := 5 * pollInterval
	time.Sleep(window)
	after := counter.snapshot()
	d := delta(before, after)
	polls := int(window / pollInterval)
	reads := 0
	for _, p := range paths {
		reads += d[p]
		delete(d, p)
	}
	for k, v := range d {
		if k == "GET /api/v3/core/groups/" { // the counter keys a request by its path: a list page
			reads += v
			delete(d, k)
		}
	}
	// Reads are shared (a list answers for SharedReads.Fresh): allow one poll of jitter.
	if reads == 0 || reads > n*(polls+1) {
		t.Errorf("%d reads of groups (single or listed) in %s, want between 1 and %d", reads, window, n*(polls+1))
	}
	if w := authentikWrites(d); len(w) != 0 {
		t.Errorf("writes to authentik at steady state: %v", w)
	}
}

// A failing authentik (5xx) makes the resource Synced=False with a message that names the
// operation, the object and authentik's answer; once authentik recovers, the resource does
// too, without a duplicate group.
func TestAuthentikGroupFault(t *testing.T) {
	// Not parallel: authentik's faults are server-wide (the POST fault fails every group
	// create) and clearFaults clears them all.
	authentikAPI.noNewViolations(t)
	authentikAPI.fault(t, map[string]any{"method": "POST", "path_prefix": "/core/groups/", "status": 503})
	mg := newAKGroup("ak-fault", "e2e-ak-fault")
	create(t, mg)
	eventually(t, 30*time.Second, "Synced=False explaining the failed create", func() bool {
		c := condition(get(t, mg), xpv2.TypeSynced)
		return c.Status == corev1.ConditionFalse && strings.Contains(c.Message, `cannot create authentik group "e2e-ak-fault"`)
	})
	msg := condition(mg, xpv2.TypeSynced).Message
	for _, want := range []string{"POST /api/v3/core/groups/", "503", "injected fault"} {
		if !strings.Contains(msg, want) {
			t.Errorf("Synced=False message %q does not mention %q", msg, want)
		}
	}
	authentikAPI.clearFaults(t)
	waitReady(t, mg)
	id := meta.GetExternalName(mg)
	if l := groupsNamed(t, "e2e-ak-fault"); len(l) != 1 || l[0]["pk"] != id {
		t.Fatalf("after recovery: %d groups named e2e-ak-fault (want exactly the resource's %s): %v", len(l), id, l)
	}

	// Reads fail too: the resource says so and recovers, still with one group.
	authentikAPI.fault(t, map[string]any{"method": "GET", "path_prefix": "/core/groups/" + id + "/", "status": 500})
	eventually(t, 30*time.Second, "Synced=False explaining the failed read", func() bool {
		c := condition(get(t, mg), xpv2.TypeSynced)
		return c.Status == corev1.ConditionFalse && strings.Contains(c.Message, "cannot read authentik group "+id) && strings.Contains(c.Message, "500")
	})
	authentikAPI.clearFaults(t)
	waitReady(t, mg)
	if l := groupsNamed(t, "e2e-ak-fault"); len(l) != 1 {
		t.Fatalf("after recovery from a failed read: %d groups named e2e-ak-fault, want 1", len(l))
	}
}

// The marker's key is the provider's: a spec that sets it is refused when reconciled (CEL
// cannot see into free-form attributes) and nothing is created.
func TestAuthentikGroupReservedAttribute(t *testing.T) {
	t.Parallel()
	authentikAPI.noNewViolations(t)
	mg := newAKGroup("ak-reserved", "e2e-ak-reserved", func(g *akv1alpha1.Group) {
		g.Spec.ForProvider.Attributes = jsonAttrs(authentik.MarkerAttribute, `"v=v1&installation=x&resource=y&origin=created"`)
	})
	create(t, mg)
	eventually(t, 30*time.Second, "Synced=False naming the reserved key", func() bool {
		c := condition(get(t, mg), xpv2.TypeSynced)
		return c.Status == corev1.ConditionFalse && strings.Contains(c.Message, `must not set "identity.crossplane.io/provenance"`)
	})
	if l := groupsNamed(t, "e2e-ak-reserved"); len(l) != 0 {
		t.Fatalf("a group was created from a spec that sets the marker's key: %v", l)
	}
}

// Schema validation refuses what authentik would refuse, before anything is reconciled.
func TestAuthentikGroupValidation(t *testing.T) {
	t.Parallel()
	akReject(t, newAKGroup("ak-invalid-empty-name", ""), "spec.forProvider.name")
	akReject(t, newAKGroup("ak-invalid-blank-name", "   "), "spec.forProvider.name")
}
