package importer

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
)

const (
	errNoSource       = "say how to connect: --provider-config (a ProviderConfig or ClusterProviderConfig of identity.m.crossplane.io), or --keystone-url with the credentials' flags"
	errOtherNamespace = "ProviderConfig %s/%s serves only resources of namespace %s, but the manifests are for namespace %s: use --namespace %s, or a ClusterProviderConfig"
	errNotKeystoneCfg = "%s %q configures %s, not Keystone: name a Keystone one"
	errNoPassword     = "--keystone-url needs a password: set it in the environment variable %s (never on the command line, where other users of the machine can read it)"
	// PasswordEnv holds the password of an explicit connection.
	PasswordEnv = "IDENTITY_KEYSTONE_PASSWORD"
)

// A Source is how an import reaches Keystone: through a ProviderConfig or
// ClusterProviderConfig in the cluster (read the way the provider reads it, Secrets included),
// or through explicit settings, for a first look before any ProviderConfig exists.
type Source struct {
	// Kube reads ProviderConfigs, their Secrets, the kube-system namespace (for the default
	// installation ID) and the resources already in the cluster; nil without a cluster.
	Kube client.Reader
	// ConfigKind is ProviderConfig or ClusterProviderConfig; ConfigNamespace is a
	// ProviderConfig's namespace; ConfigName names it. Without Keystone (below) the import
	// connects through it; with Keystone, it is only what the manifests' providerConfigRef
	// names.
	ConfigKind, ConfigNamespace, ConfigName string

	// Keystone, when set, is an explicit connection; Password its password (or application
	// credential secret).
	Keystone *identityv1alpha1.KeystoneConfig
	Password string
	// InstallationID overrides the installation ID (the ProviderConfig's otherwise).
	InstallationID string
}

// A connection is what an import works with.
type connection struct {
	sc           keystone.API
	installation string
	pcRef        *xpv2.ProviderConfigReference
}

// connect reaches Keystone and tells this installation's ID ("" when unknown).
func connect(ctx context.Context, s Source, namespace string, f *keystone.Factory) (connection, error) {
	var c connection
	if s.ConfigName != "" {
		c.pcRef = &xpv2.ProviderConfigReference{Kind: s.ConfigKind, Name: s.ConfigName}
	}
	if s.Keystone != nil {
		return connectExplicit(ctx, s, c, f)
	}
	if s.Kube == nil || s.ConfigName == "" {
		return c, errors.New(errNoSource)
	}
	cfg, err := clients.GetConfig(ctx, s.Kube, s.ConfigKind, s.ConfigNamespace, s.ConfigName)
	if err != nil {
		return c, err
	}
	if ns := cfg.GetNamespace(); ns != "" && ns != namespace {
		return c, errors.Errorf(errOtherNamespace, ns, cfg.GetName(), ns, namespace, ns)
	}
	view := clients.View(cfg)
	if got := clients.SystemOf(view); got != clients.Keystone {
		return c, errors.Errorf(errNotKeystoneCfg, s.ConfigKind, view.GetName(), got)
	}
	if c.sc, err = f.Client(ctx, clients.SecretReader(s.Kube, cfg), view); err != nil {
		return c, err
	}
	c.installation = s.InstallationID
	if c.installation == "" {
		var inst clients.Installations
		if c.installation, err = inst.ID(ctx, s.Kube, view); err != nil {
			return c, err
		}
	}
	return c, nil
}

// explicitSecret is where an explicit connection's password is, for the factory to read it as
// it reads a ProviderConfig's Secret; it exists only in memory.
const explicitSecret = "kubectl-identity-flags"

// connectExplicit builds the client from explicit settings, through the same factory (and so
// the same authentication code) as the provider: the password is served to it as a Secret
// that exists only in memory.
func connectExplicit(ctx context.Context, s Source, c connection, f *keystone.Factory) (connection, error) {
	if s.Password == "" {
		return c, errors.Errorf(errNoPassword, PasswordEnv)
	}
	kc := s.Keystone.DeepCopy()
	sel := identityv1alpha1.SecretKeySelector{SecretReference: identityv1alpha1.SecretReference{Namespace: explicitSecret, Name: explicitSecret}, Key: "password"}
	switch {
	case kc.ApplicationCredential != nil:
		kc.ApplicationCredential.SecretRef = sel
	case kc.Password != nil:
		kc.Password.PasswordSecretRef = sel
	}
	pc := &identityv1alpha1.ProviderConfig{Spec: identityv1alpha1.ProviderConfigSpec{Keystone: kc}}
	pc.SetName("(command line)")
	sec := &corev1.Secret{Data: map[string][]byte{"password": []byte(s.Password)}}
	sec.SetNamespace(explicitSecret)
	sec.SetName(explicitSecret)
	var err error
	c.sc, err = f.Client(ctx, memorySecret{sec}, pc)
	c.installation = s.InstallationID
	return c, err
}

// memorySecret is a client.Reader that holds one Secret and nothing else.
type memorySecret struct{ s *corev1.Secret }

func (m memorySecret) Get(_ context.Context, key client.ObjectKey, obj client.Object, _ ...client.GetOption) error {
	out, ok := obj.(*corev1.Secret)
	if !ok || key.Namespace != m.s.Namespace || key.Name != m.s.Name {
		return errors.Errorf("the command line gives no %T %s", obj, key)
	}
	m.s.DeepCopyInto(out)
	return nil
}

func (m memorySecret) List(context.Context, client.ObjectList, ...client.ListOption) error {
	return errors.New("the command line gives no lists")
}
