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
// HEAD per poll. The marker lives on the managed resource (adoption.AnnotationMarker): an
// assignment that exists without this resource having made or adopted it is AdoptionRequired
// under FailOnConflict, and deleting the resource unassigns only what it owns.
package roleassignment

import (
	"context"
	"net/http"
	"net/url"
	"reflect"
	"strings"

	"github.com/google/go-cmp/cmp"
	"github.com/gophercloud/gophercloud/v2"
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	clusterv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
	"github.com/crossplane-contrib/provider-identity/internal/managedkind"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
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

// url is the assignment's address in the identity API.
func (a assignment) url(sc keystone.API) string {
	parts := []string{a.Target + "s", url.PathEscape(a.TargetID), a.Actor + "s", url.PathEscape(a.ActorID), "roles", url.PathEscape(a.RoleID)}
	if a.Inherited {
		return sc.ServiceURL(append(append([]string{"OS-INHERIT"}, parts...), "inherited_to_projects")...)
	}
	return sc.ServiceURL(parts...)
}

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
		NewDriver: sharedDriver(o.SharedReads),
	})
}

// sharedDriver returns the driver over a client, whose checks of the assignments of one role
// are shared by every resource as o says.
func sharedDriver(o clients.SharedReadOptions) func(keystone.API) adoption.Driver[mr, assignment] {
	reads := clients.NewSharedReads[assignment](o)
	return func(sc keystone.API) adoption.Driver[mr, assignment] { return &external{sc: sc, reads: reads} }
}

// external drives Keystone role assignments for the adoption engine.
type external struct {
	sc keystone.API
	// reads answers checks from one list of the role's assignments when many resources check
	// assignments of that role at about the same time.
	reads *clients.SharedReads[assignment]
}

// Get checks that the assignment named by the external name exists: one HEAD, or its row in a
// list of the role's assignments shared with the other resources that check one.
func (e *external) Get(ctx context.Context, _ mr, id string) (assignment, error) {
	a, err := parseKey(id)
	if err != nil {
		return a, err
	}
	scope, ok := e.scope(a)
	if !ok {
		return a, e.check(ctx, a)
	}
	return e.reads.Get(ctx, scope, a.Key(), e.source(a))
}

// source lists the assignments of a's role, or checks a alone.
func (e *external) source(a assignment) clients.Source[assignment] {
	return clients.Source[assignment]{
		List: func(ctx context.Context) ([]assignment, error) { return e.listRole(ctx, a.RoleID) },
		Get:  func(ctx context.Context) (assignment, error) { return a, e.check(ctx, a) },
		ID:   assignment.Key,
		Refused: func(err error) bool {
			return keystone.IsTruncated(err) || gophercloud.ResponseCodeIs(err, http.StatusForbidden)
		},
	}
}

