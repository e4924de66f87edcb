package shared

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	api "goauthentik.io/api/v3"

	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	clusterv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	nsv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

func TestCompare(t *testing.T) {
	cases := map[string]struct {
		want, have Fields
		norm       map[string]Normalizer
		secret     []string
		changed    Fields
	}{
		"UnmanagedFieldsIgnored": {
			want: Fields{"name": "a"}, have: Fields{"name": "a", "other": 1.0},
			changed: Fields{},
		},
		"ScalarDiffers": {
			want: Fields{"name": "b"}, have: Fields{"name": "a"},
			changed: Fields{"name": "b"},
		},
		"NullMatchesNull": {
			want: Fields{"signing_key": nil}, have: Fields{"signing_key": nil},
			changed: Fields{},
		},
		"NullMatchesAbsent": {
			want: Fields{"signing_key": nil}, have: Fields{},
			changed: Fields{},
		},
		"SetIgnoresOrder": {
			want: Fields{"m": []any{"b", "a"}}, have: Fields{"m": []any{"a", "b", "a"}},
			norm:    map[string]Normalizer{"m": Set},
			changed: Fields{},
		},
		"SetMissingIsEmpty": {
			want: Fields{"m": []any{}}, have: Fields{},
			norm:    map[string]Normalizer{"m": Set},
			changed: Fields{},
		},
		"ListOrderMatters": {
			want: Fields{"m": []any{"b", "a"}}, have: Fields{"m": []any{"a", "b"}},
			changed: Fields{"m": []any{"b", "a"}},
		},
		"SecretRedacted": {
			want: Fields{"client_secret": "new-secret"}, have: Fields{"client_secret": "old-secret"},
			secret:  []string{"client_secret"},
			changed: Fields{"client_secret": "new-secret"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := Compare(tc.want, tc.have, tc.norm, tc.secret...)
			if diff := cmp.Diff(tc.changed, c.Changed); diff != "" {
				t.Errorf("changed: -want +got:\n%s", diff)
			}
			if (c.Diff == "") != c.UpToDate() {
				t.Errorf("diff %q with UpToDate %v", c.Diff, c.UpToDate())
			}
			if strings.Contains(c.Diff, "new-secret") || strings.Contains(c.Diff, "old-secret") {
				t.Errorf("diff shows a secret: %s", c.Diff)
			}
		})
	}
}

func TestDescribeProvider(t *testing.T) {
	other := &provenance.Marker{Installation: "there", Resource: "Application.authentik.identity.crossplane.io/a", Origin: provenance.OriginCreated}
	ours := &provenance.Marker{Installation: "here", Resource: "Application.authentik.identity.crossplane.io/a", Origin: provenance.OriginCreated}
	cases := map[string]struct {
		app  *provenance.Marker
		want adoption.Description
	}{
		"NoApplication": {
			want: adoption.Description{ID: "7", Type: "t", Key: "p", Markerless: true},
		},
		"OurApplication": {
			app:  ours,
			want: adoption.Description{ID: "7", Type: "t", Key: "p", Markerless: true},
		},
		"AnotherInstallationsApplication": {
			app:  other,
			want: adoption.Description{ID: "7", Type: "t", Key: "p", Marker: other},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, DescribeProvider(7, "t", "p", tc.app, "here")); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}

func TestParsePK(t *testing.T) {
	for _, bad := range []string{"", "abc", "0", "-1", "99999999999"} {
		if _, err := ParsePK(bad); err == nil {
			t.Errorf("ParsePK(%q) accepted", bad)
		}
	}
	if pk, err := ParsePK("42"); err != nil || pk != 42 {
		t.Errorf("ParsePK(42) = %d, %v", pk, err)
	}
}

func TestSetNullable(t *testing.T) {
	errLookup := errors.New("lookup failed")
	type field struct {
		Set   bool
		Value *string
	}
	str := func(s string) *string { return &s }
	cases := map[string]struct {
		ref    *string
		lookup error
		want   field
		err    error
	}{
		"UnsetLeavesTheFieldAlone":        {},
		"EmptyClearsTheField":             {ref: str(""), want: field{Set: true}},
		"NameSetsItsPrimaryKey":           {ref: str("n"), want: field{Set: true, Value: str("pk-of-n")}},
		"FailedLookupLeavesTheFieldAlone": {ref: str("n"), lookup: errLookup, err: errLookup},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var into api.NullableString
			err := setNullable(tc.ref, &into, func(ref string) (string, error) { return "pk-of-" + ref, tc.lookup })
			if diff := cmp.Diff(tc.err, err, cmpopts.EquateErrors()); diff != "" {
				t.Errorf("error: -want +got:\n%s", diff)
			}
			if diff := cmp.Diff(tc.want, field{Set: into.IsSet(), Value: into.Get()}); diff != "" {
				t.Errorf("field: -want +got:\n%s", diff)
			}
		})
	}
}

func TestWritesConnectionSecret(t *testing.T) {
	cluster := func(ref *xpv2.SecretReference) resource.Managed {
		mg := &clusterv1alpha1.SAMLProvider{}
		mg.Spec.WriteConnectionSecretToReference = ref
		return mg
	}
	namespaced := func(ref *xpv2.LocalSecretReference) resource.Managed {
		mg := &nsv1alpha1.SAMLProvider{}
		mg.Spec.WriteConnectionSecretToReference = ref
		return mg
	}
	cases := map[string]struct {
		mg   resource.Managed
		want bool
	}{
		"ClusterWithSecret":       {mg: cluster(&xpv2.SecretReference{Namespace: "ns", Name: "s"}), want: true},
		"ClusterWithoutSecret":    {mg: cluster(nil)},
		"NamespacedWithSecret":    {mg: namespaced(&xpv2.LocalSecretReference{Name: "s"}), want: true},
		"NamespacedWithoutSecret": {mg: namespaced(nil)},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := WritesConnectionSecret(tc.mg); got != tc.want {
				t.Errorf("WritesConnectionSecret() = %v, want %v", got, tc.want)
			}
		})
	}
}
