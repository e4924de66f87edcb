package shared

import (
	"context"
	"sync"

	api "goauthentik.io/api/v3"

	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
)

// Reads are what the reconciles of one kind share, for SharedReadOptions.Fresh: the lookups
// that resolve a spec's flow slugs, certificate names and property mappings (the same in
// every resource), and the reads of the kind's objects by ID (ObjectsOf). A nil Reads shares
// nothing.
type Reads struct {
	opts  clients.SharedReadOptions
	flows clients.SharedLookups[string]
	certs clients.SharedLookups[string]
	maps  clients.SharedLookups[[]mapping]

	mu      sync.Mutex
	objects any
}

// NewReads returns the Reads of one kind, shared as o says.
func NewReads(o clients.SharedReadOptions) *Reads {
	r := &Reads{opts: o}
	for _, l := range []*clients.SharedLookups[string]{&r.flows, &r.certs} {
		l.Fresh, l.Now = o.Fresh, o.Now
	}
	r.maps.Fresh, r.maps.Now = o.Fresh, o.Now
	return r
}

// ObjectsOf returns the kind's shared reads of its objects T, listed with page and named
// list; nil (reads not shared) for a nil Reads. A kind has one object type: the first call
// makes them.
func ObjectsOf[T any](r *Reads, list string, page authentik.ListPage[T], id func(T) string) *authentik.Shared[T] {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.objects == nil {
		r.objects = authentik.NewShared(r.opts, list, page, id)
	}
	s, _ := r.objects.(*authentik.Shared[T])
	return s
}

func (r *Reads) flow(ctx context.Context, c *api.APIClient, slug string, fetch func(context.Context) (string, error)) (string, error) {
	if r == nil {
		return fetch(ctx)
	}
	return r.flows.Get(ctx, clients.Scope{Client: c, List: "flows/instances/" + slug + "/"}, fetch)
}

func (r *Reads) certificate(ctx context.Context, c *api.APIClient, name string, fetch func(context.Context) (string, error)) (string, error) {
	if r == nil {
		return fetch(ctx)
	}
	return r.certs.Get(ctx, clients.Scope{Client: c, List: "crypto/certificatekeypairs/?name=" + name}, fetch)
}

func (r *Reads) mappings(ctx context.Context, c *api.APIClient, kind string, fetch func(context.Context) ([]mapping, error)) ([]mapping, error) {
	if r == nil {
		return fetch(ctx)
	}
	return r.maps.Get(ctx, clients.Scope{Client: c, List: "propertymappings/provider/" + kind + "/"}, fetch)
}
