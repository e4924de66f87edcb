package authentikapiserver

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha1" //nolint:gosec // fingerprint_sha1 is part of authentik's API
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"math/big"
	"strings"
	"sync"
	"time"
)

// certKind is /crypto/certificatekeypairs/. Certificates are parsed for real
// so fingerprints, subject and expiry are what authentik would compute.
func certKind() *kind {
	k := &kind{
		path: "crypto/certificatekeypairs", op: "crypto_certificatekeypairs", model: "CertificateKeyPair",
		group: "certificatekeypair", lookup: "pk", pk: pkUUID,
		fields: []field{
			{name: "name"},
			{name: "certificate_data"},
			{name: "key_data", def: defStr("")},
			// Read-only over the API (the request schema lacks it); seeds set it.
			{name: "managed", def: defNil()},
		},
		unique: []unique{
			{field: "name", msg: modelUniqueMsg("Certificate-Key Pair", "name")},
			{field: "managed", msg: modelUniqueMsg("Certificate-Key Pair", "Managed by authentik")},
		},
		ordering: "name",
		search:   []string{"name"},
		filters: map[string]filter{
			"name":     exact("name"),
			"managed":  exact("managed"),
			"has_key":  boolFilter("private_key_available"),
			"key_type": anyOf("key_type"),
		},
		validate: func(wc *writeCtx, errs fieldErrors) {
			if _, err := parseCert(str(wc.data["certificate_data"])); err != nil {
				errs.add("certificate_data", "Unable to load certificate.")
			}
			if kd := str(wc.data["key_data"]); kd != "" {
				if err := checkKey(kd); err != nil {
					errs.add("key_data", "Unable to load private key (possibly encrypted?).")
				}
			}
		},
	}
	k.render = func(_ *renderCtx, d map[string]any) map[string]any {
		out := withFields(map[string]any{}, d, "pk", "name", "managed")
		out["fingerprint_sha256"], out["fingerprint_sha1"], out["cert_expiry"], out["cert_subject"], out["key_type"] = nil, nil, nil, nil, nil
		if c, err := parseCert(str(d["certificate_data"])); err == nil {
			s256, s1 := sha256.Sum256(c.Raw), sha1.Sum(c.Raw) //nolint:gosec // G401: fingerprint_sha1 is part of authentik's API, not a security check
			out["fingerprint_sha256"] = colonHex(s256[:])
			out["fingerprint_sha1"] = colonHex(s1[:])
			out["cert_expiry"] = c.NotAfter.UTC().Format("2006-01-02T15:04:05Z")
			out["cert_subject"] = c.Subject.String()
			out["key_type"] = keyType(c)
		}
		out["private_key_available"] = str(d["key_data"]) != ""
		out["certificate_download_url"] = fmt.Sprintf("%s/crypto/certificatekeypairs/%s/view_certificate/?download", APIPrefix, keyOf(d["pk"]))
		out["private_key_download_url"] = fmt.Sprintf("%s/crypto/certificatekeypairs/%s/view_private_key/?download", APIPrefix, keyOf(d["pk"]))
		return out
	}
	return k
}

func parseCert(data string) (*x509.Certificate, error) {
	block, _ := pem.Decode([]byte(strings.TrimSpace(data)))
	if block == nil {
		return nil, fmt.Errorf("no PEM block")
	}
	return x509.ParseCertificate(block.Bytes)
}

// checkKey tells whether data is a PEM private key authentik would accept (PKCS#8, PKCS#1 or EC).
func checkKey(data string) error {
	block, _ := pem.Decode([]byte(strings.TrimSpace(data)))
	if block == nil {
		return fmt.Errorf("no PEM block")
	}
	if _, err := x509.ParsePKCS8PrivateKey(block.Bytes); err == nil {
		return nil
	}
	if _, err := x509.ParsePKCS1PrivateKey(block.Bytes); err == nil {
		return nil
	}
	_, err := x509.ParseECPrivateKey(block.Bytes)
	return err
}

func certDER(d map[string]any) []byte {
	c, err := parseCert(str(d["certificate_data"]))
	if err != nil {
		return nil
	}
	return c.Raw
}

func keyType(c *x509.Certificate) any {
	switch c.PublicKey.(type) {
	case *rsa.PublicKey:
		return "rsa"
	case *ecdsa.PublicKey:
		return "ec"
	case ed25519.PublicKey:
		return "ed25519"
	}
	return nil
}

func colonHex(b []byte) string {
	h := hex.EncodeToString(b)
	parts := make([]string, 0, len(b))
	for i := 0; i < len(h); i += 2 {
		parts = append(parts, h[i:i+2])
	}
	return strings.Join(parts, ":")
}

var (
	selfSignedOnce sync.Once
	selfSignedCert string
	selfSignedKey  string
)

// selfSigned is the keypair authentik creates on first start ("authentik
// Self-signed Certificate"). It is generated once per process: key
// generation is slow and tests start many servers. authentik's is RSA too.
func selfSigned() (certPEM, keyPEM string) {
	selfSignedOnce.Do(func() {
		key, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			panic(err)
		}
		tmpl := &x509.Certificate{
			SerialNumber: big.NewInt(time.Now().UnixNano()),
			Subject:      pkix.Name{CommonName: "authentik Self-signed Certificate", Organization: []string{"authentik"}, OrganizationalUnit: []string{"Self-signed"}},
			NotBefore:    time.Now().Add(-time.Hour),
			NotAfter:     time.Now().AddDate(1, 0, 0),
			KeyUsage:     x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
		if err != nil {
			panic(err)
		}
		kd, err := x509.MarshalPKCS8PrivateKey(key)
		if err != nil {
			panic(err)
		}
		selfSignedCert = string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
		selfSignedKey = string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kd}))
	})
	return selfSignedCert, selfSignedKey
}
