package group

import (
	"errors"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/test"

	clusterv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone/keystonetest"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

var self = provenance.Marker{Installation: "i1", Resource: "Group.keystone.identity.crossplane.io/g", Origin: provenance.OriginCreated}

type op = keystonetest.Op[mr, group]

func newDriver(a keystone.API) adoption.Driver[mr, group] {
	return sharedDriver(clients.SharedReadOptions{})(a)
}

// The driver's calls and error paths, for a Group of either scope: one driver serves both.
func TestCalls(t *testing.T) {
	fp := func() v1alpha1.GroupParameters { return v1alpha1.GroupParameters{Name: "admins", DomainID: ptr("d1")} }
	cluster := func() mr {
		return &clusterv1alpha1.Group{ObjectMeta: metav1.ObjectMeta{Name: "g"}, Spec: clusterv1alpha1.GroupSpec{ForProvider: fp()}}
	}
	namespaced := func() mr {
		return &v1alpha1.Group{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "g"}, Spec: v1alpha1.GroupSpec{ForProvider: fp()}}
	}
	noDomain := func() mr {
		return &v1alpha1.Group{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "g"}, Spec: v1alpha1.GroupSpec{ForProvider: v1alpha1.GroupParameters{Name: "admins"}}}
	}
	g1 := group{ID: "g1", Name: "admins", DomainID: "d1"}
	created := `POST groups {"group":{"name":"admins","domain_id":"d1","crossplane_provenance":"` + self.Encode() + `"}}`
	patched := `PATCH groups/g1 {"group":{"name":"admins","crossplane_provenance":"` + self.Encode() + `"}}`
	boom := errors.New("connection reset by peer")
	const (
		list        = "GET groups?domain_id=d1&name=admins"
		assignments = "GET role_assignments?group.id=g1&include_names=true"
		members     = "GET groups/g1/users"
	)
	type scopeCase struct {
		answers map[string]keystonetest.Answer
		call    func(mg mr) op
		want    keystonetest.Result
	}
	cases := map[string]scopeCase{
		"FindKeepsExactMatchesInTheDomain": {
			answers: map[string]keystonetest.Answer{list: {Body: `{"groups": [
				{"id": "g1", "name": "admins", "domain_id": "d1"}, {"id": "g2", "name": "Admins", "domain_id": "d1"}]}`}},
			call: func(mg mr) op { return keystonetest.Find[mr, group](mg) },
			want: keystonetest.Result{Value: []string{"g1"}, Calls: []string{list}},
		},
		"FindFails": {
			answers: map[string]keystonetest.Answer{list: keystonetest.ServerError},
			call:    func(mg mr) op { return keystonetest.Find[mr, group](mg) },
			want:    keystonetest.Result{Value: []string(nil), Calls: []string{list}, Err: keystonetest.ServerError.Failure("GET", "groups?domain_id=d1&name=admins")},
		},
		"CreateSendsTheSpecAndTheMarker": {
			answers: map[string]keystonetest.Answer{"POST groups": {Status: http.StatusCreated, Body: `{"group": {"id": "g1"}}`}},
			call:    func(mg mr) op { return keystonetest.Create[mr, group](mg, self) },
			want:    keystonetest.Result{Value: "g1", Calls: []string{created}},
		},
		"CreateRefused": {
			answers: map[string]keystonetest.Answer{"POST groups": keystonetest.Conflict},
			call:    func(mg mr) op { return keystonetest.Create[mr, group](mg, self) },
			want: keystonetest.Result{Value: "", Calls: []string{created},
				Err: keystone.Wrap(keystonetest.Conflict.Failure("POST", "groups"), errCreate, "admins")},
		},
		"UpdateNeverSendsTheDomain": {
			answers: map[string]keystonetest.Answer{"PATCH groups/g1": {}},
			call:    func(mg mr) op { return keystonetest.Update(mg, g1, self) },
			want:    keystonetest.Result{Calls: []string{patched}},
		},
		"UpdateFails": {
			answers: map[string]keystonetest.Answer{"PATCH groups/g1": {Err: boom}},
			call:    func(mg mr) op { return keystonetest.Update(mg, g1, self) },
			want:    keystonetest.Result{Calls: []string{patched}, Err: keystone.Wrap(boom, errUpdate, "admins", "g1")},
		},
		"DeleteGoneIsDeleted": {
			answers: map[string]keystonetest.Answer{"DELETE groups/g1": keystonetest.NotFound},
			call:    func(mg mr) op { return keystonetest.Delete(mg, g1) },
			want:    keystonetest.Result{Calls: []string{"DELETE groups/g1"}},
		},
		"DeleteFails": {
			answers: map[string]keystonetest.Answer{"DELETE groups/g1": keystonetest.Forbidden},
			call:    func(mg mr) op { return keystonetest.Delete(mg, g1) },
			want: keystonetest.Result{Calls: []string{"DELETE groups/g1"},
				Err: keystone.Wrap(keystonetest.Forbidden.Failure("DELETE", "groups/g1"), errDelete, "admins", "g1")},
		},
		"AFailedAssignmentListDecidesNothing": {
			answers: map[string]keystonetest.Answer{assignments: {Err: boom}},
			call:    func(mg mr) op { return keystonetest.Dependents(mg, g1) },
			want:    keystonetest.Result{Value: []string(nil), Err: boom, Calls: []string{assignments}},
		},
		"AFailedMemberListDecidesNothing": {
			answers: map[string]keystonetest.Answer{assignments: {Body: `{"role_assignments": []}`}, members: keystonetest.ServerError},
			call:    func(mg mr) op { return keystonetest.Dependents(mg, g1) },
			want: keystonetest.Result{Value: []string(nil), Calls: []string{assignments, members},
				Err: keystonetest.ServerError.Failure("GET", "groups/g1/users")},
		},
	}
	for name, tc := range cases {
		for scope, newMR := range map[string]func() mr{"Cluster": cluster, "Namespaced": namespaced} {
			t.Run(name+"/"+scope, func(t *testing.T) {
				got := keystonetest.Run(tc.answers, newDriver, tc.call(newMR()))
				if diff := cmp.Diff(tc.want, got, test.EquateErrors()); diff != "" {
					t.Errorf("-want +got:\n%s", diff)
				}
			})
		}
	}
	t.Run("CreateWithoutDomainSendsNothing", func(t *testing.T) {
		got := keystonetest.Run(nil, newDriver, keystonetest.Create[mr, group](noDomain(), self))
		want := keystonetest.Result{Value: "", Err: errors.New(`spec.forProvider.domainId of group "admins" is not known yet: set domainId, or wait for domainRef/domainSelector to resolve`)}
		if diff := cmp.Diff(want, got, test.EquateErrors()); diff != "" {
			t.Errorf("-want +got:\n%s", diff)
		}
	})
}
