package groupmembership

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone/keystonetest"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

func ptr[T any](v T) *T { return &v }

func newGM(fp v1alpha1.GroupMembershipParameters) *v1alpha1.GroupMembership {
	return &v1alpha1.GroupMembership{ObjectMeta: metav1.ObjectMeta{Name: "gm"}, Spec: v1alpha1.GroupMembershipSpec{ForProvider: fp}}
}

func TestKeyRoundTrip(t *testing.T) {
	cases := map[string]struct {
		key     string
		want    membership
		wantErr bool
	}{
		"GroupAndUser":       {key: "g1/u1", want: membership{GroupID: "g1", UserID: "u1"}},
		"LDAPStyleIDs":       {key: "1f2e3d-team@corp/alice smith", want: membership{GroupID: "1f2e3d-team@corp", UserID: "alice smith"}},
		"UserIDAlone":        {key: "u1", wantErr: true},
		"EmptyGroup":         {key: "/u1", wantErr: true},
		"EmptyUser":          {key: "g1/", wantErr: true},
		"ExtraSegment":       {key: "g1/u1/x", wantErr: true},
		"EmptyExternalName":  {key: "", wantErr: true},
		"RoleAssignmentLike": {key: "project/p/user/u/role/r", wantErr: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := parseKey(tc.key)
			if tc.wantErr {
				if err == nil || !strings.Contains(err.Error(), "want <group ID>/<user ID>") {
					t.Fatalf("parseKey(%q) = %+v, %v; want an error showing the expected form", tc.key, got, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("parseKey(%q): -want +got:\n%s", tc.key, diff)
			}
			if got.Key() != tc.key {
				t.Errorf("Key() = %q, want %q", got.Key(), tc.key)
			}
		})
	}
}

func TestObserve(t *testing.T) {
	observed := membership{GroupID: "g", UserID: "u"}
	cases := map[string]struct {
		fp         v1alpha1.GroupMembershipParameters
		wantStatus v1alpha1.GroupMembershipObservation
		wantUp     bool
	}{
		"UpToDate": {
			fp:         v1alpha1.GroupMembershipParameters{GroupID: ptr("g"), UserID: ptr("u")},
			wantStatus: v1alpha1.GroupMembershipObservation{ID: "g/u", GroupID: "g", UserID: "u", Provenance: identityv1alpha1.Adopted},
			wantUp:     true,
		},
		"SpecNamesAnotherUser": {
			fp:         v1alpha1.GroupMembershipParameters{GroupID: ptr("g"), UserID: ptr("v")},
			wantStatus: v1alpha1.GroupMembershipObservation{ID: "g/u", GroupID: "g", UserID: "u", Provenance: identityv1alpha1.Adopted},
		},
		"SpecNamesAnotherGroup": {
			fp:         v1alpha1.GroupMembershipParameters{GroupID: ptr("h"), UserID: ptr("u")},
			wantStatus: v1alpha1.GroupMembershipObservation{ID: "g/u", GroupID: "g", UserID: "u", Provenance: identityv1alpha1.Adopted},
		},
		"UnresolvedIsNoChange": {
			fp:         v1alpha1.GroupMembershipParameters{GroupRef: &xpv2.Reference{Name: "g"}, UserID: ptr("u")},
			wantStatus: v1alpha1.GroupMembershipObservation{ID: "g/u", GroupID: "g", UserID: "u", Provenance: identityv1alpha1.Adopted},
			wantUp:     true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			mg := newGM(tc.fp)
			obs := (&external{}).Observe(mg, observed, identityv1alpha1.Adopted)
			if diff := cmp.Diff(tc.wantStatus, mg.Status.AtProvider); diff != "" {
				t.Errorf("status.atProvider: -want +got:\n%s", diff)
			}
			if obs.UpToDate != tc.wantUp || obs.LateInitialized {
				t.Errorf("UpToDate = %v, LateInitialized = %v; want %v, false (diff %q)", obs.UpToDate, obs.LateInitialized, tc.wantUp, obs.Diff)
			}
		})
	}
}

func TestDescribe(t *testing.T) {
	got := (&external{}).Describe(membership{GroupID: "g", UserID: "u"})
	want := adoption.Description{ID: "g/u", Type: typeName, Key: "g/u", Markerless: true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("-want +got:\n%s", diff)
	}
}

