package controller

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	ksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
)

var managedFields = []metav1.ManagedFieldsEntry{{Manager: "kubectl", Operation: metav1.ManagedFieldsOperationUpdate,
	FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:spec":{}}`)}}}

// cachedMeta is what the cache keeps of an object's metadata.
type cachedMeta struct {
	Annotations   map[string]string
	ManagedFields []metav1.ManagedFieldsEntry
}

func metaOf(o client.Object) cachedMeta {
	return cachedMeta{Annotations: o.GetAnnotations(), ManagedFields: o.GetManagedFields()}
}

// What the cache keeps: every kind loses managedFields; a Secret also loses the kubectl
// last-applied-configuration annotation (a copy of its data); a managed resource keeps that
// annotation, because crossplane-runtime's full updates would drop it from the stored object.
func TestCacheTransforms(t *testing.T) {
	sync := time.Hour
	o := CacheOptions(&sync)
	if o.SyncPeriod == nil || *o.SyncPeriod != time.Hour {
		t.Errorf("SyncPeriod: want 1h, got %v", o.SyncPeriod)
	}
	var secretTransform toolscache.TransformFunc
	for obj, by := range o.ByObject {
		if _, ok := obj.(*corev1.Secret); ok {
			secretTransform = by.Transform
			// Helm's release Secrets stay out of the cache.
			if by.Field == nil || by.Field.String() != "type!=helm.sh/release.v1" {
				t.Errorf("Secrets' field selector: want type!=helm.sh/release.v1, got %v", by.Field)
			}
		}
	}
	if o.DefaultTransform == nil || secretTransform == nil {
		t.Fatalf("CacheOptions: want a default transform and one for Secrets, got %v and %v", o.DefaultTransform != nil, secretTransform != nil)
	}
	annotations := func() map[string]string {
		return map[string]string{lastApplied: `{"data":{"password":"c2VjcmV0"}}`, "keep": "me"}
	}
	cases := map[string]struct {
		transform toolscache.TransformFunc
		in        client.Object
		want      cachedMeta
	}{
		"ManagedResourceKeepsLastApplied": {
			transform: o.DefaultTransform,
			in:        &ksv1alpha1.Project{ObjectMeta: metav1.ObjectMeta{Annotations: annotations(), ManagedFields: managedFields}},
			want:      cachedMeta{Annotations: annotations()},
		},
		"SecretLosesLastApplied": {
			transform: secretTransform,
			in:        &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Annotations: annotations(), ManagedFields: managedFields}},
			want:      cachedMeta{Annotations: map[string]string{"keep": "me"}},
		},
		"SecretWithoutAnnotations": {
			transform: secretTransform,
			in:        &corev1.Secret{ObjectMeta: metav1.ObjectMeta{ManagedFields: managedFields}},
			want:      cachedMeta{},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			out, err := tc.transform(tc.in)
			if err != nil {
				t.Fatalf("transform: %v", err)
			}
			got, ok := out.(client.Object)
			if !ok {
				t.Fatalf("transform returned %T, not an object", out)
			}
			if diff := cmp.Diff(tc.want, metaOf(got)); diff != "" {
				t.Errorf("cached metadata: -want, +got:\n%s", diff)
			}
		})
	}
}

// A tombstone (what an informer hands a transform for an object deleted while the watch was
// down) is passed through untouched.
func TestCacheTransformTombstone(t *testing.T) {
	in := toolscache.DeletedFinalStateUnknown{Key: "ns/name"}
	out, err := stripSecret(in)
	if err != nil {
		t.Fatalf("stripSecret: %v", err)
	}
	if diff := cmp.Diff(any(in), out); diff != "" {
		t.Errorf("stripSecret: -want, +got:\n%s", diff)
	}
}

// A cached CustomResourceDefinition keeps what the safe-start gate reads (names, Established)
// and loses its schemas.
func TestCacheStripsCRDSchemas(t *testing.T) {
	var transform toolscache.TransformFunc
	for obj, by := range CacheOptions(nil).ByObject {
		if _, ok := obj.(*apiextensionsv1.CustomResourceDefinition); ok {
			transform = by.Transform
		}
	}
	if transform == nil {
		t.Fatal("CacheOptions: no transform for CustomResourceDefinitions")
	}
	crd := func(schema *apiextensionsv1.CustomResourceValidation) *apiextensionsv1.CustomResourceDefinition {
		return &apiextensionsv1.CustomResourceDefinition{
			ObjectMeta: metav1.ObjectMeta{Name: "projects.keystone.identity.m.crossplane.io"},
			Spec: apiextensionsv1.CustomResourceDefinitionSpec{Group: "keystone.identity.m.crossplane.io",
				Names:    apiextensionsv1.CustomResourceDefinitionNames{Kind: "Project"},
				Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{Name: "v1alpha1", Served: true, Storage: true, Schema: schema}}},
			Status: apiextensionsv1.CustomResourceDefinitionStatus{Conditions: []apiextensionsv1.CustomResourceDefinitionCondition{
				{Type: apiextensionsv1.Established, Status: apiextensionsv1.ConditionTrue}}},
		}
	}
	in := crd(&apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{Type: "object"}})
	in.ManagedFields = managedFields
	out, err := transform(in)
	if err != nil {
		t.Fatalf("transform: %v", err)
	}
	if diff := cmp.Diff(any(crd(nil)), out); diff != "" {
		t.Errorf("cached CRD: -want, +got:\n%s", diff)
	}
}
