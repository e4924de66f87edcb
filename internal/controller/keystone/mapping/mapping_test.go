package mapping

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gophercloud/gophercloud/v2/openstack/identity/v3/federation"

	"github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

func ptr[T any](v T) *T { return &v }

// rules uses every field of the rule grammar.
func rules() []v1alpha1.MappingRule {
	return []v1alpha1.MappingRule{{
		Local: []v1alpha1.MappingLocal{
			{User: &v1alpha1.MappingUser{Name: ptr("{0}"), Email: ptr("{1}"), ID: ptr("{2}"), Type: ptr("local"), Domain: &v1alpha1.MappingDomain{Name: ptr("d")}}},
			{Group: &v1alpha1.MappingGroup{ID: ptr("g1")}},
			{Group: &v1alpha1.MappingGroup{Name: ptr("devs"), Domain: &v1alpha1.MappingDomain{ID: ptr("did")}}},
			{Groups: ptr("{3}"), Domain: &v1alpha1.MappingDomain{Name: ptr("d")}},
			{GroupIDs: ptr("{4}")},
			{Projects: []v1alpha1.MappingProject{{Name: "p", Roles: []v1alpha1.MappingRole{{Name: "member"}, {Name: "reader"}}}}, Domain: &v1alpha1.MappingDomain{ID: ptr("did")}},
		},
		Remote: []v1alpha1.MappingRemote{
			{Type: "REMOTE_USER"},
			{Type: "HTTP_A", AnyOneOf: []string{"x"}, Regex: ptr(true)},
			{Type: "HTTP_B", NotAnyOf: []string{"y"}},
			{Type: "HTTP_C", Blacklist: []string{"z"}},
			{Type: "HTTP_D", Whitelist: []string{"w"}, Regex: ptr(false)},
		},
	}}
}

// The wire form is Keystone's rule JSON: snake_case, empty fields left out.
func TestToKeystoneJSON(t *testing.T) {
	b, err := json.Marshal(ToKeystone(rules()))
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"local":[` +
		`{"user":{"domain":{"name":"d"},"email":"{1}","id":"{2}","name":"{0}","type":"local"}},` +
		`{"group":{"id":"g1"}},` +
		`{"group":{"name":"devs","domain":{"id":"did"}}},` +
		`{"domain":{"name":"d"},"groups":"{3}"},` +
		`{"group_ids":"{4}"},` +
		`{"domain":{"id":"did"},"projects":[{"name":"p","roles":[{"name":"member"},{"name":"reader"}]}]}],` +
		`"remote":[{"type":"REMOTE_USER"},{"type":"HTTP_A","regex":true,"any_one_of":["x"]},{"type":"HTTP_B","not_any_of":["y"]},` +
		`{"type":"HTTP_C","blacklist":["z"]},{"type":"HTTP_D","regex":false,"whitelist":["w"]}]}]`
	var a, w any
	_ = json.Unmarshal(b, &a)
	_ = json.Unmarshal([]byte(want), &w)
	if d := cmp.Diff(w, a); d != "" {
		t.Errorf("wire JSON (-want +got):\n%s\n%s", d, b)
	}
}

func TestRoundTrip(t *testing.T) {
	if d := cmp.Diff(rules(), FromKeystone(ToKeystone(rules()))); d != "" {
		t.Errorf("FromKeystone(ToKeystone(rules)) (-want +got):\n%s", d)
	}
}

func TestObserve(t *testing.T) {
	// Keystone's answer, decoded as gophercloud decodes it.
	var stored []federation.MappingRule
	b, err := json.Marshal(ToKeystone(rules()))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &stored); err != nil {
		t.Fatal(err)
	}
	changed := rules()
	changed[0].Remote[1].AnyOneOf = []string{"x", "x2"}
	cases := map[string]struct {
		spec     []v1alpha1.MappingRule
		upToDate bool
	}{
		"Same":        {spec: rules(), upToDate: true},
		"RuleChanged": {spec: changed},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			mg := &v1alpha1.Mapping{Spec: v1alpha1.MappingSpec{ForProvider: v1alpha1.MappingParameters{ID: "m", Rules: tc.spec}}}
			o := (&external{}).Observe(mg, federation.Mapping{ID: "m", Rules: stored}, identityv1alpha1.Owned)
			if o.UpToDate != tc.upToDate {
				t.Errorf("UpToDate %v, want %v (diff %s)", o.UpToDate, tc.upToDate, o.Diff)
			}
			if want := (v1alpha1.MappingObservation{ID: "m", RuleCount: 1, Provenance: identityv1alpha1.Owned}); mg.Status.AtProvider != want {
				t.Errorf("atProvider %+v", mg.Status.AtProvider)
			}
		})
	}
	if d := (&external{}).Describe(federation.Mapping{ID: "m"}); !d.Markerless || d.Marker != nil || d.ID != "m" {
		t.Errorf("Describe %+v: a mapping is markerless", d)
	}
}
