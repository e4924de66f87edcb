package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"time"
)

// authentikSystem is the authentik workload (akworkload.go) against the in-repo authentik API
// server, with akFloor as its floor.
type authentikSystem struct {
	o     options
	token string
	w     akWorkload
	ak    *authentikAdmin
}

func (s *authentikSystem) name() string         { return "authentik" }
func (s *authentikSystem) floorHow() string     { return "akfloor -c 10 (hack/bench-scale/akfloor.go)" }
func (s *authentikSystem) resources() int       { return s.w.resources() }
func (s *authentikSystem) kinds() string        { return s.w.kinds() }
func (s *authentikSystem) kubeKinds() kubeKinds { return authentikKinds }
func (s *authentikSystem) namespace() string    { return s.w.Namespace }
func (s *authentikSystem) manifest() string     { return s.w.manifest() }
func (s *authentikSystem) target() string       { return s.ak.base }

// ratioGoal: the in-repo API server stands in for authentik's API, not for its speed (it keeps
// objects in memory and answers in well under a millisecond), so a ratio to its floor measures
// the control plane and the provider, not how close they come to authentik. Issue 12 asks
// authentik's time to Ready, requests per poll and hot loops, not a ratio.
func (s *authentikSystem) ratioGoal() string {
	return "no goal: the in-repo API server is not as slow as authentik; issue 12 asks time to Ready, requests per poll and no hot loops"
}

func (s *authentikSystem) template(method, path, query string) string {
	return authentikTemplate(method, path, query)
}

// perResource: the lookups of flows, scope mappings and certificates are the OAuth2Providers';
// the entitlement and binding lists the Applications' (their delete checks for dependents), the
// user list by group the Groups'.
func (s *authentikSystem) perResource() []kindCount {
	const app, prov, grp = "Application", "OAuth2Provider", "Group"
	n, g := s.w.N, s.w.groups()
	return []kindCount{
		{"/api/v3/core/applications", app, n}, {"/api/v3/core/application_entitlements", app, n}, {"/api/v3/policies/bindings", app, n},
		{"/api/v3/providers", prov, n}, {"/api/v3/flows", prov, n}, {"/api/v3/propertymappings", prov, n}, {"/api/v3/crypto", prov, n},
		{"/api/v3/core/groups", grp, g}, {"/api/v3/core/users/?", grp, g},
	}
}

// floor runs akFloor under its own name prefix, so that its objects never meet the provider's.
func (s *authentikSystem) connect(context.Context) error {
	if s.ak == nil {
		s.ak = newAuthentikAdmin(s.o.AuthentikURL, s.token)
	}
	return nil
}

func (s *authentikSystem) floor(ctx context.Context, log *errWriter) (floorResult, error) {
	_ = s.connect(ctx)
	fw := s.w
	fw.Prefix = "floor"
	log.printf("bench-scale: akfloor -n %d with 10 clients against %s\n", s.o.N, s.ak.base)
	return runAKFloor(ctx, s.ak, fw, 10, log)
}

// setup: authentik has no catalog; the ProviderConfig's URL is the proxy's.
func (s *authentikSystem) setup(_ context.Context, proxy string) (string, error) {
	return s.w.setup(proxy, s.token), nil
}

func (s *authentikSystem) leftovers(ctx context.Context) ([]string, error) {
	return s.ak.leftovers(ctx, s.w.Prefix)
}

// driftLaunchURL is what the drift phase writes by hand into one application.
const driftLaunchURL = "https://changed-by-hand.example"

// drift changes one random Application's launch URL straight in authentik and waits until the
// provider has put the desired one back, reading authentik directly twice a second.
func (s *authentikSystem) drift(ctx context.Context, k *kube, o options, log *errWriter) (driftResult, error) {
	//nolint:gosec // G404: picks which test object to change; nothing depends on it being unpredictable
	i := rand.New(rand.NewPCG(o.Seed, 0)).IntN(s.w.N)
	name := fmt.Sprintf("app-%04d", i)
	d := driftResult{Object: fmt.Sprintf("Application %s/%s (seed %d)", s.w.Namespace, name, o.Seed), Change: "meta_launch_url",
		Timeout: 5*o.Poll + time.Minute}
	slug, err := k.externalID(ctx, "applications", name)
	if err != nil {
		return d, err
	}
	path := "/core/applications/" + url.PathEscape(slug) + "/"
	if _, err := s.ak.do(ctx, http.MethodPatch, path, map[string]any{"meta_launch_url": driftLaunchURL}, http.StatusOK); err != nil {
		return d, err
	}
	t0 := time.Now()
	want := s.w.launchURL(i)
	log.printf("bench-scale: changed the meta_launch_url of %s (authentik application %s); waiting for %q again\n", d.Object, slug, want)
	for time.Since(t0) < d.Timeout {
		app, err := s.ak.do(ctx, http.MethodGet, path, nil, http.StatusOK)
		if err != nil {
			return d, err
		}
		if got, _ := app["meta_launch_url"].(string); got == want {
			d.Reverted, d.After = true, time.Since(t0)
			return d, nil
		}
		if err := sleep(ctx, 500*time.Millisecond); err != nil {
			return d, err
		}
	}
	return d, nil
}
