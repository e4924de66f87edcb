package importer

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
)

const (
	errNoSource       = "say how to connect: --provider-config (a ProviderConfig or ClusterProviderConfig of identity.m.crossplane.io), or --keystone-url with the credentials' flags, or --authentik-url"
	errOtherNamespace = "ProviderConfig %s/%s serves only resources of namespace %s, but the manifests are for namespace %s: use --namespace %s, or a ClusterProviderConfig"
	errNoPassword     = "--keystone-url needs a password: set it in the environment variable %s (never on the command line, where other users of the machine can read it)"
	errNoToken        = "--authentik-url needs an API token: set it in the environment variable %s (never on the command line, where other users of the machine can read it)"
	errTwoSystems     = "say one system: --keystone-url or --authentik-url, not both"
	errExplicitSystem = "--system %s does not match the explicit connection (--keystone-url is Keystone, --authentik-url authentik)"
	errWrongSystem    = "%s %q configures %s, but --system says %s: name a ProviderConfig of %s, or leave --system out"
	// PasswordEnv holds the password of an explicit Keystone connection.
	PasswordEnv = "IDENTITY_KEYSTONE_PASSWORD"
	// TokenEnv holds the API token of an explicit authentik connection.
	TokenEnv = "IDENTITY_AUTHENTIK_TOKEN"
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
	// Authentik, when set, is an explicit connection to authentik; Token its API token.
	Authentik *identityv1alpha1.AuthentikConfig
	Token     string
	// InstallationID overrides the installation ID (the ProviderConfig's otherwise).
	InstallationID string
	// System, when set (keystone or authentik), is the system the user means: a
	// ProviderConfig of the other one is refused.
	System string
}

// A connection is what an import works with: the lister of the system it reached.
type connection struct {
	list         func(context.Context, Filter) ([]*Object, error)
	installation string
	pcRef        *xpv2.ProviderConfigReference
}

// factories build the clients of either system.
type factories struct {
	keystone  *keystone.Factory
	authentik *authentik.Factory
}

// connect reaches the system (the ProviderConfig's, or the explicit one) and tells this
// installation's ID ("" when unknown).
func connect(ctx context.Context, s Source, namespace string, f factories) (connection, error) {
	var c connection
	if s.ConfigName != "" {
		c.pcRef = &xpv2.ProviderConfigReference{Kind: s.ConfigKind, Name: s.ConfigName}
	}
	switch {
	case s.Keystone != nil && s.Authentik != nil:
		return c, errors.New(errTwoSystems)
	case s.Keystone != nil && s.System != "" && s.System != string(clients.Keystone),
		s.Authentik != nil && s.System != "" && s.System != string(clients.Authentik):
		return c, errors.Errorf(errExplicitSystem, s.System)
	case s.Keystone != nil:
		return connectExplicit(ctx, s, c, f.keystone)
	case s.Authentik != nil:
		return connectAuthentikExplicit(ctx, s, c, f.authentik)
	}
	if s.Kube == nil || s.ConfigName == "" {
		return c, errors.New(errNoSource)
	}
	return connectConfig(ctx, s, namespace, c, f)
}

// connectConfig reaches the system of a ProviderConfig or ClusterProviderConfig, through the
// provider's own factories and Secret reader.
func connectConfig(ctx context.Context, s Source, namespace string, c connection, f factories) (connection, error) {
	cfg, err := clients.GetConfig(ctx, s.Kube, s.ConfigKind, s.ConfigNamespace, s.ConfigName)
	if err != nil {
		return c, err
	}
	if ns := cfg.GetNamespace(); ns != "" && ns != namespace {
		return c, errors.Errorf(errOtherNamespace, ns, cfg.GetName(), ns, namespace, ns)
	}
	view := clients.View(cfg)
	system := clients.SystemOf(view)
	if s.System != "" && string(system) != s.System {
		return c, errors.Errorf(errWrongSystem, s.ConfigKind, view.GetName(), system, s.System, s.System)
	}
	if c.list, err = configLister(ctx, s, cfg, view, f); err != nil {
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

// configLister builds the lister of the config's system.
func configLister(ctx context.Context, s Source, cfg clients.Config, view *identityv1alpha1.ProviderConfig, f factories) (func(context.Context, Filter) ([]*Object, error), error) {
	if clients.SystemOf(view) == clients.Authentik {
		ac, err := f.authentik.Client(ctx, clients.SecretReader(s.Kube, cfg), view)
		if err != nil {
			return nil, err
		}
		return authentikLister(ac), nil
	}
	sc, err := f.keystone.Client(ctx, clients.SecretReader(s.Kube, cfg), view)
	if err != nil {
		return nil, err
	}
	return keystoneLister(sc), nil
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
	sc, err := f.Client(ctx, memorySecret{sec}, pc)
	c.list, c.installation = keystoneLister(sc), s.InstallationID
	return c, err
}

// connectAuthentikExplicit builds the authentik client from explicit settings, through the
// provider's factory, the token served to it as a Secret that exists only in memory.
func connectAuthentikExplicit(ctx context.Context, s Source, c connection, f *authentik.Factory) (connection, error) {
	if s.Token == "" {
		return c, errors.Errorf(errNoToken, TokenEnv)
	}
	ac := s.Authentik.DeepCopy()
	ac.TokenSecretRef = identityv1alpha1.SecretKeySelector{SecretReference: identityv1alpha1.SecretReference{Namespace: explicitSecret, Name: explicitSecret}, Key: "token"}
	pc := &identityv1alpha1.ProviderConfig{Spec: identityv1alpha1.ProviderConfigSpec{Authentik: ac}}
	pc.SetName("(command line)")
	sec := &corev1.Secret{Data: map[string][]byte{"token": []byte(s.Token)}}
	sec.SetNamespace(explicitSecret)
	sec.SetName(explicitSecret)
	api, err := f.Client(ctx, memorySecret{sec}, pc)
	c.list, c.installation = authentikLister(api), s.InstallationID
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
