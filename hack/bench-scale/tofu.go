package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

// OpenTofu with terraform-provider-openstack is the peer issue 12 compares the provider with: the
// same Keystone workload, written as one main.tf, applied and destroyed against the same fresh
// Keystone in the same run, right after the floor. hack/build-tofu.sh builds both into -tofu.

const (
	tofuPrefix = "tofu" // its Keystone names, apart from the floor's and the provider's
	// tofuParallelism is tofu's default, stated so that the summary says what ran: 10, as
	// many as the floor's clients.
	tofuParallelism = 10
	// tofuProvider is the plugin's address and version in build-tofu.sh's mirror.
	tofuProvider        = "terraform-provider-openstack/openstack"
	tofuProviderVersion = "3.4.0"
)

// tofuResult is what the summary prints of the peer.
type tofuResult struct {
	Versions string // e.g. OpenTofu 1.10.7 + terraform-provider-openstack 3.4.0
	// Apply and Destroy are the wall times of the commands a user runs, all they do included:
	// tofu apply plans (reading the role) and creates; tofu destroy first reads every object.
	Apply, Destroy time.Duration
	CPU            float64 // apply and destroy, tofu and the plugins it waited for
	RSSMax         uint64  // tofu and its plugin together, sampled
}

// tofuConfig is main.tf: the workload of workload.go. Terraform's openstack provider has no
// domain resource: a domain is a project with is_domain, whose delete disables it first (as
// Keystone requires). The password comes from TF_VAR_admin_password, not the file, which stays
// in -dir after the run.
func tofuConfig(w workload, authURL string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `terraform {
  required_providers {
    openstack = {
      source  = %q
      version = %q
    }
  }
}

variable "admin_password" {
  type      = string
  sensitive = true
}

provider "openstack" {
  auth_url            = %q
  user_name           = "admin"
  password            = var.admin_password
  tenant_name         = "admin"
  user_domain_name    = "Default"
  project_domain_name = "Default"
  region              = "RegionOne"
}

data "openstack_identity_role_v3" "member" {
  name = "member"
}

resource "openstack_identity_project_v3" "domain" {
  name      = %q
  is_domain = true
  enabled   = true
}

resource "openstack_identity_project_v3" "project" {
  count       = %[5]d
  name        = format("%[6]s-project-%%04d", count.index)
  description = "bench project ${count.index}"
  domain_id   = openstack_identity_project_v3.domain.id
  enabled     = true
}

resource "openstack_identity_group_v3" "group" {
  count     = %[7]d
  name      = format("%[6]s-group-%%04d", count.index)
  domain_id = openstack_identity_project_v3.domain.id
}

resource "openstack_identity_role_assignment_v3" "member" {
  count      = %[5]d
  group_id   = openstack_identity_group_v3.group[count.index %% %[7]d].id
  project_id = openstack_identity_project_v3.project[count.index].id
  role_id    = data.openstack_identity_role_v3.member.id
}
`, tofuProvider, tofuProviderVersion, authURL, w.domainName(), w.N, w.Prefix, w.groups())
	return b.String()
}

// tofuCLIConfig makes tofu install the plugin from build-tofu.sh's mirror alone: no registry.
func tofuCLIConfig(mirror string) string {
	return fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n}\n", mirror)
}

// tofuRun is one workload's tofu working directory.
type tofuRun struct {
	bin  string   // the tofu binary
	work string   // its working directory: main.tf, the state, one log per command
	env  []string // the CLI configuration and the password
}

