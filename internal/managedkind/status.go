package managedkind

import (
	"context"
	"reflect"

	"k8s.io/apimachinery/pkg/api/equality"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// unchangedStatusSkipper is the client the managed reconciler writes with. crossplane-runtime
// ends every reconcile with a status update, also the poll of a resource whose external object
// and conditions did not change. The API server finds such an update changes nothing and keeps
// the stored object, but only after decoding, validating and comparing it: at 1,252 resources
// polled every 30 s that was about a third of a core of the control plane's CPU with nothing
// happening, on machines where the control plane shares its cores with the provider and with
// what it manages. An update whose status equals that of the same version of the resource in
// the manager's cache is therefore not sent: the API server would have kept that very object.
type unchangedStatusSkipper struct {
	client.Client
}

// Status returns the status writer that skips updates that change nothing.
func (c unchangedStatusSkipper) Status() client.SubResourceWriter {
	return statusSkipper{SubResourceWriter: c.Client.Status(), cache: c.Client}
}

type statusSkipper struct {
	client.SubResourceWriter
	cache client.Reader
}

// Update sends the status update unless it is a plain update (no options: not a dry run, no
// other field manager) of the version the cache holds, with the status the cache holds.
func (s statusSkipper) Update(ctx context.Context, obj client.Object, opts ...client.SubResourceUpdateOption) error {
	if len(opts) == 0 && s.unchanged(ctx, obj) {
		return nil
	}
	return s.SubResourceWriter.Update(ctx, obj, opts...)
}

// unchanged is whether the cache holds obj's resource at obj's resourceVersion with an equal
// status. Any doubt (not cached, another version, no status field) is a change.
func (s statusSkipper) unchanged(ctx context.Context, obj client.Object) bool {
	cached, ok := obj.DeepCopyObject().(client.Object)
	if !ok || obj.GetResourceVersion() == "" {
		return false
	}
	if err := s.cache.Get(ctx, client.ObjectKeyFromObject(obj), cached); err != nil {
		return false
	}
	if cached.GetResourceVersion() != obj.GetResourceVersion() {
		return false
	}
	a, b := statusField(obj), statusField(cached)
	return a.IsValid() && b.IsValid() && equality.Semantic.DeepEqual(a.Interface(), b.Interface())
}

// statusField is the Status field of the struct obj points to; invalid when it has none.
func statusField(obj client.Object) reflect.Value {
	v := reflect.ValueOf(obj)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return reflect.Value{}
	}
	return v.Elem().FieldByName("Status")
}
