package managedkind

import (
	"context"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client"

	ksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
)

// listOptionsClient records the options of the lists it is asked for.
type listOptionsClient struct {
	client.Client
	got client.ListOptions
}

func (c *listOptionsClient) List(_ context.Context, _ client.ObjectList, opts ...client.ListOption) error {
	c.got.ApplyOptions(opts)
	return nil
}

// A list through uncopiedLists keeps the caller's options and asks the cache not to copy.
func TestUncopiedLists(t *testing.T) {
	rec := &listOptionsClient{}
	if err := (uncopiedLists{rec}).List(context.Background(), &ksv1alpha1.ProjectList{}, client.InNamespace("team-a")); err != nil {
		t.Fatal(err)
	}
	if rec.got.Namespace != "team-a" {
		t.Errorf("namespace: want team-a, got %q", rec.got.Namespace)
	}
	if rec.got.UnsafeDisableDeepCopy == nil || !*rec.got.UnsafeDisableDeepCopy {
		t.Errorf("UnsafeDisableDeepCopy: want true, got %v", rec.got.UnsafeDisableDeepCopy)
	}
}