func TestCalls(t *testing.T) {
	const member = "groups/g/users/u"
	m := membership{GroupID: "g", UserID: "u"}
	fp := v1alpha1.GroupMembershipParameters{GroupID: ptr("g"), UserID: ptr("u")}
	mk := provenance.Marker{Installation: "i", Resource: "GroupMembership.keystone.identity.crossplane.io/gm", Origin: provenance.OriginCreated}
	get := func(id string) keystonetest.Op[mr, membership] {
		return func(ctx context.Context, d adoption.Driver[mr, membership]) (any, error) {
			return d.Get(ctx, newGM(fp), id)
		}
	}
	deleting := newGM(v1alpha1.GroupMembershipParameters{GroupRef: &xpv2.Reference{Name: "g"}, UserID: ptr("u")})
	now := metav1.Now()
	deleting.SetDeletionTimestamp(&now)
	cases := map[string]struct {
		answers map[string]keystonetest.Answer
		op      keystonetest.Op[mr, membership]
		want    any
		wantErr string
		// notFound: the error is Keystone's 404 (the engine's "gone").
		notFound bool
		calls    []string
	}{
		"GetExists": {
			answers: map[string]keystonetest.Answer{"HEAD " + member: {Status: 204}},
			op:      get("g/u"), want: m, calls: []string{"HEAD " + member},
		},
		"GetGone": {
			answers: map[string]keystonetest.Answer{"HEAD " + member: keystonetest.NotFound},
			op:      get("g/u"), want: m, wantErr: "404", notFound: true, calls: []string{"HEAD " + member},
		},
		"GetBadExternalName": {
			op: get("u-only"), want: membership{}, wantErr: `external name "u-only" is not a group membership key`,
		},
		"GetServerError": {
			answers: map[string]keystonetest.Answer{"HEAD " + member: keystonetest.ServerError},
			op:      get("g/u"), want: m, wantErr: "cannot check Keystone group membership g/u", calls: []string{"HEAD " + member},
		},
		"FindNone": {
			answers: map[string]keystonetest.Answer{"HEAD " + member: keystonetest.NotFound},
			op:      keystonetest.Find[mr, membership](newGM(fp)), want: []string(nil), calls: []string{"HEAD " + member},
		},
		"FindExisting": {
			answers: map[string]keystonetest.Answer{"HEAD " + member: {Status: 204}},
			op:      keystonetest.Find[mr, membership](newGM(fp)), want: []string{"g/u"}, calls: []string{"HEAD " + member},
		},
		"FindUnresolved": {
			op:   keystonetest.Find[mr, membership](newGM(v1alpha1.GroupMembershipParameters{GroupID: ptr("g"), UserRef: &xpv2.Reference{Name: "u"}})),
			want: []string(nil), wantErr: "the user of the group membership is not known: set spec.forProvider.userId",
		},
		"FindUnresolvedWhileDeleting": {
			op:   keystonetest.Find[mr, membership](deleting),
			want: []string(nil),
		},
		"CreateAdds": {
			answers: map[string]keystonetest.Answer{"HEAD " + member: keystonetest.NotFound, "PUT " + member: {Status: 204}},
			op:      keystonetest.Create[mr, membership](newGM(fp), mk), want: "g/u", calls: []string{"HEAD " + member, "PUT " + member},
		},
		"CreateFindsItMadeMeanwhile": {
			// Keystone's PUT would answer 204 all the same: only the HEAD before it can tell.
			answers: map[string]keystonetest.Answer{"HEAD " + member: {Status: 204}, "PUT " + member: {Status: 204}},
			op:      keystonetest.Create[mr, membership](newGM(fp), mk), want: "",
			wantErr: `Keystone group membership "g/u" (ID g/u) already exists`, calls: []string{"HEAD " + member},
		},
		"CreateCannotCheck": {
			answers: map[string]keystonetest.Answer{"HEAD " + member: keystonetest.ServerError},
			op:      keystonetest.Create[mr, membership](newGM(fp), mk), want: "",
			wantErr: "cannot check Keystone group membership g/u", calls: []string{"HEAD " + member},
		},
		"CreateRefused": {
			answers: map[string]keystonetest.Answer{"HEAD " + member: keystonetest.NotFound, "PUT " + member: keystonetest.Forbidden},
			op:      keystonetest.Create[mr, membership](newGM(fp), mk), want: "",
			wantErr: "cannot add the user to the Keystone group (membership g/u)", calls: []string{"HEAD " + member, "PUT " + member},
		},
		"CreateInvalidStoredSpec": {
			// Stored before the CRD's rules: refused before any call.
			op:   keystonetest.Create[mr, membership](newGM(v1alpha1.GroupMembershipParameters{GroupID: ptr("g"), UserID: ptr("..")}), mk),
			want: "", wantErr: "spec.forProvider.userId",
		},
		"UpdateSameMembershipWritesNothing": {
			op: keystonetest.Update[mr, membership](newGM(fp), m, mk),
		},
		"UpdateChangedSpecRefused": {
			op:      keystonetest.Update[mr, membership](newGM(v1alpha1.GroupMembershipParameters{GroupID: ptr("g"), UserID: ptr("v")}), m, mk),
			wantErr: "spec.forProvider now names the group membership g/v, but this resource manages g/u",
		},
		"DeleteRemovesTheObservedMembership": {
			// The spec changed meanwhile: Delete still removes only what the resource owns.
			answers: map[string]keystonetest.Answer{"DELETE " + member: {Status: 204}},
			op:      keystonetest.Delete[mr, membership](newGM(v1alpha1.GroupMembershipParameters{GroupID: ptr("g"), UserID: ptr("v")}), m),
			calls:   []string{"DELETE " + member},
		},
		"DeleteAlreadyGone": {
			answers: map[string]keystonetest.Answer{"DELETE " + member: keystonetest.NotFound},
			op:      keystonetest.Delete[mr, membership](newGM(fp), m), calls: []string{"DELETE " + member},
		},
		"DeleteRefused": {
			answers: map[string]keystonetest.Answer{"DELETE " + member: keystonetest.Forbidden},
			op:      keystonetest.Delete[mr, membership](newGM(fp), m),
			wantErr: "cannot remove the user from the Keystone group (membership g/u)", calls: []string{"DELETE " + member},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			// Without shared reads: each check is its own HEAD (TestSharedMembershipChecks covers the list).
			got := keystonetest.Run(tc.answers, func(sc keystone.API) adoption.Driver[mr, membership] { return &external{sc: sc} }, tc.op)
			switch {
			case tc.wantErr == "" && got.Err != nil:
				t.Errorf("error %v, want none", got.Err)
			case tc.wantErr != "" && (got.Err == nil || !strings.Contains(got.Err.Error(), tc.wantErr)):
				t.Errorf("error %v, want one containing %q", got.Err, tc.wantErr)
			case got.Err != nil && keystone.IsNotFound(got.Err) != tc.notFound:
				t.Errorf("IsNotFound(%v) = %v, want %v", got.Err, !tc.notFound, tc.notFound)
			}
			if diff := cmp.Diff(tc.want, got.Value, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("value: -want +got:\n%s", diff)
			}
			if diff := cmp.Diff(tc.calls, got.Calls, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("calls: -want +got:\n%s", diff)
			}
		})
	}
}

