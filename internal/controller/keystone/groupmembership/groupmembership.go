// Package groupmembership manages Keystone group memberships: a user in a group.
//
// A membership is a fact, not an object: it has no ID, no fields and nowhere to keep a
// provenance marker. Its external name is therefore its key, readable in EXTERNAL-NAME:
//
//	<group ID>/<user ID>
//
// The group comes first because the membership lives under it in the identity API
// (/v3/groups/{group}/users/{user}), which is checked with one HEAD per poll, or with one shared
// list of the group's users (GET /v3/groups/{group}/users) when many resources check members of
// one group. A user ID never holds '/' (the CRD and validate refuse it), so the key splits
// unambiguously. The marker lives on the managed resource (adoption.AnnotationMarker): a
// membership that exists without this resource having made or adopted it is AdoptionRequired
// under FailOnConflict, and deleting the resource removes only a membership it owns.
package groupmembership

import (
	"context"
	"net/http"
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
	errKey        = "external name %q is not a group membership key: want <group ID>/<user ID>"
	errUnresolved = "the %s of the group membership is not known: set spec.forProvider.%s, or wait for its reference or selector to resolve"
	errCheck      = "cannot check Keystone group membership %s"
	errAdd        = "cannot add the user to the Keystone group (membership %s)"
	errRemove     = "cannot remove the user from the Keystone group (membership %s)"
	errChanged    = "spec.forProvider now names the group membership %s, but this resource manages %s. A membership cannot be changed: restore the spec, or create another GroupMembership and delete this one"

	typeName = "Keystone group membership"
)

// A membership is one user in one group, identified entirely by its key.
type membership struct {
	GroupID string
	UserID  string
}

// Key renders the membership as its external name.
func (m membership) Key() string { return keystone.MembershipKey(m.GroupID, m.UserID) }

func (m membership) url(sc keystone.API) string {
	return keystone.MembershipURL(sc, m.GroupID, m.UserID)
}

// parseKey reads an external name written by Key.
func parseKey(s string) (membership, error) {
	g, u, ok := strings.Cut(s, "/")
	if !ok || g == "" || u == "" || strings.Contains(u, "/") {
		return membership{}, errors.Errorf(errKey, s)
	}
	return membership{GroupID: g, UserID: u}, nil
}

// mr is a GroupMembership of either scope: the driver is written once against it.
type mr interface {
	resource.Managed
	Parameters() *v1alpha1.GroupMembershipParameters
	Observation() *v1alpha1.GroupMembershipObservation
	GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy
}

// scopes are the GroupMembership kinds: cluster-scoped (legacy) and namespaced.
var scopes = []managedkind.Scoped[mr]{
	{GVK: clusterv1alpha1.GroupMembershipGroupVersionKind, Obj: &clusterv1alpha1.GroupMembership{}},
	{GVK: v1alpha1.GroupMembershipGroupVersionKind, Obj: &v1alpha1.GroupMembership{}},
}

// Setup adds the controllers that reconcile GroupMembership managed resources of both scopes.
func Setup(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopes(mgr, o, scopes, setup)
}

// SetupGated adds each scope's controller once its GroupMembership CRD is installed.
func SetupGated(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopesGated(mgr, o, scopes, setup)
}

func setup(mgr ctrl.Manager, o managedkind.Options, gvk schema.GroupVersionKind, obj mr) error {
	return managedkind.SetupKeystone(mgr, o, managedkind.Kind[mr, keystone.API, membership]{
		GVK: gvk, Object: obj,
		NewDriver: sharedDriver(o.SharedReads),
	})
}

// sharedDriver returns the driver over a client, whose checks of the members of one group are
// shared by every resource as o says.
func sharedDriver(o clients.SharedReadOptions) func(keystone.API) adoption.Driver[mr, membership] {
	reads := clients.NewSharedReads[membership](o)
	return func(sc keystone.API) adoption.Driver[mr, membership] { return &external{sc: sc, reads: reads} }
}

// external drives Keystone group memberships for the adoption engine.
type external struct {
	sc keystone.API
	// reads answers checks from one list of the group's users when many resources check
	// members of that group at about the same time.
	reads *clients.SharedReads[membership]
}

// Get checks that the membership named by the external name exists: one HEAD, or its row in a
// list of the group's users shared with the other resources that check one.
func (e *external) Get(ctx context.Context, _ mr, id string) (membership, error) {
	m, err := parseKey(id)
	if err != nil {
		return m, err
	}
	scope, ok := e.scope(m)
	if !ok {
		return m, e.check(ctx, m)
	}
	return e.reads.Get(ctx, scope, m.Key(), clients.Source[membership]{
		List: func(ctx context.Context) ([]membership, error) { return e.listGroup(ctx, m.GroupID) },
		Get:  func(ctx context.Context) (membership, error) { return m, e.check(ctx, m) },
		ID:   membership.Key,
		Refused: func(err error) bool {
			return keystone.IsTruncated(err) || gophercloud.ResponseCodeIs(err, http.StatusForbidden)
		},
	})
}

