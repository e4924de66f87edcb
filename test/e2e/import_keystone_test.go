//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gophercloud/gophercloud/v2"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	nsidentityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	ks "github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
	"github.com/crossplane-contrib/provider-identity/internal/importer"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// A hand-made Keystone tree (a domain with a project and a child project, two domain roles, one
// implying the other, a group, a user in it and two assignments) is imported in observe mode through a
// ClusterProviderConfig: every resource becomes Ready and Observed and Keystone stays
// byte-identical; a second run writes nothing; --mode adopt on the same directory then makes
// every resource Adopted, and each Keystone object gains the marker and nothing else; the facts
// (membership, implied-role rule), which keep no marker, are still there, and their resources
// carry the marker annotation instead; so does the application credential a user made by
// hand, which Keystone cannot change (it stays byte-identical, its secret unknown). A project
// carrying another installation's marker is refused and one group this installation already
// manages is skipped; neither is written nor touched.
func TestImportKeystone(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const ns = "e2e-import"
	namespace(t, ns)
	cpc := &nsidentityv1alpha1.ClusterProviderConfig{ObjectMeta: metav1.ObjectMeta{Name: "e2e-import"}, Spec: keystoneSpec("crossplane-system", "keystone-admin")}
	create(t, cpc)
	releaseNamespacedProviderConfig(t, cpc)

	dt := keystone.post(t, "domains", "domain", map[string]any{"name": "e2e-import", "description": "hand-made"})
	t.Cleanup(func() { keystone.deleteDomain(t, dt) })
	pw := keystone.post(t, "projects", "project", map[string]any{"name": "web", "domain_id": dt, "tags": []string{"a"}})
	pa := keystone.post(t, "projects", "project", map[string]any{"name": "api", "domain_id": dt, "parent_id": pw, "description": "the API"})
	rr := keystone.post(t, "roles", "role", map[string]any{"name": "e2e-import-reader", "domain_id": dt})
	t.Cleanup(func() { keystone.del(t, "roles", rr) })
	rv := keystone.post(t, "roles", "role", map[string]any{"name": "e2e-import-viewer", "domain_id": dt})
	t.Cleanup(func() { keystone.del(t, "roles", rv) })
	gd := keystone.post(t, "groups", "group", map[string]any{"name": "devs", "domain_id": dt})
	ua := keystone.post(t, "users", "user", map[string]any{"name": "Alice", "domain_id": dt, "email": "alice@example.com", "default_project_id": pw})
	for _, path := range [][]string{{"projects", pw, "users", ua, "roles", rr}, {"domains", dt, "groups", gd, "roles", rr}} {
		if _, err := keystone.sc.Put(ctx, keystone.sc.ServiceURL(path...), nil, nil, &gophercloud.RequestOpts{OkCodes: []int{204}}); err != nil {
			t.Fatalf("cannot assign %v by hand: %v", path, err)
		}
	}
	facts := map[string]string{"membership": ks.MembershipURL(keystone.sc, gd, ua), "implied role": ks.ImpliedRoleURL(keystone.sc, rr, rv)}
	for k, u := range facts {
		if err := ks.PutFact(ctx, keystone.sc, u); err != nil {
			t.Fatalf("cannot make the %s by hand: %v", k, err)
		}
	}
	factsExist := func(when string) {
		t.Helper()
		for k, u := range facts {
			if err := ks.CheckFact(ctx, keystone.sc, u); err != nil {
				t.Errorf("the hand-made %s is gone %s: %v", k, when, err)
			}
		}
	}
	// Bob has a password and the global member role on web, and made an application credential
	// there himself (Keystone lets only the user create one), and another installation made one
	// as him (its marker is the description's last line).
	bob := appCredUser{Password: "pw-e2e-import-bob-Secret1", ProjectID: pw}
	bob.ID = keystone.post(t, "users", "user", map[string]any{"name": "Bob", "domain_id": dt, "password": bob.Password})
	if _, err := keystone.sc.Put(ctx, keystone.sc.ServiceURL("projects", pw, "users", bob.ID, "roles", roleID(t, "member")), nil, nil,
		&gophercloud.RequestOpts{OkCodes: []int{204}}); err != nil {
		t.Fatalf("cannot give Bob the member role on web: %v", err)
	}
	ac := bob.handAppCred(t, map[string]any{"name": "ci", "description": "CI deploys", "expires_at": "2031-01-02T03:04:05"})
	theirAC := bob.handAppCred(t, map[string]any{"name": "theirs", "description": provenance.EmbedInText("made elsewhere",
		provenance.Marker{Installation: "someone-else", Resource: "ApplicationCredential.keystone.identity.m.crossplane.io/x/y", Origin: provenance.OriginCreated})})
	foreignMarker := provenance.Marker{Installation: "someone-else", Resource: "Project.keystone.identity.m.crossplane.io/x/y", Origin: provenance.OriginCreated}.Encode()
	pf := keystone.post(t, "projects", "project", map[string]any{"name": "foreign", "domain_id": dt, "crossplane_provenance": foreignMarker})
	ourMarker := provenance.Marker{Installation: installationID, Resource: "Group.keystone.identity.m.crossplane.io/" + ns + "/ours", Origin: provenance.OriginCreated}.Encode()
	gm := keystone.post(t, "groups", "group", map[string]any{"name": "managed", "domain_id": dt, "crossplane_provenance": ourMarker})

	objects := map[string][]string{"domain": {"domains", dt}, "project": {"projects", pw}, "child-project": {"projects", pa},
		"role": {"roles", rr}, "implied-role": {"roles", rv}, "group": {"groups", gd}, "user": {"users", ua},
		"members": {"groups", gd, "users"}, "rule": {"roles", rr, "implies", rv}, "bob": {"users", bob.ID}, "appcred": appCredPath(bob.ID, ac)}
	before := map[string]json.RawMessage{}
	for k, p := range objects {
		before[k] = keystone.raw(t, p...)
	}
	untouched := map[string]json.RawMessage{"foreign": keystone.raw(t, "projects", pf), "managed": keystone.raw(t, "groups", gm),
		"foreign application credential": keystone.raw(t, appCredPath(bob.ID, theirAC)...)}

	dir := t.TempDir()
	opts := importer.Options{
		Source: importer.Source{Kube: kube, ConfigKind: "ClusterProviderConfig", ConfigName: cpc.GetName()},
		Filter: importer.Filter{Domain: "e2e-import"}, Namespace: ns, Dir: dir, Mode: importer.ModeObserve,
	}
	s, err := importer.Run(ctx, opts)
	if err != nil {
		t.Fatalf("observe import: %v", err)
	}
	wantCounts := map[string]int{"Domain": 1, "Project": 2, "Role": 2, "Group": 1, "User": 2, "RoleAssignment": 3, "GroupMembership": 1, "ImpliedRole": 1,
		"ApplicationCredential": 1}
	if diff := cmp.Diff(wantCounts, s.Counts()); diff != "" {
		t.Fatalf("manifests per kind (-want +got):\n%s", diff)
	}
	checkSkips(t, s, pf, gm, theirAC)

	objs := applyDir(t, dir)
	t.Cleanup(func() { observeAndDelete(t, objs) })
	waitProvenance(t, objs, "Observed")
	for k, p := range objects {
		if got := keystone.raw(t, p...); string(got) != string(before[k]) {
			t.Errorf("Keystone %s changed in observe mode:\nbefore %s\nafter  %s", k, before[k], got)
		}
	}

	// Idempotent: the same files, none rewritten.
	if s, err = importer.Run(ctx, opts); err != nil || s.Changed != 0 {
		t.Fatalf("second observe import: %v, %d files rewritten; want none", err, s.Changed)
	}

	opts.Mode = importer.ModeAdopt
	if s, err = importer.Run(ctx, opts); err != nil || s.Changed != len(objs) {
		t.Fatalf("adopt import: %v, %d files rewritten; want %d", err, s.Changed, len(objs))
	}
	checkSkips(t, s, pf, gm, theirAC)
	applyDir(t, dir)
	waitProvenance(t, objs, "Adopted")
	factsExist("after adoption")
	for _, o := range objs {
		if o.GetKind() != "GroupMembership" && o.GetKind() != "ImpliedRole" && o.GetKind() != "ApplicationCredential" {
			continue
		}
		cur := o.DeepCopy()
		if err := kube.Get(ctx, client.ObjectKeyFromObject(o), cur); err != nil || cur.GetAnnotations()[adoption.AnnotationMarker] == "" {
			t.Errorf("%s %s carries no marker annotation after adoption (%v)", o.GetKind(), o.GetName(), err)
		}
	}
	for k, p := range objects {
		if k == "members" || k == "rule" {
			continue // they show the user's and roles' new markers; factsExist checked them
		}
		after := keystone.raw(t, p...)
		if k == "appcred" {
			// Keystone cannot change an application credential: the adopted one keeps its
			// marker on the resource, and is the same credential, byte for byte.
			if string(after) != string(before[k]) {
				t.Errorf("Keystone application credential changed on adoption:\nbefore %s\nafter  %s", before[k], after)
			}
			continue
		}
		m, rest := withoutMarker(t, after)
		if mk, err := provenance.Parse(m); err != nil || mk.Installation != installationID || mk.Origin != provenance.OriginAdopted {
			t.Errorf("Keystone %s after adoption: marker %q (%v), want this installation's, adopted", k, m, err)
		}
		if _, was := withoutMarker(t, before[k]); !reflect.DeepEqual(was, rest) {
			t.Errorf("Keystone %s: adoption changed more than the marker:\nbefore %s\nafter  %s", k, before[k], after)
		}
	}
	for k, raw := range untouched {
		path := map[string][]string{"foreign": {"projects", pf}, "managed": {"groups", gm}, "foreign application credential": appCredPath(bob.ID, theirAC)}[k]
		if got := keystone.raw(t, path...); string(got) != string(raw) {
			t.Errorf("the %s object was touched:\nbefore %s\nafter  %s", k, raw, got)
		}
	}
}

