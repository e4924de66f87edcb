package clients

import (
	"context"
	"fmt"
	"reflect"

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
	errOtherNamespace  = "%s reads Secrets of its own namespace only, but names Secret %s/%s: %s"
	fixPCNamespace     = "move the Secret into namespace %s, or use a ClusterProviderConfig"
	fixMRNamespace     = "put the Secret in namespace %s and leave out the selector's namespace: a namespaced %s reads Secrets in its own namespace"
	errConfigKind      = "kind %q is not one of ProviderConfig (namespaced) or ClusterProviderConfig"
	errNoSecretNS      = "%s names Secret %q without a namespace: a cluster-scoped resource must say which namespace its Secrets are in"
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
// is namespace/name for a namespaced ProviderConfig, so that messages name it whole, and its
// Secret selectors, which name no namespace there, name c's own: the factories read each
// Secret where it is, through SecretReader.
func View(c Config) *identityv1alpha1.ProviderConfig {
	if pc, ok := c.(*identityv1alpha1.ProviderConfig); ok {
		return pc
	}
	// A copy: c may be the informer cache's own object.
	v := &identityv1alpha1.ProviderConfig{Spec: *c.ProviderConfigSpec().DeepCopy(), Status: *c.ProviderConfigStatus()}
	v.SetName(c.GetName())
	if ns := c.GetNamespace(); ns != "" {
		v.SetName(ns + "/" + c.GetName())
		for _, s := range secretSelectors(&v.Spec) {
			// A namespace the selector does name (stored before the CEL rule forbade it) is
			// kept, so that SecretReader refuses it by name.
			s.Namespace = SecretKey(c, s.SecretReference).Namespace
		}
	}
	return v
}

// secretSelectors returns every Secret selector a ProviderConfig spec sets.
func secretSelectors(spec *identityv1alpha1.ProviderConfigSpec) []*identityv1alpha1.SecretKeySelector {
	var sels []*identityv1alpha1.SecretKeySelector
	ca := func(t *identityv1alpha1.TLSConfig) {
		if t != nil && t.CABundleSecretRef != nil {
			sels = append(sels, t.CABundleSecretRef)
		}
	}
	if a := spec.Authentik; a != nil {
		sels = append(sels, &a.TokenSecretRef)
		ca(a.TLS)
	}
	if k := spec.Keystone; k != nil {
		if k.Password != nil {
			sels = append(sels, &k.Password.PasswordSecretRef)
		}
		if k.ApplicationCredential != nil {
			sels = append(sels, &k.ApplicationCredential.SecretRef)
		}
		ca(k.TLS)
	}
	return sels
}

// SecretReader returns the reader a ProviderConfig's Secrets are read through: for a
// namespaced ProviderConfig one that refuses every other namespace, so a team's
// ProviderConfig never reads another namespace's Secrets with the provider's rights.
func SecretReader(kube client.Reader, c Config) client.Reader {
	if c.GetNamespace() == "" {
		return scopedReader{Reader: kube, owner: "ProviderConfig " + c.GetName()}
	}
	return scopedReader{Reader: kube, namespace: c.GetNamespace(), owner: "ProviderConfig " + c.GetNamespace() + "/" + c.GetName(),
		fix: fmt.Sprintf(fixPCNamespace, c.GetNamespace())}
}

// ResourceSecrets returns the reader the Secrets a managed resource's parameters select
// (identityv1alpha1.SecretReference, SecretKeySelector) are read through, bound to the
// resource's scope: a namespaced resource reads its own namespace only, whatever its
// selectors say, and a cluster-scoped resource the namespace each selector names. Read the
// Secret at SecretKey(mg, ref) through it.
func ResourceSecrets(kube client.Reader, mg client.Object) client.Reader {
	k := resourceKind(mg)
	if mg.GetNamespace() == "" {
		return scopedReader{Reader: kube, owner: k + " " + mg.GetName()}
	}
	return scopedReader{Reader: kube, namespace: mg.GetNamespace(), owner: k + " " + mg.GetNamespace() + "/" + mg.GetName(),
		fix: fmt.Sprintf(fixMRNamespace, mg.GetNamespace(), k)}
}

// SecretKey is where the Secret ref names for mg is: in mg's own namespace when ref names
// none (a namespaced resource's selectors name none). A namespace that is not mg's is kept,
// so that ResourceSecrets refuses it by name rather than reading another Secret silently.
func SecretKey(mg client.Object, ref identityv1alpha1.SecretReference) types.NamespacedName {
	if ref.Namespace == "" {
		return types.NamespacedName{Namespace: mg.GetNamespace(), Name: ref.Name}
	}
	return types.NamespacedName{Namespace: ref.Namespace, Name: ref.Name}
}

// resourceKind names mg's kind in messages: from its type metadata, or its Go type, which is
// the kind's name, when the object (as read from a cache) has none.
func resourceKind(mg client.Object) string {
	if k := mg.GetObjectKind().GroupVersionKind().Kind; k != "" {
		return k
	}
	return reflect.TypeOf(mg).Elem().Name()
}

// scopedReader is the one reader Secrets are read through, for ProviderConfigs and managed
// resources alike. Bound to a namespace (a namespaced owner), it reads that namespace only;
// unbound (a cluster-scoped owner), it reads the namespace each key names, and refuses a key
// without one. owner and fix complete its refusals: who reads, and what to do.
type scopedReader struct {
	client.Reader
	namespace, owner, fix string
}

func (r scopedReader) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	switch {
	case r.namespace == "" && key.Namespace == "":
		return errors.Errorf(errNoSecretNS, r.owner, key.Name)
	case r.namespace != "" && key.Namespace != r.namespace:
		return errors.Errorf(errOtherNamespace, r.owner, key.Namespace, key.Name, r.fix)
	}
	return r.Reader.Get(ctx, key, obj, opts...)
}

