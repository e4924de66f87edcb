//go:build e2e

package e2e

import (
	"context"
	"testing"

	"k8s.io/client-go/util/retry"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	ksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
)

func celGroupMembership(name string, fp ksv1alpha1.GroupMembershipParameters) *ksv1alpha1.GroupMembership {
	return newGroupMembership(name, fp, func(g *ksv1alpha1.GroupMembership) {
		g.Spec.ProviderConfigReference = &xpv2.Reference{Name: celNoProviderConfig}
	})
}

func celImpliedRole(name string, fp ksv1alpha1.ImpliedRoleParameters) *ksv1alpha1.ImpliedRole {
	return newImpliedRole(name, fp, func(r *ksv1alpha1.ImpliedRole) {
		r.Spec.ProviderConfigReference = &xpv2.Reference{Name: celNoProviderConfig}
	})
}

func TestCELKeystoneGroupMembership(t *testing.T) {
	t.Parallel()
	ids := ksv1alpha1.GroupMembershipParameters{GroupID: ptr("g1"), UserID: ptr("u1")}
	t.Run("NoGroup", func(t *testing.T) {
		rejected(t, celGroupMembership("cel-gm-nogroup", ksv1alpha1.GroupMembershipParameters{UserID: ptr("u1")}),
			"set the group: one of groupId, groupRef or groupSelector")
	})
	t.Run("NoUser", func(t *testing.T) {
		rejected(t, celGroupMembership("cel-gm-nouser", ksv1alpha1.GroupMembershipParameters{GroupRef: &xpv2.Reference{Name: "g"}}),
			"set the user: one of userId, userRef or userSelector")
	})
	t.Run("UserIDWithSlash", func(t *testing.T) {
		rejected(t, celGroupMembership("cel-gm-slash", ksv1alpha1.GroupMembershipParameters{GroupID: ptr("g1"), UserID: ptr("a/b")}), "userId")
	})
	t.Run("GroupIDDotDot", func(t *testing.T) {
		rejected(t, celGroupMembership("cel-gm-dotdot", ksv1alpha1.GroupMembershipParameters{GroupID: ptr(".."), UserID: ptr("u1")}),
			"groupId must be a Keystone ID without control characters, and not . or ..")
	})
	t.Run("GroupIDChanged", func(t *testing.T) {
		rejectedChange(t, celGroupMembership("cel-gm-group-move", ids), func(g *ksv1alpha1.GroupMembership) { g.Spec.ForProvider.GroupID = ptr("g2") },
			"groupId cannot be changed: create another GroupMembership instead")
	})
	t.Run("UserIDChanged", func(t *testing.T) {
		rejectedChange(t, celGroupMembership("cel-gm-user-move", ids), func(g *ksv1alpha1.GroupMembership) { g.Spec.ForProvider.UserID = ptr("u2") },
			"userId cannot be changed: create another GroupMembership instead")
	})
	t.Run("UserIDRemoved", func(t *testing.T) {
		rejectedChange(t, celGroupMembership("cel-gm-user-drop", ids), func(g *ksv1alpha1.GroupMembership) {
			g.Spec.ForProvider.UserID, g.Spec.ForProvider.UserRef = nil, &xpv2.Reference{Name: "other"}
		}, "userId cannot be changed")
	})
	t.Run("RefResolvesOnce", func(t *testing.T) {
		// Filling the IDs in where there were none (what reference resolution does) is allowed.
		g := celGroupMembership("cel-gm-ref", ksv1alpha1.GroupMembershipParameters{GroupRef: &xpv2.Reference{Name: "g"}, UserSelector: &xpv2.Selector{}})
		create(t, g)
		err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
			get(t, g)
			g.Spec.ForProvider.GroupID, g.Spec.ForProvider.UserID = ptr("g-resolved"), ptr("u-resolved")
			return kube.Update(context.Background(), g)
		})
		if err != nil {
			t.Fatalf("filling the IDs in from a reference and a selector was rejected: %v", err)
		}
	})
}

func TestCELKeystoneImpliedRole(t *testing.T) {
	t.Parallel()
	ids := ksv1alpha1.ImpliedRoleParameters{PriorRoleID: ptr("r1"), ImpliedRoleID: ptr("r2")}
	t.Run("NoPrior", func(t *testing.T) {
		rejected(t, celImpliedRole("cel-ir-noprior", ksv1alpha1.ImpliedRoleParameters{ImpliedRoleID: ptr("r2")}),
			"set the prior role: one of priorRoleId, priorRoleRef or priorRoleSelector")
	})
	t.Run("NoImplied", func(t *testing.T) {
		rejected(t, celImpliedRole("cel-ir-noimplied", ksv1alpha1.ImpliedRoleParameters{PriorRoleSelector: &xpv2.Selector{}}),
			"set the implied role: one of impliedRoleId, impliedRoleRef or impliedRoleSelector")
	})
	t.Run("ImpliesItself", func(t *testing.T) {
		rejected(t, celImpliedRole("cel-ir-self", ksv1alpha1.ImpliedRoleParameters{PriorRoleID: ptr("r1"), ImpliedRoleID: ptr("r1")}),
			"a role cannot imply itself")
	})
	t.Run("NotARoleID", func(t *testing.T) {
		rejected(t, celImpliedRole("cel-ir-badid", ksv1alpha1.ImpliedRoleParameters{PriorRoleID: ptr("r 1"), ImpliedRoleID: ptr("r2")}),
			"priorRoleId must be a Keystone role ID")
	})
	t.Run("PriorChanged", func(t *testing.T) {
		rejectedChange(t, celImpliedRole("cel-ir-prior-move", ids), func(r *ksv1alpha1.ImpliedRole) { r.Spec.ForProvider.PriorRoleID = ptr("r3") },
			"priorRoleId cannot be changed: create another ImpliedRole instead")
	})
	t.Run("ImpliedChanged", func(t *testing.T) {
		rejectedChange(t, celImpliedRole("cel-ir-implied-move", ids), func(r *ksv1alpha1.ImpliedRole) { r.Spec.ForProvider.ImpliedRoleID = ptr("r3") },
			"impliedRoleId cannot be changed: create another ImpliedRole instead")
	})
	t.Run("RefResolvesOnce", func(t *testing.T) {
		r := celImpliedRole("cel-ir-ref", ksv1alpha1.ImpliedRoleParameters{PriorRoleRef: &xpv2.Reference{Name: "a"}, ImpliedRoleRef: &xpv2.Reference{Name: "b"}})
		create(t, r)
		err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
			get(t, r)
			r.Spec.ForProvider.PriorRoleID, r.Spec.ForProvider.ImpliedRoleID = ptr("ra"), ptr("rb")
			return kube.Update(context.Background(), r)
		})
		if err != nil {
			t.Fatalf("filling the IDs in from references was rejected: %v", err)
		}
	})
}
