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
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	ksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

func newProject(name, keystoneName string, mutate ...func(*ksv1alpha1.Project)) *ksv1alpha1.Project {
	p := &ksv1alpha1.Project{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: ksv1alpha1.ProjectSpec{
			ClusterManagedResourceSpec: xpv2.ClusterManagedResourceSpec{ProviderConfigReference: &xpv2.Reference{Name: "keystone"}},
			ForProvider:                ksv1alpha1.ProjectParameters{Name: keystoneName, Description: ptr("made by " + name)},
		},
	}
	for _, m := range mutate {
		m(p)
	}
	return p
}

// inDomain sets a Keystone domain ID directly.
func inDomain(id string) func(*ksv1alpha1.Project) {
	return func(p *ksv1alpha1.Project) { p.Spec.ForProvider.DomainID = &id }
}

// handDomain makes a domain by hand for a test and removes it (with everything in it) at the
// end. Register it before the resources that live in it: cleanups run last-in first-out.
func handDomain(t *testing.T, name string) string {
	t.Helper()
	id := keystone.post(t, "domains", "domain", map[string]any{"name": name})
	t.Cleanup(func() { keystone.deleteDomain(t, id) })
	return id
}

// readyDomain creates a Domain resource and waits until it is Ready, so that references to it
// resolve at once.
func readyDomain(t *testing.T, name, keystoneName string) *ksv1alpha1.Domain {
	t.Helper()
	d := newDomain(name, keystoneName)
	create(t, d)
	waitReady(t, d)
	return d
}

// A project's first create looks nothing up: Keystone refuses a second project with the same
// name in a domain (TestProjectConflictFailOnConflict), so the create finds a twin out itself,
// and the lookup by name that would precede it is one read per project at scale (ADR 0006).
func TestProjectFirstCreateLooksNothingUp(t *testing.T) {
	t.Parallel()
	domID := handDomain(t, "e2e-pj-first")
	start := time.Now()
	mg := newProject("pj-first", "first", inDomain(domID))
	create(t, mg)
	waitReady(t, mg)
	var lookups, creates []string
	for _, s := range counter.sentSince(start) {
		switch {
		case s.Method == "GET" && s.Path == "/v3/projects" && (strings.Contains(s.Query, domID) || strings.Contains(s.Query, "name=first")):
			lookups = append(lookups, s.Path+"?"+s.Query)
		case s.Method == "POST" && s.Path == "/v3/projects":
			creates = append(creates, s.Path)
		}
	}
	if len(lookups) != 0 || len(creates) == 0 {
		t.Errorf("creating project %q in domain %s sent lookups %v and %d creates, want no lookup and a create", "first", domID, lookups, len(creates))
	}
}

