package identityprovider

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone/keystonetest"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

func ptr[T any](v T) *T { return &v }

var marker = provenance.Marker{Installation: "i", Resource: "IdentityProvider.keystone.identity.crossplane.io/x", Origin: provenance.OriginCreated}

func TestDescribe(t *testing.T) {
	cases := map[string]struct {
		description string
		want        *provenance.Marker
	}{
		"Marked":        {description: provenance.EmbedInText("text", marker), want: &marker},
		"MarkerOnly":    {description: provenance.EmbedInText("", marker), want: &marker},
		"Unmarked":      {description: "text"},
		"BrokenMarker":  {description: "text\n[provider-identity: v=v9]"},
		"NotOnLastLine": {description: provenance.EmbedInText("", marker) + "\nmore"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			d := (&external{}).Describe(keystone.IdentityProvider{ID: "x", Description: tc.description})
			if diff := cmp.Diff(tc.want, d.Marker); diff != "" {
				t.Errorf("marker (-want +got):\n%s", diff)
			}
			if d.ID != "x" || d.Key != "x" || d.Markerless {
				t.Errorf("description %+v", d)
			}
		})
	}
}

func TestObserve(t *testing.T) {
	idp := keystone.IdentityProvider{
		ID: "x", DomainID: "d", Description: provenance.EmbedInText("hello", marker), Enabled: true,
		RemoteIDs: []string{"b", "a"}, AuthorizationTTL: ptr(30),
	}
	cases := map[string]struct {
		fp       v1alpha1.IdentityProviderParameters
		upToDate bool
		lateInit bool
	}{
		"AllEqualMarkerIgnoredRemoteIDsUnordered": {
			fp:       v1alpha1.IdentityProviderParameters{ID: "x", DomainID: ptr("d"), Description: ptr("hello"), Enabled: ptr(true), RemoteIDs: []string{"a", "b"}, AuthorizationTTL: ptr(int32(30))},
			upToDate: true,
		},
		"UnsetFieldsNeverDiffer": {fp: v1alpha1.IdentityProviderParameters{ID: "x", DomainID: ptr("d"), Enabled: ptr(true)}, upToDate: true},
		"EnabledLateInitialized": {fp: v1alpha1.IdentityProviderParameters{ID: "x", DomainID: ptr("d")}, upToDate: true, lateInit: true},
		"DescriptionDiffers":     {fp: v1alpha1.IdentityProviderParameters{ID: "x", DomainID: ptr("d"), Enabled: ptr(true), Description: ptr("bye")}},
		"RemoteIDsDiffer":        {fp: v1alpha1.IdentityProviderParameters{ID: "x", DomainID: ptr("d"), Enabled: ptr(true), RemoteIDs: []string{"a"}}},
		"EmptyRemoteIDsDiffer":   {fp: v1alpha1.IdentityProviderParameters{ID: "x", DomainID: ptr("d"), Enabled: ptr(true), RemoteIDs: []string{}}},
		"TTLDiffers":             {fp: v1alpha1.IdentityProviderParameters{ID: "x", DomainID: ptr("d"), Enabled: ptr(true), AuthorizationTTL: ptr(int32(5))}},
		"DomainDiffers":          {fp: v1alpha1.IdentityProviderParameters{ID: "x", DomainID: ptr("other"), Enabled: ptr(true)}},
		"DisabledWanted":         {fp: v1alpha1.IdentityProviderParameters{ID: "x", DomainID: ptr("d"), Enabled: ptr(false)}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			mg := &v1alpha1.IdentityProvider{Spec: v1alpha1.IdentityProviderSpec{ForProvider: tc.fp}}
			o := (&external{}).Observe(mg, idp, identityv1alpha1.Owned)
			if o.UpToDate != tc.upToDate || o.LateInitialized != tc.lateInit {
				t.Errorf("UpToDate %v LateInitialized %v, want %v %v (diff %s)", o.UpToDate, o.LateInitialized, tc.upToDate, tc.lateInit, o.Diff)
			}
			want := v1alpha1.IdentityProviderObservation{ID: "x", DomainID: "d", Description: "hello", Enabled: true,
				RemoteIDs: []string{"b", "a"}, AuthorizationTTL: ptr(int32(30)), Provenance: identityv1alpha1.Owned}
			if d := cmp.Diff(want, mg.Status.AtProvider); d != "" {
				t.Errorf("atProvider (-want +got):\n%s", d)
			}
		})
	}
}

func TestDesiredOpts(t *testing.T) {
	fp := &v1alpha1.IdentityProviderParameters{ID: "x", DomainID: ptr("d"), Enabled: ptr(true), RemoteIDs: []string{"b", "a"}, AuthorizationTTL: ptr(int32(7))}
	got := desired(fp).opts()
	want := keystone.IdentityProviderOpts{DomainID: ptr("d"), Enabled: ptr(true), RemoteIDs: &[]string{"a", "b"}, AuthorizationTTL: ptr(7)}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("opts (-want +got):\n%s", d)
	}
}

// TestCreateLateInitializes: a create fills the spec's unset enabled from Keystone's answer,
// so that the update recording the create carries it; a value the spec sets stays.
func TestCreateLateInitializes(t *testing.T) {
	answers := map[string]keystonetest.Answer{"PUT OS-FEDERATION/identity_providers/x": {Status: http.StatusCreated,
		Body: `{"identity_provider": {"id": "x", "domain_id": "d1", "enabled": false}}`}}
	newDriver := func(a keystone.API) adoption.Driver[mr, keystone.IdentityProvider] { return &external{sc: a} }
	keystonetest.LateInitializedOnCreate(t, func(t *testing.T, enabled *bool) *bool {
		mg := &v1alpha1.IdentityProvider{Spec: v1alpha1.IdentityProviderSpec{ForProvider: v1alpha1.IdentityProviderParameters{ID: "x", DomainID: ptr("d1"), Enabled: enabled}}}
		if got := keystonetest.Run(answers, newDriver, keystonetest.Create[mr, keystone.IdentityProvider](mg, marker)); got.Err != nil {
			t.Fatalf("Create: %v (calls %v)", got.Err, got.Calls)
		}
		return mg.Spec.ForProvider.Enabled
	})
}
