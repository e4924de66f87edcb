package group

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

func ptr[T any](v T) *T { return &v }

func TestObserve(t *testing.T) {
	g := group{ID: "g1", Name: "admins", DomainID: "d1", Description: "hand"}
	cases := map[string]struct {
		fp     v1alpha1.GroupParameters
		g      group
		wantUp bool
		want   v1alpha1.GroupObservation
	}{
		"NameAndDomain": {
			fp: v1alpha1.GroupParameters{Name: "admins", DomainID: ptr("d1")}, g: g, wantUp: true,
			want: v1alpha1.GroupObservation{ID: "g1", Name: "admins", DomainID: "d1", Description: "hand", Provenance: identityv1alpha1.Observed},
		},
		"DescriptionDiffers": {fp: v1alpha1.GroupParameters{Name: "admins", DomainID: ptr("d1"), Description: ptr("spec")}, g: g, wantUp: false},
		"DescriptionMatches": {fp: v1alpha1.GroupParameters{Name: "admins", DomainID: ptr("d1"), Description: ptr("hand")}, g: g, wantUp: true},
		"EmptyDescription":   {fp: v1alpha1.GroupParameters{Name: "admins", DomainID: ptr("d1"), Description: ptr("")}, g: g, wantUp: false},
		"OtherDomain":        {fp: v1alpha1.GroupParameters{Name: "admins", DomainID: ptr("d2")}, g: g, wantUp: false},
		"Renamed":            {fp: v1alpha1.GroupParameters{Name: "ops", DomainID: ptr("d1")}, g: g, wantUp: false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			mg := &v1alpha1.Group{Spec: v1alpha1.GroupSpec{ForProvider: tc.fp}}
			before := *mg.Spec.ForProvider.DeepCopy()
			got := (&external{}).Observe(mg, tc.g, identityv1alpha1.Observed)
			if got.UpToDate != tc.wantUp || got.UpToDate != (got.Diff == "") {
				t.Errorf("UpToDate: got %v with diff %q, want %v", got.UpToDate, got.Diff, tc.wantUp)
			}
			if got.LateInitialized {
				t.Errorf("a group has no server defaults to late-initialize")
			}
			if diff := cmp.Diff(before, mg.Spec.ForProvider); diff != "" {
				t.Errorf("Observe changed the spec (-before +after):\n%s", diff)
			}
			if tc.want.ID != "" {
				if diff := cmp.Diff(tc.want, mg.Status.AtProvider); diff != "" {
					t.Errorf("status.atProvider (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestUpdateRefusesToMove(t *testing.T) {
	mg := &v1alpha1.Group{Spec: v1alpha1.GroupSpec{ForProvider: v1alpha1.GroupParameters{Name: "admins", DomainID: ptr("d2")}}}
	_, err := (&external{}).Update(context.Background(), mg, group{ID: "g1", Name: "admins", DomainID: "d1"}, provenance.Marker{})
	want := `Keystone group "admins" (ID g1) is in domain d1 but spec.forProvider.domainId is d2`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v, want an error containing %q", err, want)
	}
}

// A resource being deleted resolves no references: without a domain there is nothing to find,
// and its deletion must not hang on the lookup.
func TestFindWithoutDomain(t *testing.T) {
	mg := &v1alpha1.Group{Spec: v1alpha1.GroupSpec{ForProvider: v1alpha1.GroupParameters{Name: "x"}}}
	if _, err := (&external{}).Find(context.Background(), mg); err == nil || !strings.Contains(err.Error(), "not known yet") {
		t.Errorf("Find: got %v, want the unresolved-domain error", err)
	}
	mg.SetDeletionTimestamp(&metav1.Time{Time: time.Now()})
	found, err := (&external{}).Find(context.Background(), mg)
	if err != nil || len(found) != 0 {
		t.Errorf("Find while deleting: got %v, %v; want nothing", found, err)
	}
}
