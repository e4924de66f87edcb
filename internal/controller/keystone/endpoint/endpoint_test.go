package endpoint

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

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

var self = provenance.Marker{Installation: "i1", Resource: "Endpoint.keystone.identity.crossplane.io/e", Origin: provenance.OriginCreated}

type op = keystonetest.Op[mr, endpoint]

func newDriver(a keystone.API) adoption.Driver[mr, endpoint] {
	return sharedDriver(clients.SharedReadOptions{})(a)
}

func TestObserve(t *testing.T) {
	o := endpoint{ID: "e1", ServiceID: "s1", Interface: "public", URL: "https://a", RegionID: "east", Enabled: true}
	base := func(m func(*v1alpha1.EndpointParameters)) v1alpha1.EndpointParameters {
		fp := v1alpha1.EndpointParameters{ServiceID: ptr("s1"), Interface: v1alpha1.InterfacePublic, URL: "https://a"}
		if m != nil {
			m(&fp)
		}
		return fp
	}
	cases := map[string]struct {
		fp     v1alpha1.EndpointParameters
		wantUp bool
	}{
		"NoRegionManaged": {fp: base(nil), wantUp: true},
		"SameRegion":      {fp: base(func(fp *v1alpha1.EndpointParameters) { fp.RegionID = ptr("east") }), wantUp: true},
		"OtherRegion":     {fp: base(func(fp *v1alpha1.EndpointParameters) { fp.RegionID = ptr("west") }), wantUp: false},
		"OtherURL":        {fp: base(func(fp *v1alpha1.EndpointParameters) { fp.URL = "https://b" }), wantUp: false},
		"OtherInterface":  {fp: base(func(fp *v1alpha1.EndpointParameters) { fp.Interface = v1alpha1.InterfaceAdmin }), wantUp: false},
		"OtherService":    {fp: base(func(fp *v1alpha1.EndpointParameters) { fp.ServiceID = ptr("s2") }), wantUp: false},
		"Disabled":        {fp: base(func(fp *v1alpha1.EndpointParameters) { fp.Enabled = ptr(false) }), wantUp: false},
		"Enabled":         {fp: base(func(fp *v1alpha1.EndpointParameters) { fp.Enabled = ptr(true) }), wantUp: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			mg := &v1alpha1.Endpoint{Spec: v1alpha1.EndpointSpec{ForProvider: tc.fp}}
			got := (&external{}).Observe(mg, o, identityv1alpha1.Owned)
			if got.UpToDate != tc.wantUp || got.UpToDate != (got.Diff == "") {
				t.Errorf("UpToDate: got %v with diff %q, want %v", got.UpToDate, got.Diff, tc.wantUp)
			}
			want := v1alpha1.EndpointObservation{ID: "e1", ServiceID: "s1", Interface: "public", URL: "https://a", RegionID: "east", Enabled: true, Provenance: identityv1alpha1.Owned}
			if diff := cmp.Diff(want, mg.Status.AtProvider); diff != "" {
				t.Errorf("status.atProvider (-want +got):\n%s", diff)
			}
		})
	}
}

