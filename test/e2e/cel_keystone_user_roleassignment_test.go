//go:build e2e

package e2e

import (
	"context"
	"testing"

	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	ksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
)

// celNoProviderConfig names a ProviderConfig that does not exist: resources made only to test
// validation never reach Keystone.
const celNoProviderConfig = "cel-no-such-providerconfig"

// rejectedChange creates obj (which must be accepted), applies change and asserts that the API
// server refuses the update with a message containing want.
func rejectedChange[T client.Object](t *testing.T, obj T, change func(T), want string) {
	t.Helper()
	celUpdateRefused(t, obj, change, want)
}

func celUser(name string, mutate ...func(*ksv1alpha1.User)) *ksv1alpha1.User {
	return newKeystoneUser(name, name, append([]func(*ksv1alpha1.User){func(u *ksv1alpha1.User) {
		u.Spec.ProviderConfigReference = &xpv2.Reference{Name: celNoProviderConfig}
	}}, mutate...)...)
}

func TestCELKeystoneUser(t *testing.T) {
	t.Parallel()
	t.Run("NoDomain", func(t *testing.T) {
		rejected(t, celUser("cel-user-nodomain", func(u *ksv1alpha1.User) { u.Spec.ForProvider.DomainID = nil }),
			"a user belongs to a domain: set one of domainId, domainRef or domainSelector")
	})
	t.Run("DomainIDChanged", func(t *testing.T) {
		rejectedChange(t, celUser("cel-user-move"), func(u *ksv1alpha1.User) { u.Spec.ForProvider.DomainID = ptr("elsewhere") },
			"domainId cannot be changed: Keystone cannot move a user to another domain")
	})
	t.Run("DomainRefResolvesOnce", func(t *testing.T) {
		// Filling domainId in where there was none (what reference resolution does) is allowed.
		u := celUser("cel-user-ref", func(u *ksv1alpha1.User) {
			u.Spec.ForProvider.DomainID, u.Spec.ForProvider.DomainRef = nil, &xpv2.Reference{Name: "some-domain"}
		})
		create(t, u)
		// The controller writes the resource too (finalizer, conditions): retry on conflicts.
		err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
			get(t, u)
			u.Spec.ForProvider.DomainID = ptr("resolved")
			return kube.Update(context.Background(), u)
		})
		if err != nil {
			t.Fatalf("filling domainId in from a reference was rejected: %v", err)
		}
	})
}

func celRoleAssignment(name string, fp ksv1alpha1.RoleAssignmentParameters) *ksv1alpha1.RoleAssignment {
	return newRoleAssignment(name, fp, func(r *ksv1alpha1.RoleAssignment) {
		r.Spec.ProviderConfigReference = &xpv2.Reference{Name: celNoProviderConfig}
	})
}

