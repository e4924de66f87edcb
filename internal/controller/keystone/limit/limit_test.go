package limit

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
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone/keystonetest"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

func ptr[T any](v T) *T { return &v }

var self = provenance.Marker{Installation: "i1", Resource: "Limit.keystone.identity.crossplane.io/cores", Origin: provenance.OriginCreated}

var markerLine = "[provider-identity: " + self.Encode() + "]"

func newLimit(fp v1alpha1.LimitParameters) mr {
	return &clusterv1alpha1.Limit{ObjectMeta: metav1.ObjectMeta{Name: "cores"}, Spec: clusterv1alpha1.LimitSpec{ForProvider: fp}}
}

func newNSLimit(fp v1alpha1.LimitParameters) mr {
	return &v1alpha1.Limit{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "cores"}, Spec: v1alpha1.LimitSpec{ForProvider: fp}}
}

var cores = v1alpha1.LimitParameters{ProjectID: ptr("p1"), ServiceID: ptr("s1"), ResourceName: "cores", ResourceLimit: 20}

func with(m func(*v1alpha1.LimitParameters)) v1alpha1.LimitParameters {
	fp := cores
	m(&fp)
	return fp
}

func TestObserve(t *testing.T) {
	ours := limit{ID: "l1", ProjectID: ptr("p1"), ServiceID: "s1", ResourceName: "cores", ResourceLimit: 20, Description: ptr("hand\n" + markerLine)}
	cases := map[string]struct {
		fp     v1alpha1.LimitParameters
		l      limit
		wantUp bool
		want   v1alpha1.LimitObservation
	}{
		"Matches": {
			fp: cores, l: ours, wantUp: true,
			want: v1alpha1.LimitObservation{ID: "l1", ProjectID: "p1", ServiceID: "s1", ResourceName: "cores", ResourceLimit: 20, Description: "hand", Provenance: identityv1alpha1.Owned},
		},
		"DescriptionComparedWithoutTheMarker": {fp: with(func(p *v1alpha1.LimitParameters) { p.Description = ptr("hand") }), l: ours, wantUp: true},
		"DescriptionDiffers":                  {fp: with(func(p *v1alpha1.LimitParameters) { p.Description = ptr("spec") }), l: ours},
		"ResourceLimitDiffers":                {fp: with(func(p *v1alpha1.LimitParameters) { p.ResourceLimit = 0 }), l: ours},
		"RegionDiffers":                       {fp: with(func(p *v1alpha1.LimitParameters) { p.RegionID = ptr("RegionOne") }), l: ours},
		"DomainLimitMatches": {
			fp: with(func(p *v1alpha1.LimitParameters) { p.ProjectID, p.DomainID = nil, ptr("d1") }),
			l:  limit{ID: "l2", DomainID: ptr("d1"), ServiceID: "s1", ResourceName: "cores", ResourceLimit: 20}, wantUp: true,
			want: v1alpha1.LimitObservation{ID: "l2", DomainID: "d1", ServiceID: "s1", ResourceName: "cores", ResourceLimit: 20, Provenance: identityv1alpha1.Owned},
		},
		"ProjectWantedDomainSeen": {fp: cores, l: limit{ID: "l2", DomainID: ptr("p1"), ServiceID: "s1", ResourceName: "cores", ResourceLimit: 20}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			mg := newLimit(tc.fp)
			got := (&external{}).Observe(mg, tc.l, identityv1alpha1.Owned)
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

type op = keystonetest.Op[mr, limit]

func TestCalls(t *testing.T) {
	const k = `"cores" of service s1 in every region for project p1`
	observed := limit{ID: "l1", ProjectID: ptr("p1"), ServiceID: "s1", ResourceName: "cores", ResourceLimit: 5, Description: ptr("hand")}
	domainLimit := with(func(p *v1alpha1.LimitParameters) {
		p.ProjectID, p.DomainID, p.RegionID = nil, ptr("d1"), ptr("RegionOne")
	})
	unresolved := newLimit(with(func(p *v1alpha1.LimitParameters) { p.ProjectID, p.ProjectRef = nil, &xpv2.Reference{Name: "p"} }))
	invalid := newLimit(with(func(p *v1alpha1.LimitParameters) { p.ServiceID = ptr("s 1") }))
	noService := newLimit(with(func(p *v1alpha1.LimitParameters) { p.ServiceID, p.ServiceRef = nil, &xpv2.Reference{Name: "s"} }))
	boom := errors.New("connection reset by peer")
	query := "GET limits?project_id=p1&resource_name=cores&service_id=s1"
	listed := `{"limits": [{"id": "l1", "project_id": "p1", "service_id": "s1", "resource_name": "cores", "region_id": null},` +
		`{"id": "l2", "project_id": "p1", "service_id": "s1", "resource_name": "cores", "region_id": "RegionOne"}]}`
	created := `{"limits": [{"id": "l1", "project_id": "p1", "service_id": "s1", "resource_name": "cores", "resource_limit": 20}]}`
	createBody := `POST limits {"limits":[{"project_id":"p1","service_id":"s1","resource_name":"cores","resource_limit":20,"description":"` + markerLine + `"}]}`
	patched := `PATCH limits/l1 {"limit":{"resource_limit":20,"description":"hand\n` + markerLine + `"}}`
	noReference := keystonetest.Answer{Status: 403, Body: `{"error": {"message": "Unable to create a limit that has no corresponding registered limit."}}`}
	cases := map[string]struct {
		answers map[string]keystonetest.Answer
		call    op
		want    keystonetest.Result
	}{
		"GetReadsTheObject": {
			answers: map[string]keystonetest.Answer{"GET limits/l1": {Body: `{"limit": {"id": "l1"}}`}},
			call: func(ctx context.Context, d adoption.Driver[mr, limit]) (any, error) {
				l, err := d.Get(ctx, newLimit(cores), "l1")
				return l.ID, err
			},
			want: keystonetest.Result{Value: "l1", Calls: []string{"GET limits/l1"}},
		},
		"FindMatchesTheRegionHere": {
			answers: map[string]keystonetest.Answer{query: {Body: listed}},
			call:    keystonetest.Find[mr, limit](newLimit(cores)),
			want:    keystonetest.Result{Value: []string{"l1"}, Calls: []string{query}},
		},
		"FindADomainLimit": {
			answers: map[string]keystonetest.Answer{"GET limits?domain_id=d1&resource_name=cores&service_id=s1": {Body: `{"limits": [` +
				`{"id": "l3", "domain_id": "d1", "service_id": "s1", "resource_name": "cores", "region_id": "RegionOne"}]}`}},
			call: keystonetest.Find[mr, limit](newNSLimit(domainLimit)),
			want: keystonetest.Result{Value: []string{"l3"}, Calls: []string{"GET limits?domain_id=d1&resource_name=cores&service_id=s1"}},
		},
		"FindUnresolved": {
			call: keystonetest.Find[mr, limit](unresolved),
			want: keystonetest.Result{Value: []string(nil), Err: errors.New(errNoOwner)},
		},
		"FindServiceUnresolved": {
			call: keystonetest.Find[mr, limit](noService),
			want: keystonetest.Result{Value: []string(nil), Err: errors.New(errNoService)},
		},
		"FindFails": {
			answers: map[string]keystonetest.Answer{query: keystonetest.ServerError},
			call:    keystonetest.Find[mr, limit](newLimit(cores)),
			want:    keystonetest.Result{Value: []string(nil), Calls: []string{query}, Err: keystonetest.ServerError.Failure("GET", query[4:])},
		},
		"CreatePostsAListOfOneWithTheMarker": {
			answers: map[string]keystonetest.Answer{"POST limits": {Status: 201, Body: created}},
			call:    keystonetest.Create[mr, limit](newLimit(cores), self),
			want:    keystonetest.Result{Value: "l1", Calls: []string{createBody}},
		},
		"NamespacedCreateSendsTheSameBody": {
			answers: map[string]keystonetest.Answer{"POST limits": {Status: 201, Body: created}},
			call:    keystonetest.Create[mr, limit](newNSLimit(cores), self),
			want:    keystonetest.Result{Value: "l1", Calls: []string{createBody}},
		},
		"CreateADomainLimitInARegion": {
			answers: map[string]keystonetest.Answer{"POST limits": {Status: 201, Body: created}},
			call:    keystonetest.Create[mr, limit](newLimit(domainLimit), self),
			want: keystonetest.Result{Value: "l1", Calls: []string{`POST limits {"limits":[{"domain_id":"d1","service_id":"s1","region_id":"RegionOne",` +
				`"resource_name":"cores","resource_limit":20,"description":"` + markerLine + `"}]}`}},
		},
		"CreateWithoutRegisteredLimit": {
			answers: map[string]keystonetest.Answer{"POST limits": noReference},
			call:    keystonetest.Create[mr, limit](newLimit(cores), self),
			want: keystonetest.Result{Value: "", Calls: []string{createBody},
				Err: keystone.Wrap(noReference.Failure("POST", "limits"), errCreate, k)},
		},
		"CreateConflictExplainsTheHiddenLimit": {
			answers: map[string]keystonetest.Answer{"POST limits": keystonetest.Conflict},
			call:    keystonetest.Create[mr, limit](newLimit(cores), self),
			want: keystonetest.Result{Value: "", Calls: []string{createBody},
				Err: keystone.Wrap(keystonetest.Conflict.Failure("POST", "limits"), errCreate+errHidden, k)},
		},
		"CreateUnresolvedSendsNothing": {
			call: keystonetest.Create[mr, limit](unresolved, self),
			want: keystonetest.Result{Value: "", Err: errors.New(errNoOwner)},
		},
		"CreateServiceUnresolvedSendsNothing": {
			call: keystonetest.Create[mr, limit](noService, self),
			want: keystonetest.Result{Value: "", Err: errors.New(errNoService)},
		},
		"CreateInvalidSendsNothing": {
			call: keystonetest.Create[mr, limit](invalid, self),
			want: keystonetest.Result{Value: "", Err: validate(invalid)},
		},
		"UpdateKeepsTheDescriptionAndWritesTheMarker": {
			answers: map[string]keystonetest.Answer{"PATCH limits/l1": {Body: `{"limit": {"id": "l1"}}`}},
			call:    keystonetest.Update(newLimit(cores), observed, self),
			want:    keystonetest.Result{Calls: []string{patched}},
		},
		"UpdateFails": {
			answers: map[string]keystonetest.Answer{"PATCH limits/l1": {Err: boom}},
			call:    keystonetest.Update(newLimit(cores), observed, self),
			want:    keystonetest.Result{Calls: []string{patched}, Err: keystone.Wrap(boom, errUpdate, k, "l1")},
		},
		"LoweringToZeroDeletesForTheNextReconcileToCreate": {
			answers: map[string]keystonetest.Answer{"DELETE limits/l1": {Status: 204}},
			call:    keystonetest.Update(newLimit(with(func(p *v1alpha1.LimitParameters) { p.ResourceLimit = 0 })), observed, self),
			want:    keystonetest.Result{Calls: []string{"DELETE limits/l1"}},
		},
		"LoweringToZeroDeleteFails": {
			answers: map[string]keystonetest.Answer{"DELETE limits/l1": keystonetest.ServerError},
			call:    keystonetest.Update(newLimit(with(func(p *v1alpha1.LimitParameters) { p.ResourceLimit = 0 })), observed, self),
			want: keystonetest.Result{Calls: []string{"DELETE limits/l1"},
				Err: keystone.Wrap(keystonetest.ServerError.Failure("DELETE", "limits/l1"), errReplace, k, "l1")},
		},
		"AtZeroOnlyTheDescriptionIsWritten": {
			answers: map[string]keystonetest.Answer{"PATCH limits/l1": {Body: `{"limit": {"id": "l1"}}`}},
			call: keystonetest.Update(newLimit(with(func(p *v1alpha1.LimitParameters) { p.ResourceLimit = 0 })),
				limit{ID: "l1", ProjectID: ptr("p1"), ServiceID: "s1", ResourceName: "cores", Description: ptr("hand")}, self),
			want: keystonetest.Result{Calls: []string{`PATCH limits/l1 {"limit":{"description":"hand\n` + markerLine + `"}}`}},
		},
		"UpdateOfAnotherKeySendsNothing": {
			call: keystonetest.Update(newLimit(domainLimit), observed, self),
			want: keystonetest.Result{Err: errors.Errorf(errMove, k, "l1", `"cores" of service s1 in region RegionOne for domain d1`)},
		},
		"UpdateInvalidSendsNothing": {
			call: keystonetest.Update(invalid, observed, self),
			want: keystonetest.Result{Err: validate(invalid)},
		},
		"Delete": {
			answers: map[string]keystonetest.Answer{"DELETE limits/l1": {Status: 204}},
			call:    keystonetest.Delete(newLimit(cores), observed),
			want:    keystonetest.Result{Calls: []string{"DELETE limits/l1"}},
		},
		"DeleteGone": {
			answers: map[string]keystonetest.Answer{"DELETE limits/l1": keystonetest.NotFound},
			call:    keystonetest.Delete(newLimit(cores), observed),
			want:    keystonetest.Result{Calls: []string{"DELETE limits/l1"}},
		},
		"DeleteFails": {
			answers: map[string]keystonetest.Answer{"DELETE limits/l1": {Err: boom}},
			call:    keystonetest.Delete(newLimit(cores), observed),
			want:    keystonetest.Result{Calls: []string{"DELETE limits/l1"}, Err: keystone.Wrap(boom, errDelete, k, "l1")},
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
