package group

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	api "goauthentik.io/api/v3"
	extv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

var self = provenance.Marker{Installation: "inst", Resource: "Group.authentik.identity.crossplane.io/g", Origin: provenance.OriginCreated}

const (
	pkA = "0b5d1a4e-5b0e-4a39-9d3c-7e0e4f1b2c01"
	pkB = "0b5d1a4e-5b0e-4a39-9d3c-7e0e4f1b2c02"
)

func attrs(kv ...string) v1alpha1.Attributes {
	a := v1alpha1.Attributes{}
	for i := 0; i+1 < len(kv); i += 2 {
		a[kv[i]] = extv1.JSON{Raw: []byte(kv[i+1])}
	}
	return a
}

// group is an authentik group as the API returns it, carrying this resource's marker.
func group(mutate ...func(*api.Group)) api.Group {
	g := api.Group{
		Pk: pkA, NumPk: 7, Name: "platform", IsSuperuser: new(false),
		Parents: []string{}, RolesObj: []api.Role{},
		Attributes: map[string]any{authentik.MarkerAttribute: self.Encode(), "team": "sre", "level": float64(2)},
	}
	for _, m := range mutate {
		m(&g)
	}
	return g
}

func TestObserve(t *testing.T) {
	cases := map[string]struct {
		spec      v1alpha1.GroupParameters
		group     api.Group
		upToDate  bool
		lateInit  bool
		wantSuper *bool
	}{
		"MinimalSpecLateInitializesIsSuperuser": {
			spec:      v1alpha1.GroupParameters{Name: "platform"},
			group:     group(func(g *api.Group) { g.IsSuperuser = new(true) }),
			upToDate:  true,
			lateInit:  true,
			wantSuper: new(true),
		},
		"NameDiffers": {
			spec:      v1alpha1.GroupParameters{Name: "platform-2", IsSuperuser: new(false)},
			group:     group(),
			wantSuper: new(false),
		},
		"IsSuperuserDiffers": {
			spec:      v1alpha1.GroupParameters{Name: "platform", IsSuperuser: new(true)},
			group:     group(),
			wantSuper: new(true),
		},
		"UnsetParentsAreNotManaged": {
			spec:      v1alpha1.GroupParameters{Name: "platform", IsSuperuser: new(false)},
			group:     group(func(g *api.Group) { g.Parents = []string{pkB} }),
			upToDate:  true,
			wantSuper: new(false),
		},
		"ParentsCompareAsASet": {
			spec:      v1alpha1.GroupParameters{Name: "platform", IsSuperuser: new(false), Parents: []string{pkB, pkA, pkB}},
			group:     group(func(g *api.Group) { g.Parents = []string{pkA, pkB} }),
			upToDate:  true,
			wantSuper: new(false),
		},
		"EmptyParentsAreManaged": {
			spec:      v1alpha1.GroupParameters{Name: "platform", IsSuperuser: new(false), Parents: []string{}},
			group:     group(func(g *api.Group) { g.Parents = []string{pkB} }),
			wantSuper: new(false),
		},
		"EmptyParentsMatchNoParents": {
			spec:      v1alpha1.GroupParameters{Name: "platform", IsSuperuser: new(false), Parents: []string{}},
			group:     group(func(g *api.Group) { g.Parents = nil }),
			upToDate:  true,
			wantSuper: new(false),
		},
		"RolesCompareByName": {
			spec:      v1alpha1.GroupParameters{Name: "platform", IsSuperuser: new(false), Roles: []string{"viewer", "admin"}},
			group:     group(func(g *api.Group) { g.RolesObj = []api.Role{{Pk: pkA, Name: "admin"}, {Pk: pkB, Name: "viewer"}} }),
			upToDate:  true,
			wantSuper: new(false),
		},
		"MissingRole": {
			spec:      v1alpha1.GroupParameters{Name: "platform", IsSuperuser: new(false), Roles: []string{"viewer", "admin"}},
			group:     group(func(g *api.Group) { g.RolesObj = []api.Role{{Pk: pkA, Name: "admin"}} }),
			wantSuper: new(false),
		},
		"AttributesOutsideTheSpecAreIgnored": {
			spec:      v1alpha1.GroupParameters{Name: "platform", IsSuperuser: new(false), Attributes: attrs("team", `"sre"`)},
			group:     group(),
			upToDate:  true,
			wantSuper: new(false),
		},
		"AttributeNumbersCompareAsJSON": {
			spec:      v1alpha1.GroupParameters{Name: "platform", IsSuperuser: new(false), Attributes: attrs("level", `2.0`)},
			group:     group(),
			upToDate:  true,
			wantSuper: new(false),
		},
		"AttributeValueDiffers": {
			spec:      v1alpha1.GroupParameters{Name: "platform", IsSuperuser: new(false), Attributes: attrs("team", `"platform"`)},
			group:     group(),
			wantSuper: new(false),
		},
		"AttributeMissing": {
			spec:      v1alpha1.GroupParameters{Name: "platform", IsSuperuser: new(false), Attributes: attrs("oncall", `{"rota": [1, 2]}`)},
			group:     group(),
			wantSuper: new(false),
		},
		"NullAttributeIsNotAMissingOne": {
			spec:      v1alpha1.GroupParameters{Name: "platform", IsSuperuser: new(false), Attributes: attrs("gone", `null`)},
			group:     group(),
			wantSuper: new(false),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			mg := &v1alpha1.Group{Spec: v1alpha1.GroupSpec{ForProvider: tc.spec}}
			got := (&external{}).Observe(mg, tc.group, identityv1alpha1.Owned)
			if got.UpToDate != tc.upToDate || got.LateInitialized != tc.lateInit {
				t.Errorf("Observe(...): upToDate %t lateInit %t, want %t %t; diff:\n%s", got.UpToDate, got.LateInitialized, tc.upToDate, tc.lateInit, got.Diff)
			}
			if got.UpToDate != (got.Diff == "") {
				t.Errorf("Observe(...): upToDate %t with diff %q", got.UpToDate, got.Diff)
			}
			if diff := cmp.Diff(tc.wantSuper, mg.Spec.ForProvider.IsSuperuser); diff != "" {
				t.Errorf("spec.forProvider.isSuperuser: -want, +got:\n%s", diff)
			}
			if mg.Status.AtProvider.ID != tc.group.Pk || mg.Status.AtProvider.Provenance != identityv1alpha1.Owned {
				t.Errorf("status.atProvider: got %+v", mg.Status.AtProvider)
			}
		})
	}
}

