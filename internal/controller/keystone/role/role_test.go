package role

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

func ptr[T any](v T) *T { return &v }

func TestObserve(t *testing.T) {
	global := role{ID: "r1", Name: "reader", Description: "hand"}
	scoped := role{ID: "r2", Name: "reader", DomainID: "d1", Description: "hand"}
	cases := map[string]struct {
		fp     v1alpha1.RoleParameters
		r      role
		wantUp bool
		want   v1alpha1.RoleObservation
	}{
		"GlobalNameOnly": {
			fp: v1alpha1.RoleParameters{Name: "reader"}, r: global, wantUp: true,
			want: v1alpha1.RoleObservation{ID: "r1", Name: "reader", Description: "hand", Provenance: identityv1alpha1.Adopted},
		},
		"DescriptionUnsetIsNotManaged": {fp: v1alpha1.RoleParameters{Name: "reader"}, r: scoped, wantUp: false},
		"DomainSpecificMatches": {
			fp: v1alpha1.RoleParameters{Name: "reader", DomainID: ptr("d1")}, r: scoped, wantUp: true,
			want: v1alpha1.RoleObservation{ID: "r2", Name: "reader", DomainID: "d1", Description: "hand", Provenance: identityv1alpha1.Adopted},
		},
		"DescriptionDiffers":     {fp: v1alpha1.RoleParameters{Name: "reader", Description: ptr("spec")}, r: global, wantUp: false},
		"DescriptionMatches":     {fp: v1alpha1.RoleParameters{Name: "reader", Description: ptr("hand")}, r: global, wantUp: true},
		"GlobalWantedScopedSeen": {fp: v1alpha1.RoleParameters{Name: "reader"}, r: scoped, wantUp: false},
		"ScopedWantedGlobalSeen": {fp: v1alpha1.RoleParameters{Name: "reader", DomainID: ptr("d1")}, r: global, wantUp: false},
		"Renamed":                {fp: v1alpha1.RoleParameters{Name: "viewer"}, r: global, wantUp: false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			mg := &v1alpha1.Role{Spec: v1alpha1.RoleSpec{ForProvider: tc.fp}}
			before := *mg.Spec.ForProvider.DeepCopy()
			got := (&external{}).Observe(mg, tc.r, identityv1alpha1.Adopted)
			if got.UpToDate != tc.wantUp || got.UpToDate != (got.Diff == "") {
				t.Errorf("UpToDate: got %v with diff %q, want %v", got.UpToDate, got.Diff, tc.wantUp)
			}
			if got.LateInitialized {
				t.Errorf("a role has no server defaults to late-initialize")
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

func TestDesired(t *testing.T) {
	cases := map[string]struct {
		fp   v1alpha1.RoleParameters
		want managedFields
	}{
		"Global":         {fp: v1alpha1.RoleParameters{Name: "reader"}, want: managedFields{Name: "reader"}},
		"DomainSpecific": {fp: v1alpha1.RoleParameters{Name: "reader", DomainID: ptr("d1"), Description: ptr("x")}, want: managedFields{Name: "reader", DomainID: "d1", Description: ptr("x")}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, desired(&tc.fp)); diff != "" {
				t.Errorf("desired (-want +got):\n%s", diff)
			}
		})
	}
}

// Update refuses to move a role between domains before sending anything (a nil client would
// panic if it tried).
func TestUpdateRefusesToMove(t *testing.T) {
	cases := map[string]struct {
		fp   v1alpha1.RoleParameters
		r    role
		want string
	}{
		"GlobalToDomain": {fp: v1alpha1.RoleParameters{Name: "reader", DomainID: ptr("d1")}, r: role{ID: "r1", Name: "reader"},
			want: `Keystone role "reader" (ID r1) is a global role but the spec asks for specific to domain d1`},
		"DomainToGlobal": {fp: v1alpha1.RoleParameters{Name: "reader"}, r: role{ID: "r1", Name: "reader", DomainID: "d1"},
			want: "is specific to domain d1 but the spec asks for a global role"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			mg := &v1alpha1.Role{Spec: v1alpha1.RoleSpec{ForProvider: tc.fp}}
			_, err := (&external{}).Update(context.Background(), mg, tc.r, provenance.Marker{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// Without its domain a role asking for one is never looked up among, nor created as, global
// roles; a resource being deleted (which resolves no references) finds nothing.
func TestUnresolvedDomain(t *testing.T) {
	ref := func(mg *v1alpha1.Role) *v1alpha1.Role {
		mg.Spec.ForProvider.DomainRef = &xpv2.Reference{Name: "dom"}
		return mg
	}
	mg := ref(&v1alpha1.Role{Spec: v1alpha1.RoleSpec{ForProvider: v1alpha1.RoleParameters{Name: "reader"}}})
	if _, err := (&external{}).Find(context.Background(), mg); err == nil || !strings.Contains(err.Error(), "not known yet") {
		t.Errorf("Find: got %v, want the unresolved-domain error", err)
	}
	if _, _, err := (&external{}).Create(context.Background(), mg, provenance.Marker{}); err == nil || !strings.Contains(err.Error(), "not known yet") {
		t.Errorf("Create: got %v, want the unresolved-domain error", err)
	}
	deleted := mg.DeepCopy()
	deleted.SetDeletionTimestamp(&metav1.Time{Time: time.Now()})
	found, err := (&external{}).Find(context.Background(), deleted)
	if err != nil || len(found) != 0 {
		t.Errorf("Find while deleting: got %v, %v; want nothing", found, err)
	}
}