func (r scopedReader) List(ctx context.Context, list client.ObjectList, opts ...client.ListOption) error {
	if r.namespace == "" {
		return r.Reader.List(ctx, list, opts...)
	}
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
	if newConfig(ref.Kind) == nil {
		return nil, nil, errors.Errorf(errPCKind, ref.Kind, kindOf(mg), mg.GetNamespace(), mg.GetName())
	}
	if err := usage.Track(ctx, mg); err != nil {
		return nil, nil, errors.Wrap(err, errTrackUsage)
	}
	c, err := GetConfig(ctx, kube, ref.Kind, mg.GetNamespace(), ref.Name)
	if err != nil {
		return nil, nil, err
	}
	v := View(c)
	if got := SystemOf(v); got != want {
		return nil, nil, errors.Errorf(errWrongSystem, v.GetName(), got, kindOf(mg), want, map[System]string{Keystone: "keystone", Authentik: "authentik"}[want])
	}
	return c, SecretReader(kube, c), nil
}

// GetConfig reads the ProviderConfig (in namespace) or ClusterProviderConfig (namespace
// ignored) of identity.m.crossplane.io named name: what a namespaced resource's
// providerConfigRef {kind, name} names, and what the importer connects through.
func GetConfig(ctx context.Context, kube client.Reader, kind, namespace, name string) (Config, error) {
	c := newConfig(kind)
	switch {
	case c == nil:
		return nil, errors.Errorf(errConfigKind, kind)
	case kind == nsidentityv1alpha1.ProviderConfigKind:
		if err := kube.Get(ctx, types.NamespacedName{Namespace: namespace, Name: name}, c); err != nil {
			return nil, errors.Wrapf(err, errGetNamespacedPC, namespace, name)
		}
	default:
		if err := kube.Get(ctx, types.NamespacedName{Name: name}, c); err != nil {
			return nil, errors.Wrapf(err, errGetClusterPC, name)
		}
	}
	return c, nil
}

// newConfig returns an empty config of the kind, nil for a kind that is neither.
func newConfig(kind string) Config {
	switch kind {
	case nsidentityv1alpha1.ProviderConfigKind:
		return &nsidentityv1alpha1.ProviderConfig{}
	case nsidentityv1alpha1.ClusterProviderConfigKind:
		return &nsidentityv1alpha1.ClusterProviderConfig{}
	}
	return nil
}

func kindOf(mg resource.Managed) string {
	if k := mg.GetObjectKind().GroupVersionKind().Kind; k != "" {
		return k
	}
	return "this resource"
}