// checkSkips checks that the foreign project (and any other foreign objects) were refused and
// the managed group skipped.
func checkSkips(t *testing.T, s importer.Summary, foreignID, managedID string, otherForeign ...string) {
	t.Helper()
	var skipped bool
	refused := map[string]bool{}
	for _, sk := range s.Skipped {
		for _, id := range append([]string{foreignID}, otherForeign...) {
			refused[id] = refused[id] || (sk.Refused && strings.Contains(sk.Describe, id) && strings.Contains(sk.Reason, "someone-else"))
		}
		skipped = skipped || (!sk.Refused && strings.Contains(sk.Describe, managedID) && strings.Contains(sk.Reason, "already managed"))
	}
	for _, id := range append([]string{foreignID}, otherForeign...) {
		if !refused[id] {
			t.Errorf("skipped: %+v; want the foreign object %s refused", s.Skipped, id)
		}
	}
	if !skipped {
		t.Errorf("skipped: %+v; want the managed group %s skipped", s.Skipped, managedID)
	}
	for _, f := range s.Files {
		if f.ID == managedID || f.ID == foreignID || slices.Contains(otherForeign, f.ID) {
			t.Errorf("%s was written for %s, which must be left out", f.Name, f.ID)
		}
	}
}

// applyDir creates or updates (spec replaced, as kubectl apply would for these files) every
// manifest of dir, and returns them.
func applyDir(t *testing.T, dir string) []*unstructured.Unstructured {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no manifests in %s: %v", dir, err)
	}
	out := make([]*unstructured.Unstructured, 0, len(files))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		u := &unstructured.Unstructured{}
		if err := yaml.Unmarshal(b, &u.Object); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		// The controller writes the resource's status meanwhile: retry on conflicts.
		err = retry.RetryOnConflict(retry.DefaultRetry, func() error {
			cur := u.DeepCopy()
			if err := kube.Get(context.Background(), client.ObjectKeyFromObject(u), cur); err != nil {
				if kerrors.IsNotFound(err) {
					return kube.Create(context.Background(), u)
				}
				return err
			}
			cur.Object["spec"] = u.Object["spec"]
			return kube.Update(context.Background(), cur)
		})
		if err != nil {
			t.Fatalf("cannot apply %s: %v", f, err)
		}
		out = append(out, u)
	}
	return out
}

