package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// parseSkip reads -skip: the steps a quicker run leaves out. Only the steps whose absence
// leaves the others meaningful can be skipped.
func parseSkip(s string) (map[string]bool, error) {
	skip := map[string]bool{}
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		switch name {
		case "":
		case "floor", "tofu", "kubeonly", "drift", "delete":
			skip[name] = true
		default:
			return nil, fmt.Errorf("-skip %q: cannot skip step %q; the steps that can be skipped are floor, tofu, kubeonly, drift and delete", s, name)
		}
	}
	return skip, nil
}

// pprofAddr is the address of --pprof-bind-address among the provider's extra flags, or "".
func pprofAddr(args []string) string {
	for _, a := range args {
		if v, ok := strings.CutPrefix(a, "--pprof-bind-address="); ok {
			return v
		}
	}
	return ""
}

// goEnv lists the Go runtime's memory settings the provider runs with (from the bench's
// environment, overridden by -provider-env), so that the summary says what the RSS was
// measured under.
func goEnv(providerEnv []string) []string {
	set := map[string]string{}
	for _, k := range []string{"GOGC", "GOMEMLIMIT"} {
		if v, ok := os.LookupEnv(k); ok {
			set[k] = v
		}
	}
	for _, kv := range providerEnv {
		if k, v, ok := strings.Cut(kv, "="); ok && (k == "GOGC" || k == "GOMEMLIMIT") {
			set[k] = v
		}
	}
	out := make([]string, 0, len(set))
	for k, v := range set {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

// saveHeap saves the provider's heap profile (after a GC, so inuse is what is live) as
// heap-<phase>.pb.gz in -dir, when the provider serves pprof; a failure is logged, not fatal:
// the profile is a diagnosis, not a figure of the benchmark.
func (b *bench) saveHeap(ctx context.Context, phase string) {
	if b.prov == nil || b.prov.pprof == "" {
		return
	}
	path := filepath.Join(b.o.Dir, "heap-"+phase+".pb.gz")
	if err := fetchTo(ctx, "http://"+b.prov.pprof+"/debug/pprof/heap?gc=1", path); err != nil {
		b.log.printf("bench-scale: no heap profile after %s: %v\n", phase, err)
		return
	}
	b.log.printf("bench-scale: heap profile after %s: %s (go tool pprof -top -sample_index=inuse_space %s)\n", phase, path, path)
}

func fetchTo(ctx context.Context, url, path string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close() //nolint:errcheck // read to the end below; a close error changes nothing
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s answered %s", url, resp.Status)
	}
	f, err := os.Create(path) //nolint:gosec // G304: the path is in the bench's own -dir
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, resp.Body); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}
