package adoption

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

func TestDecide(t *testing.T) {
	self := provenance.Marker{Installation: "here", Resource: "Domain.keystone.identity.crossplane.io/a"}
	mark := func(inst, res string, o provenance.Origin) *provenance.Marker {
		return &provenance.Marker{Installation: inst, Resource: res, Origin: o}
	}
	obj := Description{ID: "1", Type: "Keystone domain", Key: "a"}
	with := func(m *provenance.Marker) Description { d := obj; d.Marker = m; return d }

	cases := map[string]struct {
		req      request
		obj      Description
		want     verdict
		conflict *ConflictError
	}{
		"OwnMarkerFailOnConflict": {
			req:  request{Self: self, Policy: identityv1alpha1.FailOnConflict},
			obj:  with(mark("here", self.Resource, provenance.OriginCreated)),
			want: verdict{Provenance: identityv1alpha1.Owned},
		},
		"OwnAdoptedMarker": {
			req:  request{Self: self, Policy: identityv1alpha1.FailOnConflict},
			obj:  with(mark("here", self.Resource, provenance.OriginAdopted)),
			want: verdict{Provenance: identityv1alpha1.Adopted},
		},
		"NoMarkerFailOnConflict": {
			req:      request{Self: self, Policy: identityv1alpha1.FailOnConflict},
			obj:      obj,
			conflict: &ConflictError{Object: obj},
		},
		"NoMarkerAdoptExisting": {
			req:  request{Self: self, Policy: identityv1alpha1.AdoptExisting},
			obj:  obj,
			want: verdict{Provenance: identityv1alpha1.Adopted, Stamp: true},
		},
		"ForeignInstallationEvenUnderAdoptExisting": {
			req:      request{Self: self, Policy: identityv1alpha1.AdoptExisting},
			obj:      with(mark("there", self.Resource, provenance.OriginCreated)),
			conflict: &ConflictError{Object: with(mark("there", self.Resource, provenance.OriginCreated)), ForeignInstallation: "there"},
		},
		"AnotherResourceOfThisInstallation": {
			req:      request{Self: self, Policy: identityv1alpha1.AdoptExisting},
			obj:      with(mark("here", "Domain.keystone.identity.crossplane.io/b", provenance.OriginCreated)),
			conflict: &ConflictError{Object: with(mark("here", "Domain.keystone.identity.crossplane.io/b", provenance.OriginCreated)), OtherResource: "Domain.keystone.identity.crossplane.io/b"},
		},
		"ObserveOnlyReadsAnything": {
			req:  request{Self: self, Policy: identityv1alpha1.FailOnConflict, ObserveOnly: true},
			obj:  with(mark("there", "x", provenance.OriginCreated)),
			want: verdict{Provenance: identityv1alpha1.Observed},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := decide(tc.req, tc.obj)
			if tc.conflict != nil {
				var ce *ConflictError
				if !errors.As(err, &ce) {
					t.Fatalf("decide(...): want a *ConflictError, got %v", err)
				}
				if diff := cmp.Diff(tc.conflict, ce); diff != "" {
					t.Errorf("decide(...): -want conflict, +got:\n%s", diff)
				}
				return
			}
			if err != nil {
				t.Fatalf("decide(...): %v", err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("decide(...): -want, +got:\n%s", diff)
			}
		})
	}
}

func TestConflictMessageIsActionable(t *testing.T) {
	d := Description{ID: "42", Type: "Keystone domain", Key: "grafana"}
	cases := map[string]struct {
		err  *ConflictError
		want []string
	}{
		"Unmarked":      {err: &ConflictError{Object: d}, want: []string{`Keystone domain "grafana" (ID 42)`, "spec.adoptionPolicy: AdoptExisting", `spec.managementPolicies: ["Observe"]`}},
		"Foreign":       {err: &ConflictError{Object: d, ForeignInstallation: "cluster-b"}, want: []string{`Keystone domain "grafana" (ID 42)`, `installation "cluster-b"`, "even with spec.adoptionPolicy: AdoptExisting"}},
		"OtherResource": {err: &ConflictError{Object: d, OtherResource: "Domain.keystone.identity.crossplane.io/b"}, want: []string{"Domain.keystone.identity.crossplane.io/b", "deletionPolicy: Orphan"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			msg := tc.err.Error()
			for _, w := range tc.want {
				if !contains(msg, w) {
					t.Errorf("message %q lacks %q", msg, w)
				}
			}
			c := tc.err.Condition()
			if c.Reason != ReasonAdoptionRequired || c.Status != "False" || c.Message != msg {
				t.Errorf("Condition(): got %+v", c)
			}
		})
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

func TestResourceLabel(t *testing.T) {
	cases := map[string]string{
		"Domain.keystone.identity.crossplane.io/a":          "Domain.keystone.identity.crossplane.io/a",
		"Domain.keystone.identity.m.crossplane.io/team-b/a": `Domain.keystone.identity.m.crossplane.io "a" in namespace team-b`,
		"not a resource name":                               "not a resource name",
	}
	for in, want := range cases {
		if got := ResourceLabel(in); got != want {
			t.Errorf("ResourceLabel(%q): got %q, want %q", in, got, want)
		}
	}
}