func TestObserveBadAttributes(t *testing.T) {
	cases := map[string]v1alpha1.Attributes{
		"Undecodable":  attrs("bad", `{`),
		"MarkerKeySet": attrs(authentik.MarkerAttribute, `"v=v1&installation=inst&resource=x&origin=created"`),
	}
	for name, a := range cases {
		t.Run(name, func(t *testing.T) {
			mg := &v1alpha1.Group{Spec: v1alpha1.GroupSpec{ForProvider: v1alpha1.GroupParameters{Name: "platform", IsSuperuser: new(false), Attributes: a}}}
			got := (&external{}).Observe(mg, group(), identityv1alpha1.Owned)
			if got.UpToDate || got.Diff == "" {
				t.Fatalf("Observe(...): want not up to date with a reason, got %+v", got)
			}
			if _, _, err := patch(&mg.Spec.ForProvider, group(), self); err == nil {
				t.Errorf("patch(...): want an error")
			}
			if _, _, err := (&external{}).Create(t.Context(), mg, self); err == nil {
				t.Errorf("Create(...): want an error before any request")
			}
		})
	}
}

func TestPatch(t *testing.T) {
	adopted := provenance.Marker{Installation: "inst", Resource: "Group.authentik.identity.crossplane.io/g", Origin: provenance.OriginAdopted}
	cases := map[string]struct {
		spec      v1alpha1.GroupParameters
		group     api.Group
		marker    provenance.Marker
		want      api.PatchedGroupRequest
		wantRoles bool
		wantEmpty bool
	}{
		"NothingDiffers": {
			spec:      v1alpha1.GroupParameters{Name: "platform", IsSuperuser: new(false), Attributes: attrs("team", `"sre"`)},
			group:     group(),
			marker:    self,
			wantEmpty: true,
		},
		"OnlyTheDifferingFieldIsSent": {
			spec:   v1alpha1.GroupParameters{Name: "platform", IsSuperuser: new(true), Parents: []string{pkB}},
			group:  group(func(g *api.Group) { g.Parents = []string{pkB} }),
			marker: self,
			want:   api.PatchedGroupRequest{IsSuperuser: new(true)},
		},
		"ClearingParentsSendsAnEmptyList": {
			spec:   v1alpha1.GroupParameters{Name: "platform", Parents: []string{}},
			group:  group(func(g *api.Group) { g.Parents = []string{pkB} }),
			marker: self,
			want:   api.PatchedGroupRequest{Parents: []string{}},
		},
		"RenameSendsTheName": {
			spec:   v1alpha1.GroupParameters{Name: "platform-2"},
			group:  group(),
			marker: self,
			want:   api.PatchedGroupRequest{Name: new("platform-2")},
		},
		"RolesAreLeftToTheCaller": {
			spec:      v1alpha1.GroupParameters{Name: "platform", Roles: []string{"admin"}},
			group:     group(),
			marker:    self,
			wantRoles: true,
			wantEmpty: true,
		},
		"AttributesAreMergedWithOthersKeys": {
			spec:   v1alpha1.GroupParameters{Name: "platform", Attributes: attrs("team", `"platform"`)},
			group:  group(),
			marker: self,
			want: api.PatchedGroupRequest{Attributes: map[string]any{
				authentik.MarkerAttribute: self.Encode(), "team": "platform", "level": float64(2),
			}},
		},
		"AdoptionStampsTheMarkerKeepingEveryKey": {
			spec:   v1alpha1.GroupParameters{Name: "platform"},
			group:  group(func(g *api.Group) { delete(g.Attributes, authentik.MarkerAttribute) }),
			marker: adopted,
			want: api.PatchedGroupRequest{Attributes: map[string]any{
				authentik.MarkerAttribute: adopted.Encode(), "team": "sre", "level": float64(2),
			}},
		},
		"AdoptionOfAGroupWithoutAttributes": {
			spec:   v1alpha1.GroupParameters{Name: "platform", Attributes: attrs("team", `"sre"`)},
			group:  group(func(g *api.Group) { g.Attributes = nil }),
			marker: adopted,
			want: api.PatchedGroupRequest{Attributes: map[string]any{
				authentik.MarkerAttribute: adopted.Encode(), "team": "sre",
			}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, roles, err := patch(&tc.spec, tc.group, tc.marker)
			if err != nil {
				t.Fatalf("patch(...): %v", err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("patch(...): -want, +got:\n%s", diff)
			}
			if roles != tc.wantRoles {
				t.Errorf("patch(...): roles changed %t, want %t", roles, tc.wantRoles)
			}
			if isEmpty(got) != tc.wantEmpty {
				t.Errorf("isEmpty(patch(...)): %t, want %t", isEmpty(got), tc.wantEmpty)
			}
		})
	}
}

func TestDescribe(t *testing.T) {
	cases := map[string]struct {
		attrs map[string]any
		want  *provenance.Marker
	}{
		"Marked":       {attrs: map[string]any{authentik.MarkerAttribute: self.Encode()}, want: &self},
		"Unmarked":     {attrs: map[string]any{"team": "sre"}},
		"NotAString":   {attrs: map[string]any{authentik.MarkerAttribute: float64(1)}},
		"Unreadable":   {attrs: map[string]any{authentik.MarkerAttribute: "v=v9&installation=x"}},
		"NoAttributes": {},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			d := (&external{}).Describe(group(func(g *api.Group) { g.Attributes = tc.attrs }))
			if diff := cmp.Diff(tc.want, d.Marker); diff != "" {
				t.Errorf("Describe(...).Marker: -want, +got:\n%s", diff)
			}
			if d.ID != pkA || d.Key != "platform" || d.Type != typeName {
				t.Errorf("Describe(...): got %+v", d)
			}
		})
	}
}

func TestIsUUID(t *testing.T) {
	for s, want := range map[string]bool{pkA: true, "42": false, "": false, "0b5d1a4e-5b0e-4a39-9d3c-7e0e4f1b2cz1": false, "0b5d1a4e05b0e-4a39-9d3c-7e0e4f1b2c01": false} {
		if got := isUUID(s); got != want {
			t.Errorf("isUUID(%q): got %t, want %t", s, got, want)
		}
	}
}
