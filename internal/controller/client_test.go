package controller

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	kerrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
)

// A Secret the cache does not hold is read from the API server; anything else the cache does
// not hold is not found, as before.
func TestSecretFallback(t *testing.T) {
	key := types.NamespacedName{Namespace: "crossplane-system", Name: "keystone-admin"}
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name},
		Type: helmRelease, Data: map[string][]byte{"password": []byte("pw")}}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name}}
	cases := map[string]struct {
		cached, live []client.Object
		obj          client.Object
		wantNotFound bool
		wantData     map[string][]byte
	}{
		"SecretInTheCache":       {cached: []client.Object{secret}, obj: &corev1.Secret{}, wantData: secret.Data},
		"SecretOnlyInTheAPI":     {live: []client.Object{secret}, obj: &corev1.Secret{}, wantData: secret.Data},
		"SecretNowhere":          {obj: &corev1.Secret{}, wantNotFound: true},
		"OtherKindNotInTheCache": {live: []client.Object{cm}, obj: &corev1.ConfigMap{}, wantNotFound: true},
		"OtherKindInTheCache":    {cached: []client.Object{cm}, obj: &corev1.ConfigMap{}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			sch := runtime.NewScheme()
			if err := clientgoscheme.AddToScheme(sch); err != nil {
				t.Fatal(err)
			}
			c := &secretFallback{
				Client: fake.NewClientBuilder().WithScheme(sch).WithObjects(copies(tc.cached)...).Build(),
				live:   fake.NewClientBuilder().WithScheme(sch).WithObjects(copies(tc.live)...).Build(),
			}
			err := c.Get(context.Background(), key, tc.obj)
			if got := kerrors.IsNotFound(err); got != tc.wantNotFound || (err != nil && !got) {
				t.Fatalf("Get: error %v, want not found %t", err, tc.wantNotFound)
			}
			if s, ok := tc.obj.(*corev1.Secret); ok {
				if diff := cmp.Diff(tc.wantData, s.Data); diff != "" {
					t.Errorf("Secret data: -want, +got:\n%s", diff)
				}
			}
		})
	}
}

func copies(objs []client.Object) []client.Object {
	out := make([]client.Object, 0, len(objs))
	for _, o := range objs {
		out = append(out, o.DeepCopyObject().(client.Object))
	}
	return out
}
