package groupmembership

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone/keystonetest"
	"github.com/crossplane-contrib/provider-identity/internal/controller/keystone/fact"
	"github.com/crossplane-contrib/provider-identity/internal/controller/keystone/fact/facttest"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

func ptr[T any](v T) *T { return &v }

func newGM(fp v1alpha1.GroupMembershipParameters) *v1alpha1.GroupMembership {
	return &v1alpha1.GroupMembership{ObjectMeta: metav1.ObjectMeta{Name: "gm"}, Spec: v1alpha1.GroupMembershipSpec{ForProvider: fp}}
}

func TestKeyRoundTrip(t *testing.T) {
	const form = "want <group ID>/<user ID>"
	facttest.Keys(t, parseKey, map[string]facttest.Key[membership]{
		"GroupAndUser":       {Key: "g1/u1", Want: membership{GroupID: "g1", UserID: "u1"}},
		"LDAPStyleIDs":       {Key: "1f2e3d-team@corp/alice smith", Want: membership{GroupID: "1f2e3d-team@corp", UserID: "alice smith"}},
		"UserIDAlone":        {Key: "u1", Err: `external name "u1" is not a group membership key: ` + form},
		"EmptyUser":          {Key: "g1/", Err: form},
		"ExtraSegment":       {Key: "g1/u1/x", Err: form},
		"RoleAssignmentLike": {Key: "project/p/user/u/role/r", Err: form},
	})
}

// The membership's own: its URLs, what its spec names, its record and its messages (the
// driver's behaviour is tested once, in package fact).
func TestCalls(t *testing.T) {
	const member = "groups/g/users/u"
	m := membership{GroupID: "g", UserID: "u"}
	fp := v1alpha1.GroupMembershipParameters{GroupID: ptr("g"), UserID: ptr("u")}
	mk := provenance.Marker{Installation: "i", Resource: "GroupMembership.keystone.identity.crossplane.io/gm", Origin: provenance.OriginCreated}
	status := func(mg mr) v1alpha1.GroupMembershipObservation { return *mg.Observation() }
	type observed = facttest.Observed[v1alpha1.GroupMembershipObservation]
	// Without shared reads: each check is its own HEAD (TestSharedList covers the list).
	facttest.Run(t, func(sc keystone.API) adoption.Driver[mr, membership] { return fact.New(kind, sc, nil) }, map[string]facttest.Call[mr, membership]{
		"GetChecksTheMembership": {
			Answers: map[string]keystonetest.Answer{"HEAD " + member: {Status: 204}},
			Op:      facttest.Get[mr, membership](newGM(fp), "g/u"), Want: m, Calls: []string{"HEAD " + member},
		},
		"ObserveRecordsIt": {
			Op:   facttest.Observe[mr](newGM(fp), m, status),
			Want: observed{Status: v1alpha1.GroupMembershipObservation{ID: "g/u", GroupID: "g", UserID: "u", Provenance: identityv1alpha1.Owned}, UpToDate: true},
		},
		"ObserveAnotherUserNamed": {
			Op:   facttest.Observe[mr](newGM(v1alpha1.GroupMembershipParameters{GroupID: ptr("g"), UserID: ptr("v")}), m, status),
			Want: observed{Status: v1alpha1.GroupMembershipObservation{ID: "g/u", GroupID: "g", UserID: "u", Provenance: identityv1alpha1.Owned}},
		},
		"FindUnresolvedGroup": {
			Op:   keystonetest.Find[mr, membership](newGM(v1alpha1.GroupMembershipParameters{GroupRef: &xpv2.Reference{Name: "g"}, UserID: ptr("u")})),
			Want: []string(nil), Err: "the group of the group membership is not known: set spec.forProvider.groupId, or wait for its reference or selector to resolve",
		},
		"FindUnresolvedUser": {
			Op:   keystonetest.Find[mr, membership](newGM(v1alpha1.GroupMembershipParameters{GroupID: ptr("g"), UserSelector: &xpv2.Selector{}})),
			Want: []string(nil), Err: "the user of the group membership is not known: set spec.forProvider.userId",
		},
		"CheckFails": {
			Answers: map[string]keystonetest.Answer{"HEAD " + member: keystonetest.ServerError},
			Op:      keystonetest.Find[mr, membership](newGM(fp)), Want: []string(nil),
			Err: "cannot check Keystone group membership g/u", Calls: []string{"HEAD " + member},
		},
		"CreateAdds": {
			Answers: map[string]keystonetest.Answer{"HEAD " + member: keystonetest.NotFound, "PUT " + member: {Status: 204}},
			Op:      keystonetest.Create[mr, membership](newGM(fp), mk), Want: "g/u", Calls: []string{"HEAD " + member, "PUT " + member},
		},
		"CreateFindsItMadeMeanwhile": {
			Answers: map[string]keystonetest.Answer{"HEAD " + member: {Status: 204}},
			Op:      keystonetest.Create[mr, membership](newGM(fp), mk), Want: "",
			Err: `Keystone group membership "g/u" (ID g/u) already exists`, Calls: []string{"HEAD " + member},
		},
		"CreateRefused": {
			Answers: map[string]keystonetest.Answer{"HEAD " + member: keystonetest.NotFound, "PUT " + member: keystonetest.Forbidden},
			Op:      keystonetest.Create[mr, membership](newGM(fp), mk), Want: "",
			Err: "cannot add the user to the Keystone group (membership g/u)", Calls: []string{"HEAD " + member, "PUT " + member},
		},
		"CreateInvalidStoredSpec": {
			Op:   keystonetest.Create[mr, membership](newGM(v1alpha1.GroupMembershipParameters{GroupID: ptr("g"), UserID: ptr("..")}), mk),
			Want: "", Err: "spec.forProvider.userId",
		},
		"UpdateChangedSpecRefused": {
			Op:  keystonetest.Update[mr, membership](newGM(v1alpha1.GroupMembershipParameters{GroupID: ptr("g"), UserID: ptr("v")}), m, mk),
			Err: "spec.forProvider now names the group membership g/v, but this resource manages g/u. A membership cannot be changed: restore the spec, or create another GroupMembership and delete this one",
		},
		"DeleteRefused": {
			Answers: map[string]keystonetest.Answer{"DELETE " + member: keystonetest.Forbidden},
			Op:      keystonetest.Delete[mr, membership](newGM(fp), m),
			Err:     "cannot remove the user from the Keystone group (membership g/u)", Calls: []string{"DELETE " + member},
		},
	})
}

// A membership is read in the list of its group's users.
func TestSharedList(t *testing.T) {
	api := &keystonetest.API{Answers: map[string]keystonetest.Answer{
		"GET groups/g/users": {Body: `{"users": [{"id": "u1", "name": "alice"}, {"id": "u2", "name": "bob"}]}`},
	}}
	m := membership{GroupID: "g", UserID: "u1"}
	if diff := cmp.Diff(keystonetest.Endpoint+"groups/g/users", kind.Shared.URL(api, m)); diff != "" {
		t.Errorf("list URL: -want +got:\n%s", diff)
	}
	got, err := kind.Shared.List(context.Background(), api, m)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]membership{{GroupID: "g", UserID: "u1"}, {GroupID: "g", UserID: "u2"}}, got); diff != "" {
		t.Errorf("list: -want +got:\n%s", diff)
	}
	if kind.Shared.Find {
		t.Errorf("a fresh list answers Find; today Find checks alone")
	}
}
