// Package roleassignment manages Keystone role assignments.
//
// An assignment is a fact (this role, to this user or group, on this project or domain,
// inherited or not), not an object: it has no ID, no fields and nowhere to keep a provenance
// marker. Its external name is therefore its key, readable in EXTERNAL-NAME:
//
//	<project|domain>/<target ID>/<user|group>/<actor ID>/role/<role ID>[/inherited]
//
// for example project/0c7f.../user/4b1e.../role/9fe2... or
// domain/default/group/77aa.../role/9fe2.../inherited. The key maps one to one onto the
// assignment's URL in the identity API (/v3/projects/{id}/users/{id}/roles/{id}, under
// /v3/OS-INHERIT/... with /inherited_to_projects for inherited ones), which is checked with one
// HEAD per poll, or with one shared list of the role's assignments when many resources check
// assignments of one role. The fact package drives it; the marker lives on the managed resource
// (adoption.AnnotationMarker).
package roleassignment

import (
	"context"
	"net/url"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	clusterv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
	"github.com/crossplane-contrib/provider-identity/internal/controller/keystone/fact"
	"github.com/crossplane-contrib/provider-identity/internal/managedkind"
)

const (
	errKey        = "external name %q is not a role assignment key: want <project|domain>/<ID>/<user|group>/<ID>/role/<ID>, optionally followed by /inherited"
	errUnresolved = "the %s of the role assignment is not known: set spec.forProvider.%s, or wait for its reference or selector to resolve"
	errCheck      = "cannot check Keystone role assignment %s"
	errAssign     = "cannot assign Keystone role (%s)"
	errUnassign   = "cannot unassign Keystone role (%s)"
	errChanged    = "spec.forProvider now names the role assignment %s, but this resource manages %s. An assignment cannot be changed: restore the spec, or create another RoleAssignment and delete this one"

	typeName = "Keystone role assignment"

	inheritedSuffix = "inherited"
)

// kind is what a role assignment has of its own. A fresh shared list of the role's
// assignments answers Find too: Create checks again with a HEAD right before its PUT, so an
// assignment made by hand since the list is refused, not claimed.
var kind = fact.Kind[mr, assignment]{
	Type: typeName, Parse: parseKey, URL: assignmentURL,
	Desired: desired, Validate: validate, Record: record,
	ErrCheck: errCheck, ErrMake: errAssign, ErrRemove: errUnassign, ErrChanged: errChanged,
	Shared: &fact.Shared[assignment]{URL: roleListURL, List: listRole, Find: true},
}

// An assignment is one role assignment, identified entirely by its key.
type assignment struct {
	// Target is "project" or "domain".
	Target   string
	TargetID string
	// Actor is "user" or "group".
	Actor     string
	ActorID   string
	RoleID    string
	Inherited bool
}

// Key renders the assignment as its external name.
func (a assignment) Key() string {
	return keystone.AssignmentKey(a.Target, a.TargetID, a.Actor, a.ActorID, a.RoleID, a.Inherited)
}

// parseKey reads an external name written by Key.
func parseKey(s string) (assignment, error) {
	p := strings.Split(s, "/")
	a := assignment{}
	switch {
	case len(p) == 7 && p[6] == inheritedSuffix:
		a.Inherited = true
	case len(p) == 6:
	default:
		return a, errors.Errorf(errKey, s)
	}
	a.Target, a.TargetID, a.Actor, a.ActorID, a.RoleID = p[0], p[1], p[2], p[3], p[5]
	if (a.Target != "project" && a.Target != "domain") || (a.Actor != "user" && a.Actor != "group") || p[4] != "role" ||
		a.TargetID == "" || a.ActorID == "" || a.RoleID == "" {
		return assignment{}, errors.Errorf(errKey, s)
	}
	return a, nil
}

// assignmentURL is the assignment's address in the identity API.
func assignmentURL(sc keystone.API, a assignment) string {
	parts := []string{a.Target + "s", url.PathEscape(a.TargetID), a.Actor + "s", url.PathEscape(a.ActorID), "roles", url.PathEscape(a.RoleID)}
	if a.Inherited {
		return sc.ServiceURL(append(append([]string{"OS-INHERIT"}, parts...), "inherited_to_projects")...)
	}
	return sc.ServiceURL(parts...)
}

