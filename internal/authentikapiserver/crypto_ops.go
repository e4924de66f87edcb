package authentikapiserver

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net/http"
	"strings"
	"time"
)

// cryptoOps serves the certificate-key pair actions besides CRUD: generate,
// view_certificate and view_private_key.
func cryptoOps(ops map[string]handler) {
	ops["crypto_certificatekeypairs_generate_create"] = generateKeypair
	ops["crypto_certificatekeypairs_view_certificate_retrieve"] = func(c *call) reply { return viewKeypair(c, "certificate_data", "certificate") }
	ops["crypto_certificatekeypairs_view_private_key_retrieve"] = func(c *call) reply { return viewKeypair(c, "key_data", "private_key") }
}

// generateKeypair is authentik's CertificateBuilder behind POST generate/: a
// self-signed certificate whose subject is CN=<common name> (at most 64
// characters), O=authentik, OU=Self-signed, valid from a day ago for
// validity_days, with the comma-separated subject_alt_name as DNS names, saved
// as a pair named after the common name. authentik makes RSA keys of 4096
// bits; this server makes 2048-bit ones, which no API field shows, to keep
// tests quick on small machines.
func generateKeypair(c *call) reply {
	k := c.s.kindNamed("crypto/certificatekeypairs")
	cn := str(c.body["common_name"])
	alg := "rsa"
	if a, ok := c.body["alg"].(string); ok {
		alg = a
	}
	days, _ := c.body["validity_days"].(float64)
	var sans []string
	for _, s := range strings.Split(str(c.body["subject_alt_name"]), ",") {
		if strings.TrimSpace(s) != "" {
			sans = append(sans, s)
		}
	}
	certPEM, keyPEM, err := newSelfSigned(alg, cn, sans, int(days))
	if err != nil {
		return c.unimplemented(err.Error())
	}
	// authentik's builder saves without checking the name; a taken one is
	// refused by the database. This server names the field instead.
	d, errs := write(c.st, k, map[string]any{"name": cn, "certificate_data": certPEM, "key_data": keyPEM}, nil, c.base, false)
	if errs != nil {
		return badRequest(errs)
	}
	return jsonReply(http.StatusOK, c.rc().render(k, d))
}

// viewKeypair returns the pair's certificate or private key as
// {"data": "<PEM>"}, or with ?download as the PEM file.
func viewKeypair(c *call, field, what string) reply {
	k := c.s.kindNamed("crypto/certificatekeypairs")
	r := c.st.lookup(k, c.id())
	if r == nil {
		return notFound(k.model)
	}
	data := str(r.data[field])
	if c.query.Has("download") {
		return reply{
			status: http.StatusOK, raw: []byte(data), contentType: "application/x-pem-file",
			header: http.Header{"Content-Disposition": {fmt.Sprintf(`attachment; filename="%s_%s.pem"`, str(r.data["name"]), what)}},
		}
	}
	return jsonReply(http.StatusOK, map[string]any{"data": data})
}

func newSelfSigned(alg, cn string, sans []string, days int) (string, string, error) {
	var key crypto.Signer
	var err error
	switch alg {
	case "rsa":
		key, err = rsa.GenerateKey(rand.Reader, 2048)
	case "ecdsa":
		key, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	case "ed25519":
		_, key, err = ed25519.GenerateKey(rand.Reader)
	default:
		return "", "", fmt.Errorf("cannot generate %s keys", alg)
	}
	if err != nil {
		return "", "", err
	}
	if len(cn) > 64 {
		cn = cn[:64]
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 128))
	if err != nil {
		return "", "", err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: cn, Organization: []string{"authentik"}, OrganizationalUnit: []string{"Self-signed"}},
		Issuer:       pkix.Name{CommonName: "authentik " + APIVersion},
		NotBefore:    now.AddDate(0, 0, -1),
		NotAfter:     now.AddDate(0, 0, days),
		DNSNames:     sans,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		return "", "", err
	}
	kd, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return "", "", err
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})),
		string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kd})), nil
}