// listRole lists the role's project and domain assignments.
func (e *external) listRole(ctx context.Context, roleID string) ([]assignment, error) {
	keys, err := keystone.AssignmentKeys(ctx, e.sc, roleFilter(roleID))
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

// scope is the list an assignment is read in: the role's assignments, per client (its
// credentials decide what it sees). A client that cannot be a map key (a test double passed by
// value) checks alone.
func (e *external) scope(a assignment) (clients.Scope, bool) {
	if e.reads == nil || e.sc == nil || !reflect.TypeOf(e.sc).Comparable() {
		return clients.Scope{}, false
	}
	return clients.Scope{Client: e.sc, List: e.sc.ServiceURL("role_assignments") + "?" + roleFilter(a.RoleID).Encode()}, true
}

// Find checks whether the assignment the spec names exists. There is at most one. A fresh
// shared list of the role's assignments answers when one is at hand: Create checks again with
// a HEAD right before its PUT, so an assignment made by hand since the list is refused, not
// claimed.
func (e *external) Find(ctx context.Context, mg mr) ([]assignment, error) {
	a, err := desired(mg)
	if err != nil {
		return keystone.Unresolved[assignment](mg, err)
	}
	if scope, ok := e.scope(a); ok {
		if found, ok := e.reads.Match(ctx, scope, a.Key(), func(b assignment) bool { return b == a }, e.source(a)); ok {
			return found, nil
		}
	}
	err = e.check(ctx, a)
	switch {
	case keystone.IsNotFound(err):
		return nil, nil
	case err != nil:
		return nil, err
	}
	return []assignment{a}, nil
}

func (e *external) check(ctx context.Context, a assignment) error {
	_, err := e.sc.Head(ctx, a.url(e.sc), &gophercloud.RequestOpts{OkCodes: []int{http.StatusNoContent}})
	if err != nil && !keystone.IsNotFound(err) {
		return keystone.Wrap(err, errCheck, a.Key())
	}
	return err
}

func (e *external) IsNotFound(err error) bool { return keystone.IsNotFound(err) }

// Describe presents an assignment; it carries no marker (the engine reads the resource's).
func (e *external) Describe(a assignment) adoption.Description {
	return adoption.Description{ID: a.Key(), Type: typeName, Key: a.Key(), Markerless: true}
}

// Observe records the assignment. Existing is all there is to being up to date, unless the
// spec now names another assignment than the one this resource manages.
func (e *external) Observe(mg mr, a assignment, p identityv1alpha1.Provenance) adoption.Observation {
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
	want, err := desired(mg)
	if err != nil {
		// Unresolved references fail the reconcile before Observe; treat as no change.
		return adoption.Observation{UpToDate: true}
	}
	diff := cmp.Diff(want.Key(), a.Key())
	return adoption.Observation{UpToDate: diff == "", Diff: diff}
}

// Create assigns the role. Keystone's PUT answers 204 whether or not the assignment existed, so
// it cannot tell an assignment made since Observe's HEAD (by hand, by another installation) from
// a new one: a HEAD right before the PUT refuses such an assignment instead of claiming it, and
// leaves only the round trip between the two for a race.
func (e *external) Create(ctx context.Context, mg mr, _ provenance.Marker) (string, managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return "", nil, err
	}
	a, err := desired(mg)
	if err != nil {
		return "", nil, err
	}
	switch err := e.check(ctx, a); {
	case err == nil:
		return "", nil, &adoption.ConflictError{Object: e.Describe(a)}
	case !keystone.IsNotFound(err):
		return "", nil, err
	}
	scope, shared := e.scope(a)
	if _, err := e.sc.Put(ctx, a.url(e.sc), nil, nil, &gophercloud.RequestOpts{OkCodes: []int{http.StatusNoContent}}); err != nil {
		if shared {
			e.reads.Forget(scope, a.Key())
		}
		return "", nil, keystone.Wrap(err, errAssign, a.Key())
	}
	if shared {
		// Keystone's 204 is the answer: the assignment exists now.
		e.reads.Wrote(scope, a.Key(), a)
	}
	return a.Key(), nil, nil
}

// Update has nothing to write: an assignment has no fields, and its marker lives on the
// resource (the engine stamps it on adoption). A spec that now names another assignment is
// refused rather than silently leaving the old one behind.
func (e *external) Update(_ context.Context, mg mr, a assignment, _ provenance.Marker) (managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return nil, err
	}
	want, err := desired(mg)
	if err != nil {
		return nil, err
	}
	if want != a {
		return nil, errors.Errorf(errChanged, want.Key(), a.Key())
	}
	return nil, nil
}

// Delete unassigns the observed assignment, the one this resource owns.
func (e *external) Delete(ctx context.Context, _ mr, a assignment) error {
	_, err := e.sc.Delete(ctx, a.url(e.sc), &gophercloud.RequestOpts{OkCodes: []int{http.StatusNoContent}})
	if scope, ok := e.scope(a); ok {
		e.reads.Forget(scope, a.Key())
	}
	return keystone.Wrap(keystone.IgnoreNotFound(err), errUnassign, a.Key())
}

// desired is the assignment the spec names, with its references resolved.
func desired(mg mr) (assignment, error) {
	fp := mg.Parameters()
	a := assignment{RoleID: deref(fp.RoleID), Inherited: fp.Inherited != nil && *fp.Inherited}
	switch {
	case fp.UserID != nil || fp.UserRef != nil || fp.UserSelector != nil:
		a.Actor, a.ActorID = "user", deref(fp.UserID)
	default:
		a.Actor, a.ActorID = "group", deref(fp.GroupID)
	}
	switch {
	case fp.ProjectID != nil || fp.ProjectRef != nil || fp.ProjectSelector != nil:
		a.Target, a.TargetID = "project", deref(fp.ProjectID)
	default:
		a.Target, a.TargetID = "domain", deref(fp.DomainID)
	}
	for _, f := range []struct{ what, field, v string }{
		{"role", "roleId", a.RoleID},
		{a.Actor, a.Actor + "Id", a.ActorID},
		{a.Target, a.Target + "Id", a.TargetID},
	} {
		if f.v == "" {
			return assignment{}, errors.Errorf(errUnresolved, f.what, f.field)
		}
	}
	return a, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
