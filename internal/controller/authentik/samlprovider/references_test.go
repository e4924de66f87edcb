package samlprovider

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

// Keys and mappings given by reference (their pks, as the reference resolver fills them) are
// written beside those given by name, and a provider in sync with them is not written again.
func TestReferencedKeysAndMappings(t *testing.T) {
	e := authentiktest.New(t)
	kp, _, err := e.Client.API.CryptoAPI.CryptoCertificatekeypairsGenerateCreate(e.Ctx).
		CertificateGenerationRequest(api.CertificateGenerationRequest{CommonName: "e-ref-kp", ValidityDays: 1, Alg: ptr(api.ALGENUM_ECDSA)}).Execute()
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(e.Seed(t, "propertymappings/provider/saml", map[string]any{"name": "e-ref", "expression": "return 1", "saml_name": "ref"}), &m); err != nil {
		t.Fatal(err)
	}
	ours := m["pk"].(string)
	mg := wikiMR(func(p *v1alpha1.SAMLProvider) {
		p.Spec.ForProvider.SigningKeyID = &kp.Pk
		p.Spec.ForProvider.VerificationKeyID = &kp.Pk
		p.Spec.ForProvider.PropertyMappings = []v1alpha1.PropertyMappingSelector{{Managed: ptr("goauthentik.io/providers/saml/email")}}
		p.Spec.ForProvider.PropertyMappingIDs = []string{ours}
	})
	reconcile(t, e, mg)
	e.Server.ResetCounts()
	obj := raw(t, e, meta.GetExternalName(mg))
	if obj["signing_kp"] != kp.Pk || obj["verification_kp"] != kp.Pk {
		t.Errorf("keys: signing %v verification %v, want %s", obj["signing_kp"], obj["verification_kp"], kp.Pk)
	}
	pms, _ := obj["property_mappings"].([]any)
	ms := make([]string, 0, len(pms))
	for _, x := range pms {
		ms = append(ms, fmt.Sprint(x))
	}
	if len(ms) != 2 || !slices.Contains(ms, ours) {
		t.Errorf("property mappings: want the named one and %s, got %v", ours, ms)
	}
	if r := reconcile(t, e, mg); !r.Observation.ResourceUpToDate || r.Updated {
		t.Errorf("in sync: want up to date, got %+v", r)
	}
	if diff := cmp.Diff(map[string]int{}, e.Writes()); diff != "" {
		t.Errorf("writes in sync: -want, +got:\n%s", diff)
	}
}