// A project made through references: its domain from a Domain resource, its parent from another
// Project. Resolved IDs and server defaults are written into the spec (the default management
// policies include LateInitialize), updates reach Keystone and the resource's deletion deletes it.
func TestProjectLifecycle(t *testing.T) {
	t.Parallel()
	dom := readyDomain(t, "pj-life-dom", "e2e-pj-life")
	domID := meta.GetExternalName(dom)

	parent := newProject("pj-life-parent", "parent", func(p *ksv1alpha1.Project) {
		p.Spec.ForProvider.DomainRef = &xpv2.Reference{Name: dom.Name}
	})
	create(t, parent)
	child := newProject("pj-life-child", "child", func(p *ksv1alpha1.Project) {
		p.Spec.ForProvider.DomainRef = &xpv2.Reference{Name: dom.Name}
		p.Spec.ForProvider.ParentRef = &xpv2.Reference{Name: parent.Name}
		p.Spec.ForProvider.Tags = &[]string{"b", "a"}
	})
	create(t, child)
	waitReady(t, parent)
	waitReady(t, child)

	parentID, id := meta.GetExternalName(parent), meta.GetExternalName(child)
	raw := keystone.raw(t, "projects", id)
	for k, want := range map[string]any{"name": "child", "domain_id": domID, "parent_id": parentID, "description": "made by pj-life-child"} {
		if got := field(t, raw, "project", k); got != want {
			t.Errorf("Keystone project %s: got %v, want %v", k, got, want)
		}
	}
	if got := field(t, raw, "project", "tags"); !sameStrings(got, "a", "b") {
		t.Errorf("Keystone project tags: got %v", got)
	}
	m, err := provenance.Parse(field(t, raw, "project", "crossplane_provenance").(string))
	if err != nil || m.Installation != installationID || m.Resource != "Project.keystone.identity.crossplane.io/pj-life-child" || m.Origin != provenance.OriginCreated {
		t.Fatalf("marker: got %+v, %v", m, err)
	}
	fp := child.Spec.ForProvider
	if deref(fp.DomainID) != domID || deref(fp.ParentID) != parentID {
		t.Errorf("resolved references were not written into the spec (LateInitialize is in the default policies): domainId %q parentId %q", deref(fp.DomainID), deref(fp.ParentID))
	}
	if fp.Enabled == nil || !*fp.Enabled {
		t.Errorf("spec.forProvider.enabled was not late-initialized from Keystone: %v", fp.Enabled)
	}
	at := child.Status.AtProvider
	if at.ID != id || at.DomainID != domID || at.ParentID != parentID || at.Provenance != identityv1alpha1.Owned {
		t.Errorf("status.atProvider: got %+v", at)
	}

	update(t, child, func(p *ksv1alpha1.Project) {
		p.Spec.ForProvider.Description = ptr("changed")
		p.Spec.ForProvider.Tags = &[]string{"c"}
		p.Spec.ForProvider.Enabled = ptr(false)
	})
	eventually(t, 30*time.Second, "the update to reach Keystone", func() bool {
		raw := keystone.raw(t, "projects", id)
		return field(t, raw, "project", "description") == "changed" && sameStrings(field(t, raw, "project", "tags"), "c") &&
			field(t, raw, "project", "enabled") == false
	})

	if err := kube.Delete(context.Background(), child); err != nil {
		t.Fatal(err)
	}
	waitGone(t, child)
	if keystone.exists(t, "projects", id) {
		t.Fatalf("project %s still exists after its resource was deleted", id)
	}
}

// A parent project's deletion waits for its children, and says which children it waits for.
func TestProjectNonLeafDeletion(t *testing.T) {
	t.Parallel()
	domID := handDomain(t, "e2e-pj-nonleaf")
	parent := newProject("pj-nonleaf-parent", "parent", inDomain(domID))
	create(t, parent)
	waitReady(t, parent)
	child := newProject("pj-nonleaf-child", "child", inDomain(domID), func(p *ksv1alpha1.Project) {
		p.Spec.ForProvider.ParentRef = &xpv2.Reference{Name: parent.Name}
	})
	create(t, child)
	waitReady(t, child)
	parentID, childID := meta.GetExternalName(parent), meta.GetExternalName(child)

	if err := kube.Delete(context.Background(), parent); err != nil {
		t.Fatal(err)
	}
	waitDeletionBlocked(t, parent, adoption.ReasonForeignDependents, `Keystone project "parent"`, parentID,
		`Keystone project "child" (ID `+childID+`, still managed by Project.keystone.identity.crossplane.io/pj-nonleaf-child)`)
	if !keystone.exists(t, "projects", parentID) {
		t.Fatal("the parent project vanished while it still had a child")
	}

	if err := kube.Delete(context.Background(), child); err != nil {
		t.Fatal(err)
	}
	waitGone(t, child)
	waitGone(t, parent)
	if keystone.exists(t, "projects", parentID) {
		t.Fatalf("parent project %s still exists after its child and its resource were deleted", parentID)
	}
}

