package region

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

var self = provenance.Marker{Installation: "i1", Resource: "Region.keystone.identity.crossplane.io/r", Origin: provenance.OriginCreated}

type op = keystonetest.Op[mr, region]

func newDriver(a keystone.API) adoption.Driver[mr, region] {
	return sharedDriver(clients.SharedReadOptions{})(a)
}

func TestObserve(t *testing.T) {
	r := region{ID: "east", ParentRegionID: "world", Description: "hand"}
	cases := map[string]struct {
		fp     v1alpha1.RegionParameters
		wantUp bool
	}{
		"OnlyTheID":          {fp: v1alpha1.RegionParameters{ID: "east"}, wantUp: true},
		"SameParent":         {fp: v1alpha1.RegionParameters{ID: "east", ParentRegionID: ptr("world")}, wantUp: true},
		"OtherParent":        {fp: v1alpha1.RegionParameters{ID: "east", ParentRegionID: ptr("moon")}, wantUp: false},
		"DescriptionMatches": {fp: v1alpha1.RegionParameters{ID: "east", Description: ptr("hand")}, wantUp: true},
		"DescriptionDiffers": {fp: v1alpha1.RegionParameters{ID: "east", Description: ptr("spec")}, wantUp: false},
		"EmptyDescription":   {fp: v1alpha1.RegionParameters{ID: "east", Description: ptr("")}, wantUp: false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			mg := &v1alpha1.Region{Spec: v1alpha1.RegionSpec{ForProvider: tc.fp}}
			got := (&external{}).Observe(mg, r, identityv1alpha1.Owned)
			if got.UpToDate != tc.wantUp || got.UpToDate != (got.Diff == "") {
				t.Errorf("UpToDate: got %v with diff %q, want %v", got.UpToDate, got.Diff, tc.wantUp)
			}
			want := v1alpha1.RegionObservation{ID: "east", ParentRegionID: "world", Description: "hand", Provenance: identityv1alpha1.Owned}
			if diff := cmp.Diff(want, mg.Status.AtProvider); diff != "" {
				t.Errorf("status.atProvider (-want +got):\n%s", diff)
			}
		})
	}
}