// roleListURL is the list an assignment is read in: the role's assignments.
func roleListURL(sc keystone.API, a assignment) string {
	return sc.ServiceURL("role_assignments") + "?" + roleFilter(a.RoleID).Encode()
}

// listRole lists the project and domain assignments of a's role; system assignments have no
// key and are left out.
func listRole(ctx context.Context, sc keystone.API, a assignment) ([]assignment, error) {
	keys, err := keystone.AssignmentKeys(ctx, sc, roleFilter(a.RoleID))
	if err != nil {
		return nil, err
	}
	out := make([]assignment, 0, len(keys))
	for _, k := range keys {
		if a, err := parseKey(k); err == nil {
			out = append(out, a)
		}
	}
	return out, nil
}

func roleFilter(roleID string) url.Values { return url.Values{"role.id": {roleID}} }

// mr is a RoleAssignment of either scope: the driver is written once against it.
type mr interface {
	resource.Managed
	Parameters() *v1alpha1.RoleAssignmentParameters
	Observation() *v1alpha1.RoleAssignmentObservation
	GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy
}

// scopes are the RoleAssignment kinds: cluster-scoped (legacy) and namespaced.
var scopes = []managedkind.Scoped[mr]{
	{GVK: clusterv1alpha1.RoleAssignmentGroupVersionKind, Obj: &clusterv1alpha1.RoleAssignment{}},
	{GVK: v1alpha1.RoleAssignmentGroupVersionKind, Obj: &v1alpha1.RoleAssignment{}},
}

// Setup adds the controllers that reconcile RoleAssignment managed resources of both scopes.
func Setup(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopes(mgr, o, scopes, setup)
}

// SetupGated adds each scope's controller once its RoleAssignment CRD is installed.
func SetupGated(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopesGated(mgr, o, scopes, setup)
}

func setup(mgr ctrl.Manager, o managedkind.Options, gvk schema.GroupVersionKind, obj mr) error {
	return managedkind.SetupKeystone(mgr, o, managedkind.Kind[mr, keystone.API, assignment]{
		GVK: gvk, Object: obj,
		NewDriver: kind.Drivers(o.SharedReads),
	})
}

// record writes the observed assignment to status.atProvider.
func record(mg mr, a assignment, p identityv1alpha1.Provenance) {
	o := v1alpha1.RoleAssignmentObservation{ID: a.Key(), RoleID: a.RoleID, Inherited: a.Inherited, Provenance: p}
	switch a.Actor {
	case "user":
		o.UserID = a.ActorID
	case "group":
		o.GroupID = a.ActorID
	}
	switch a.Target {
	case "project":
		o.ProjectID = a.TargetID
	case "domain":
		o.DomainID = a.TargetID
	}
	*mg.Observation() = o
}

// desired is the assignment the spec names, with its references resolved.
func desired(mg mr) (assignment, error) {
	fp := mg.Parameters()
	a := assignment{RoleID: fact.Deref(fp.RoleID), Inherited: fp.Inherited != nil && *fp.Inherited}
	switch {
	case fp.UserID != nil || fp.UserRef != nil || fp.UserSelector != nil:
		a.Actor, a.ActorID = "user", fact.Deref(fp.UserID)
	default:
		a.Actor, a.ActorID = "group", fact.Deref(fp.GroupID)
	}
	switch {
	case fp.ProjectID != nil || fp.ProjectRef != nil || fp.ProjectSelector != nil:
		a.Target, a.TargetID = "project", fact.Deref(fp.ProjectID)
	default:
		a.Target, a.TargetID = "domain", fact.Deref(fp.DomainID)
	}
	if err := fact.Resolved(errUnresolved,
		fact.ID{What: "role", Field: "roleId", Value: a.RoleID},
		fact.ID{What: a.Actor, Field: a.Actor + "Id", Value: a.ActorID},
		fact.ID{What: a.Target, Field: a.Target + "Id", Value: a.TargetID}); err != nil {
		return assignment{}, err
	}
	return a, nil
}
