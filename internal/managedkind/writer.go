package managedkind

import (
	"context"
	"encoding/json"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
)

// A PolicyAwareWriter is the client the reconciler and the adoption engine write managed
// resources with. It completes PolicyAwareResolver: during a reconcile the spec of a resource
// holds, in memory, IDs resolved from references and server defaults read by Observe, and the
// runtime persists a resource with a full Update (the create-pending annotation, the finalizer,
// the critical annotations). Without LateInitialize in the management policies those updates
// must not carry the in-memory spec, so for such resources an Update becomes a merge patch of
// metadata only (annotations, labels, finalizers) with the same resourceVersion precondition;
// the object keeps its in-memory spec and takes the new resourceVersion. Annotations and labels
// are merged key by key: a key removed in memory stays (nothing in the reconcile removes one).
type PolicyAwareWriter struct {
	client.Client
}

// NewPolicyAwareWriter wraps c.
func NewPolicyAwareWriter(c client.Client) *PolicyAwareWriter {
	return &PolicyAwareWriter{Client: c}
}

// Update writes obj, leaving out the spec of a managed resource that does not late-initialize.
func (w *PolicyAwareWriter) Update(ctx context.Context, obj client.Object, opts ...client.UpdateOption) error {
	mg, ok := obj.(resource.Managed)
	if !ok || lateInitializes(mg.GetManagementPolicies()) {
		return w.Client.Update(ctx, obj, opts...)
	}
	patch, err := json.Marshal(map[string]any{"metadata": map[string]any{
		"resourceVersion": obj.GetResourceVersion(),
		"annotations":     obj.GetAnnotations(),
		"labels":          obj.GetLabels(),
		"finalizers":      obj.GetFinalizers(),
	}})
	if err != nil {
		return errors.Wrap(err, "cannot encode metadata patch")
	}
	uo := &client.UpdateOptions{}
	uo.ApplyOptions(opts)
	written, ok := obj.DeepCopyObject().(client.Object)
	if !ok {
		return errors.New("cannot copy object")
	}
	if err := w.Patch(ctx, written, client.RawPatch(types.MergePatchType, patch),
		&client.PatchOptions{DryRun: uo.DryRun, FieldManager: uo.FieldManager}); err != nil {
		return err
	}
	obj.SetResourceVersion(written.GetResourceVersion())
	obj.SetManagedFields(written.GetManagedFields())
	return nil
}
