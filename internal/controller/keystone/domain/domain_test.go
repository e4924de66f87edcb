package domain

import (
	"errors"
	"net/http"
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

var self = provenance.Marker{Installation: "i1", Resource: "Domain.keystone.identity.crossplane.io/d", Origin: provenance.OriginCreated}

// newDomain is a cluster-scoped Domain; newNSDomain the namespaced one. The driver is one for
// both, so each case runs on both.
func newDomain(fp v1alpha1.DomainParameters) mr {
	return &clusterv1alpha1.Domain{ObjectMeta: metav1.ObjectMeta{Name: "d"}, Spec: clusterv1alpha1.DomainSpec{ForProvider: fp}}
}

func newNSDomain(fp v1alpha1.DomainParameters) mr {
	return &v1alpha1.Domain{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "d"}, Spec: v1alpha1.DomainSpec{ForProvider: fp}}
}

var scoped = map[string]func(v1alpha1.DomainParameters) mr{"Cluster": newDomain, "Namespaced": newNSDomain}

func TestObserve(t *testing.T) {
	base := domain{ID: "d1", Name: "acme", Description: "hand", Enabled: true}
	cases := map[string]struct {
		fp     v1alpha1.DomainParameters
		wantUp bool
		wantLI bool
		wantFP v1alpha1.DomainParameters
	}{
		"OnlyNameIsUpToDateAndLateInitializesEnabled": {
			fp: v1alpha1.DomainParameters{Name: "acme"}, wantUp: true, wantLI: true,
			wantFP: v1alpha1.DomainParameters{Name: "acme", Enabled: new(true)},
		},
		"EveryFieldMatches": {
			fp: v1alpha1.DomainParameters{Name: "acme", Description: new("hand"), Enabled: new(true)}, wantUp: true,
			wantFP: v1alpha1.DomainParameters{Name: "acme", Description: new("hand"), Enabled: new(true)},
		},
		"DescriptionDiffers": {
			fp:     v1alpha1.DomainParameters{Name: "acme", Description: new("spec"), Enabled: new(true)},
			wantFP: v1alpha1.DomainParameters{Name: "acme", Description: new("spec"), Enabled: new(true)},
		},
		"EnabledDiffers": {
			fp:     v1alpha1.DomainParameters{Name: "acme", Enabled: new(false)},
			wantFP: v1alpha1.DomainParameters{Name: "acme", Enabled: new(false)},
		},
		"RenamedInKeystone": {
			fp:     v1alpha1.DomainParameters{Name: "acme-2", Enabled: new(true)},
			wantFP: v1alpha1.DomainParameters{Name: "acme-2", Enabled: new(true)},
		},
	}
	for name, tc := range cases {
		for scope, newMR := range scoped {
			t.Run(name+"/"+scope, func(t *testing.T) {
				mg := newMR(tc.fp)
				got := (&external{}).Observe(mg, base, identityv1alpha1.Adopted)
				if got.UpToDate != tc.wantUp || got.LateInitialized != tc.wantLI {
					t.Errorf("Observe(): UpToDate %v, LateInitialized %v; want %v, %v (diff %s)", got.UpToDate, got.LateInitialized, tc.wantUp, tc.wantLI, got.Diff)
				}
				if diff := cmp.Diff(tc.wantFP, *mg.Parameters()); diff != "" {
					t.Errorf("spec.forProvider -want +got:\n%s", diff)
				}
				want := v1alpha1.DomainObservation{ID: "d1", Name: "acme", Description: "hand", Enabled: true, Provenance: identityv1alpha1.Adopted}
				if diff := cmp.Diff(want, *mg.Observation()); diff != "" {
					t.Errorf("status.atProvider -want +got:\n%s", diff)
				}
			})
		}
	}
}

type op = keystonetest.Op[mr, domain]

func newDriver(a keystone.API) adoption.Driver[mr, domain] {
	return sharedDriver(clients.SharedReadOptions{})(a)
}

func create(mg mr) op           { return keystonetest.Create[mr, domain](mg, self) }
func update(mg mr, d domain) op { return keystonetest.Update(mg, d, self) }
func del(d domain) op           { return keystonetest.Delete(newDomain(v1alpha1.DomainParameters{}), d) }
func dependents(d domain) op {
	return keystonetest.Dependents(newDomain(v1alpha1.DomainParameters{}), d)
}

