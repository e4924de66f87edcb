package main

import (
	"context"
	"errors"
	"fmt"
)

// system is what the benchmark's targets (Keystone, authentik) differ in: the workload and its
// kinds, the floor, the bench's own direct client (the hand-made change, the check that the
// delete left nothing), and how request paths fold into templates. The phases, the proxy and
// the summary are the same for every system.
type system interface {
	// name is how the summary calls the external system, e.g. "Keystone".
	name() string
	// floorHow says what the floor is, e.g. "ksfloor -workload-c 10".
	floorHow() string
	// ratioGoal says what the ratios to the floor are held to, for the summary's ratios line.
	ratioGoal() string
	resources() int
	kinds() string
	kubeKinds() kubeKinds
	namespace() string
	// perResource says how many resources a template's requests are for, to rate it per
	// resource per poll: the count of the kind whose path it starts with.
	perResource() []kindCount
	template(method, path, query string) string
	// connect makes the bench's own client of the server, once (the floor may be skipped).
	connect(ctx context.Context) error
	// floor measures the floor, before anything else talks to the fresh server.
	floor(ctx context.Context, log *errWriter) (floorResult, error)
	// target is the URL the counting proxy forwards to (known once connect ran).
	target() string
	// setup points what the provider reads at the proxy and returns the setup manifest.
	setup(ctx context.Context, proxy string) (string, error)
	manifest() string
	drift(ctx context.Context, k *kube, o options, log *errWriter) (driftResult, error)
	// leftovers are the workload's objects still on the server, named for a progress line.
	leftovers(ctx context.Context) ([]string, error)
}

// kindCount is a path prefix (after templating, query included), the kind whose requests it
// starts, and how many resources of that kind there are.
type kindCount struct {
	Prefix string
	Kind   string
	Count  int
}

// newSystem is the system -system names, with the credentials env holds.
func newSystem(o options, env func(string) string) (system, error) {
	switch o.System {
	case "", "keystone":
		s := &keystoneSystem{o: o, password: env("KEYSTONE_ADMIN_PASSWORD"), w: workload{N: o.N, Namespace: "bench", Prefix: "bench"}}
		if s.password == "" || o.KeystoneURL == "" || o.KSFloor == "" {
			return s, errors.New("KEYSTONE_ADMIN_PASSWORD, -keystone-url and -ksfloor are required for -system keystone (hack/bench-scale.sh sets them)")
		}
		return s, nil
	case "authentik":
		s := &authentikSystem{o: o, token: env("AUTHENTIK_TOKEN"), w: akWorkload{N: o.N, Namespace: "bench", Prefix: "bench"}}
		if s.token == "" || o.AuthentikURL == "" {
			return s, errors.New("AUTHENTIK_TOKEN and -authentik-url are required for -system authentik (hack/bench-scale.sh sets them)")
		}
		return s, nil
	default:
		// A Keystone system, so that the summary still has a header to print.
		return &keystoneSystem{o: o, w: workload{N: o.N, Namespace: "bench", Prefix: "bench"}},
			fmt.Errorf("-system %q: want keystone or authentik", o.System)
	}
}

// keystoneSystem is the workload of ../shared/bench/README.md with ksfloor as its floor.
type keystoneSystem struct {
	o        options
	password string
	w        workload
	ks       *keystoneAdmin
}

func (s *keystoneSystem) name() string         { return "Keystone" }
func (s *keystoneSystem) floorHow() string     { return "ksfloor -workload-c 10" }
func (s *keystoneSystem) ratioGoal() string    { return "issue 12's goal: both <= 1.25x" }
func (s *keystoneSystem) resources() int       { return s.w.resources() }
func (s *keystoneSystem) kinds() string        { return s.w.kinds() }
func (s *keystoneSystem) kubeKinds() kubeKinds { return keystoneKinds }
func (s *keystoneSystem) namespace() string    { return s.w.Namespace }
func (s *keystoneSystem) manifest() string     { return s.w.manifest() }
func (s *keystoneSystem) target() string       { return s.ks.base }

func (s *keystoneSystem) template(method, path, query string) string {
	return pathTemplate(method, path, query)
}

func (s *keystoneSystem) perResource() []kindCount {
	return []kindCount{
		{"/v3/projects/{id}/groups/", "RoleAssignment", s.w.N}, {"/v3/role_assignments", "RoleAssignment", s.w.N},
		{"/v3/projects", "Project", s.w.N}, {"/v3/groups", "Group", s.w.groups()}, {"/v3/domains", "Domain", 1}, {"/v3/roles", "Role", 1},
	}
}

// floor runs ksfloor first, while nothing else talks to this fresh Keystone.
func (s *keystoneSystem) connect(ctx context.Context) error {
	if s.ks != nil {
		return nil
	}
	ks, err := newKeystoneAdmin(ctx, s.o.KeystoneURL, s.password)
	if err != nil {
		return err
	}
	s.ks = ks
	return nil
}

func (s *keystoneSystem) floor(ctx context.Context, log *errWriter) (floorResult, error) {
	if err := s.connect(ctx); err != nil {
		return floorResult{}, err
	}
	ks := s.ks
	log.printf("bench-scale: ksfloor -n %d -workload-c 10 against %s\n", s.o.N, ks.base)
	return runFloor(ctx, s.o.KSFloor, ks.base, s.password, s.o.N, "floor", log)
}

// setup points Keystone's catalog at the proxy (see pointCatalogAt).
func (s *keystoneSystem) setup(ctx context.Context, proxy string) (string, error) {
	if err := s.ks.pointCatalogAt(ctx, proxy); err != nil {
		return "", err
	}
	return s.w.setup(proxy+"/v3", s.password), nil
}

func (s *keystoneSystem) drift(ctx context.Context, k *kube, o options, log *errWriter) (driftResult, error) {
	return drift(ctx, s.ks, k, s.w, o, log)
}

func (s *keystoneSystem) leftovers(ctx context.Context) ([]string, error) {
	return s.ks.leftovers(ctx, s.w.domainName(), s.w.Prefix)
}
