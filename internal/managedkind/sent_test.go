package managedkind

import (
	"context"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
)

// countedUpdates builds a fake API server that holds stored (unless absent) and counts the
// updates and status updates that reach it. It returns the client, a copy of stored as a
// reconcile would have read it (with another resourceVersion when absent), and the count.
func countedUpdates(t *testing.T, s *runtime.Scheme, stored client.Object, absent bool) (client.Client, client.Object, *int) {
	t.Helper()
	sent := 0
	b := fake.NewClientBuilder().WithScheme(s).WithStatusSubresource(stored).
		WithInterceptorFuncs(interceptor.Funcs{
			Update: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.UpdateOption) error {
				sent++
				return c.Update(ctx, obj, opts...)
			},
			SubResourceUpdate: func(ctx context.Context, c client.Client, sub string, obj client.Object, opts ...client.SubResourceUpdateOption) error {
				sent++
				return c.SubResource(sub).Update(ctx, obj, opts...)
			},
		})
	if !absent {
		b = b.WithObjects(stored)
	}
	kube := b.Build()

	read, ok := stored.DeepCopyObject().(client.Object)
	if !ok {
		t.Fatalf("%T: not a client.Object", stored)
	}
	if absent {
		read.SetResourceVersion("7")
	} else if err := kube.Get(context.Background(), client.ObjectKeyFromObject(stored), read); err != nil {
		t.Fatal(err)
	}
	return kube, read, &sent
}

// checkSent fails t when err is not the one wanted (none when wantErr is nil), or when whether
// an update reached the API server is not what was wanted.
func checkSent(t *testing.T, err error, wantErr func(error) bool, sent int, wantSent bool) {
	t.Helper()
	switch {
	case wantErr == nil && err != nil:
		t.Fatalf("update: %v", err)
	case wantErr != nil && !wantErr(err):
		t.Fatalf("update: error %v, not the one expected", err)
	}
	if got := sent > 0; got != wantSent {
		t.Errorf("the update was sent: %t, want %t", got, wantSent)
	}
}
