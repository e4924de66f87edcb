package service

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/test"

	clusterv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone/keystonetest"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

func ptr[T any](v T) *T { return &v }

var self = provenance.Marker{Installation: "i1", Resource: "Service.keystone.identity.crossplane.io/s", Origin: provenance.OriginCreated}

type op = keystonetest.Op[mr, service]

func newDriver(a keystone.API) adoption.Driver[mr, service] {
	return sharedDriver(clients.SharedReadOptions{})(a)
}

func TestObserve(t *testing.T) {
	s := service{ID: "s1", Type: "compute", Name: "nova", Description: "hand", Enabled: true}
	cases := map[string]struct {
		fp     v1alpha1.ServiceParameters
		wantUp bool
	}{
		"TypeAndName":        {fp: v1alpha1.ServiceParameters{Type: "compute", Name: "nova"}, wantUp: true},
		"Renamed":            {fp: v1alpha1.ServiceParameters{Type: "compute", Name: "nova2"}, wantUp: false},
		"OtherType":          {fp: v1alpha1.ServiceParameters{Type: "image", Name: "nova"}, wantUp: false},
		"DescriptionMatches": {fp: v1alpha1.ServiceParameters{Type: "compute", Name: "nova", Description: ptr("hand")}, wantUp: true},
		"DescriptionDiffers": {fp: v1alpha1.ServiceParameters{Type: "compute", Name: "nova", Description: ptr("")}, wantUp: false},
		"Enabled":            {fp: v1alpha1.ServiceParameters{Type: "compute", Name: "nova", Enabled: ptr(true)}, wantUp: true},
		"Disabled":           {fp: v1alpha1.ServiceParameters{Type: "compute", Name: "nova", Enabled: ptr(false)}, wantUp: false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			mg := &v1alpha1.Service{Spec: v1alpha1.ServiceSpec{ForProvider: tc.fp}}
			got := (&external{}).Observe(mg, s, identityv1alpha1.Owned)
			if got.UpToDate != tc.wantUp || got.UpToDate != (got.Diff == "") {
				t.Errorf("UpToDate: got %v with diff %q, want %v", got.UpToDate, got.Diff, tc.wantUp)
			}
			want := v1alpha1.ServiceObservation{ID: "s1", Type: "compute", Name: "nova", Description: "hand", Enabled: true, Provenance: identityv1alpha1.Owned}
			if diff := cmp.Diff(want, mg.Status.AtProvider); diff != "" {
				t.Errorf("status.atProvider (-want +got):\n%s", diff)
			}
		})
	}
}

