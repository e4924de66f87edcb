//go:build e2e

package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	nsksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// A namespaced Group, Role and RoleAssignment of the role to the group on a namespaced Project,
// all by reference inside one namespace, become Ready and Keystone holds the assignment; a
// RoleAssignment of another namespace naming the same resources does not resolve; deleting the
// resources unassigns the role and deletes the objects.
func TestNamespacedKeystoneRBAC(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const ns, other = "rbac-a", "rbac-b"
	teamNamespace(t, ns)
	teamNamespace(t, other)

	ref := func(name string) *xpv2.Reference { return &xpv2.Reference{Name: name} }
	dom := &nsksv1alpha1.Domain{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "rbac"},
		Spec:       nsksv1alpha1.DomainSpec{ManagedResourceSpec: teamPC, ForProvider: nsksv1alpha1.DomainParameters{Name: "e2e-ns-rbac"}},
	}
	proj := &nsksv1alpha1.Project{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "rbac"},
		Spec:       nsksv1alpha1.ProjectSpec{ManagedResourceSpec: teamPC, ForProvider: nsksv1alpha1.ProjectParameters{Name: "e2e-ns-rbac", DomainRef: ref("rbac")}},
	}
	group := &nsksv1alpha1.Group{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "rbac"},
		Spec:       nsksv1alpha1.GroupSpec{ManagedResourceSpec: teamPC, ForProvider: nsksv1alpha1.GroupParameters{Name: "e2e-ns-rbac", DomainRef: ref("rbac")}},
	}
	role := &nsksv1alpha1.Role{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "rbac"},
		Spec:       nsksv1alpha1.RoleSpec{ManagedResourceSpec: teamPC, ForProvider: nsksv1alpha1.RoleParameters{Name: "e2e-ns-rbac"}},
	}
	ra := &nsksv1alpha1.RoleAssignment{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "rbac"},
		Spec: nsksv1alpha1.RoleAssignmentSpec{ManagedResourceSpec: teamPC, ForProvider: nsksv1alpha1.RoleAssignmentParameters{
			RoleRef: ref("rbac"), GroupRef: ref("rbac"), ProjectRef: ref("rbac"),
		}},
	}
	apply(t, ra, role, group, proj, dom)
	cleanup(t, ra, role, group, proj, dom)
	for _, mg := range []resource.Managed{dom, proj, group, role, ra} {
		waitReady(t, mg)
	}

	// The references resolved to this namespace's resources, and Keystone holds the assignment.
	get(t, ra)
	fp := ra.Spec.ForProvider
	for what, got := range map[string][2]string{
		"roleId":    {deref(fp.RoleID), meta.GetExternalName(role)},
		"groupId":   {deref(fp.GroupID), meta.GetExternalName(group)},
		"projectId": {deref(fp.ProjectID), meta.GetExternalName(proj)},
	} {
		if got[0] == "" || got[0] != got[1] {
			t.Errorf("RoleAssignment %s: got %q, want %q", what, got[0], got[1])
		}
	}
	assignment := []string{"projects", meta.GetExternalName(proj), "groups", meta.GetExternalName(group), "roles", meta.GetExternalName(role)}
	if want := "project/" + meta.GetExternalName(proj) + "/group/" + meta.GetExternalName(group) + "/role/" + meta.GetExternalName(role); meta.GetExternalName(ra) != want {
		t.Errorf("RoleAssignment external name %q, want %q", meta.GetExternalName(ra), want)
	}
	if !roleAssigned(t, assignment...) {
		t.Fatalf("Keystone has no assignment %v", assignment)
	}
	m, err := provenance.Parse(ra.GetAnnotations()[adoption.AnnotationMarker])
	if err != nil || m.Installation != installationID || m.Resource != "RoleAssignment.keystone.identity.m.crossplane.io/rbac-a/rbac" {
		t.Errorf("RoleAssignment marker: got %+v, %v; want RoleAssignment.keystone.identity.m.crossplane.io/rbac-a/rbac", m, err)
	}
	gm, err := provenance.Parse(field(t, keystone.raw(t, "groups", meta.GetExternalName(group)), "group", "crossplane_provenance").(string))
	if err != nil || gm.Resource != "Group.keystone.identity.m.crossplane.io/rbac-a/rbac" {
		t.Errorf("group marker: got %+v, %v; want Group.keystone.identity.m.crossplane.io/rbac-a/rbac", gm, err)
	}

	// Another namespace's RoleAssignment naming the same resources resolves none of them.
	stray := &nsksv1alpha1.RoleAssignment{
		ObjectMeta: metav1.ObjectMeta{Namespace: other, Name: "rbac"},
		Spec: nsksv1alpha1.RoleAssignmentSpec{ManagedResourceSpec: teamPC, ForProvider: nsksv1alpha1.RoleAssignmentParameters{
			RoleRef: ref("rbac"), GroupRef: ref("rbac"), ProjectRef: ref("rbac"),
		}},
	}
	create(t, stray)
	eventually(t, 30*time.Second, "the "+other+" RoleAssignment to fail resolving "+ns+"'s resources", func() bool {
		c := condition(get(t, stray), xpv2.TypeSynced)
		return c.Status == corev1.ConditionFalse && strings.Contains(c.Message, "spec.forProvider.")
	})
	if f := stray.Spec.ForProvider; f.RoleID != nil || f.GroupID != nil || f.ProjectID != nil || meta.GetExternalName(stray) != "" {
		t.Errorf("%s's RoleAssignment resolved %s's resources: %+v, external name %q", other, ns, f, meta.GetExternalName(stray))
	}

	// Deleting everything unassigns the role and deletes the objects.
	for _, mg := range []client.Object{stray, ra} {
		if err := kube.Delete(ctx, mg); err != nil {
			t.Fatal(err)
		}
		waitGone(t, mg)
	}
	if roleAssigned(t, assignment...) {
		t.Errorf("Keystone still has assignment %v after its RoleAssignment was deleted", assignment)
	}
	groupID, roleID := meta.GetExternalName(group), meta.GetExternalName(role)
	deleteAll(t, role, group, proj, dom)
	if keystone.exists(t, "groups", groupID) || keystone.exists(t, "roles", roleID) {
		t.Errorf("Keystone group %s or role %s still exists after their resources were deleted", groupID, roleID)
	}
}
