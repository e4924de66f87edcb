package applicationcredential

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients"
)

// The keys of the connection Secret.
const (
	KeyID         = "id"
	KeySecret     = "secret"
	KeyAuthURL    = "auth_url"
	KeyCloudsYAML = "clouds.yaml"

	// CloudName is the cloud's name in the published clouds.yaml (OS_CLOUD=openstack).
	CloudName = "openstack"
)

// TypeSecretPublished is the condition that tells whether the connection Secret holds the
// credential's secret.
const TypeSecretPublished xpv2.ConditionType = "SecretPublished"

// Reasons of the SecretPublished condition.
const (
	ReasonPublished     xpv2.ConditionReason = "Published"
	ReasonSecretUnknown xpv2.ConditionReason = "SecretUnknown"
	ReasonNoSecretRef   xpv2.ConditionReason = "NoConnectionSecret"
)

const (
	msgPublished  = "the connection Secret %s holds the secret of application credential %q (ID %s)"
	msgNoRef      = "spec.writeConnectionSecretToRef is not set: the secret of application credential %q (ID %s) is published nowhere"
	msgLost       = "the connection Secret %s does not hold the secret of application credential %q (ID %s), which this resource created: Keystone returns a secret only to the create, so the credential is replaced by a new one whose secret is published"
	msgNotCreated = "application credential %q (ID %s) was not created by this resource (it is %s): Keystone returns a secret only to the create, so its secret cannot be published and the connection Secret %s holds its id only. " +
		"Add its secret under the key secret of that Secret if you know it, or delete the credential in Keystone so that this resource creates its own"
	msgUnreadable = "cannot tell whether the connection Secret holds the secret of application credential %q (ID %s): %s"
)

// published is what the connection Secret holds for one credential ID.
type published struct {
	// Ref names the connection Secret (namespace/name); "" when the resource publishes none.
	Ref string
	// Secret is the secret the connection Secret holds for the credential; "" when none.
	Secret string
	// Lost is true when the connection Secret, read, does not hold the credential's secret.
	Lost bool
	// Err says why the connection Secret could not be read; nothing is concluded from it.
	Err string
}

// published reads the connection Secret: its secret counts only when its id is this
// credential's.
func (e *external) published(ctx context.Context, mg mr, id string) published {
	key, ok := connectionSecret(mg)
	if !ok {
		return published{}
	}
	p := read(ctx, e.Kube, mg, key, id)
	if p.Lost && e.Live != nil {
		// The cache may not have seen the Secret this resource published a moment ago: a
		// credential is replaced only on what the API server itself says.
		p = read(ctx, e.Live, mg, key, id)
	}
	return p
}

// read reads the connection Secret through kube.
func read(ctx context.Context, kube client.Reader, mg mr, key types.NamespacedName, id string) published {
	p := published{Ref: key.String()}
	s := &corev1.Secret{}
	switch err := clients.ResourceSecrets(kube, mg).Get(ctx, key, s); {
	case kerrors.IsNotFound(err):
		p.Lost = true
	case err != nil:
		p.Err = err.Error()
	case string(s.Data[KeyID]) == id && len(s.Data[KeySecret]) > 0:
		p.Secret = string(s.Data[KeySecret])
	default:
		p.Lost = true
	}
	return p
}

// connectionSecret is where the resource publishes its connection details, if anywhere.
func connectionSecret(mg mr) (types.NamespacedName, bool) {
	switch r := any(mg).(type) {
	case interface {
		GetWriteConnectionSecretToReference() *xpv2.SecretReference
	}:
		if ref := r.GetWriteConnectionSecretToReference(); ref != nil {
			return types.NamespacedName{Namespace: ref.Namespace, Name: ref.Name}, true
		}
	case interface {
		GetWriteConnectionSecretToReference() *xpv2.LocalSecretReference
	}:
		if ref := r.GetWriteConnectionSecretToReference(); ref != nil {
			return types.NamespacedName{Namespace: mg.GetNamespace(), Name: ref.Name}, true
		}
	}
	return types.NamespacedName{}, false
}

// condition is the SecretPublished condition for a credential of provenance p.
func (p published) condition(_ mr, c credential, prov identityv1alpha1.Provenance) xpv2.Condition {
	cond := xpv2.Condition{Type: TypeSecretPublished, Status: corev1.ConditionFalse, LastTransitionTime: metav1.Now(), Reason: ReasonSecretUnknown}
	switch {
	case p.Ref == "":
		cond.Reason, cond.Message = ReasonNoSecretRef, fmt.Sprintf(msgNoRef, c.Name, c.ID)
	case p.Secret != "":
		cond.Status, cond.Reason, cond.Message = corev1.ConditionTrue, ReasonPublished, fmt.Sprintf(msgPublished, p.Ref, c.Name, c.ID)
	case p.Err != "":
		cond.Message = fmt.Sprintf(msgUnreadable, c.Name, c.ID, p.Err)
	case prov == identityv1alpha1.Owned:
		cond.Message = fmt.Sprintf(msgLost, p.Ref, c.Name, c.ID)
	default:
		cond.Message = fmt.Sprintf(msgNotCreated, c.Name, c.ID, prov, p.Ref)
	}
	return cond
}

// A Cloud is where a published clouds.yaml points: the ProviderConfig's Keystone.
type Cloud struct {
	AuthURL, Region, Interface string
	// Insecure is the ProviderConfig's tls.insecureSkipVerify, carried over as verify: false.
	Insecure bool
}

func cloudOf(cfg *identityv1alpha1.KeystoneConfig) Cloud {
	if cfg == nil {
		return Cloud{}
	}
	return Cloud{AuthURL: cfg.AuthURL, Region: cfg.Region, Interface: cfg.Interface, Insecure: cfg.TLS != nil && cfg.TLS.InsecureSkipVerify}
}

// details are the connection details of a credential: its id always, and with its secret, the
// secret, the auth URL and a clouds.yaml. Publishing the id alone when the secret is unknown
// keeps the Secret's content the same at every poll, so the Secret is not rewritten.
func (e *external) details(id, secret string) managed.ConnectionDetails {
	d := managed.ConnectionDetails{KeyID: []byte(id)}
	if secret == "" {
		return d
	}
	d[KeySecret] = []byte(secret)
	d[KeyAuthURL] = []byte(e.Cloud.AuthURL)
	d[KeyCloudsYAML] = e.Cloud.yaml(id, secret)
	return d
}

// yaml renders a clouds.yaml with one cloud, CloudName, authenticating with the credential.
func (c Cloud) yaml(id, secret string) []byte {
	cloud := map[string]any{
		"auth_type": "v3applicationcredential",
		"auth": map[string]any{
			"auth_url":                      c.AuthURL,
			"application_credential_id":     id,
			"application_credential_secret": secret,
		},
		"identity_api_version": 3,
	}
	if c.Region != "" {
		cloud["region_name"] = c.Region
	}
	if c.Interface != "" {
		cloud["interface"] = c.Interface
	}
	if c.Insecure {
		cloud["verify"] = false
	}
	b, err := yaml.Marshal(map[string]any{"clouds": map[string]any{CloudName: cloud}})
	if err != nil {
		// A map of strings always marshals.
		return nil
	}
	return b
}