// The driver's calls and error paths, for a Service of either scope: one driver serves both.
func TestCalls(t *testing.T) {
	fp := func() v1alpha1.ServiceParameters {
		return v1alpha1.ServiceParameters{Type: "compute", Name: "nova", Enabled: ptr(true)}
	}
	cluster := func() mr {
		return &clusterv1alpha1.Service{ObjectMeta: metav1.ObjectMeta{Name: "s"}, Spec: clusterv1alpha1.ServiceSpec{ForProvider: fp()}}
	}
	namespaced := func() mr {
		return &v1alpha1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "s"}, Spec: v1alpha1.ServiceSpec{ForProvider: fp()}}
	}
	s1 := service{ID: "s1", Type: "compute", Name: "nova"}
	body := `{"service":{"type":"compute","name":"nova","enabled":true,"crossplane_provenance":"` + self.Encode() + `"}}`
	boom := errors.New("connection reset by peer")
	const (
		list      = "GET services?name=nova&type=compute"
		endpoints = "GET endpoints?service_id=s1"
	)
	cases := map[string]struct {
		answers map[string]keystonetest.Answer
		call    func(mg mr) op
		want    keystonetest.Result
	}{
		"FindKeepsExactMatches": {
			answers: map[string]keystonetest.Answer{list: {Body: `{"services": [
				{"id": "s1", "type": "compute", "name": "nova"}, {"id": "s2", "type": "compute", "name": "Nova"}, {"id": "s3", "type": "compute2", "name": "nova"}]}`}},
			call: func(mg mr) op { return keystonetest.Find[mr, service](mg) },
			want: keystonetest.Result{Value: []string{"s1"}, Calls: []string{list}},
		},
		"FindReturnsEveryTwin": {
			answers: map[string]keystonetest.Answer{list: {Body: `{"services": [
				{"id": "s1", "type": "compute", "name": "nova"}, {"id": "s2", "type": "compute", "name": "nova"}]}`}},
			call: func(mg mr) op { return keystonetest.Find[mr, service](mg) },
			want: keystonetest.Result{Value: []string{"s1", "s2"}, Calls: []string{list}},
		},
		"FindFails": {
			answers: map[string]keystonetest.Answer{list: keystonetest.ServerError},
			call:    func(mg mr) op { return keystonetest.Find[mr, service](mg) },
			want: keystonetest.Result{Value: []string(nil), Calls: []string{list},
				Err: keystonetest.ServerError.Failure("GET", "services?name=nova&type=compute")},
		},
		"CreateSendsTheSpecAndTheMarker": {
			answers: map[string]keystonetest.Answer{"POST services": {Status: http.StatusCreated, Body: `{"service": {"id": "s1"}}`}},
			call:    func(mg mr) op { return keystonetest.Create[mr, service](mg, self) },
			want:    keystonetest.Result{Value: "s1", Calls: []string{"POST services " + body}},
		},
		"CreateFails": {
			answers: map[string]keystonetest.Answer{"POST services": keystonetest.Forbidden},
			call:    func(mg mr) op { return keystonetest.Create[mr, service](mg, self) },
			want: keystonetest.Result{Value: "", Calls: []string{"POST services " + body},
				Err: keystone.Wrap(keystonetest.Forbidden.Failure("POST", "services"), errCreate, "nova", "compute")},
		},
		"UpdatePatchesTheSpecAndTheMarker": {
			answers: map[string]keystonetest.Answer{"PATCH services/s1": {Body: `{"service": {"id": "s1"}}`}},
			call:    func(mg mr) op { return keystonetest.Update(mg, s1, self) },
			want:    keystonetest.Result{Calls: []string{"PATCH services/s1 " + body}},
		},
		"UpdateFails": {
			answers: map[string]keystonetest.Answer{"PATCH services/s1": {Err: boom}},
			call:    func(mg mr) op { return keystonetest.Update(mg, s1, self) },
			want:    keystonetest.Result{Calls: []string{"PATCH services/s1 " + body}, Err: keystone.Wrap(boom, errUpdate, "nova", "s1")},
		},
		"DeleteGoneIsDeleted": {
			answers: map[string]keystonetest.Answer{"DELETE services/s1": keystonetest.NotFound},
			call:    func(mg mr) op { return keystonetest.Delete(mg, s1) },
			want:    keystonetest.Result{Calls: []string{"DELETE services/s1"}},
		},
		"DeleteFails": {
			answers: map[string]keystonetest.Answer{"DELETE services/s1": keystonetest.ServerError},
			call:    func(mg mr) op { return keystonetest.Delete(mg, s1) },
			want: keystonetest.Result{Calls: []string{"DELETE services/s1"},
				Err: keystone.Wrap(keystonetest.ServerError.Failure("DELETE", "services/s1"), errDelete, "nova", "s1")},
		},
		"DependentsAreItsEndpoints": {
			answers: map[string]keystonetest.Answer{endpoints: {Body: `{"endpoints": [{"id": "e1", "service_id": "s1", "interface": "internal", "url": "http://nova"}]}`}},
			call:    func(mg mr) op { return keystonetest.Dependents(mg, s1) },
			want:    keystonetest.Result{Value: []string{"Keystone endpoint internal http://nova"}, Calls: []string{endpoints}},
		},
		"AFailedEndpointListDecidesNothing": {
			answers: map[string]keystonetest.Answer{endpoints: {Err: boom}},
			call:    func(mg mr) op { return keystonetest.Dependents(mg, s1) },
			want:    keystonetest.Result{Value: []string(nil), Err: boom, Calls: []string{endpoints}},
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
}

// A resource stored before a rule existed is refused before anything is sent.
func TestCreateValidates(t *testing.T) {
	mg := &v1alpha1.Service{ObjectMeta: metav1.ObjectMeta{Name: "s"}, Spec: v1alpha1.ServiceSpec{ForProvider: v1alpha1.ServiceParameters{Type: "compute", Name: "a\nb"}}}
	got := keystonetest.Run(nil, newDriver, keystonetest.Create[mr, service](mg, self))
	if got.Err == nil || !strings.Contains(got.Err.Error(), "spec.forProvider.name") || len(got.Calls) != 0 {
		t.Fatalf("got %v after calls %v, want an error naming spec.forProvider.name and no call", got.Err, got.Calls)
	}
}