// run runs one tofu command in the working directory, its output to <name>.log, and returns its
// wall time, its CPU seconds with its reaped children's (wait4's rusage: the plugin's too, once
// tofu waited for it) and the peak of tofu's and its children's summed RSS.
func (t tofuRun) run(ctx context.Context, name string, args ...string) (time.Duration, float64, uint64, error) {
	logPath := filepath.Join(t.work, name+".log")
	logf, err := os.Create(logPath) //nolint:gosec // G304: the path is in the bench's own -dir
	if err != nil {
		return 0, 0, 0, err
	}
	defer logf.Close() //nolint:errcheck // tofu wrote to it; a close error changes no figure

	cmd := exec.CommandContext(ctx, t.bin, args...) //nolint:gosec // G204: bin is the bench's own -tofu flag
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = t.work, t.env, logf, logf
	// Its own process group, killed whole when the run is interrupted: the plugin would outlive tofu.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, 0, 0, err
	}
	ts := newTreeSampler(cmd.Process.Pid, 250*time.Millisecond)
	err = cmd.Wait()
	wall, rss := time.Since(t0), ts.close()
	if err != nil {
		// No wall time: the summary must not read a failed command's as a measurement.
		return 0, 0, rss, fmt.Errorf("tofu %s failed: %w; the end of %s:\n%s", name, err, logPath, tail(logPath, 15))
	}
	return wall, (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds(), rss, nil
}

// tail is the last n lines of a file, where tofu's error is.
func tail(path string, n int) string {
	b, err := os.ReadFile(path) //nolint:gosec // G304: the path is in the bench's own -dir
	if err != nil {
		return err.Error()
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	return strings.Join(lines[max(len(lines)-n, 0):], "\n")
}

// runTofu applies the workload with the tofu in dir and destroys it again, in the working
// directory work, checking Keystone after each (s must be connected).
func runTofu(ctx context.Context, dir, work string, s *keystoneSystem, log *errWriter) (tofuResult, error) {
	w, ks := workload{N: s.o.N, Prefix: tofuPrefix}, s.ks
	var r tofuResult
	if err := os.MkdirAll(work, 0o750); err != nil {
		return r, err
	}
	cli := filepath.Join(work, "cli.tfrc")
	for path, text := range map[string]string{
		filepath.Join(work, "main.tf"): tofuConfig(w, ks.base+"/v3"),
		cli:                            tofuCLIConfig(filepath.Join(dir, "mirror")),
	} {
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			return r, err
		}
	}
	t := tofuRun{bin: filepath.Join(dir, "tofu"), work: work, env: append(os.Environ(),
		"TF_CLI_CONFIG_FILE="+cli, "TF_VAR_admin_password="+s.password, "TF_IN_AUTOMATION=1", "TF_INPUT=0")}
	if _, _, _, err := t.run(ctx, "init", "init", "-no-color"); err != nil {
		return r, err
	}
	// In the working directory: after init it names the plugin version chosen there.
	ver := exec.CommandContext(ctx, t.bin, "version", "-json") //nolint:gosec // G204: as in run
	ver.Dir, ver.Env = t.work, t.env
	out, err := ver.Output()
	if err != nil {
		return r, fmt.Errorf("tofu version: %w", err)
	}
	if r.Versions, err = parseTofuVersion(out); err != nil {
		return r, err
	}
	par := fmt.Sprintf("-parallelism=%d", tofuParallelism)
	log.printf("bench-scale: %s: tofu apply %s, N=%d, in %s\n", r.Versions, par, w.N, work)
	var cpu float64
	var rss uint64
	r.Apply, cpu, rss, err = t.run(ctx, "apply", "apply", "-auto-approve", "-no-color", par)
	r.CPU, r.RSSMax = cpu, rss
	if err != nil {
		return r, err
	}
	if err := checkCensus(ctx, ks, w, ksCensus{1, w.N, w.groups(), w.N}, "tofu apply", r.Apply, log); err != nil {
		return r, err
	}
	r.Destroy, cpu, rss, err = t.run(ctx, "destroy", "destroy", "-auto-approve", "-no-color", par)
	r.CPU, r.RSSMax = r.CPU+cpu, max(r.RSSMax, rss)
	if err != nil {
		return r, err
	}
	return r, checkCensus(ctx, ks, w, ksCensus{}, "tofu destroy", r.Destroy, log)
}

// parseTofuVersion names the versions from `tofu version -json` run after init.
func parseTofuVersion(out []byte) (string, error) {
	var v struct {
		Version   string            `json:"terraform_version"`
		Providers map[string]string `json:"provider_selections"`
	}
	if err := json.Unmarshal(out, &v); err != nil || v.Version == "" {
		return "", fmt.Errorf("tofu version -json printed no version: %q", out)
	}
	s := "OpenTofu " + v.Version
	for addr, ver := range v.Providers {
		if strings.HasSuffix(addr, "/"+tofuProvider) {
			s += " + terraform-provider-openstack " + ver
		}
	}
	return s, nil
}

