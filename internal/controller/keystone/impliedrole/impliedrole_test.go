package impliedrole

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone/keystonetest"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

func ptr[T any](v T) *T { return &v }

func newIR(fp v1alpha1.ImpliedRoleParameters) *v1alpha1.ImpliedRole {
	return &v1alpha1.ImpliedRole{ObjectMeta: metav1.ObjectMeta{Name: "ir"}, Spec: v1alpha1.ImpliedRoleSpec{ForProvider: fp}}
}

func TestKeyRoundTrip(t *testing.T) {
	cases := map[string]struct {
		key     string
		want    rule
		wantErr bool
	}{
		"PriorAndImplied":    {key: "g1/u1", want: rule{PriorID: "g1", ImpliedID: "u1"}},
		"RoleIDAlone":        {key: "u1", wantErr: true},
		"EmptyPrior":         {key: "/u1", wantErr: true},
		"EmptyImplied":       {key: "g1/", wantErr: true},
		"KeystoneListForm":   {key: "g1/implies/u1", wantErr: true},
		"ExtraSegment":       {key: "g1/u1/x", wantErr: true},
		"EmptyExternalName":  {key: "", wantErr: true},
		"RoleAssignmentLike": {key: "project/p/user/u/role/r", wantErr: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := parseKey(tc.key)
			if tc.wantErr {
				if err == nil || !strings.Contains(err.Error(), "want <prior role ID>/<implied role ID>") {
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
	observed := rule{PriorID: "g", ImpliedID: "u"}
	cases := map[string]struct {
		fp         v1alpha1.ImpliedRoleParameters
		wantStatus v1alpha1.ImpliedRoleObservation
		wantUp     bool
	}{
		"UpToDate": {
			fp:         v1alpha1.ImpliedRoleParameters{PriorRoleID: ptr("g"), ImpliedRoleID: ptr("u")},
			wantStatus: v1alpha1.ImpliedRoleObservation{ID: "g/u", PriorRoleID: "g", ImpliedRoleID: "u", Provenance: identityv1alpha1.Adopted},
			wantUp:     true,
		},
		"SpecNamesAnotherImpliedRole": {
			fp:         v1alpha1.ImpliedRoleParameters{PriorRoleID: ptr("g"), ImpliedRoleID: ptr("v")},
			wantStatus: v1alpha1.ImpliedRoleObservation{ID: "g/u", PriorRoleID: "g", ImpliedRoleID: "u", Provenance: identityv1alpha1.Adopted},
		},
		"SpecNamesAnotherPriorRole": {
			fp:         v1alpha1.ImpliedRoleParameters{PriorRoleID: ptr("h"), ImpliedRoleID: ptr("u")},
			wantStatus: v1alpha1.ImpliedRoleObservation{ID: "g/u", PriorRoleID: "g", ImpliedRoleID: "u", Provenance: identityv1alpha1.Adopted},
		},
		"UnresolvedIsNoChange": {
			fp:         v1alpha1.ImpliedRoleParameters{PriorRoleRef: &xpv2.Reference{Name: "g"}, ImpliedRoleID: ptr("u")},
			wantStatus: v1alpha1.ImpliedRoleObservation{ID: "g/u", PriorRoleID: "g", ImpliedRoleID: "u", Provenance: identityv1alpha1.Adopted},
			wantUp:     true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			mg := newIR(tc.fp)
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
	got := (&external{}).Describe(rule{PriorID: "g", ImpliedID: "u"})
	want := adoption.Description{ID: "g/u", Type: typeName, Key: "g/u", Markerless: true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("-want +got:\n%s", diff)
	}
}

func TestCalls(t *testing.T) {
	const member = "roles/g/implies/u"
	m := rule{PriorID: "g", ImpliedID: "u"}
	fp := v1alpha1.ImpliedRoleParameters{PriorRoleID: ptr("g"), ImpliedRoleID: ptr("u")}
	mk := provenance.Marker{Installation: "i", Resource: "ImpliedRole.keystone.identity.crossplane.io/ir", Origin: provenance.OriginCreated}
	get := func(id string) keystonetest.Op[mr, rule] {
		return func(ctx context.Context, d adoption.Driver[mr, rule]) (any, error) { return d.Get(ctx, newIR(fp), id) }
	}
	deleting := newIR(v1alpha1.ImpliedRoleParameters{PriorRoleRef: &xpv2.Reference{Name: "g"}, ImpliedRoleID: ptr("u")})
	now := metav1.Now()
	deleting.SetDeletionTimestamp(&now)
	cases := map[string]struct {
		answers map[string]keystonetest.Answer
		op      keystonetest.Op[mr, rule]
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
			op: get("u-only"), want: rule{}, wantErr: `external name "u-only" is not an implied-role rule key`,
		},
		"GetServerError": {
			answers: map[string]keystonetest.Answer{"HEAD " + member: keystonetest.ServerError},
			op:      get("g/u"), want: m, wantErr: "cannot check Keystone implied-role rule g/u", calls: []string{"HEAD " + member},
		},
		"FindNone": {
			answers: map[string]keystonetest.Answer{"HEAD " + member: keystonetest.NotFound},
			op:      keystonetest.Find[mr, rule](newIR(fp)), want: []string(nil), calls: []string{"HEAD " + member},
		},
		"FindExisting": {
			answers: map[string]keystonetest.Answer{"HEAD " + member: {Status: 204}},
			op:      keystonetest.Find[mr, rule](newIR(fp)), want: []string{"g/u"}, calls: []string{"HEAD " + member},
		},
		"FindUnresolved": {
			op:   keystonetest.Find[mr, rule](newIR(v1alpha1.ImpliedRoleParameters{PriorRoleID: ptr("g"), ImpliedRoleRef: &xpv2.Reference{Name: "u"}})),
			want: []string(nil), wantErr: "the implied role of the implied-role rule is not known: set spec.forProvider.impliedRoleId",
		},
		"FindUnresolvedWhileDeleting": {
			op:   keystonetest.Find[mr, rule](deleting),
			want: []string(nil),
		},
		"CreateAdds": {
			answers: map[string]keystonetest.Answer{"HEAD " + member: keystonetest.NotFound, "PUT " + member: {Status: 201, Body: `{"role_inference": {"prior_role": {"id": "g"}, "implies": {"id": "u"}}}`}},
			op:      keystonetest.Create[mr, rule](newIR(fp), mk), want: "g/u", calls: []string{"HEAD " + member, "PUT " + member},
		},
		"CreateFindsItMadeMeanwhile": {
			// The HEAD before the PUT tells a rule made since Observe from a new one.
			answers: map[string]keystonetest.Answer{"HEAD " + member: {Status: 204}, "PUT " + member: {Status: 204}},
			op:      keystonetest.Create[mr, rule](newIR(fp), mk), want: "",
			wantErr: `Keystone implied-role rule "g/u" (ID g/u) already exists`, calls: []string{"HEAD " + member},
		},
		"CreateCannotCheck": {
			answers: map[string]keystonetest.Answer{"HEAD " + member: keystonetest.ServerError},
			op:      keystonetest.Create[mr, rule](newIR(fp), mk), want: "",
			wantErr: "cannot check Keystone implied-role rule g/u", calls: []string{"HEAD " + member},
		},
		"CreateRefused": {
			answers: map[string]keystonetest.Answer{"HEAD " + member: keystonetest.NotFound, "PUT " + member: keystonetest.Forbidden},
			op:      keystonetest.Create[mr, rule](newIR(fp), mk), want: "",
			wantErr: "cannot make Keystone role imply another (rule g/u)", calls: []string{"HEAD " + member, "PUT " + member},
		},
		"CreateInvalidStoredSpec": {
			// Stored before the CRD's rules: refused before any call.
			op:   keystonetest.Create[mr, rule](newIR(v1alpha1.ImpliedRoleParameters{PriorRoleID: ptr("g"), ImpliedRoleID: ptr("not/a-role")}), mk),
			want: "", wantErr: "spec.forProvider.impliedRoleId",
		},
		"UpdateSameRuleWritesNothing": {
			op: keystonetest.Update[mr, rule](newIR(fp), m, mk),
		},
		"UpdateChangedSpecRefused": {
			op:      keystonetest.Update[mr, rule](newIR(v1alpha1.ImpliedRoleParameters{PriorRoleID: ptr("g"), ImpliedRoleID: ptr("v")}), m, mk),
			wantErr: "spec.forProvider now names the implied-role rule g/v, but this resource manages g/u",
		},
		"DeleteRemovesTheObservedRule": {
			// The spec changed meanwhile: Delete still removes only what the resource owns.
			answers: map[string]keystonetest.Answer{"DELETE " + member: {Status: 204}},
			op:      keystonetest.Delete[mr, rule](newIR(v1alpha1.ImpliedRoleParameters{PriorRoleID: ptr("g"), ImpliedRoleID: ptr("v")}), m),
			calls:   []string{"DELETE " + member},
		},
		"DeleteAlreadyGone": {
			answers: map[string]keystonetest.Answer{"DELETE " + member: keystonetest.NotFound},
			op:      keystonetest.Delete[mr, rule](newIR(fp), m), calls: []string{"DELETE " + member},
		},
		"DeleteRefused": {
			answers: map[string]keystonetest.Answer{"DELETE " + member: keystonetest.Forbidden},
			op:      keystonetest.Delete[mr, rule](newIR(fp), m),
			wantErr: "cannot remove Keystone implied-role rule g/u", calls: []string{"DELETE " + member},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := keystonetest.Run(tc.answers, func(sc keystone.API) adoption.Driver[mr, rule] { return &external{sc: sc} }, tc.op)
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