func TestCalls(t *testing.T) {
	acme := func() mr { return newDomain(v1alpha1.DomainParameters{Name: "acme", Enabled: new(true)}) }
	nsAcme := func() mr { return newNSDomain(v1alpha1.DomainParameters{Name: "acme", Enabled: new(true)}) }
	invalid := newDomain(v1alpha1.DomainParameters{Name: "ac\nme"})
	enabled, disabled := domain{ID: "d1", Name: "acme", Enabled: true}, domain{ID: "d1", Name: "acme"}
	written := `{"domain":{"name":"acme","enabled":true,"crossplane_provenance":"` + self.Encode() + `"}}`
	boom := errors.New("connection reset by peer")
	noConfig := map[string]keystonetest.Answer{
		"GET domains/d1/config":                                      keystonetest.NotFound,
		"GET projects?domain_id=d1":                                  {Body: `{"projects": [{"id": "p1", "name": "team-a"}]}`},
		"GET users?domain_id=d1":                                     {Body: `{"users": []}`},
		"GET groups?domain_id=d1":                                    {Body: `{"groups": []}`},
		"GET role_assignments?include_names=true&scope.domain.id=d1": {Body: `{"role_assignments": []}`},
		"GET OS-FEDERATION/identity_providers":                       {Body: `{"identity_providers": [{"id": "corp", "domain_id": "d1"}, {"id": "other", "domain_id": "d2"}]}`},
	}
	listed := []string{"GET domains/d1/config", "GET projects?domain_id=d1", "GET users?domain_id=d1", "GET groups?domain_id=d1",
		"GET role_assignments?include_names=true&scope.domain.id=d1", "GET OS-FEDERATION/identity_providers"}
	cases := map[string]struct {
		answers map[string]keystonetest.Answer
		call    op
		want    keystonetest.Result
	}{
		"FindListsByName": {
			answers: map[string]keystonetest.Answer{"GET domains?name=acme": {Body: `{"domains": [{"id": "d1", "name": "acme"}]}`}},
			call:    keystonetest.Find[mr, domain](acme()),
			want:    keystonetest.Result{Value: []string{"d1"}, Calls: []string{"GET domains?name=acme"}},
		},
		"FindFails": {
			answers: map[string]keystonetest.Answer{"GET domains?name=acme": keystonetest.ServerError},
			call:    keystonetest.Find[mr, domain](acme()),
			want:    keystonetest.Result{Value: []string(nil), Calls: []string{"GET domains?name=acme"}, Err: keystonetest.ServerError.Failure("GET", "domains?name=acme")},
		},
		"CreateSendsTheSpecAndTheMarker": {
			answers: map[string]keystonetest.Answer{"POST domains": {Status: 201, Body: `{"domain": {"id": "d1", "name": "acme"}}`}},
			call:    create(acme()),
			want:    keystonetest.Result{Value: "d1", Calls: []string{"POST domains " + written}},
		},
		"NamespacedCreateSendsTheSameBody": {
			answers: map[string]keystonetest.Answer{"POST domains": {Status: 201, Body: `{"domain": {"id": "d1", "name": "acme"}}`}},
			call:    create(nsAcme()),
			want:    keystonetest.Result{Value: "d1", Calls: []string{"POST domains " + written}},
		},
		"CreateRefused": {
			answers: map[string]keystonetest.Answer{"POST domains": keystonetest.Conflict},
			call:    create(acme()),
			want: keystonetest.Result{Value: "", Calls: []string{"POST domains " + written},
				Err: keystone.Wrap(keystonetest.Conflict.Failure("POST", "domains"), errCreate, "acme")},
		},
		"CreateInvalidSendsNothing": {
			call: create(invalid),
			want: keystonetest.Result{Value: "", Err: validate(invalid)},
		},
		"UpdatePatchesTheSpecAndTheMarker": {
			answers: map[string]keystonetest.Answer{"PATCH domains/d1": {Body: `{"domain": {}}`}},
			call:    update(acme(), enabled),
			want:    keystonetest.Result{Calls: []string{"PATCH domains/d1 " + written}},
		},
		"UpdateFails": {
			answers: map[string]keystonetest.Answer{"PATCH domains/d1": keystonetest.ServerError},
			call:    update(acme(), enabled),
			want: keystonetest.Result{Calls: []string{"PATCH domains/d1 " + written},
				Err: keystone.Wrap(keystonetest.ServerError.Failure("PATCH", "domains/d1"), errUpdate, "acme", "d1")},
		},
		"UpdateInvalidSendsNothing": {
			call: update(invalid, enabled),
			want: keystonetest.Result{Err: validate(invalid)},
		},
		"DeleteDisablesAnEnabledDomainFirst": {
			answers: map[string]keystonetest.Answer{"PATCH domains/d1": {}, "DELETE domains/d1": {Status: 204}},
			call:    del(enabled),
			want:    keystonetest.Result{Calls: []string{`PATCH domains/d1 {"domain":{"enabled":false}}`, "DELETE domains/d1"}},
		},
		"DeleteOfADisabledDomainDeletesAtOnce": {
			answers: map[string]keystonetest.Answer{"DELETE domains/d1": {Status: 204}},
			call:    del(disabled),
			want:    keystonetest.Result{Calls: []string{"DELETE domains/d1"}},
		},
		"DisableRefusedDeletesNothing": {
			answers: map[string]keystonetest.Answer{"PATCH domains/d1": keystonetest.Forbidden},
			call:    del(enabled),
			want: keystonetest.Result{Calls: []string{`PATCH domains/d1 {"domain":{"enabled":false}}`},
				Err: keystone.Wrap(keystonetest.Forbidden.Failure("PATCH", "domains/d1"), errDisable, "acme", "d1")},
		},
		"GoneWhileDeletingIsDeleted": {
			answers: map[string]keystonetest.Answer{"PATCH domains/d1": keystonetest.NotFound, "DELETE domains/d1": keystonetest.NotFound},
			call:    del(enabled),
			want:    keystonetest.Result{Calls: []string{`PATCH domains/d1 {"domain":{"enabled":false}}`, "DELETE domains/d1"}},
		},
		"DeleteFails": {
			answers: map[string]keystonetest.Answer{"DELETE domains/d1": {Err: boom}},
			call:    del(disabled),
			want:    keystonetest.Result{Calls: []string{"DELETE domains/d1"}, Err: keystone.Wrap(boom, errDelete, "acme", "d1")},
		},
		"AConfiguredDomainReportsItsConfigurationOnly": {
			answers: map[string]keystonetest.Answer{"GET domains/d1/config": {Body: `{"config": {"identity": {"driver": "ldap"}}}`}},
			call:    dependents(enabled),
			want:    keystonetest.Result{Value: []string{"Keystone domain configuration of domain d1"}, Calls: []string{"GET domains/d1/config"}},
		},
		"ConfigurationUnreadable": {
			answers: map[string]keystonetest.Answer{"GET domains/d1/config": {Err: boom}},
			call:    dependents(enabled),
			want:    keystonetest.Result{Value: []string(nil), Err: boom, Calls: []string{"GET domains/d1/config"}},
		},
		"OtherwiseEverythingInTheDomain": {
			answers: noConfig,
			call:    dependents(enabled),
			want:    keystonetest.Result{Value: []string{"Keystone project team-a", "Keystone identity provider corp"}, Calls: listed},
		},
		"AFailedListDecidesNothing": {
			answers: func() map[string]keystonetest.Answer {
				a := map[string]keystonetest.Answer{}
				for k, v := range noConfig {
					a[k] = v
				}
				a["GET groups?domain_id=d1"] = keystonetest.Answer{Err: boom}
				return a
			}(),
			call: dependents(enabled),
			want: keystonetest.Result{Value: []string(nil), Err: boom, Calls: listed[:4]},
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

// TestCreateLateInitializes: a create fills the spec's unset enabled from Keystone's answer,
// so that the update recording the create carries it; a value the spec sets stays.
func TestCreateLateInitializes(t *testing.T) {
	answers := map[string]keystonetest.Answer{"POST domains": {Status: http.StatusCreated, Body: `{"domain": {"id": "d1", "enabled": false}}`}}
	keystonetest.LateInitializedOnCreate(t, func(t *testing.T, enabled *bool) *bool {
		mg := newDomain(v1alpha1.DomainParameters{Name: "team-a", Enabled: enabled})
		if got := keystonetest.Run(answers, newDriver, create(mg)); got.Err != nil {
			t.Fatalf("Create: %v", got.Err)
		}
		return mg.Parameters().Enabled
	})
}
