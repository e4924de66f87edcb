package registeredlimit

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/test"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

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

var self = provenance.Marker{Installation: "i1", Resource: "RegisteredLimit.keystone.identity.crossplane.io/cores", Origin: provenance.OriginCreated}

// markerLine is the description line that carries self.
var markerLine = "[provider-identity: " + self.Encode() + "]"

func newRL(fp v1alpha1.RegisteredLimitParameters) mr {
	return &clusterv1alpha1.RegisteredLimit{ObjectMeta: metav1.ObjectMeta{Name: "cores"}, Spec: clusterv1alpha1.RegisteredLimitSpec{ForProvider: fp}}
}

func newNSRL(fp v1alpha1.RegisteredLimitParameters) mr {
	return &v1alpha1.RegisteredLimit{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "cores"}, Spec: v1alpha1.RegisteredLimitSpec{ForProvider: fp}}
}

var cores = v1alpha1.RegisteredLimitParameters{ServiceID: ptr("s1"), ResourceName: "cores", DefaultLimit: 10}

func with(m func(*v1alpha1.RegisteredLimitParameters)) v1alpha1.RegisteredLimitParameters {
	fp := cores
	m(&fp)
	return fp
}

func TestObserve(t *testing.T) {
	ours := registeredLimit{ID: "rl1", ServiceID: "s1", ResourceName: "cores", DefaultLimit: 10, Description: ptr("hand\n" + markerLine)}
	cases := map[string]struct {
		fp     v1alpha1.RegisteredLimitParameters
		r      registeredLimit
		wantUp bool
		want   v1alpha1.RegisteredLimitObservation
	}{
		"Matches": {
			fp: cores, r: ours, wantUp: true,
			want: v1alpha1.RegisteredLimitObservation{ID: "rl1", ServiceID: "s1", ResourceName: "cores", DefaultLimit: 10, Description: "hand", Provenance: identityv1alpha1.Owned},
		},
		"DescriptionComparedWithoutTheMarker": {fp: with(func(p *v1alpha1.RegisteredLimitParameters) { p.Description = ptr("hand") }), r: ours, wantUp: true},
		"DescriptionDiffers":                  {fp: with(func(p *v1alpha1.RegisteredLimitParameters) { p.Description = ptr("spec") }), r: ours},
		"DefaultLimitDiffers":                 {fp: with(func(p *v1alpha1.RegisteredLimitParameters) { p.DefaultLimit = -1 }), r: ours},
		"RegionDiffers":                       {fp: with(func(p *v1alpha1.RegisteredLimitParameters) { p.RegionID = ptr("RegionOne") }), r: ours},
		"RegionMatches": {
			fp: with(func(p *v1alpha1.RegisteredLimitParameters) { p.RegionID = ptr("RegionOne") }),
			r:  registeredLimit{ID: "rl1", ServiceID: "s1", RegionID: ptr("RegionOne"), ResourceName: "cores", DefaultLimit: 10}, wantUp: true,
			want: v1alpha1.RegisteredLimitObservation{ID: "rl1", ServiceID: "s1", RegionID: "RegionOne", ResourceName: "cores", DefaultLimit: 10, Provenance: identityv1alpha1.Owned},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			mg := newRL(tc.fp)
			got := (&external{}).Observe(mg, tc.r, identityv1alpha1.Owned)
			if got.UpToDate != tc.wantUp || got.UpToDate != (got.Diff == "") {
				t.Errorf("UpToDate: got %v with diff %q, want %v", got.UpToDate, got.Diff, tc.wantUp)
			}
			if tc.want.ID != "" {
				if diff := cmp.Diff(tc.want, *mg.Observation()); diff != "" {
					t.Errorf("status.atProvider (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestDescribe(t *testing.T) {
	cases := map[string]struct {
		desc *string
		want *provenance.Marker
	}{
		"NoDescription":    {},
		"NoMarker":         {desc: ptr("hand")},
		"MarkerOnLastLine": {desc: ptr("hand\n" + markerLine), want: &self},
		"UnreadableMarker": {desc: ptr("[provider-identity: v=9&x]")},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			d := (&external{}).Describe(registeredLimit{ID: "rl1", ServiceID: "s1", ResourceName: "cores", Description: tc.desc})
			want := adoption.Description{ID: "rl1", Type: typeName, Key: `"cores" of service s1 in every region`, Marker: tc.want}
			if diff := cmp.Diff(want, d); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}

type op = keystonetest.Op[mr, registeredLimit]

func newDriver(a keystone.API) adoption.Driver[mr, registeredLimit] {
	return sharedDriver(clients.SharedReadOptions{})(a)
}

func TestCalls(t *testing.T) {
	observed := registeredLimit{ID: "rl1", ServiceID: "s1", ResourceName: "cores", DefaultLimit: 5, Description: ptr("hand")}
	inRegion := with(func(p *v1alpha1.RegisteredLimitParameters) {
		p.RegionID = ptr("RegionOne")
		p.Description = ptr("spec")
	})
	invalid := newRL(with(func(p *v1alpha1.RegisteredLimitParameters) { p.ResourceName = "co\nres" }))
	noService := newRL(with(func(p *v1alpha1.RegisteredLimitParameters) {
		p.ServiceID, p.ServiceRef = nil, &xpv2.Reference{Name: "s"}
	}))
	boom := errors.New("connection reset by peer")
	listed := `{"registered_limits": [{"id": "rl1", "service_id": "s1", "resource_name": "cores", "region_id": null},` +
		`{"id": "rl2", "service_id": "s1", "resource_name": "cores", "region_id": "RegionOne"}]}`
	query := "GET registered_limits?resource_name=cores&service_id=s1"
	created := `{"registered_limits": [{"id": "rl1", "service_id": "s1", "resource_name": "cores", "default_limit": 10}]}`
	createBody := `POST registered_limits {"registered_limits":[{"service_id":"s1","resource_name":"cores","default_limit":10,"description":"` + markerLine + `"}]}`
	inUseErr := keystonetest.Answer{Status: 403, Body: `{"error": {"message": "Unable to update or delete registered limit rl1 because there are project limits associated with it."}}`}
	cases := map[string]struct {
		answers map[string]keystonetest.Answer
		call    op
		want    keystonetest.Result
	}{
		"GetReadsTheObject": {
			answers: map[string]keystonetest.Answer{"GET registered_limits/rl1": {Body: `{"registered_limit": {"id": "rl1"}}`}},
			call: func(ctx context.Context, d adoption.Driver[mr, registeredLimit]) (any, error) {
				r, err := d.Get(ctx, newRL(cores), "rl1")
				return r.ID, err
			},
			want: keystonetest.Result{Value: "rl1", Calls: []string{"GET registered_limits/rl1"}},
		},
		"FindMatchesTheRegionHere": {
			answers: map[string]keystonetest.Answer{query: {Body: listed}},
			call:    keystonetest.Find[mr, registeredLimit](newRL(cores)),
			want:    keystonetest.Result{Value: []string{"rl1"}, Calls: []string{query}},
		},
		"FindInARegion": {
			answers: map[string]keystonetest.Answer{query: {Body: listed}},
			call:    keystonetest.Find[mr, registeredLimit](newNSRL(inRegion)),
			want:    keystonetest.Result{Value: []string{"rl2"}, Calls: []string{query}},
		},
		"FindServiceUnresolved": {
			call: keystonetest.Find[mr, registeredLimit](noService),
			want: keystonetest.Result{Value: []string(nil), Err: errors.New(errNoService)},
		},
		"CreateServiceUnresolvedSendsNothing": {
			call: keystonetest.Create[mr, registeredLimit](noService, self),
			want: keystonetest.Result{Value: "", Err: errors.New(errNoService)},
		},
		"FindFails": {
			answers: map[string]keystonetest.Answer{query: keystonetest.ServerError},
			call:    keystonetest.Find[mr, registeredLimit](newRL(cores)),
			want:    keystonetest.Result{Value: []string(nil), Calls: []string{query}, Err: keystonetest.ServerError.Failure("GET", query[4:])},
		},
		"CreatePostsAListOfOneWithTheMarker": {
			answers: map[string]keystonetest.Answer{"POST registered_limits": {Status: 201, Body: created}},
			call:    keystonetest.Create[mr, registeredLimit](newRL(cores), self),
			want:    keystonetest.Result{Value: "rl1", Calls: []string{createBody}},
		},
		"NamespacedCreateSendsTheSameBody": {
			answers: map[string]keystonetest.Answer{"POST registered_limits": {Status: 201, Body: created}},
			call:    keystonetest.Create[mr, registeredLimit](newNSRL(cores), self),
			want:    keystonetest.Result{Value: "rl1", Calls: []string{createBody}},
		},
		"CreateWithRegionAndDescription": {
			answers: map[string]keystonetest.Answer{"POST registered_limits": {Status: 201, Body: created}},
			call:    keystonetest.Create[mr, registeredLimit](newRL(inRegion), self),
			want: keystonetest.Result{Value: "rl1", Calls: []string{`POST registered_limits {"registered_limits":[{"service_id":"s1","region_id":"RegionOne",` +
				`"resource_name":"cores","default_limit":10,"description":"spec\n` + markerLine + `"}]}`}},
		},
		"CreateAnsweredWithoutTheObject": {
			answers: map[string]keystonetest.Answer{"POST registered_limits": {Status: 201, Body: `{"registered_limits": []}`}},
			call:    keystonetest.Create[mr, registeredLimit](newRL(cores), self),
			want: keystonetest.Result{Value: "", Calls: []string{createBody},
				Err: keystone.Wrap(errors.New("Keystone answered the create of one registered_limit with 0 objects"), errCreate, `"cores" of service s1 in every region`)},
		},
		"CreateRefused": {
			answers: map[string]keystonetest.Answer{"POST registered_limits": keystonetest.Conflict},
			call:    keystonetest.Create[mr, registeredLimit](newRL(cores), self),
			want: keystonetest.Result{Value: "", Calls: []string{createBody},
				Err: keystone.Wrap(keystonetest.Conflict.Failure("POST", "registered_limits"), errCreate, `"cores" of service s1 in every region`)},
		},
		"CreateInvalidSendsNothing": {
			call: keystonetest.Create[mr, registeredLimit](invalid, self),
			want: keystonetest.Result{Value: "", Err: validate(invalid)},
		},
		"UpdateKeepsTheDescriptionAndWritesTheMarker": {
			answers: map[string]keystonetest.Answer{"PATCH registered_limits/rl1": {Body: `{"registered_limit": {"id": "rl1"}}`}},
			call:    keystonetest.Update(newRL(cores), observed, self),
			want:    keystonetest.Result{Calls: []string{`PATCH registered_limits/rl1 {"registered_limit":{"default_limit":10,"description":"hand\n` + markerLine + `"}}`}},
		},
		"UpdateRefusedWhileInUse": {
			answers: map[string]keystonetest.Answer{"PATCH registered_limits/rl1": inUseErr},
			call:    keystonetest.Update(newRL(cores), observed, self),
			want: keystonetest.Result{Calls: []string{`PATCH registered_limits/rl1 {"registered_limit":{"default_limit":10,"description":"hand\n` + markerLine + `"}}`},
				Err: keystone.Wrap(inUseErr.Failure("PATCH", "registered_limits/rl1"), errUpdate+errInUse, `"cores" of service s1 in every region`, "rl1")},
		},
		"UpdateFails": {
			answers: map[string]keystonetest.Answer{"PATCH registered_limits/rl1": {Err: boom}},
			call:    keystonetest.Update(newRL(cores), observed, self),
			want: keystonetest.Result{Calls: []string{`PATCH registered_limits/rl1 {"registered_limit":{"default_limit":10,"description":"hand\n` + markerLine + `"}}`},
				Err: keystone.Wrap(boom, errUpdate, `"cores" of service s1 in every region`, "rl1")},
		},
		"UpdateOfAnotherKeySendsNothing": {
			call: keystonetest.Update(newRL(inRegion), observed, self),
			want: keystonetest.Result{Err: errors.Errorf(errMove, `"cores" of service s1 in every region`, "rl1", `"cores" of service s1 in every region`, `"cores" of service s1 in region RegionOne`)},
		},
		"UpdateInvalidSendsNothing": {
			call: keystonetest.Update(invalid, observed, self),
			want: keystonetest.Result{Err: validate(invalid)},
		},
		"Delete": {
			answers: map[string]keystonetest.Answer{"DELETE registered_limits/rl1": {Status: 204}},
			call:    keystonetest.Delete(newRL(cores), observed),
			want:    keystonetest.Result{Calls: []string{"DELETE registered_limits/rl1"}},
		},
		"DeleteGone": {
			answers: map[string]keystonetest.Answer{"DELETE registered_limits/rl1": keystonetest.NotFound},
			call:    keystonetest.Delete(newRL(cores), observed),
			want:    keystonetest.Result{Calls: []string{"DELETE registered_limits/rl1"}},
		},
		"DeleteRefusedWhileInUse": {
			answers: map[string]keystonetest.Answer{"DELETE registered_limits/rl1": inUseErr},
			call:    keystonetest.Delete(newRL(cores), observed),
			want: keystonetest.Result{Calls: []string{"DELETE registered_limits/rl1"},
				Err: keystone.Wrap(inUseErr.Failure("DELETE", "registered_limits/rl1"), errDelete+errInUse, `"cores" of service s1 in every region`, "rl1")},
		},
		"DeleteFails": {
			answers: map[string]keystonetest.Answer{"DELETE registered_limits/rl1": {Err: boom}},
			call:    keystonetest.Delete(newRL(cores), observed),
			want:    keystonetest.Result{Calls: []string{"DELETE registered_limits/rl1"}, Err: keystone.Wrap(boom, errDelete, `"cores" of service s1 in every region`, "rl1")},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := keystonetest.Run(tc.answers, newDriver, tc.call)
			if diff := cmp.Diff(tc.want, got, test.EquateErrors()); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}