// The driver's calls and error paths, for a Region of either scope: one driver serves both.
func TestCalls(t *testing.T) {
	fp := func() v1alpha1.RegionParameters {
		return v1alpha1.RegionParameters{ID: "east", ParentRegionID: ptr("world"), Description: ptr("d")}
	}
	cluster := func() mr {
		return &clusterv1alpha1.Region{ObjectMeta: metav1.ObjectMeta{Name: "r"}, Spec: clusterv1alpha1.RegionSpec{ForProvider: fp()}}
	}
	namespaced := func() mr {
		return &v1alpha1.Region{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "r"}, Spec: v1alpha1.RegionSpec{ForProvider: fp()}}
	}
	r := region{ID: "east"}
	created := `POST regions {"region":{"id":"east","parent_region_id":"world","description":"d","crossplane_provenance":"` + self.Encode() + `"}}`
	patched := `PATCH regions/east {"region":{"parent_region_id":"world","description":"d","crossplane_provenance":"` + self.Encode() + `"}}`
	boom := errors.New("connection reset by peer")
	const (
		children  = "GET regions?parent_region_id=east"
		inRegion  = "GET endpoints?region_id=east"
		noRegions = `{"regions": []}`
	)
	cases := map[string]struct {
		answers map[string]keystonetest.Answer
		call    func(mg mr) op
		want    keystonetest.Result
	}{
		"FindReadsTheID": {
			answers: map[string]keystonetest.Answer{"GET regions/east": {Body: `{"region": {"id": "east"}}`}},
			call:    func(mg mr) op { return keystonetest.Find[mr, region](mg) },
			want:    keystonetest.Result{Value: []string{"east"}, Calls: []string{"GET regions/east"}},
		},
		"FindNothing": {
			answers: map[string]keystonetest.Answer{"GET regions/east": keystonetest.NotFound},
			call:    func(mg mr) op { return keystonetest.Find[mr, region](mg) },
			want:    keystonetest.Result{Value: []string(nil), Calls: []string{"GET regions/east"}},
		},
		"FindFails": {
			answers: map[string]keystonetest.Answer{"GET regions/east": keystonetest.ServerError},
			call:    func(mg mr) op { return keystonetest.Find[mr, region](mg) },
			want: keystonetest.Result{Value: []string(nil), Calls: []string{"GET regions/east"},
				Err: keystone.Wrap(keystonetest.ServerError.Failure("GET", "regions/east"), errFind, "east")},
		},
		"FindAnsweredWithAnotherRegion": {
			answers: map[string]keystonetest.Answer{"GET regions/east": {Body: `{"region": {"id": "west"}}`}},
			call:    func(mg mr) op { return keystonetest.Find[mr, region](mg) },
			want: keystonetest.Result{Value: []string(nil), Calls: []string{"GET regions/east"},
				Err: errors.New(`Keystone answered the read of region "east" with region "west": nothing was decided from it`)},
		},
		"CreateSendsTheIDTheSpecAndTheMarker": {
			answers: map[string]keystonetest.Answer{"POST regions": {Status: http.StatusCreated, Body: `{"region": {"id": "east"}}`}},
			call:    func(mg mr) op { return keystonetest.Create[mr, region](mg, self) },
			want:    keystonetest.Result{Value: "east", Calls: []string{created}},
		},
		"CreateOfATakenIDIsRefused": {
			answers: map[string]keystonetest.Answer{"POST regions": keystonetest.Conflict},
			call:    func(mg mr) op { return keystonetest.Create[mr, region](mg, self) },
			want: keystonetest.Result{Value: "", Calls: []string{created},
				Err: keystone.Wrap(keystonetest.Conflict.Failure("POST", "regions"), errCreate, "east")},
		},
		"UpdateNeverSendsTheID": {
			answers: map[string]keystonetest.Answer{"PATCH regions/east": {Body: `{"region": {"id": "east"}}`}},
			call:    func(mg mr) op { return keystonetest.Update(mg, r, self) },
			want:    keystonetest.Result{Calls: []string{patched}},
		},
		"UpdateFails": {
			answers: map[string]keystonetest.Answer{"PATCH regions/east": {Err: boom}},
			call:    func(mg mr) op { return keystonetest.Update(mg, r, self) },
			want:    keystonetest.Result{Calls: []string{patched}, Err: keystone.Wrap(boom, errUpdate, "east")},
		},
		"DeleteGoneIsDeleted": {
			answers: map[string]keystonetest.Answer{"DELETE regions/east": keystonetest.NotFound},
			call:    func(mg mr) op { return keystonetest.Delete(mg, r) },
			want:    keystonetest.Result{Calls: []string{"DELETE regions/east"}},
		},
		"DeleteRefused": {
			answers: map[string]keystonetest.Answer{"DELETE regions/east": keystonetest.Forbidden},
			call:    func(mg mr) op { return keystonetest.Delete(mg, r) },
			want: keystonetest.Result{Calls: []string{"DELETE regions/east"},
				Err: keystone.Wrap(keystonetest.Forbidden.Failure("DELETE", "regions/east"), errDelete, "east")},
		},
		"DependentsAreChildRegionsAndEndpoints": {
			answers: map[string]keystonetest.Answer{
				children: {Body: `{"regions": [{"id": "east-1", "parent_region_id": "east"}]}`},
				inRegion: {Body: `{"endpoints": [{"id": "e1", "interface": "public", "url": "https://x", "region_id": "east"}]}`},
			},
			call: func(mg mr) op { return keystonetest.Dependents(mg, r) },
			want: keystonetest.Result{Value: []string{"Keystone region east-1", "Keystone endpoint public https://x in region east"},
				Calls: []string{children, inRegion}},
		},
		"AFailedChildListDecidesNothing": {
			answers: map[string]keystonetest.Answer{children: {Err: boom}},
			call:    func(mg mr) op { return keystonetest.Dependents(mg, r) },
			want:    keystonetest.Result{Value: []string(nil), Err: boom, Calls: []string{children}},
		},
		"AFailedEndpointListDecidesNothing": {
			answers: map[string]keystonetest.Answer{children: {Body: noRegions}, inRegion: keystonetest.ServerError},
			call:    func(mg mr) op { return keystonetest.Dependents(mg, r) },
			want: keystonetest.Result{Value: []string(nil), Calls: []string{children, inRegion},
				Err: keystonetest.ServerError.Failure("GET", "endpoints?region_id=east")},
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
	mg := &v1alpha1.Region{ObjectMeta: metav1.ObjectMeta{Name: "r"}, Spec: v1alpha1.RegionSpec{ForProvider: v1alpha1.RegionParameters{ID: "a/b"}}}
	got := keystonetest.Run(nil, newDriver, keystonetest.Create[mr, region](mg, self))
	if got.Err == nil || !strings.Contains(got.Err.Error(), "spec.forProvider.id") || len(got.Calls) != 0 {
		t.Fatalf("got %v after calls %v, want an error naming spec.forProvider.id and no call", got.Err, got.Calls)
	}
}
