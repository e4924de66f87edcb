package impliedrole

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone/keystonetest"
	"github.com/crossplane-contrib/provider-identity/internal/controller/keystone/fact/facttest"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

func ptr[T any](v T) *T { return &v }

func newIR(fp v1alpha1.ImpliedRoleParameters) *v1alpha1.ImpliedRole {
	return &v1alpha1.ImpliedRole{ObjectMeta: metav1.ObjectMeta{Name: "ir"}, Spec: v1alpha1.ImpliedRoleSpec{ForProvider: fp}}
}

func TestKeyRoundTrip(t *testing.T) {
	const form = "want <prior role ID>/<implied role ID>"
	facttest.Keys(t, parseKey, map[string]facttest.Key[rule]{
		"PriorAndImplied":  {Key: "r1/r2", Want: rule{PriorID: "r1", ImpliedID: "r2"}},
		"RoleIDAlone":      {Key: "r1", Err: `external name "r1" is not an implied-role rule key: ` + form},
		"EmptyPrior":       {Key: "/r2", Err: form},
		"KeystoneListForm": {Key: "r1/implies/r2", Err: form},
	})
}

// The rule's own: its URL, what its spec names, its record and its messages (the driver's
// behaviour is tested once, in package fact). Rules have no shared list: even with shared reads
// on, every check is its own HEAD.
func TestCalls(t *testing.T) {
	const rulePath = "roles/p/implies/i"
	r := rule{PriorID: "p", ImpliedID: "i"}
	fp := v1alpha1.ImpliedRoleParameters{PriorRoleID: ptr("p"), ImpliedRoleID: ptr("i")}
	mk := provenance.Marker{Installation: "i", Resource: "ImpliedRole.keystone.identity.crossplane.io/ir", Origin: provenance.OriginCreated}
	recorded := v1alpha1.ImpliedRoleObservation{ID: "p/i", PriorRoleID: "p", ImpliedRoleID: "i", Provenance: identityv1alpha1.Owned}
	status := func(mg mr) v1alpha1.ImpliedRoleObservation { return *mg.Observation() }
	facttest.Run(t, kind.Drivers(clients.SharedReadOptions{Fresh: time.Minute, Window: time.Minute}), map[string]facttest.Call[mr, rule]{
		"GetChecksTheRule": {
			Answers: map[string]keystonetest.Answer{"HEAD " + rulePath: {Status: 204}},
			Op:      facttest.Get[mr, rule](newIR(fp), "p/i"), Want: r, Calls: []string{"HEAD " + rulePath},
		},
		"ObserveRecordsIt": {
			Op:   facttest.Observe[mr](newIR(fp), r, status),
			Want: facttest.Observed[v1alpha1.ImpliedRoleObservation]{Status: recorded, UpToDate: true},
		},
		"ObserveAnotherPriorNamed": {
			Op:   facttest.Observe[mr](newIR(v1alpha1.ImpliedRoleParameters{PriorRoleID: ptr("q"), ImpliedRoleID: ptr("i")}), r, status),
			Want: facttest.Observed[v1alpha1.ImpliedRoleObservation]{Status: recorded},
		},
		"FindUnresolvedPrior": {
			Op:   keystonetest.Find[mr, rule](newIR(v1alpha1.ImpliedRoleParameters{PriorRoleRef: &xpv2.Reference{Name: "p"}, ImpliedRoleID: ptr("i")})),
			Want: []string(nil), Err: "the prior role of the implied-role rule is not known: set spec.forProvider.priorRoleId, or wait for its reference or selector to resolve",
		},
		"FindUnresolvedImplied": {
			Op:   keystonetest.Find[mr, rule](newIR(v1alpha1.ImpliedRoleParameters{PriorRoleID: ptr("p"), ImpliedRoleRef: &xpv2.Reference{Name: "i"}})),
			Want: []string(nil), Err: "the implied role of the implied-role rule is not known: set spec.forProvider.impliedRoleId",
		},
		"CreateMakesIt": {
			Answers: map[string]keystonetest.Answer{
				"HEAD " + rulePath: keystonetest.NotFound,
				"PUT " + rulePath:  {Status: 201, Body: `{"role_inference": {"prior_role": {"id": "p"}, "implies": {"id": "i"}}}`},
			},
			Op: keystonetest.Create[mr, rule](newIR(fp), mk), Want: "p/i", Calls: []string{"HEAD " + rulePath, "PUT " + rulePath},
		},
		"CreateCannotCheck": {
			Answers: map[string]keystonetest.Answer{"HEAD " + rulePath: keystonetest.ServerError},
			Op:      keystonetest.Create[mr, rule](newIR(fp), mk), Want: "",
			Err: "cannot check Keystone implied-role rule p/i", Calls: []string{"HEAD " + rulePath},
		},
		"CreateRefusedSaysWhy": {
			Answers: map[string]keystonetest.Answer{"HEAD " + rulePath: keystonetest.NotFound, "PUT " + rulePath: keystonetest.Forbidden},
			Op:      keystonetest.Create[mr, rule](newIR(fp), mk), Want: "",
			Err:   "cannot make Keystone role imply another (rule p/i): Keystone refuses a global role implying a domain-specific one, and implying a role named in its [assignment] prohibited_implied_role option (admin by default)",
			Calls: []string{"HEAD " + rulePath, "PUT " + rulePath},
		},
		"CreateMadeMeanwhile": {
			Answers: map[string]keystonetest.Answer{"HEAD " + rulePath: {Status: 204}},
			Op:      keystonetest.Create[mr, rule](newIR(fp), mk), Want: "",
			Err: `Keystone implied-role rule "p/i" (ID p/i) already exists`, Calls: []string{"HEAD " + rulePath},
		},
		"CreateInvalidStoredSpec": {
			// Stored before the CRD's rules: refused before any call.
			Op:   keystonetest.Create[mr, rule](newIR(v1alpha1.ImpliedRoleParameters{PriorRoleID: ptr("p"), ImpliedRoleID: ptr("not/a-role")}), mk),
			Want: "", Err: "spec.forProvider.impliedRoleId",
		},
		"UpdateChangedSpecRefused": {
			Op:  keystonetest.Update[mr, rule](newIR(v1alpha1.ImpliedRoleParameters{PriorRoleID: ptr("p"), ImpliedRoleID: ptr("j")}), r, mk),
			Err: "spec.forProvider now names the implied-role rule p/j, but this resource manages p/i. A rule cannot be changed: restore the spec, or create another ImpliedRole and delete this one",
		},
		"DeleteRemovesIt": {
			Answers: map[string]keystonetest.Answer{"DELETE " + rulePath: {Status: 204}},
			Op:      keystonetest.Delete[mr, rule](newIR(fp), r), Calls: []string{"DELETE " + rulePath},
		},
		"DeleteRefused": {
			Answers: map[string]keystonetest.Answer{"DELETE " + rulePath: keystonetest.Forbidden},
			Op:      keystonetest.Delete[mr, rule](newIR(fp), r),
			Err:     "cannot remove Keystone implied-role rule p/i", Calls: []string{"DELETE " + rulePath},
		},
	})
}