// listGroup lists the group's memberships.
func (e *external) listGroup(ctx context.Context, groupID string) ([]membership, error) {
	ids, err := keystone.MemberIDs(ctx, e.sc, groupID)
	if err != nil {
		return nil, err
	}
	out := make([]membership, 0, len(ids))
	for _, u := range ids {
		out = append(out, membership{GroupID: groupID, UserID: u})
	}
	return out, nil
}

// scope is the list a membership is read in: the group's users, per client (its credentials
// decide what it sees). A client that cannot be a map key (a test double passed by value)
// checks alone.
func (e *external) scope(m membership) (clients.Scope, bool) {
	if e.reads == nil || e.sc == nil || !reflect.TypeOf(e.sc).Comparable() {
		return clients.Scope{}, false
	}
	return clients.Scope{Client: e.sc, List: keystone.MembersURL(e.sc, m.GroupID)}, true
}

// Find checks whether the membership the spec names exists. There is at most one.
func (e *external) Find(ctx context.Context, mg mr) ([]membership, error) {
	m, err := desired(mg)
	if err != nil {
		return keystone.Unresolved[membership](mg, err)
	}
	err = e.check(ctx, m)
	switch {
	case keystone.IsNotFound(err):
		return nil, nil
	case err != nil:
		return nil, err
	}
	return []membership{m}, nil
}

func (e *external) check(ctx context.Context, m membership) error {
	err := keystone.CheckFact(ctx, e.sc, m.url(e.sc))
	if err != nil && !keystone.IsNotFound(err) {
		return keystone.Wrap(err, errCheck, m.Key())
	}
	return err
}

func (e *external) IsNotFound(err error) bool { return keystone.IsNotFound(err) }

// Describe presents a membership; it carries no marker (the engine reads the resource's).
func (e *external) Describe(m membership) adoption.Description {
	return adoption.Description{ID: m.Key(), Type: typeName, Key: m.Key(), Markerless: true}
}

// Observe records the membership. Existing is all there is to being up to date, unless the
// spec now names another membership than the one this resource manages.
func (e *external) Observe(mg mr, m membership, p identityv1alpha1.Provenance) adoption.Observation {
	*mg.Observation() = v1alpha1.GroupMembershipObservation{ID: m.Key(), GroupID: m.GroupID, UserID: m.UserID, Provenance: p}
	want, err := desired(mg)
	if err != nil {
		// Unresolved references fail the reconcile before Observe; treat as no change.
		return adoption.Observation{UpToDate: true}
	}
	diff := cmp.Diff(want.Key(), m.Key())
	return adoption.Observation{UpToDate: diff == "", Diff: diff}
}

// Create adds the user to the group. Keystone's PUT answers 204 whether or not the user was
// already a member, so it cannot tell a membership made since Observe's HEAD (by hand, by
// another installation) from a new one: a HEAD right before the PUT refuses such a membership
// instead of claiming it, and leaves only the round trip between the two for a race.
func (e *external) Create(ctx context.Context, mg mr, _ provenance.Marker) (string, managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return "", nil, err
	}
	m, err := desired(mg)
	if err != nil {
		return "", nil, err
	}
	switch err := e.check(ctx, m); {
	case err == nil:
		return "", nil, &adoption.ConflictError{Object: e.Describe(m)}
	case !keystone.IsNotFound(err):
		return "", nil, err
	}
	scope, shared := e.scope(m)
	if err := keystone.PutFact(ctx, e.sc, m.url(e.sc)); err != nil {
		if shared {
			e.reads.Forget(scope, m.Key())
		}
		return "", nil, keystone.Wrap(err, errAdd, m.Key())
	}
	if shared {
		// Keystone's 204 is the answer: the membership exists now.
		e.reads.Wrote(scope, m.Key(), m)
	}
	return m.Key(), nil, nil
}

// Update has nothing to write: a membership has no fields, and its marker lives on the
// resource (the engine stamps it on adoption). A spec that now names another membership is
// refused rather than silently leaving the old one behind.
func (e *external) Update(_ context.Context, mg mr, m membership, _ provenance.Marker) (managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return nil, err
	}
	want, err := desired(mg)
	if err != nil {
		return nil, err
	}
	if want != m {
		return nil, errors.Errorf(errChanged, want.Key(), m.Key())
	}
	return nil, nil
}

// Delete removes the observed membership, the one this resource owns.
func (e *external) Delete(ctx context.Context, _ mr, m membership) error {
	err := keystone.DeleteFact(ctx, e.sc, m.url(e.sc))
	if scope, ok := e.scope(m); ok {
		e.reads.Forget(scope, m.Key())
	}
	return keystone.Wrap(keystone.IgnoreNotFound(err), errRemove, m.Key())
}

// desired is the membership the spec names, with its references resolved.
func desired(mg mr) (membership, error) {
	fp := mg.Parameters()
	m := membership{GroupID: deref(fp.GroupID), UserID: deref(fp.UserID)}
	for _, f := range []struct{ what, field, v string }{
		{"group", "groupId", m.GroupID},
		{"user", "userId", m.UserID},
	} {
		if f.v == "" {
			return membership{}, errors.Errorf(errUnresolved, f.what, f.field)
		}
	}
	return m, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
