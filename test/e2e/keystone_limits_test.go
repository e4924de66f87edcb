//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gophercloud/gophercloud/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	ksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// handLimit makes a registered limit or a limit by hand (Keystone takes a list of one) and
// removes it at the end if it is still there.
func handLimit(t *testing.T, plural string, body map[string]any) string {
	t.Helper()
	var out map[string][]map[string]any
	if _, err := keystone.sc.Post(context.Background(), keystone.sc.ServiceURL(plural), map[string]any{plural: []any{body}}, &out,
		&gophercloud.RequestOpts{OkCodes: []int{http.StatusCreated}}); err != nil {
		t.Fatalf("cannot create %s by hand: %v", plural, err)
	}
	id := out[plural][0]["id"].(string)
	t.Cleanup(func() { keystone.del(t, plural, id) })
	return id
}

// limitDescription is the description Keystone holds for a registered limit or a limit.
func limitDescription(t *testing.T, collection, singular, id string) string {
	t.Helper()
	s, _ := field(t, keystone.raw(t, collection, id), singular, "description").(string)
	return s
}

// limitNumber is a registered limit's default_limit or a limit's resource_limit in Keystone.
func limitNumber(t *testing.T, collection, singular, key, id string) int64 {
	t.Helper()
	n, _ := field(t, keystone.raw(t, collection, id), singular, key).(float64)
	return int64(n)
}

// descriptionMarker reads the marker on the last line of a description.
func descriptionMarker(t *testing.T, desc string) provenance.Marker {
	t.Helper()
	rest, m, found, err := provenance.ExtractFromText(desc)
	if !found || err != nil {
		t.Fatalf("no marker line in description %q (rest %q): %v", desc, rest, err)
	}
	return m
}

// systemProviderConfig makes a ProviderConfig of this installation whose token is
// system-scoped: Keystone lists other projects' limits only to such a token (or a domain-scoped
// one), so finding a limit by its key needs it.
func systemProviderConfig(t *testing.T, name string) *xpv2.Reference {
	t.Helper()
	pc := keystoneProviderConfig(name, installationID, "keystone-admin")
	pc.Spec.Keystone.Password.Scope = identityv1alpha1.KeystoneScope{System: ptr(true)}
	create(t, pc)
	releaseProviderConfig(t, name)
	return &xpv2.Reference{Name: name}
}

func newRegisteredLimit(name string, fp ksv1alpha1.RegisteredLimitParameters, mutate ...func(*ksv1alpha1.RegisteredLimit)) *ksv1alpha1.RegisteredLimit {
	r := &ksv1alpha1.RegisteredLimit{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: ksv1alpha1.RegisteredLimitSpec{
		ClusterManagedResourceSpec: xpv2.ClusterManagedResourceSpec{ProviderConfigReference: &xpv2.Reference{Name: "keystone"}}, ForProvider: fp}}
	for _, m := range mutate {
		m(r)
	}
	return r
}

func newLimit(name string, fp ksv1alpha1.LimitParameters, mutate ...func(*ksv1alpha1.Limit)) *ksv1alpha1.Limit {
	l := &ksv1alpha1.Limit{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: ksv1alpha1.LimitSpec{
		ClusterManagedResourceSpec: xpv2.ClusterManagedResourceSpec{ProviderConfigReference: &xpv2.Reference{Name: "keystone"}}, ForProvider: fp}}
	for _, m := range mutate {
		m(l)
	}
	return l
}

