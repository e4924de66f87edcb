package v1alpha1

import (
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// CertificateKeyPairParameters are the configurable fields of an authentik certificate-key
// pair: its name and where the certificate comes from, exactly one of a Secret and
// generation by authentik.
// +kubebuilder:validation:XValidation:rule="has(self.secretRef) != has(self.generate)",message="set exactly one of secretRef (a kubernetes.io/tls Secret with tls.crt and tls.key) and generate (authentik makes a self-signed certificate)"
// +kubebuilder:validation:XValidation:rule="has(self.generate) == has(oldSelf.generate)",message="a certificate-key pair cannot switch between secretRef and generate; create a new CertificateKeyPair instead"
// +kubebuilder:validation:XValidation:rule="!has(self.publishPrivateKey) || !self.publishPrivateKey || has(self.generate)",message="publishPrivateKey applies to a generated pair only: a pair from secretRef has its key in that Secret already"
type CertificateKeyPairParameters struct {
	// Name of the pair. Names are unique in authentik; the name is how an existing pair is
	// found when the resource has no external name.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:Pattern=`^[^\s\x00-\x1f\x7f]([^\x00-\x1f\x7f]*[^\s\x00-\x1f\x7f])?$`
	Name string `json:"name"`

	// SecretRef names a Secret holding the PEM certificate in tls.crt and, optionally, its
	// private key in tls.key (the kubernetes.io/tls layout). A changed certificate in the
	// Secret is written to authentik. A cluster-scoped CertificateKeyPair names the Secret's
	// namespace; a namespaced one reads the Secret in its own namespace and names none.
	// +optional
	SecretRef *identityv1alpha1.SecretReference `json:"secretRef,omitempty"`

	// Generate has authentik make a self-signed certificate and its key when the pair is
	// created. The settings are used at creation only: a generated pair is never generated
	// again (delete and create the resource to get a new certificate).
	// +optional
	Generate *CertificateGeneration `json:"generate,omitempty"`

	// PublishPrivateKey publishes the generated private key as tls.key in the connection
	// Secret. It is read from authentik (view_private_key, which authentik logs as a secret
	// view) only when set to true. Unset or false publishes the certificate alone.
	// +optional
	PublishPrivateKey *bool `json:"publishPrivateKey,omitempty"`
}

// CertificateGeneration is what authentik's /crypto/certificatekeypairs/generate/ takes.
type CertificateGeneration struct {
	// CommonName of the certificate's subject (its first 64 characters).
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:Pattern=`^[^\s\x00-\x1f\x7f]([^\x00-\x1f\x7f]*[^\s\x00-\x1f\x7f])?$`
	CommonName string `json:"commonName"`

	// SubjectAltNames are DNS names put into the certificate's subjectAltName.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:items:Pattern=`^[^\s,\x00-\x1f\x7f]+$`
	SubjectAltNames []string `json:"subjectAltNames,omitempty"`

	// ValidityDays is how long the certificate is valid. Defaults to 365.
	// +optional
	// +kubebuilder:default=365
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=36500
	ValidityDays int32 `json:"validityDays,omitempty"`

	// Algorithm of the key: rsa (authentik's default, 4096 bits) or ecdsa (P-256).
	// +optional
	// +kubebuilder:validation:Enum=rsa;ecdsa
	Algorithm *string `json:"algorithm,omitempty"`
}

// CertificateKeyPairObservation is the observed state of an authentik certificate-key pair.
// It never holds the private key.
type CertificateKeyPairObservation struct {
	// ID is authentik's pk of the pair, a UUID (also the external name).
	ID string `json:"id,omitempty"`

	Name string `json:"name,omitempty"`

	// FingerprintSHA256 of the certificate, as authentik computes it.
	FingerprintSHA256 string `json:"fingerprintSha256,omitempty"`

	// Subject of the certificate, as an RFC 4514 string.
	Subject string `json:"subject,omitempty"`

	// Expiry of the certificate.
	Expiry string `json:"expiry,omitempty"`

	// KeyType is the certificate's key algorithm: rsa, ec, ed25519...
	KeyType string `json:"keyType,omitempty"`

	// PrivateKeyAvailable tells whether authentik holds the pair's private key.
	PrivateKeyAvailable bool `json:"privateKeyAvailable,omitempty"`

	// Provenance tells whether the pair was created, adopted or only observed.
	Provenance identityv1alpha1.Provenance `json:"provenance,omitempty"`
}