// The driver's calls and error paths, for an Endpoint of either scope: one driver serves both.
func TestCalls(t *testing.T) {
	fp := func() v1alpha1.EndpointParameters {
		return v1alpha1.EndpointParameters{ServiceID: ptr("s1"), Interface: v1alpha1.InterfacePublic, URL: "https://a", RegionID: ptr("east")}
	}
	cluster := func() mr {
		return &clusterv1alpha1.Endpoint{ObjectMeta: metav1.ObjectMeta{Name: "e"}, Spec: clusterv1alpha1.EndpointSpec{ForProvider: fp()}}
	}
	namespaced := func() mr {
		return &v1alpha1.Endpoint{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "e"}, Spec: v1alpha1.EndpointSpec{ForProvider: fp()}}
	}
	e1 := endpoint{ID: "e1", ServiceID: "s1", Interface: "public", URL: "https://old", RegionID: "east"}
	body := `{"endpoint":{"service_id":"s1","interface":"public","url":"https://a","region_id":"east","crossplane_provenance":"` + self.Encode() + `"}}`
	boom := errors.New("connection reset by peer")
	const (
		list     = "GET endpoints?interface=public&region_id=east&service_id=s1"
		projects = "GET OS-EP-FILTER/endpoints/e1/projects"
	)
	cases := map[string]struct {
		answers map[string]keystonetest.Answer
		call    func(mg mr) op
		want    keystonetest.Result
	}{
		"FindKeepsExactMatches": {
			answers: map[string]keystonetest.Answer{list: {Body: `{"endpoints": [
				{"id": "e1", "service_id": "s1", "interface": "public", "region_id": "east"},
				{"id": "e2", "service_id": "s1", "interface": "public", "region_id": "East"},
				{"id": "e3", "service_id": "s1", "interface": "admin", "region_id": "east"}]}`}},
			call: func(mg mr) op { return keystonetest.Find[mr, endpoint](mg) },
			want: keystonetest.Result{Value: []string{"e1"}, Calls: []string{list}},
		},
		"FindFails": {
			answers: map[string]keystonetest.Answer{list: keystonetest.ServerError},
			call:    func(mg mr) op { return keystonetest.Find[mr, endpoint](mg) },
			want: keystonetest.Result{Value: []string(nil), Calls: []string{list},
				Err: keystonetest.ServerError.Failure("GET", "endpoints?interface=public&region_id=east&service_id=s1")},
		},
		"CreateSendsTheSpecAndTheMarker": {
			answers: map[string]keystonetest.Answer{"POST endpoints": {Status: http.StatusCreated, Body: `{"endpoint": {"id": "e1"}}`}},
			call:    func(mg mr) op { return keystonetest.Create[mr, endpoint](mg, self) },
			want:    keystonetest.Result{Value: "e1", Calls: []string{"POST endpoints " + body}},
		},
		"CreateFails": {
			answers: map[string]keystonetest.Answer{"POST endpoints": keystonetest.ServerError},
			call:    func(mg mr) op { return keystonetest.Create[mr, endpoint](mg, self) },
			want: keystonetest.Result{Value: "", Calls: []string{"POST endpoints " + body},
				Err: keystone.Wrap(keystonetest.ServerError.Failure("POST", "endpoints"), errCreate, "public https://a in region east", "s1")},
		},
		"UpdatePatchesTheSpecAndTheMarker": {
			answers: map[string]keystonetest.Answer{"PATCH endpoints/e1": {Body: `{"endpoint": {"id": "e1"}}`}},
			call:    func(mg mr) op { return keystonetest.Update(mg, e1, self) },
			want:    keystonetest.Result{Calls: []string{"PATCH endpoints/e1 " + body}},
		},
		"UpdateFails": {
			answers: map[string]keystonetest.Answer{"PATCH endpoints/e1": {Err: boom}},
			call:    func(mg mr) op { return keystonetest.Update(mg, e1, self) },
			want: keystonetest.Result{Calls: []string{"PATCH endpoints/e1 " + body},
				Err: keystone.Wrap(boom, errUpdate, "public https://old in region east", "e1")},
		},
		"DeleteGoneIsDeleted": {
			answers: map[string]keystonetest.Answer{"DELETE endpoints/e1": keystonetest.NotFound},
			call:    func(mg mr) op { return keystonetest.Delete(mg, e1) },
			want:    keystonetest.Result{Calls: []string{"DELETE endpoints/e1"}},
		},
		"DeleteFails": {
			answers: map[string]keystonetest.Answer{"DELETE endpoints/e1": keystonetest.Forbidden},
			call:    func(mg mr) op { return keystonetest.Delete(mg, e1) },
			want: keystonetest.Result{Calls: []string{"DELETE endpoints/e1"},
				Err: keystone.Wrap(keystonetest.Forbidden.Failure("DELETE", "endpoints/e1"), errDelete, "public https://old in region east", "e1")},
		},
		"DependentsAreItsProjectAssociations": {
			answers: map[string]keystonetest.Answer{projects: {Body: `{"projects": [{"id": "p1", "name": "web"}]}`}},
			call:    func(mg mr) op { return keystonetest.Dependents(mg, e1) },
			want:    keystonetest.Result{Value: []string{"Keystone endpoint-project association endpoint e1 for project web"}, Calls: []string{projects}},
		},
		"AFailedAssociationListDecidesNothing": {
			answers: map[string]keystonetest.Answer{projects: {Err: boom}},
			call:    func(mg mr) op { return keystonetest.Dependents(mg, e1) },
			want:    keystonetest.Result{Value: []string(nil), Err: boom, Calls: []string{projects}},
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

// Without a region in the spec, the endpoint is one in no region: the lookup lists the
// service's endpoints of the interface in every region and keeps the region-less ones.
func TestFindWithoutRegion(t *testing.T) {
	mg := &v1alpha1.Endpoint{Spec: v1alpha1.EndpointSpec{ForProvider: v1alpha1.EndpointParameters{ServiceID: ptr("s1"), Interface: v1alpha1.InterfaceInternal, URL: "http://a"}}}
	const list = "GET endpoints?interface=internal&service_id=s1"
	got := keystonetest.Run(map[string]keystonetest.Answer{list: {Body: `{"endpoints": [
		{"id": "e1", "service_id": "s1", "interface": "internal", "region_id": "east"}, {"id": "e2", "service_id": "s1", "interface": "internal"}]}`}},
		newDriver, keystonetest.Find[mr, endpoint](mg))
	if diff := cmp.Diff(keystonetest.Result{Value: []string{"e2"}, Calls: []string{list}}, got, test.EquateErrors()); diff != "" {
		t.Errorf("-want +got:\n%s", diff)
	}
}

// An unresolved service: nothing to find or create, and a resource being deleted is not held
// up by the lookup.
func TestWithoutService(t *testing.T) {
	mg := &v1alpha1.Endpoint{ObjectMeta: metav1.ObjectMeta{Name: "e"}, Spec: v1alpha1.EndpointSpec{ForProvider: v1alpha1.EndpointParameters{Interface: v1alpha1.InterfacePublic, URL: "https://a"}}}
	for name, o := range map[string]op{"Find": keystonetest.Find[mr, endpoint](mg), "Create": keystonetest.Create[mr, endpoint](mg, self)} {
		got := keystonetest.Run(nil, newDriver, o)
		if got.Err == nil || !strings.Contains(got.Err.Error(), "serviceId of endpoint public https://a is not known yet") || len(got.Calls) != 0 {
			t.Errorf("%s: got %v after calls %v, want the unresolved-service error and no call", name, got.Err, got.Calls)
		}
	}
	mg.SetDeletionTimestamp(&metav1.Time{Time: time.Now()})
	if got := keystonetest.Run(nil, newDriver, keystonetest.Find[mr, endpoint](mg)); got.Err != nil || got.Value != nil && len(got.Value.([]string)) != 0 {
		t.Errorf("Find while deleting: got %+v, want nothing", got)
	}
}

// A resource stored before a rule existed is refused before anything is sent.
func TestCreateValidates(t *testing.T) {
	mg := &v1alpha1.Endpoint{ObjectMeta: metav1.ObjectMeta{Name: "e"}, Spec: v1alpha1.EndpointSpec{ForProvider: v1alpha1.EndpointParameters{ServiceID: ptr("s1"), Interface: "private", URL: "https://a"}}}
	got := keystonetest.Run(nil, newDriver, keystonetest.Create[mr, endpoint](mg, self))
	if got.Err == nil || !strings.Contains(got.Err.Error(), "spec.forProvider.interface") || len(got.Calls) != 0 {
		t.Fatalf("got %v after calls %v, want an error naming spec.forProvider.interface and no call", got.Err, got.Calls)
	}
}