// A registered limit and a project's limit made by the provider: both carry the marker on their
// description's last line, follow spec changes (a limit lowered to 0 is replaced, since
// Keystone's update skips 0), and the registered limit is not deleted while the limit exists
// (Keystone refuses; the resource says to delete the Limit first), then is.
func TestLimitsLifecycle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc := handService(t, map[string]any{"name": "e2e-limits-life", "type": "e2e-limits-life"})
	rl := newRegisteredLimit("rl-life", ksv1alpha1.RegisteredLimitParameters{ServiceID: ptr(svc), ResourceName: "cores", DefaultLimit: 10, Description: ptr("default cores")})
	create(t, rl)
	waitReady(t, rl)
	rlID := meta.GetExternalName(rl)
	if m := descriptionMarker(t, limitDescription(t, "registered_limits", "registered_limit", rlID)); m.Installation != installationID ||
		m.Resource != "RegisteredLimit.keystone.identity.crossplane.io/rl-life" || m.Origin != provenance.OriginCreated {
		t.Errorf("registered limit marker: got %+v", m)
	}
	if at := rl.Status.AtProvider; at.Description != "default cores" || at.DefaultLimit != 10 || at.ServiceID != svc || at.Provenance != identityv1alpha1.Owned {
		t.Errorf("registered limit status.atProvider: got %+v", at)
	}
	update(t, rl, func(r *ksv1alpha1.RegisteredLimit) { r.Spec.ForProvider.DefaultLimit = 20 })
	eventually(t, 60*time.Second, "default_limit 20", func() bool {
		return limitNumber(t, "registered_limits", "registered_limit", "default_limit", rlID) == 20
	})

	p := newProject("limits-life", "e2e-limits-life", inDomain("default"))
	create(t, p)
	waitReady(t, p)
	l := newLimit("limit-life", ksv1alpha1.LimitParameters{ProjectRef: &xpv2.Reference{Name: p.Name}, ServiceID: ptr(svc), ResourceName: "cores", ResourceLimit: 5})
	create(t, l)
	waitReady(t, l)
	lID := meta.GetExternalName(l)
	if m := descriptionMarker(t, limitDescription(t, "limits", "limit", lID)); m.Resource != "Limit.keystone.identity.crossplane.io/limit-life" {
		t.Errorf("limit marker: got %+v", m)
	}
	if at := get(t, l).Status.AtProvider; at.ProjectID != meta.GetExternalName(p) || at.ResourceLimit != 5 {
		t.Errorf("limit status.atProvider: got %+v", at)
	}
	update(t, l, func(l *ksv1alpha1.Limit) { l.Spec.ForProvider.ResourceLimit = 7 })
	eventually(t, 60*time.Second, "resource_limit 7", func() bool { return limitNumber(t, "limits", "limit", "resource_limit", lID) == 7 })

	// Keystone's update skips 0: the limit is replaced by one with 0.
	update(t, l, func(l *ksv1alpha1.Limit) { l.Spec.ForProvider.ResourceLimit = 0 })
	eventually(t, 90*time.Second, "the limit replaced by one of 0", func() bool {
		get(t, l)
		id := meta.GetExternalName(l)
		return id != lID && id != "" && keystone.exists(t, "limits", id) && limitNumber(t, "limits", "limit", "resource_limit", id) == 0 &&
			condition(l, xpv2.TypeReady).Status == corev1.ConditionTrue
	})
	if keystone.exists(t, "limits", lID) {
		t.Errorf("the replaced limit %s is still there", lID)
	}
	lID = meta.GetExternalName(l)

	// Keystone refuses to delete a registered limit with limits; the resource says what to do.
	if err := kube.Delete(ctx, rl); err != nil {
		t.Fatal(err)
	}
	eventually(t, 60*time.Second, "the refused delete explained", func() bool {
		return strings.Contains(condition(get(t, rl), xpv2.TypeSynced).Message, "delete those Limits first")
	})
	if !keystone.exists(t, "registered_limits", rlID) {
		t.Fatal("the registered limit went while a limit of it exists")
	}
	if err := kube.Delete(ctx, l); err != nil {
		t.Fatal(err)
	}
	waitGone(t, l)
	if keystone.exists(t, "limits", lID) {
		t.Errorf("limit %s survived its resource's deletion", lID)
	}
	waitGone(t, rl)
	if keystone.exists(t, "registered_limits", rlID) {
		t.Errorf("registered limit %s survived its resource's deletion", rlID)
	}
}

