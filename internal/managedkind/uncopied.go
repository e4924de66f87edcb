package managedkind

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

// uncopiedLists is a client whose lists share the cache's objects instead of deep-copying them.
// It is for readers that never change what they list: crossplane-runtime's MR state recorder
// lists every resource of its kind every --poll-state-metric (5 s) only to count conditions,
// and holds the last list until the next; deep-copied, that was a second copy of every cached
// resource, made again every 5 s.
type uncopiedLists struct {
	client.Client
}

func (c uncopiedLists) List(ctx context.Context, list client.ObjectList, opts ...client.ListOption) error {
	return c.Client.List(ctx, list, append(opts, client.UnsafeDisableDeepCopy)...)
}
