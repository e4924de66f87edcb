package oauth2provider

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	api "goauthentik.io/api/v3"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"

	"github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/authentiktest"
)

// A signing key and mappings given by reference (their pks, as the reference resolver fills
// them) are written; referenced mappings alone make the complete list (authentik's defaults
// are not added); a provider in sync is not written again.
func TestReferencedKeyAndMappings(t *testing.T) {
	cases := map[string]struct {
		named    []v1alpha1.PropertyMappingSelector
		wantMaps int
	}{
		"references alone":          {wantMaps: 1},
		"references beside by name": {named: []v1alpha1.PropertyMappingSelector{{Managed: new("goauthentik.io/providers/oauth2/scope-openid")}}, wantMaps: 2},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e := authentiktest.New(t)
			kp, _, err := e.Client.API.CryptoAPI.CryptoCertificatekeypairsGenerateCreate(e.Ctx).
				CertificateGenerationRequest(api.CertificateGenerationRequest{CommonName: "e-ref-kp", ValidityDays: 1, Alg: new(api.ALGENUM_ECDSA)}).Execute()
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]any
			if err := json.Unmarshal(e.Seed(t, "propertymappings/provider/scope", map[string]any{"name": "e-ref", "expression": "return {}", "scope_name": "ref"}), &m); err != nil {
				t.Fatal(err)
			}
			ours := m["pk"].(string)
			mg := newMR("app", func(p *v1alpha1.OAuth2Provider) {
				p.Spec.ForProvider.SigningKeyID = &kp.Pk
				p.Spec.ForProvider.PropertyMappings = tc.named
				p.Spec.ForProvider.PropertyMappingIDs = []string{ours}
			})
			reconcile(t, e, mg)
			obj := raw(t, e, "providers/oauth2", meta.GetExternalName(mg))
			if obj["signing_key"] != kp.Pk {
				t.Errorf("signing key: %v, want %s", obj["signing_key"], kp.Pk)
			}
			var ms []string
			for _, x := range obj["property_mappings"].([]any) {
				ms = append(ms, fmt.Sprint(x))
			}
			if len(ms) != tc.wantMaps || !slices.Contains(ms, ours) {
				t.Errorf("property mappings: want %d with %s, got %v", tc.wantMaps, ours, ms)
			}
			e.Server.ResetCounts()
			if r := reconcile(t, e, mg); !r.Observation.ResourceUpToDate || r.Updated {
				t.Errorf("in sync: want up to date, got %+v", r)
			}
			if diff := cmp.Diff(map[string]int{}, e.Writes()); diff != "" {
				t.Errorf("writes in sync: -want, +got:\n%s", diff)
			}
		})
	}
}
