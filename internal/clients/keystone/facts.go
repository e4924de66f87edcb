package keystone

import (
	"context"
	"net/http"
	"net/url"

	"github.com/gophercloud/gophercloud/v2"
)

// Group memberships and implied-role rules are facts, not objects: each is the URL that joins
// two IDs, checked with HEAD (204 yes, 404 no), made with PUT and removed with DELETE. Keystone
// has no ID, no attributes and so no marker for them; the drivers keep the marker on the
// resource. gophercloud v2 has membership calls over its own *ServiceClient only and no
// implied-role calls at all, so both are written here over API, which tests can answer.

// MembershipKey is a group membership's external name: <group ID>/<user ID>.
func MembershipKey(groupID, userID string) string { return groupID + "/" + userID }

// ImpliedRoleKey is an implied-role rule's external name: <prior role ID>/<implied role ID>.
func ImpliedRoleKey(priorID, impliedID string) string { return priorID + "/" + impliedID }

// MembershipURL is the address of user userID's membership of group groupID.
func MembershipURL(sc API, groupID, userID string) string {
	return sc.ServiceURL("groups", url.PathEscape(groupID), "users", url.PathEscape(userID))
}

// ImpliedRoleURL is the address of the rule that prior role priorID implies impliedID.
func ImpliedRoleURL(sc API, priorID, impliedID string) string {
	return sc.ServiceURL("roles", url.PathEscape(priorID), "implies", url.PathEscape(impliedID))
}

// MembersURL is the list of a group's users, GET /v3/groups/{id}/users.
func MembersURL(sc API, groupID string) string {
	return sc.ServiceURL("groups", url.PathEscape(groupID), "users")
}

// CheckFact tells whether the fact at u exists: nil for yes, a 404 (IsNotFound) for no.
// Keystone answers a HEAD of an implied-role rule 204 but documents 200; both are yes.
func CheckFact(ctx context.Context, sc API, u string) error {
	_, err := sc.Head(ctx, u, &gophercloud.RequestOpts{OkCodes: []int{http.StatusOK, http.StatusNoContent}})
	return err
}

// PutFact makes the fact at u: a membership answers 204, an implied-role rule 201 with the
// rule (not read: the key says it all).
func PutFact(ctx context.Context, sc API, u string) error {
	_, err := sc.Put(ctx, u, nil, nil, &gophercloud.RequestOpts{OkCodes: []int{http.StatusOK, http.StatusCreated, http.StatusNoContent}})
	return err
}

// DeleteFact removes the fact at u; one already gone is a 404 (IgnoreNotFound).
func DeleteFact(ctx context.Context, sc API, u string) error {
	_, err := sc.Delete(ctx, u, &gophercloud.RequestOpts{OkCodes: []int{http.StatusNoContent}})
	return err
}

// MemberIDs lists the IDs of a group's users. A list cut short is an error (IsTruncated): a
// read must not take a missing row for a missing membership.
func MemberIDs(ctx context.Context, sc API, groupID string) ([]string, error) {
	us, err := GroupUsers(ctx, sc, groupID)
	if err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(us))
	for _, u := range us {
		ids = append(ids, u.ID)
	}
	return ids, nil
}

// GroupUsers lists a group's users, GET /v3/groups/{id}/users, with their attributes (and so
// their markers). A list cut short is an error (IsTruncated).
func GroupUsers(ctx context.Context, sc API, groupID string) ([]User, error) {
	return Collection[User]{Path: "groups/" + url.PathEscape(groupID) + "/users", Plural: "users"}.List(ctx, sc, nil)
}

// A RoleInference is one implied-role rule as GET /v3/role_inferences lists it: the prior
// role and the implied one, each by ID and name.
type RoleInference struct {
	PriorID, PriorName     string
	ImpliedID, ImpliedName string
}

// RoleInferences lists every implied-role rule of the cloud, one entry per pair.
func RoleInferences(ctx context.Context, sc API) ([]RoleInference, error) {
	var out struct {
		Inferences []inference `json:"role_inferences"`
	}
	if _, err := sc.Get(ctx, sc.ServiceURL("role_inferences"), &out, nil); err != nil {
		return nil, err
	}
	var rs []RoleInference
	for _, inf := range out.Inferences {
		for _, imp := range inf.Implies {
			rs = append(rs, RoleInference{PriorID: inf.PriorRole.ID, PriorName: inf.PriorRole.Name, ImpliedID: imp.ID, ImpliedName: imp.Name})
		}
	}
	return rs, nil
}
