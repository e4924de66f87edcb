package authentikapiserver

import (
	"errors"
	"strings"
	"testing"

	api "goauthentik.io/api/v3"
)

// generate/ makes a real self-signed pair named after its common name, whose certificate and
// key the view actions return; a taken name is refused; the serializer never shows the key.
func TestGenerateAndViewKeypair(t *testing.T) {
	e := newEnv(t)
	alg := api.ALGENUM_ECDSA
	req := api.CertificateGenerationRequest{CommonName: "sp.example.com", SubjectAltName: ptr("sp.example.com,alt.example.com"), ValidityDays: 30, Alg: &alg}
	kp, _, err := e.c.CryptoAPI.CryptoCertificatekeypairsGenerateCreate(e.ctx).CertificateGenerationRequest(req).Execute()
	if err != nil {
		t.Fatal(err)
	}
	if kp.Name != "sp.example.com" || !kp.PrivateKeyAvailable || kp.GetKeyType() != "ec" || kp.GetFingerprintSha256() == "" ||
		!strings.Contains(kp.GetCertSubject(), "CN=sp.example.com") {
		t.Errorf("generated pair: %+v", kp)
	}
	cert, _, err := e.c.CryptoAPI.CryptoCertificatekeypairsViewCertificateRetrieve(e.ctx, kp.Pk).Execute()
	if err != nil {
		t.Fatal(err)
	}
	c, err := parseCert(cert.Data)
	if err != nil || len(c.DNSNames) != 2 || c.Subject.CommonName != "sp.example.com" {
		t.Errorf("view_certificate: %v, %v", c, err)
	}
	key, _, err := e.c.CryptoAPI.CryptoCertificatekeypairsViewPrivateKeyRetrieve(e.ctx, kp.Pk).Execute()
	if err != nil {
		t.Fatal(err)
	}
	if err := checkKey(key.Data); err != nil {
		t.Errorf("view_private_key: %v", err)
	}
	// The document gives generate's 400 no schema: the body is read as it is.
	_, _, err = e.c.CryptoAPI.CryptoCertificatekeypairsGenerateCreate(e.ctx).CertificateGenerationRequest(req).Execute()
	var oerr *api.GenericOpenAPIError
	if !errors.As(err, &oerr) || !strings.Contains(string(oerr.Body()), `"name"`) {
		t.Errorf("a second pair generated with the same common name: want a name error, got %v", err)
	}
}

// Deleting a pair clears the providers' key fields (SET_NULL); deleting a mapping removes it
// from the providers' property_mappings (many-to-many) and clears a name_id_mapping. Names are
// unique across mapping types.
func TestKeypairAndMappingDeletesChangeProviders(t *testing.T) {
	e := newEnv(t)
	authz, inval := e.flows(t)
	kp, _, err := e.c.CryptoAPI.CryptoCertificatekeypairsGenerateCreate(e.ctx).CertificateGenerationRequest(api.CertificateGenerationRequest{CommonName: "kp", ValidityDays: 1}).Execute()
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := e.c.PropertymappingsAPI.PropertymappingsProviderSamlCreate(e.ctx).SAMLPropertyMappingRequest(api.SAMLPropertyMappingRequest{Name: "m", Expression: "return 1", SamlName: "a"}).Execute()
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.c.PropertymappingsAPI.PropertymappingsProviderScopeCreate(e.ctx).ScopeMappingRequest(api.ScopeMappingRequest{Name: "m", Expression: "return 1", ScopeName: "x"}).Execute(); validationError(t, err)["name"] == nil {
		t.Errorf("a scope mapping named like a SAML mapping: want a name error, got %v", err)
	}
	req := api.NewSAMLProviderRequest("sp", authz, inval, "https://sp.example.com/acs")
	req.SigningKp.Set(&kp.Pk)
	req.VerificationKp.Set(&kp.Pk)
	req.NameIdMapping.Set(&m.Pk)
	req.PropertyMappings = []string{m.Pk}
	p, _, err := e.c.ProvidersAPI.ProvidersSamlCreate(e.ctx).SAMLProviderRequest(*req).Execute()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.c.CryptoAPI.CryptoCertificatekeypairsDestroy(e.ctx, kp.Pk).Execute(); err != nil {
		t.Fatal(err)
	}
	if _, err := e.c.PropertymappingsAPI.PropertymappingsProviderSamlDestroy(e.ctx, m.Pk).Execute(); err != nil {
		t.Fatal(err)
	}
	got, _, err := e.c.ProvidersAPI.ProvidersSamlRetrieve(e.ctx, p.Pk).Execute()
	if err != nil {
		t.Fatal(err)
	}
	if got.SigningKp.Get() != nil || got.VerificationKp.Get() != nil || got.NameIdMapping.Get() != nil || len(got.PropertyMappings) != 0 {
		t.Errorf("provider after its pair and mapping were deleted: signing %v verification %v name_id %v mappings %v",
			got.SigningKp.Get(), got.VerificationKp.Get(), got.NameIdMapping.Get(), got.PropertyMappings)
	}
}