// Registered limits and limits made by hand (the limits looked up through a system-scoped
// ProviderConfig, see systemProviderConfig): under FailOnConflict, AdoptionRequired and Keystone
// byte-identical, before and after the resource's deletion; observe-only reports them and
// writes nothing; AdoptExisting writes the marker line (keeping the description) and deletes
// them with the resource.
func TestLimitsPreExisting(t *testing.T) {
	t.Parallel()
	svc := handService(t, map[string]any{"name": "e2e-limits-hand", "type": "e2e-limits-hand"})
	rlID := handLimit(t, "registered_limits", map[string]any{"service_id": svc, "resource_name": "ram", "default_limit": 100, "description": "by hand"})
	// A second registered limit for the hand-made limit: a registered limit with limits cannot
	// be adopted (Keystone refuses to write its marker), see ADR 0001.
	handLimit(t, "registered_limits", map[string]any{"service_id": svc, "resource_name": "cores", "default_limit": 10})
	pid := keystone.post(t, "projects", "project", map[string]any{"name": "e2e-limits-hand", "domain_id": "default"})
	t.Cleanup(func() { keystone.del(t, "projects", pid) })
	lID := handLimit(t, "limits", map[string]any{"project_id": pid, "service_id": svc, "resource_name": "cores", "resource_limit": 3, "description": "by hand"})
	rlFP := ksv1alpha1.RegisteredLimitParameters{ServiceID: ptr(svc), ResourceName: "ram", DefaultLimit: 100}
	lFP := ksv1alpha1.LimitParameters{ProjectID: ptr(pid), ServiceID: ptr(svc), ResourceName: "cores", ResourceLimit: 3}
	system := systemProviderConfig(t, "keystone-system-limits-hand")
	newLimit := func(name string, fp ksv1alpha1.LimitParameters, mutate ...func(*ksv1alpha1.Limit)) *ksv1alpha1.Limit {
		return newLimit(name, fp, append(mutate, func(l *ksv1alpha1.Limit) { l.Spec.ProviderConfigReference = system })...)
	}
	// Keystone's first policy-checked GET of a limit adds the project to its cached copy
	// (keystone/api/limits.py _build_limit_enforcement_target mutates the memoized dict), so
	// every later GET shows a "project" the first did not: read once before the reference copy.
	keystone.raw(t, "limits", lID)
	rlBefore, lBefore := keystone.raw(t, "registered_limits", rlID), keystone.raw(t, "limits", lID)
	unchanged := func(t *testing.T) {
		t.Helper()
		if after := keystone.raw(t, "registered_limits", rlID); !bytes.Equal(rlBefore, after) {
			t.Errorf("the hand-made registered limit changed:\nbefore %s\nafter  %s", rlBefore, after)
		}
		if after := keystone.raw(t, "limits", lID); !bytes.Equal(lBefore, after) {
			t.Errorf("the hand-made limit changed:\nbefore %s\nafter  %s", lBefore, after)
		}
	}

	t.Run("FailOnConflict", func(t *testing.T) {
		rl := newRegisteredLimit("rl-hand", rlFP)
		l := newLimit("limit-hand", lFP)
		create(t, rl)
		create(t, l)
		for _, mg := range []resource.Managed{rl, l} {
			eventually(t, 30*time.Second, mg.GetName()+" Ready=False with reason AdoptionRequired", func() bool {
				c := condition(get(t, mg), xpv2.TypeReady)
				return c.Status == corev1.ConditionFalse && c.Reason == adoption.ReasonAdoptionRequired
			})
			if got := meta.GetExternalName(mg); got != "" {
				t.Errorf("%s bound to an object not ours: %q", mg.GetName(), got)
			}
		}
		for _, want := range []string{"Keystone limit", lID, "spec.adoptionPolicy: AdoptExisting"} {
			if msg := condition(l, xpv2.TypeReady).Message; !strings.Contains(msg, want) {
				t.Errorf("AdoptionRequired message %q does not mention %s", msg, want)
			}
		}
		time.Sleep(2 * pollInterval)
		unchanged(t)
		for _, mg := range []resource.Managed{rl, l} {
			if err := kube.Delete(t.Context(), mg); err != nil {
				t.Fatal(err)
			}
			waitGone(t, mg)
		}
		unchanged(t)
	})

	t.Run("ProjectScopedLookupExplained", func(t *testing.T) {
		// The test's usual ProviderConfig is scoped to the admin project: Keystone does not
		// list it the hand-made limit, the create meets a conflict, and the resource says why.
		l := newLimit("limit-hand-project-scoped", lFP)
		l.Spec.ProviderConfigReference = &xpv2.Reference{Name: "keystone"}
		create(t, l)
		var msg string
		eventually(t, 60*time.Second, "the conflict explained", func() bool {
			msg = condition(get(t, l), xpv2.TypeSynced).Message
			return strings.Contains(msg, "a project-scoped token lists only its own project's limits")
		})
		if t.Failed() {
			t.Logf("last Synced message: %q", msg)
		}
		if err := kube.Delete(t.Context(), l); err != nil {
			t.Fatal(err)
		}
		waitGone(t, l)
		unchanged(t)
	})

	t.Run("ObserveOnly", func(t *testing.T) {
		observe := xpv2.ManagementPolicies{xpv2.ManagementActionObserve}
		rl := newRegisteredLimit("rl-observed", rlFP, func(r *ksv1alpha1.RegisteredLimit) { r.Spec.ManagementPolicies = observe })
		l := newLimit("limit-observed", lFP, func(r *ksv1alpha1.Limit) { r.Spec.ManagementPolicies = observe })
		create(t, rl)
		create(t, l)
		waitReady(t, rl)
		waitReady(t, l)
		if at := rl.Status.AtProvider; at.Provenance != identityv1alpha1.Observed || at.ID != rlID || at.Description != "by hand" {
			t.Errorf("registered limit status.atProvider: got %+v", at)
		}
		if at := l.Status.AtProvider; at.Provenance != identityv1alpha1.Observed || at.ID != lID || at.ProjectID != pid || at.ResourceLimit != 3 {
			t.Errorf("limit status.atProvider: got %+v", at)
		}
		time.Sleep(2 * pollInterval)
		for _, mg := range []resource.Managed{rl, l} {
			if err := kube.Delete(t.Context(), mg); err != nil {
				t.Fatal(err)
			}
			waitGone(t, mg)
		}
		unchanged(t)
	})

	t.Run("AdoptExisting", func(t *testing.T) {
		adopt := identityv1alpha1.AdoptionSpec{AdoptionPolicy: identityv1alpha1.AdoptExisting}
		rl := newRegisteredLimit("rl-adopted", rlFP, func(r *ksv1alpha1.RegisteredLimit) { r.Spec.AdoptionSpec = adopt })
		l := newLimit("limit-adopted", lFP, func(r *ksv1alpha1.Limit) { r.Spec.AdoptionSpec = adopt })
		create(t, rl)
		create(t, l)
		for _, c := range []struct {
			mg               resource.Managed
			coll, single, id string
			provenance       func() identityv1alpha1.Provenance
		}{
			{rl, "registered_limits", "registered_limit", rlID, func() identityv1alpha1.Provenance { return get(t, rl).Status.AtProvider.Provenance }},
			{l, "limits", "limit", lID, func() identityv1alpha1.Provenance { return get(t, l).Status.AtProvider.Provenance }},
		} {
			eventually(t, 60*time.Second, c.mg.GetName()+" Adopted", func() bool { return c.provenance() == identityv1alpha1.Adopted })
			desc := limitDescription(t, c.coll, c.single, c.id)
			if m := descriptionMarker(t, desc); m.Origin != provenance.OriginAdopted || m.Installation != installationID {
				t.Errorf("%s marker: got %+v", c.mg.GetName(), m)
			}
			if !strings.HasPrefix(desc, "by hand\n") {
				t.Errorf("%s: the adoption lost the description: %q", c.mg.GetName(), desc)
			}
		}
		for _, mg := range []resource.Managed{l, rl} {
			if err := kube.Delete(t.Context(), mg); err != nil {
				t.Fatal(err)
			}
			waitGone(t, mg)
		}
		if keystone.exists(t, "limits", lID) || keystone.exists(t, "registered_limits", rlID) {
			t.Errorf("adopted objects survived their resources' deletion")
		}
	})
}