func TestCELKeystoneUserRoleAssignment(t *testing.T) {
	t.Parallel()
	ref := &xpv2.Reference{Name: "x"}
	userOnProject := ksv1alpha1.RoleAssignmentParameters{RoleID: ptr("r"), UserID: ptr("u"), ProjectID: ptr("p")}
	groupOnDomain := ksv1alpha1.RoleAssignmentParameters{RoleID: ptr("r"), GroupID: ptr("g"), DomainID: ptr("d")}
	with := func(fp ksv1alpha1.RoleAssignmentParameters, m func(*ksv1alpha1.RoleAssignmentParameters)) ksv1alpha1.RoleAssignmentParameters {
		m(&fp)
		return fp
	}

	creates := map[string]struct {
		fp   ksv1alpha1.RoleAssignmentParameters
		want string
	}{
		"no-role": {with(userOnProject, func(p *ksv1alpha1.RoleAssignmentParameters) { p.RoleID = nil }),
			"set the role to assign: one of roleId, roleRef or roleSelector"},
		"user-and-group": {with(userOnProject, func(p *ksv1alpha1.RoleAssignmentParameters) { p.GroupRef = ref }),
			"set exactly one actor: a user (userId, userRef or userSelector) or a group"},
		"no-actor": {with(userOnProject, func(p *ksv1alpha1.RoleAssignmentParameters) { p.UserID = nil }),
			"set exactly one actor: a user (userId, userRef or userSelector) or a group"},
		"project-and-domain": {with(userOnProject, func(p *ksv1alpha1.RoleAssignmentParameters) { p.DomainSelector = &xpv2.Selector{} }),
			"set exactly one target: a project (projectId, projectRef or projectSelector) or a domain"},
		"no-target": {with(userOnProject, func(p *ksv1alpha1.RoleAssignmentParameters) { p.ProjectID = nil }),
			"set exactly one target: a project (projectId, projectRef or projectSelector) or a domain"},
		"slash-in-id": {with(userOnProject, func(p *ksv1alpha1.RoleAssignmentParameters) { p.RoleID = ptr("a/b") }),
			"spec.forProvider.roleId"},
	}
	for name, tc := range creates {
		t.Run(name, func(t *testing.T) {
			rejected(t, celRoleAssignment("cel-ra-"+name, tc.fp), tc.want)
		})
	}

	changes := map[string]struct {
		fp     ksv1alpha1.RoleAssignmentParameters
		change func(*ksv1alpha1.RoleAssignmentParameters)
		want   string
	}{
		"user-to-group": {userOnProject, func(p *ksv1alpha1.RoleAssignmentParameters) { p.UserID, p.GroupID = nil, ptr("g") },
			"the actor of a role assignment cannot change between a user and a group"},
		"project-to-domain": {userOnProject, func(p *ksv1alpha1.RoleAssignmentParameters) { p.ProjectID, p.DomainID = nil, ptr("d") },
			"the target of a role assignment cannot change between a project and a domain"},
		"inherited": {userOnProject, func(p *ksv1alpha1.RoleAssignmentParameters) { p.Inherited = ptr(true) },
			"inherited cannot change"},
		"role-id": {userOnProject, func(p *ksv1alpha1.RoleAssignmentParameters) { p.RoleID = ptr("r2") },
			"roleId cannot be changed"},
		"user-id": {userOnProject, func(p *ksv1alpha1.RoleAssignmentParameters) { p.UserID = ptr("u2") },
			"userId cannot be changed"},
		"project-id": {userOnProject, func(p *ksv1alpha1.RoleAssignmentParameters) { p.ProjectID = ptr("p2") },
			"projectId cannot be changed"},
		"group-id": {groupOnDomain, func(p *ksv1alpha1.RoleAssignmentParameters) { p.GroupID = ptr("g2") },
			"groupId cannot be changed"},
		"domain-id": {groupOnDomain, func(p *ksv1alpha1.RoleAssignmentParameters) { p.DomainID = ptr("d2") },
			"domainId cannot be changed"},
	}
	for name, tc := range changes {
		t.Run("change-"+name, func(t *testing.T) {
			rejectedChange(t, celRoleAssignment("cel-ra-change-"+name, tc.fp), func(r *ksv1alpha1.RoleAssignment) { tc.change(&r.Spec.ForProvider) }, tc.want)
		})
	}

	t.Run("references-resolve-once", func(t *testing.T) {
		// Filling IDs in where there were none (what reference resolution does) is allowed.
		ra := celRoleAssignment("cel-ra-refs", ksv1alpha1.RoleAssignmentParameters{RoleRef: ref, GroupRef: ref, DomainRef: ref, Inherited: ptr(false)})
		create(t, ra)
		// The controller writes the resource too (finalizer, conditions): retry on conflicts.
		err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
			get(t, ra)
			ra.Spec.ForProvider.RoleID, ra.Spec.ForProvider.GroupID, ra.Spec.ForProvider.DomainID = ptr("r"), ptr("g"), ptr("d")
			return kube.Update(context.Background(), ra)
		})
		if err != nil {
			t.Fatalf("filling IDs in from references was rejected: %v", err)
		}
	})
}