// A same-named project made by hand in the same domain is never written under FailOnConflict;
// the resource proceeds by itself once the hand-made project is gone.
func TestProjectConflictFailOnConflict(t *testing.T) {
	t.Parallel()
	domID := handDomain(t, "e2e-pj-conflict")
	handID := keystone.post(t, "projects", "project", map[string]any{"name": "handmade", "domain_id": domID, "description": "tuned by hand", "tags": []string{"keep"}})
	before := keystone.raw(t, "projects", handID)

	mg := newProject("pj-conflict", "handmade", inDomain(domID), func(p *ksv1alpha1.Project) {
		p.Spec.ForProvider.Tags = &[]string{}
		p.Spec.ForProvider.Enabled = ptr(false)
	})
	create(t, mg)
	eventually(t, 30*time.Second, "Ready=False with reason AdoptionRequired", func() bool {
		c := condition(get(t, mg), xpv2.TypeReady)
		return c.Status == corev1.ConditionFalse && c.Reason == "AdoptionRequired"
	})
	msg := condition(mg, xpv2.TypeReady).Message
	for _, want := range []string{"Keystone project", `"handmade"`, handID, "spec.adoptionPolicy: AdoptExisting", `spec.managementPolicies: ["Observe"]`} {
		if !strings.Contains(msg, want) {
			t.Errorf("AdoptionRequired message %q does not mention %s", msg, want)
		}
	}
	if meta.GetExternalName(mg) != "" {
		t.Errorf("external name was bound to a foreign object: %q", meta.GetExternalName(mg))
	}
	time.Sleep(3 * pollInterval)
	if after := keystone.raw(t, "projects", handID); !bytes.Equal(before, after) {
		t.Fatalf("the hand-made project changed under FailOnConflict:\nbefore %s\nafter  %s", before, after)
	}

	keystone.del(t, "projects", handID)
	waitReady(t, get(t, mg))
	if id := meta.GetExternalName(mg); id == "" || id == handID {
		t.Fatalf("expected a new project after the conflict cleared, got external name %q", id)
	}
}

// AdoptExisting stamps the marker and reconciles the managed fields, leaving the others alone.
func TestProjectAdoptExisting(t *testing.T) {
	t.Parallel()
	domID := handDomain(t, "e2e-pj-adopt")
	handID := keystone.post(t, "projects", "project", map[string]any{"name": "adopted", "domain_id": domID, "description": "old", "tags": []string{"hand"}})
	mg := newProject("pj-adopt", "adopted", inDomain(domID), func(p *ksv1alpha1.Project) {
		p.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting
	})
	create(t, mg)
	waitReady(t, mg)
	eventually(t, 30*time.Second, "provenance Adopted", func() bool {
		return get(t, mg).Status.AtProvider.Provenance == identityv1alpha1.Adopted
	})
	if got := meta.GetExternalName(mg); got != handID {
		t.Fatalf("external name: got %q, want the adopted project %q", got, handID)
	}
	raw := keystone.raw(t, "projects", handID)
	if got := field(t, raw, "project", "description"); got != "made by pj-adopt" {
		t.Errorf("description not reconciled to spec: %v", got)
	}
	if got := field(t, raw, "project", "tags"); !sameStrings(got, "hand") {
		t.Errorf("tags are not in the spec, so they must be left alone: got %v", got)
	}
	m, err := provenance.Parse(field(t, raw, "project", "crossplane_provenance").(string))
	if err != nil || m.Origin != provenance.OriginAdopted || m.Installation != installationID {
		t.Errorf("adoption marker: got %+v, %v", m, err)
	}
	if !eventRecorded(t, mg, "AdoptedExternalResource") {
		t.Errorf("no AdoptedExternalResource event")
	}
}

