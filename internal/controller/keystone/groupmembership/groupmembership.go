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
// unambiguously. The fact package drives it; the marker lives on the managed resource
// (adoption.AnnotationMarker).
package groupmembership

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	clusterv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
	"github.com/crossplane-contrib/provider-identity/internal/controller/keystone/fact"
	"github.com/crossplane-contrib/provider-identity/internal/managedkind"
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

// kind is what a group membership has of its own. The shared list of the group's users answers
// Get only: Find checks alone.
var kind = fact.Kind[mr, membership]{
	Type: typeName, Parse: parseKey, URL: membershipURL,
	Desired: desired, Validate: validate, Record: record,
	ErrCheck: errCheck, ErrMake: errAdd, ErrRemove: errRemove, ErrChanged: errChanged,
	Shared: &fact.Shared[membership]{URL: membersURL, List: listGroup},
}

// A membership is one user in one group, identified entirely by its key.
type membership struct {
	GroupID string
	UserID  string
}

// Key renders the membership as its external name.
func (m membership) Key() string { return keystone.MembershipKey(m.GroupID, m.UserID) }

func membershipURL(sc keystone.API, m membership) string {
	return keystone.MembershipURL(sc, m.GroupID, m.UserID)
}

// parseKey reads an external name written by Key.
func parseKey(s string) (membership, error) {
	g, u, err := fact.SplitPair(s, errKey)
	return membership{GroupID: g, UserID: u}, err
}

// membersURL is the list a membership is read in: the group's users.
func membersURL(sc keystone.API, m membership) string { return keystone.MembersURL(sc, m.GroupID) }

// listGroup lists the memberships of m's group.
func listGroup(ctx context.Context, sc keystone.API, m membership) ([]membership, error) {
	ids, err := keystone.MemberIDs(ctx, sc, m.GroupID)
	if err != nil {
		return nil, err
	}
	out := make([]membership, 0, len(ids))
	for _, u := range ids {
		out = append(out, membership{GroupID: m.GroupID, UserID: u})
	}
	return out, nil
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
		NewDriver: kind.Drivers(o.SharedReads),
	})
}

// record writes the observed membership to status.atProvider.
func record(mg mr, m membership, p identityv1alpha1.Provenance) {
	*mg.Observation() = v1alpha1.GroupMembershipObservation{ID: m.Key(), GroupID: m.GroupID, UserID: m.UserID, Provenance: p}
}

// desired is the membership the spec names, with its references resolved.
func desired(mg mr) (membership, error) {
	fp := mg.Parameters()
	m := membership{GroupID: fact.Deref(fp.GroupID), UserID: fact.Deref(fp.UserID)}
	if err := fact.Resolved(errUnresolved,
		fact.ID{What: "group", Field: "groupId", Value: m.GroupID},
		fact.ID{What: "user", Field: "userId", Value: m.UserID}); err != nil {
		return membership{}, err
	}
	return m, nil
}
