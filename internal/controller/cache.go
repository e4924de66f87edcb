package controller

import (
	"time"

	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/fields"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/customresourcesgate"
)

// lastApplied is the annotation kubectl apply (client-side) keeps the applied manifest in.
const lastApplied = corev1.LastAppliedConfigAnnotation

// CacheOptions are the manager cache's options (every resource re-listed every syncPeriod; nil
// for controller-runtime's default): what the informers keep of each object.
//
// metadata.managedFields is dropped from every cached object: the provider never reads it, it is
// often larger than the spec, and an update that sends no managedFields keeps the stored ones
// (the API server takes the live object's when the request has none), so crossplane-runtime's
// updates of the resources (finalizers, annotations, late-initialised spec) change nothing of
// them.
//
// Secrets are cached in every namespace (a ProviderConfig's credentials are read on every
// reconcile, to notice a changed password at once), but not Helm's release Secrets: each holds
// a whole release, gzipped, and a cluster keeps ten revisions of every release; NewClient reads
// one from the API server should anything name it. A cached Secret also loses the
// last-applied-configuration annotation, which holds a copy of the whole
// Secret (its data included) when it was applied with kubectl: the provider only reads Secrets,
// and writes connection Secrets with a merge patch, which leaves annotations it does not name
// alone. Managed resources and ProviderConfigs keep theirs: crossplane-runtime writes them with
// full updates, which would drop the annotation from the stored object, and kubectl apply would
// then no longer know which fields it set.
//
// CustomResourceDefinitions (read by the safe-start gate, which needs only their names and
// Established condition) lose their OpenAPI schemas: decoded, the schemas of the provider's own
// CRDs alone were about 8 MB, over a third of the heap of an idle provider.
func CacheOptions(syncPeriod *time.Duration) cache.Options {
	return cache.Options{
		SyncPeriod:       syncPeriod,
		DefaultTransform: stripManagedFields,
		ByObject: map[client.Object]cache.ByObject{
			&corev1.Secret{}: {Field: notHelmRelease, Transform: stripSecret},
			&apiextensionsv1.CustomResourceDefinition{}: {Transform: customresourcesgate.TransformStripCRDSchema},
		},
	}
}

// helmRelease is the type of the Secrets Helm keeps its releases in.
const helmRelease corev1.SecretType = "helm.sh/release.v1"

// notHelmRelease selects every Secret but Helm's releases.
var notHelmRelease = fields.OneTermNotEqualSelector("type", string(helmRelease))

// stripManagedFields drops metadata.managedFields; see CacheOptions.
func stripManagedFields(in any) (any, error) {
	return cache.TransformStripManagedFields()(in)
}

// stripSecret is stripManagedFields and drops the last-applied-configuration annotation.
func stripSecret(in any) (any, error) {
	out, err := stripManagedFields(in)
	if err != nil {
		return nil, err
	}
	if o, err := meta.Accessor(out); err == nil {
		if a := o.GetAnnotations(); a != nil {
			if _, ok := a[lastApplied]; ok {
				delete(a, lastApplied)
				o.SetAnnotations(a)
			}
		}
	}
	return out, nil
}
