package clients

import (
	"context"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	nsidentityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

const (
	errGetNamespacedPC = "cannot get ProviderConfig %s/%s"
	errGetClusterPC    = "cannot get ClusterProviderConfig %q"
	errPCKind          = "providerConfigRef.kind %q of %s %s/%s is not one of ProviderConfig (of the resource's namespace) or ClusterProviderConfig"
	errOtherNamespace  = "%s %s reads Secrets of its own namespace only, but names Secret %s/%s: move the Secret into namespace %s, or use a ClusterProviderConfig"
)

// A Config is what a ProviderConfig of any kind (the legacy cluster-scoped ProviderConfig of
// identity.crossplane.io, the namespaced ProviderConfig or the ClusterProviderConfig of
// identity.m.crossplane.io) gives the client factories and the installation ID logic: its
// spec and status, shared by all three kinds, under the legacy type they already take.
type Config interface {
	resource.ProviderConfig
	ProviderConfigSpec() *identityv1alpha1.ProviderConfigSpec
	ProviderConfigStatus() *identityv1alpha1.ProviderConfigStatus
}

// View returns c as the legacy ProviderConfig the factories and Installations read. Its name
// is namespace/name for a namespaced ProviderConfig, so that messages name it whole.
func View(c Config) *identityv1alpha1.ProviderConfig {
	if pc, ok := c.(*identityv1alpha1.ProviderConfig); ok {
		return pc
	}
	v := &identityv1alpha1.ProviderConfig{Spec: *c.ProviderConfigSpec(), Status: *c.ProviderConfigStatus()}
	v.SetName(c.GetName())
	if ns := c.GetNamespace(); ns != "" {
		v.SetName(ns + "/" + c.GetName())
	}
	return v
}

// SecretReader returns the reader a ProviderConfig's Secrets are read through: for a
// namespaced ProviderConfig one that refuses every other namespace, so a team's
// ProviderConfig never reads another namespace's Secrets with the provider's rights.
func SecretReader(kube client.Reader, c Config) client.Reader {
	if c.GetNamespace() == "" {
		return kube
	}
	return namespaceReader{Reader: kube, namespace: c.GetNamespace(), owner: "ProviderConfig " + c.GetNamespace() + "/" + c.GetName()}
}

// namespaceReader reads objects of one namespace only.
type namespaceReader struct {
	client.Reader
	namespace, owner string
}

func (r namespaceReader) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	if key.Namespace != r.namespace {
		return errors.Errorf(errOtherNamespace, r.owner, r.namespace, key.Namespace, key.Name, r.namespace)
	}
	return r.Reader.Get(ctx, key, obj, opts...)
}

func (r namespaceReader) List(ctx context.Context, list client.ObjectList, opts ...client.ListOption) error {
	return r.Reader.List(ctx, list, append(opts, client.InNamespace(r.namespace))...)
}

// ModernProviderConfigFor records that the namespaced mg uses its ProviderConfig or
// ClusterProviderConfig (providerConfigRef.kind) and returns it, checking that it configures
// the system mg belongs to, with the reader its Secrets are read through.
func ModernProviderConfigFor(ctx context.Context, kube client.Client, usage resource.ModernTracker, mg resource.ModernManaged, want System) (Config, client.Reader, error) {
	ref := mg.GetProviderConfigReference()
	if ref == nil || ref.Name == "" {
		return nil, nil, errors.New(errNoPCRef)
	}
	var c Config
	switch ref.Kind {
	case nsidentityv1alpha1.ProviderConfigKind:
		c = &nsidentityv1alpha1.ProviderConfig{}
	case nsidentityv1alpha1.ClusterProviderConfigKind:
		c = &nsidentityv1alpha1.ClusterProviderConfig{}
	default:
		return nil, nil, errors.Errorf(errPCKind, ref.Kind, kindOf(mg), mg.GetNamespace(), mg.GetName())
	}
	if err := usage.Track(ctx, mg); err != nil {
		return nil, nil, errors.Wrap(err, errTrackUsage)
	}
	if ref.Kind == nsidentityv1alpha1.ProviderConfigKind {
		if err := kube.Get(ctx, types.NamespacedName{Namespace: mg.GetNamespace(), Name: ref.Name}, c); err != nil {
			return nil, nil, errors.Wrapf(err, errGetNamespacedPC, mg.GetNamespace(), ref.Name)
		}
	} else if err := kube.Get(ctx, types.NamespacedName{Name: ref.Name}, c); err != nil {
		return nil, nil, errors.Wrapf(err, errGetClusterPC, ref.Name)
	}
	v := View(c)
	if got := SystemOf(v); got != want {
		return nil, nil, errors.Errorf(errWrongSystem, v.GetName(), got, kindOf(mg), want, map[System]string{Keystone: "keystone", Authentik: "authentik"}[want])
	}
	return c, SecretReader(kube, c), nil
}

func kindOf(mg resource.Managed) string {
	if k := mg.GetObjectKind().GroupVersionKind().Kind; k != "" {
		return k
	}
	return "this resource"
}