// managementPolicies [Observe] reads an existing project found through a domain reference,
// never writes it nor deletes it, and writes no resolved ID into the spec (no LateInitialize).
func TestProjectObserveOnly(t *testing.T) {
	t.Parallel()
	domID := handDomain(t, "e2e-pj-observed")
	handID := keystone.post(t, "projects", "project", map[string]any{"name": "observed", "domain_id": domID, "description": "not ours"})
	before := keystone.raw(t, "projects", handID)
	observeOnly := func(mg resourceWithPolicies) {
		mg.SetManagementPolicies(xpv2.ManagementPolicies{xpv2.ManagementActionObserve})
	}
	dom := newDomain("pj-observed-dom", "e2e-pj-observed", func(d *ksv1alpha1.Domain) { observeOnly(d) })
	create(t, dom)
	waitReady(t, dom)

	mg := newProject("pj-observed", "observed", func(p *ksv1alpha1.Project) {
		p.Spec.ForProvider.Description = nil
		p.Spec.ForProvider.DomainRef = &xpv2.Reference{Name: dom.Name}
		observeOnly(p)
	})
	create(t, mg)
	waitReady(t, mg)
	at := mg.Status.AtProvider
	if at.Provenance != identityv1alpha1.Observed || at.ID != handID || at.DomainID != domID || at.Description != "not ours" || !at.Enabled {
		t.Errorf("status.atProvider: got %+v", at)
	}
	if mg.Spec.ForProvider.DomainID != nil || mg.Spec.ForProvider.Enabled != nil {
		t.Errorf("an observe-only resource got spec fields written: domainId %v, enabled %v", mg.Spec.ForProvider.DomainID, mg.Spec.ForProvider.Enabled)
	}
	time.Sleep(2 * pollInterval)
	if after := keystone.raw(t, "projects", handID); !bytes.Equal(before, after) {
		t.Fatalf("an observed project was written:\nbefore %s\nafter  %s", before, after)
	}
	if err := kube.Delete(context.Background(), mg); err != nil {
		t.Fatal(err)
	}
	waitGone(t, mg)
	if !keystone.exists(t, "projects", handID) {
		t.Fatal("an observed project was deleted")
	}
}

// Without LateInitialize in the management policies, references resolve on every reconcile but
// their IDs never reach the spec: a GitOps tool that owns the spec sees only what it wrote.
func TestProjectReferencesWithoutLateInitialize(t *testing.T) {
	t.Parallel()
	dom := readyDomain(t, "pj-nolate-dom", "e2e-pj-nolate")
	mg := newProject("pj-nolate", "nolate", func(p *ksv1alpha1.Project) {
		p.Spec.ForProvider.DomainRef = &xpv2.Reference{Name: dom.Name}
		p.Spec.ManagementPolicies = xpv2.ManagementPolicies{xpv2.ManagementActionObserve, xpv2.ManagementActionCreate,
			xpv2.ManagementActionUpdate, xpv2.ManagementActionDelete}
	})
	create(t, mg)
	waitReady(t, mg)
	id := meta.GetExternalName(mg)
	if got := field(t, keystone.raw(t, "projects", id), "project", "domain_id"); got != meta.GetExternalName(dom) {
		t.Fatalf("project made in domain %v, want %s", got, meta.GetExternalName(dom))
	}
	// Let a few reconciles pass: none of them may write the resolved ID or a default.
	time.Sleep(2 * pollInterval)
	get(t, mg)
	if mg.Spec.ForProvider.DomainID != nil || mg.Spec.ForProvider.Enabled != nil {
		t.Errorf("spec written without LateInitialize: domainId %v, enabled %v", deref(mg.Spec.ForProvider.DomainID), mg.Spec.ForProvider.Enabled)
	}
	if c := condition(mg, xpv2.TypeSynced); c.Status != corev1.ConditionTrue {
		t.Errorf("Synced: %+v", c)
	}
	update(t, mg, func(p *ksv1alpha1.Project) { p.Spec.ForProvider.Description = ptr("changed") })
	eventually(t, 30*time.Second, "the update to reach Keystone", func() bool {
		return field(t, keystone.raw(t, "projects", id), "project", "description") == "changed"
	})
}

type resourceWithPolicies interface {
	SetManagementPolicies(xpv2.ManagementPolicies)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// sameStrings reports whether a decoded JSON array holds exactly the given strings, in any order.
func sameStrings(v any, want ...string) bool {
	l, ok := v.([]any)
	if !ok || len(l) != len(want) {
		return false
	}
	got := make([]string, 0, len(l))
	for _, e := range l {
		s, ok := e.(string)
		if !ok {
			return false
		}
		got = append(got, s)
	}
	slices.Sort(got)
	w := slices.Clone(want)
	slices.Sort(w)
	return slices.Equal(got, w)
}