// Many resources checking members of one group share one list of the group's users; a
// membership missing from it is checked alone (HEAD), and one we just made is answered by
// Keystone's 204 to the PUT without a read. A list Keystone cut short is not trusted.
func TestSharedMembershipChecks(t *testing.T) {
	clock := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	const n = 40
	rows := make([]string, 0, n)
	answers := map[string]keystonetest.Answer{
		"HEAD groups/g/users/gone": keystonetest.NotFound,
		"HEAD groups/g/users/new":  keystonetest.NotFound,
		"PUT groups/g/users/new":   {Status: 204},
	}
	for i := range n {
		answers[fmt.Sprintf("HEAD groups/g/users/u%d", i)] = keystonetest.Answer{Status: 204}
		rows = append(rows, fmt.Sprintf(`{"id": "u%d", "name": "user%d"}`, i, i))
	}
	answers["GET groups/g/users"] = keystonetest.Answer{Body: `{"users": [` + strings.Join(rows, ",") + `]}`}
	api := &keystonetest.API{Answers: answers}
	e := sharedDriver(clients.SharedReadOptions{Fresh: 3 * time.Second, Window: time.Minute, Now: func() time.Time { return clock }})(api).(*external)
	check := func(key string) string {
		_, err := e.Get(context.Background(), nil, key)
		switch {
		case e.IsNotFound(err):
			return "not found"
		case err != nil:
			return err.Error()
		}
		return "exists"
	}
	// 40 resources check their membership one second apart: the demand grows until one lists.
	for i := range n {
		clock = clock.Add(time.Second)
		if got := check(fmt.Sprintf("g/u%d", i)); got != "exists" {
			t.Fatalf("membership %d: %s, want exists", i, got)
		}
	}
	calls := api.Calls()
	if diff := cmp.Diff("GET groups/g/users", calls[len(calls)-1]); diff != "" {
		t.Errorf("the 40th check: -want +got:\n%s", diff)
	}
	before := len(calls)
	got := make([]string, 0, 3)
	got = append(got, check("g/u1"), check("g/gone"))
	if _, _, err := e.Create(context.Background(), newGM(v1alpha1.GroupMembershipParameters{GroupID: ptr("g"), UserID: ptr("new")}), provenance.Marker{}); err != nil {
		t.Fatal(err)
	}
	got = append(got, check("g/new"))
	if diff := cmp.Diff([]string{"exists", "not found", "exists"}, got); diff != "" {
		t.Errorf("checks after the list: -want +got:\n%s", diff)
	}
	want := []string{
		"HEAD groups/g/users/gone", // not in the list: checked alone
		"HEAD groups/g/users/new",  // Create's check before its PUT
		"PUT groups/g/users/new",
	}
	if diff := cmp.Diff(want, api.Calls()[before:]); diff != "" {
		t.Errorf("calls after the list: -want +got:\n%s", diff)
	}
}
