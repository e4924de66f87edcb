package importer

import (
	"context"
	"fmt"

	"github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
)

// The Keystone kinds that are facts (ADR 0004): a user in a group, a role implying another.
const (
	kindGroupMembership = "GroupMembership"
	kindImpliedRole     = "ImpliedRole"
)

// A fact has no marker in Keystone, and the objects it joins do not say who made it; but when
// one of them carries another installation's marker, that installation may well manage the
// fact too (its own GroupMembership or ImpliedRole), so the fact is refused rather than
// adopted beside it. A fact between objects that are this installation's or unmarked is
// judged by the resources in the cluster alone, like a role assignment.

// memberships lists the users of every group in scope: with --domain, the domain's groups
// (their members may be users of any domain). One list per group.
func (l *ksLister) memberships(ctx context.Context) error {
	if !l.f.kind(kindGroupMembership) {
		return nil
	}
	for _, g := range l.groupsInScope {
		us, err := keystone.GroupUsers(ctx, l.sc, g.ID)
		if err != nil {
			return keystone.Wrap(err, errList, fmt.Sprintf("users of group %q (ID %s)", g.Name, g.ID))
		}
		for _, u := range us {
			if o := membership(g, u); l.f.name(o.Name) {
				l.out = append(l.out, o)
			}
		}
	}
	return nil
}

// membership makes the object of one user in one group.
func membership(g keystone.Group, u keystone.User) *Object {
	key := keystone.MembershipKey(g.ID, u.ID)
	o := keystoneObject(kindGroupMembership, "group membership", key, g.Name+"-"+u.Name, "")
	o.Describe = fmt.Sprintf("Keystone group membership of user %q (ID %s) in group %q (ID %s)", u.Name, u.ID, g.Name, g.ID)
	o.Markerless = true
	o.Related = append(related(fmt.Sprintf("its group %q (ID %s)", g.Name, g.ID), keystone.ParseMarker(g.Marker)),
		related(fmt.Sprintf("its user %q (ID %s)", u.Name, u.ID), keystone.ParseMarker(u.Marker))...)
	o.Build = func(r Refs) any {
		fp := v1alpha1.GroupMembershipParameters{}
		fp.GroupRef, fp.GroupID = ref(r, kindGroup, g.ID)
		fp.UserRef, fp.UserID = ref(r, kindUser, u.ID)
		return fp
	}
	return o
}

// impliedRoles lists the implied-role rules whose prior role is in scope: a rule belongs to its
// prior role, so with --domain those of the domain's own roles (a global role cannot imply a
// domain-specific one), without it every rule.
func (l *ksLister) impliedRoles(ctx context.Context) error {
	if !l.f.kind(kindImpliedRole) {
		return nil
	}
	rules, err := keystone.RoleInferences(ctx, l.sc)
	if err != nil {
		return keystone.Wrap(err, errList, "implied-role rules")
	}
	for _, ri := range rules {
		prior, ok := l.rolesInScope[ri.PriorID]
		if !ok {
			continue
		}
		if o := l.impliedRole(prior, ri); l.f.name(o.Name) {
			l.out = append(l.out, o)
		}
	}
	return nil
}

// impliedRole makes the object of one rule; the implied role, when not listed, is known by the
// name the rule gives.
func (l *ksLister) impliedRole(prior keystone.Role, ri keystone.RoleInference) *Object {
	key := keystone.ImpliedRoleKey(ri.PriorID, ri.ImpliedID)
	implied, listed := l.rolesInScope[ri.ImpliedID]
	if !listed {
		implied = keystone.Role{ID: ri.ImpliedID, Name: ri.ImpliedName}
	}
	o := keystoneObject(kindImpliedRole, "implied-role rule", key, prior.Name+"-implies-"+implied.Name, "")
	o.Describe = fmt.Sprintf("Keystone implied-role rule: role %q (ID %s) implies role %q (ID %s)", prior.Name, prior.ID, implied.Name, implied.ID)
	o.Markerless = true
	o.Related = append(related(fmt.Sprintf("its prior role %q (ID %s)", prior.Name, prior.ID), keystone.ParseMarker(prior.Marker)),
		related(fmt.Sprintf("its implied role %q (ID %s)", implied.Name, implied.ID), keystone.ParseMarker(implied.Marker))...)
	o.Build = func(r Refs) any {
		fp := v1alpha1.ImpliedRoleParameters{}
		fp.PriorRoleRef, fp.PriorRoleID = ref(r, kindRole, prior.ID)
		fp.ImpliedRoleRef, fp.ImpliedRoleID = ref(r, kindRole, implied.ID)
		return fp
	}
	return o
}