// A create whose result was lost (the provider stopped between Keystone's 201 and recording the
// external name): the limit carrying this resource's marker is recovered, no second is made.
func TestLimitLostCreateRecovered(t *testing.T) {
	t.Parallel()
	svc := handService(t, map[string]any{"name": "e2e-limits-lost", "type": "e2e-limits-lost"})
	handLimit(t, "registered_limits", map[string]any{"service_id": svc, "resource_name": "cores", "default_limit": 10})
	pid := keystone.post(t, "projects", "project", map[string]any{"name": "e2e-limits-lost", "domain_id": "default"})
	t.Cleanup(func() { keystone.del(t, "projects", pid) })
	id := handLimit(t, "limits", map[string]any{"project_id": pid, "service_id": svc, "resource_name": "cores", "resource_limit": 4,
		"description": "[provider-identity: " + marker(installationID, "Limit.keystone.identity.crossplane.io/limit-lost") + "]"})
	l := newLimit("limit-lost", ksv1alpha1.LimitParameters{ProjectID: ptr(pid), ServiceID: ptr(svc), ResourceName: "cores", ResourceLimit: 4},
		func(l *ksv1alpha1.Limit) {
			l.Spec.ProviderConfigReference = systemProviderConfig(t, "keystone-system-limits-lost")
		})
	meta.SetExternalCreatePending(l, time.Now())
	create(t, l)
	waitReady(t, l)
	if got := meta.GetExternalName(l); got != id {
		t.Fatalf("external name: got %q, want the limit the lost create made (%s)", got, id)
	}
	if p := l.Status.AtProvider.Provenance; p != identityv1alpha1.Owned {
		t.Errorf("provenance %q, want Owned", p)
	}
	// Keystone refuses a second limit of the same key: a create attempted would have failed.
	if eventRecorded(t, l, "CannotCreateExternalResource") {
		t.Errorf("the provider tried to create the limit again: %v", events(t, l))
	}
	if err := kube.Delete(context.Background(), l); err != nil {
		t.Fatal(err)
	}
	waitGone(t, l)
	if keystone.exists(t, "limits", id) {
		t.Errorf("the recovered limit survived its resource's deletion")
	}
}
