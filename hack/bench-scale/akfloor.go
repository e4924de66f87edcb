package main

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"time"
)

// akFloor is the authentik workload written straight to the API server by c concurrent
// keep-alive clients, one token, the lower bound for any client there, as ksfloor is for
// Keystone: it looks up the seeded flows, scope mappings and certificate once (inside the
// clock, as ksfloor looks up its role), then creates each OAuth2Provider and at once its
// Application, and the Groups, from one queue; the delete removes them again.
type akFloor struct {
	a *authentikAdmin
	w akWorkload
	c int

	requests atomic.Int64
	// What the create phase made, for the delete phase.
	providerPKs []float64
	groupPKs    []string
}

// seeded are the primary keys of the seeded objects each OAuth2Provider refers to.
type seeded struct {
	authorizationFlow, invalidationFlow, signingKey string
	mappings                                        []string
}

// runAKFloor measures the floor's create and delete, and fails on the first request that does
// not get the answer authentik gives a valid one (a floor with errors is no floor).
func runAKFloor(ctx context.Context, a *authentikAdmin, w akWorkload, c int, log *errWriter) (floorResult, error) {
	f := &akFloor{a: a, w: w, c: c, providerPKs: make([]float64, w.N), groupPKs: make([]string, w.groups())}
	t0 := time.Now()
	s, err := f.lookups(ctx)
	if err != nil {
		return floorResult{}, err
	}
	if err := f.pool(w.N+w.groups(), func(i int) error { return f.create(ctx, s, i) }); err != nil {
		return floorResult{}, fmt.Errorf("authentik floor, create: %w", err)
	}
	create := time.Since(t0)
	writes := 2*w.N + w.groups()
	log.printf("floor op=workload_create c=%d n=%d writes=%d requests=%d wall_s=%.2f writes_per_s=%.1f errors=0\n",
		c, w.N, writes, f.requests.Load(), create.Seconds(), float64(writes)/create.Seconds())

	r0 := f.requests.Load()
	t0 = time.Now()
	if err := f.pool(w.N+w.groups(), func(i int) error { return f.delete(ctx, i) }); err != nil {
		return floorResult{}, fmt.Errorf("authentik floor, delete: %w", err)
	}
	del := time.Since(t0)
	log.printf("floor op=workload_delete c=%d n=%d requests=%d wall_s=%.2f writes_per_s=%.1f errors=0\n",
		c, w.N, f.requests.Load()-r0, del.Seconds(), float64(f.requests.Load()-r0)/del.Seconds())
	return floorResult{Create: create, Delete: del, Line: fmt.Sprintf("FLOOR system=authentik n=%d workload_c%d_create_s=%.2f workload_c%d_wps=%.1f workload_c%d_delete_s=%.2f errors=0",
		w.N, c, create.Seconds(), c, float64(writes)/create.Seconds(), c, del.Seconds())}, nil
}

func (f *akFloor) do(ctx context.Context, method, path string, body any, want int) (map[string]any, error) {
	f.requests.Add(1)
	return f.a.do(ctx, method, path, body, want)
}

// lookups finds the seeded objects: 4 requests (one list for the three scope mappings).
func (f *akFloor) lookups(ctx context.Context) (seeded, error) {
	var s seeded
	for _, l := range []struct {
		path  string
		query url.Values
		pk    *string
	}{
		{"/flows/instances/", url.Values{"slug": {akAuthorizationFlow}}, &s.authorizationFlow},
		{"/flows/instances/", url.Values{"slug": {akInvalidationFlow}}, &s.invalidationFlow},
		{"/crypto/certificatekeypairs/", url.Values{"name": {akSigningKey}}, &s.signingKey},
	} {
		f.requests.Add(1)
		o, err := f.a.one(ctx, l.path, l.query)
		if err != nil {
			return s, err
		}
		*l.pk, _ = o["pk"].(string)
	}
	f.requests.Add(1)
	ms, err := f.a.list(ctx, "/propertymappings/provider/scope/", url.Values{"managed": akScopeMappings})
	if err != nil {
		return s, err
	}
	for _, m := range ms {
		pk, _ := m["pk"].(string)
		s.mappings = append(s.mappings, pk)
	}
	if len(s.mappings) != len(akScopeMappings) {
		return s, fmt.Errorf("authentik has %d of the %d scope mappings %v", len(s.mappings), len(akScopeMappings), akScopeMappings)
	}
	return s, nil
}

// create makes item i: OAuth2Provider i and then its Application for i < N, else a Group.
func (f *akFloor) create(ctx context.Context, s seeded, i int) error {
	w := f.w
	if i >= w.N {
		j := i - w.N
		g, err := f.do(ctx, http.MethodPost, "/core/groups/", map[string]any{"name": w.groupName(j)}, http.StatusCreated)
		if err != nil {
			return err
		}
		f.groupPKs[j], _ = g["pk"].(string)
		return nil
	}
	p, err := f.do(ctx, http.MethodPost, "/providers/oauth2/", map[string]any{
		"name": w.providerName(i), "authorization_flow": s.authorizationFlow, "invalidation_flow": s.invalidationFlow,
		"client_type": "confidential", "grant_types": akGrantTypes, "property_mappings": s.mappings, "signing_key": s.signingKey,
		"redirect_uris": []map[string]any{{"matching_mode": "strict", "url": w.redirectURI(i), "redirect_uri_type": "authorization"}},
	}, http.StatusCreated)
	if err != nil {
		return err
	}
	pk, _ := p["pk"].(float64)
	f.providerPKs[i] = pk
	_, err = f.do(ctx, http.MethodPost, "/core/applications/", map[string]any{
		"name": w.appName(i), "slug": w.appSlug(i), "provider": pk,
		"meta_launch_url": w.launchURL(i), "meta_description": fmt.Sprintf("bench application %d", i),
	}, http.StatusCreated)
	return err
}

// delete removes item i: Application i and then its provider, or a Group.
func (f *akFloor) delete(ctx context.Context, i int) error {
	if i >= f.w.N {
		_, err := f.do(ctx, http.MethodDelete, "/core/groups/"+f.groupPKs[i-f.w.N]+"/", nil, http.StatusNoContent)
		return err
	}
	if _, err := f.do(ctx, http.MethodDelete, "/core/applications/"+f.w.appSlug(i)+"/", nil, http.StatusNoContent); err != nil {
		return err
	}
	_, err := f.do(ctx, http.MethodDelete, fmt.Sprintf("/providers/oauth2/%.0f/", f.providerPKs[i]), nil, http.StatusNoContent)
	return err
}

// pool runs job(0..count-1) on f.c workers and returns the first error; the others stop taking
// new items once one failed.
func (f *akFloor) pool(count int, job func(i int) error) error {
	var (
		wg    sync.WaitGroup
		next  atomic.Int64
		mu    sync.Mutex
		first error
	)
	for range f.c {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				failed := first != nil
				mu.Unlock()
				i := int(next.Add(1)) - 1
				if failed || i >= count {
					return
				}
				if err := job(i); err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	return first
}
