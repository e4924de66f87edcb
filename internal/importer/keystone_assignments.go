package importer

import (
	"context"
	"slices"
	"strings"

	"github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
)

const unsupportedSystem = "is on the system scope, which a RoleAssignment cannot name: skipped"

// assignments lists the direct role assignments on the domains in scope and their projects.
func (l *ksLister) assignments(ctx context.Context) error {
	if !l.f.kind(kindRoleAssignment) {
		return nil
	}
	as, err := keystone.ListAssignments(ctx, l.sc, nil)
	if err != nil {
		return keystone.Wrap(err, errList, "role assignments")
	}
	for _, a := range as {
		o, inScope := l.assignment(a)
		if inScope {
			l.out = append(l.out, o)
		}
	}
	return nil
}

// assignment makes the object of one assignment, and tells whether it is in scope.
func (l *ksLister) assignment(a keystone.RoleAssignment) (*Object, bool) {
	actor, actorRef, actorKind := "user", a.User, kindUser
	if a.Group.ID != "" {
		actor, actorRef, actorKind = "group", a.Group, kindGroup
	}
	target, targetRef, targetKind := "project", a.Scope.Project, kindProject
	var domainOfTarget string
	switch {
	case a.Scope.Domain.ID != "":
		target, targetRef, targetKind = "domain", a.Scope.Domain, kindDomain
		domainOfTarget = a.Scope.Domain.ID
	case len(a.Scope.System) > 0:
		target, targetRef = "system", keystone.AssignmentRef{ID: "all", Name: "all"}
	default:
		var known bool
		if domainOfTarget, known = l.projectDomain[targetRef.ID]; !known {
			return nil, false
		}
	}
	if target != "system" && !slices.Contains(l.inScope, domainOfTarget) {
		return nil, false
	}
	inherited := a.Scope.Inherited == "projects"
	key := keystone.AssignmentKey(target, targetRef.ID, actor, actorRef.ID, a.Role.ID, inherited)
	parts := []string{nameOr(actorRef), nameOr(a.Role), nameOr(targetRef)}
	if inherited {
		parts = append(parts, "inherited")
	}
	o := keystoneObject(kindRoleAssignment, "role assignment", key, strings.Join(parts, "-"), "")
	o.Describe = "Keystone role assignment of role " + quoteName(a.Role) + " to " + actor + " " + quoteName(actorRef) + " on " + target + " " + quoteName(targetRef)
	if inherited {
		o.Describe += ", inherited to its projects"
	}
	o.Markerless = true
	if target == "system" {
		o.Unsupported = unsupportedSystem
		return o, l.f.Domain == ""
	}
	o.Build = func(r Refs) any {
		fp := v1alpha1.RoleAssignmentParameters{}
		fp.RoleRef, fp.RoleID = ref(r, kindRole, a.Role.ID)
		if actorKind == kindUser {
			fp.UserRef, fp.UserID = ref(r, kindUser, actorRef.ID)
		} else {
			fp.GroupRef, fp.GroupID = ref(r, kindGroup, actorRef.ID)
		}
		if targetKind == kindProject {
			fp.ProjectRef, fp.ProjectID = ref(r, kindProject, targetRef.ID)
		} else {
			fp.DomainRef, fp.DomainID = ref(r, kindDomain, targetRef.ID)
		}
		if inherited {
			fp.Inherited = &inherited
		}
		return fp
	}
	return o, true
}

func nameOr(r keystone.AssignmentRef) string {
	if r.Name != "" {
		return r.Name
	}
	return r.ID
}

func quoteName(r keystone.AssignmentRef) string {
	if r.Name == "" {
		return r.ID
	}
	return `"` + r.Name + `" (ID ` + r.ID + `)`
}