// waitProvenance waits for every resource to be Ready with the provenance.
func waitProvenance(t *testing.T, objs []*unstructured.Unstructured, want string) {
	t.Helper()
	for _, o := range objs {
		eventually(t, 90*time.Second, o.GetKind()+" "+o.GetName()+" to be Ready and "+want, func() bool {
			cur := o.DeepCopy()
			if err := kube.Get(context.Background(), client.ObjectKeyFromObject(o), cur); err != nil {
				return false
			}
			p, _, _ := unstructured.NestedString(cur.Object, "status", "atProvider", "provenance")
			conds, _, _ := unstructured.NestedSlice(cur.Object, "status", "conditions")
			for _, c := range conds {
				if m, ok := c.(map[string]any); ok && m["type"] == "Ready" && m["status"] == "True" {
					return p == want
				}
			}
			return false
		})
	}
}

// observeAndDelete deletes the resources without touching Keystone: observe-only first.
func observeAndDelete(t *testing.T, objs []*unstructured.Unstructured) {
	for _, o := range objs {
		cur := o.DeepCopy()
		err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
			if err := kube.Get(context.Background(), client.ObjectKeyFromObject(o), cur); err != nil {
				return err
			}
			_ = unstructured.SetNestedStringSlice(cur.Object, []string{"Observe"}, "spec", "managementPolicies")
			return kube.Update(context.Background(), cur)
		})
		if kerrors.IsNotFound(err) {
			continue
		}
		if err != nil {
			t.Errorf("cannot make %s %s observe-only: %v", o.GetKind(), o.GetName(), err)
		}
		_ = kube.Delete(context.Background(), cur)
	}
	for _, o := range objs {
		waitGone(t, o)
	}
}

// withoutMarker returns an object's marker attribute and the object without it.
func withoutMarker(t *testing.T, raw json.RawMessage) (string, map[string]any) {
	t.Helper()
	var env map[string]map[string]any
	if err := json.Unmarshal(raw, &env); err != nil {
		t.Fatal(err)
	}
	for _, o := range env {
		m, _ := o["crossplane_provenance"].(string)
		delete(o, "crossplane_provenance")
		return m, o
	}
	return "", nil
}
