package shared

import (
	"context"
	"sync"
	"time"

	api "goauthentik.io/api/v3"

	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
)

// Reads are what the reconciles of one kind share: the lookups that resolve a spec's flow
// slugs, certificate names and property mappings (the same in every resource), for
// lookupFresh, and the reads of the kind's objects by ID (ObjectsOf), for
// SharedReadOptions.Fresh. A nil Reads shares nothing.
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
	fresh := lookupFresh(o)
	for _, l := range []*clients.SharedLookups[string]{&r.flows, &r.certs} {
		l.Fresh, l.Now = fresh, o.Now
	}
	r.maps.Fresh, r.maps.Now = fresh, o.Now
	return r
}

// lookupFresh is how long a lookup's answer is shared: half a poll interval (o.Window), and
// never less than o.Fresh; zero when o shares nothing. A lookup only turns the names in a spec
// into IDs, and a hand-made change to the resource's own object is seen in the object's read
// (fresh within o.Fresh) whatever the lookup says. Shared only for o.Fresh, the lookups of the
// flows, certificate and scope mappings were made again in every o.Fresh period in which an
// OAuth2Provider polled: at N=200 and a 30 s poll, 60 of the 100 requests of a poll interval, or
// 0.3 per OAuth2Provider. A flow, certificate or mapping made again by hand under the same name
// is seen within half a poll interval.
func lookupFresh(o clients.SharedReadOptions) time.Duration {
	if o.Fresh <= 0 {
		return 0
	}
	return max(o.Fresh, o.Window/2)
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
