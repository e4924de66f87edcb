package protocol

import (
	"testing"

	"github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
)

func ptr[T any](v T) *T { return &v }

func TestParse(t *testing.T) {
	mg := &v1alpha1.Protocol{Spec: v1alpha1.ProtocolSpec{ForProvider: v1alpha1.ProtocolParameters{ID: "openid", IdentityProviderID: ptr("spec-idp")}}}
	cases := map[string]struct{ ext, idp, id string }{
		"Qualified": {ext: ExternalName("idp", "openid"), idp: "idp", id: "openid"},
		"Bare":      {ext: "saml2", idp: "spec-idp", id: "saml2"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if idp, id := parse(mg, tc.ext); idp != tc.idp || id != tc.id {
				t.Errorf("parse(%q) = %q, %q; want %q, %q", tc.ext, idp, id, tc.idp, tc.id)
			}
		})
	}
}

func TestObserve(t *testing.T) {
	p := keystone.Protocol{ID: "openid", IdentityProviderID: "idp", MappingID: "m", RemoteIDAttribute: "HTTP_OIDC_ISS"}
	cases := map[string]struct {
		fp       v1alpha1.ProtocolParameters
		upToDate bool
	}{
		"Same":                       {fp: v1alpha1.ProtocolParameters{ID: "openid", MappingID: ptr("m"), RemoteIDAttribute: ptr("HTTP_OIDC_ISS")}, upToDate: true},
		"RemoteIDAttributeUnmanaged": {fp: v1alpha1.ProtocolParameters{ID: "openid", MappingID: ptr("m")}, upToDate: true},
		"OtherMapping":               {fp: v1alpha1.ProtocolParameters{ID: "openid", MappingID: ptr("m2")}},
		"OtherRemoteIDAttribute":     {fp: v1alpha1.ProtocolParameters{ID: "openid", MappingID: ptr("m"), RemoteIDAttribute: ptr("HTTP_X")}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			mg := &v1alpha1.Protocol{Spec: v1alpha1.ProtocolSpec{ForProvider: tc.fp}}
			o := (&external{}).Observe(mg, p, identityv1alpha1.Owned)
			if o.UpToDate != tc.upToDate {
				t.Errorf("UpToDate %v, want %v (diff %s)", o.UpToDate, tc.upToDate, o.Diff)
			}
			want := v1alpha1.ProtocolObservation{ID: "idp/openid", IdentityProviderID: "idp", MappingID: "m", RemoteIDAttribute: "HTTP_OIDC_ISS", Provenance: identityv1alpha1.Owned}
			if mg.Status.AtProvider != want {
				t.Errorf("atProvider %+v, want %+v", mg.Status.AtProvider, want)
			}
		})
	}
	if d := (&external{}).Describe(p); !d.Markerless || d.ID != "idp/openid" || d.Key != "openid" {
		t.Errorf("Describe %+v", d)
	}
}
