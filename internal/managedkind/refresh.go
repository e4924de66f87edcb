package managedkind

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// Refresh reconciles the resource of kind (Kind.group) in namespace with name at once, and makes
// that reconcile read its external object afresh (clients.ReadObjectsAlone): a write of another
// resource changed the object, and a list or our own write's answer up to a freshness period old
// would not show it. Its lookups of other objects by name are shared as ever. Its first use: an
// authentik application assigns its provider, whose connection details (the issuer URL) name the
// application; without the refresh the provider's Secret got them at its next poll, up to a poll
// interval later.
func (w *Waker) Refresh(kind, namespace, name string) {
	wt := waiter{kind, namespace, name}
	w.mu.Lock()
	w.refresh[wt] = true
	w.mu.Unlock()
	w.wake([]waiter{wt})
}

// takeRefresh reports whether the resource's reconcile is to read its external object afresh,
// and forgets it: the reconcile that takes it does.
func (w *Waker) takeRefresh(kind, namespace, name string) bool {
	wt := waiter{kind, namespace, name}
	w.mu.Lock()
	defer w.mu.Unlock()
	refresh := w.refresh[wt]
	delete(w.refresh, wt)
	return refresh
}

// RefreshByExternalName refreshes (Waker.Refresh) the resources of kind, and of its twin in the
// other scope, whose external name is name: those that manage the object another resource's
// write changed. Kinds still waiting for their first resource have none.
func (o Owners) RefreshByExternalName(ctx context.Context, kind, name string) error {
	if o.Waker == nil {
		return nil
	}
	return o.inBothScopes(ctx, kind, IndexExternalName, name, func(res string, mg resource.Managed) bool {
		if k, ns, n, ok := provenance.SplitResourceName(res); ok && meta.GetExternalName(mg) == name {
			o.Waker.Refresh(k, ns, n)
		}
		return true
	})
}

// refreshed is FreshCache.Refreshed for the kind gk: whether the Waker asked to refresh the
// resource.
func (w *Waker) refreshed(gk string) func(key client.ObjectKey) bool {
	return func(key client.ObjectKey) bool {
		return w.takeRefresh(gk, key.Namespace, key.Name)
	}
}