// ksCensus counts the workload's objects in Keystone.
type ksCensus struct{ Domains, Projects, Groups, Assignments int }

func (c ksCensus) String() string {
	return fmt.Sprintf("%d domain, %d projects, %d groups, %d role assignments", c.Domains, c.Projects, c.Groups, c.Assignments)
}

// checkCensus counts the workload's objects in Keystone after a command took d, and fails when
// they are not want: a command that exited 0 is not yet proof that it did the work.
func checkCensus(ctx context.Context, ks *keystoneAdmin, w workload, want ksCensus, cmd string, d time.Duration, log *errWriter) error {
	got, err := ks.census(ctx, w)
	if err != nil {
		return err
	}
	if got != want {
		return fmt.Errorf("after %s Keystone holds %s, want %s", cmd, got, want)
	}
	log.printf("bench-scale: %s took %s; Keystone then held %s\n", cmd, secs(d), got)
	return nil
}

// census lists the domain by name, the projects by prefix, the domain's groups by prefix and
// the role assignments of those groups: four requests, outside the timed commands. The groups
// are listed in the domain: with domain_specific_drivers_enabled (hack/keystone.sh), a list
// without domain_id holds the token's domain's alone. Without the domain there is no group to
// count: Keystone deletes a domain's groups with it.
func (k *keystoneAdmin) census(ctx context.Context, w workload) (ksCensus, error) {
	var c ksCensus
	// ids lists coll at path and returns the IDs of the objects whose name has the prefix.
	ids := func(path, coll, prefix string) ([]string, error) {
		_, m, err := k.do(ctx, http.MethodGet, path, nil, http.StatusOK)
		objs, _ := m[coll].([]any)
		var out []string
		for _, o := range objs {
			om, _ := o.(map[string]any)
			if name, _ := om["name"].(string); strings.HasPrefix(name, prefix) {
				id, _ := om["id"].(string)
				out = append(out, id)
			}
		}
		return out, err
	}
	ds, err := ids("/v3/domains?name="+url.QueryEscape(w.domainName()), "domains", w.domainName())
	if err != nil {
		return c, err
	}
	ps, err := ids("/v3/projects", "projects", w.Prefix+"-project-")
	if err != nil {
		return c, err
	}
	c.Domains, c.Projects = len(ds), len(ps)
	if len(ds) != 1 {
		return c, nil
	}
	gs, err := ids("/v3/groups?domain_id="+url.QueryEscape(ds[0]), "groups", w.Prefix+"-group-")
	if err != nil {
		return c, err
	}
	c.Groups = len(gs)
	_, m, err := k.do(ctx, http.MethodGet, "/v3/role_assignments", nil, http.StatusOK)
	if err != nil {
		return c, err
	}
	ras, _ := m["role_assignments"].([]any)
	for _, ra := range ras {
		g, _ := ra.(map[string]any)["group"].(map[string]any)
		if id, _ := g["id"].(string); id != "" && slices.Contains(gs, id) {
			c.Assignments++
		}
	}
	return c, nil
}

// line is the summary's line on the peer: its times, each against the floor's.
func (t tofuResult) line(floorCreate, floorDelete time.Duration) string {
	if t.Apply == 0 {
		return "not measured"
	}
	vsFloor := func(d, floor time.Duration) string {
		if d == 0 {
			return "not measured"
		}
		if floor == 0 {
			return secs(d) + " (floor not measured)"
		}
		return fmt.Sprintf("%s (%.2fx floor)", secs(d), ratio(d, floor))
	}
	return fmt.Sprintf("apply %s, destroy %s, peak RSS %.1f MiB, CPU %.2f s (%s, -parallelism=%d, tofu and its plugin, same fresh Keystone, same run)",
		vsFloor(t.Apply, floorCreate), vsFloor(t.Destroy, floorDelete), mib(t.RSSMax), t.CPU, t.Versions, tofuParallelism)
}
