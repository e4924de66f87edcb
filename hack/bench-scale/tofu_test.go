package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestTofuLine(t *testing.T) {
	measured := tofuResult{Versions: "OpenTofu 1.10.7 + terraform-provider-openstack 3.4.0", Apply: 25 * time.Second,
		Destroy: 40 * time.Second, CPU: 12.5, RSSMax: 150 << 20}
	cases := map[string]struct {
		r                        tofuResult
		floorCreate, floorDelete time.Duration
		want                     string
	}{
		"not measured": {want: "not measured"},
		"with the floor": {r: measured, floorCreate: 10 * time.Second, floorDelete: 16 * time.Second,
			want: "apply 25.0 s (2.50x floor), destroy 40.0 s (2.50x floor), peak RSS 150.0 MiB, CPU 12.50 s (OpenTofu 1.10.7 + terraform-provider-openstack 3.4.0, -parallelism=10, tofu and its plugin, same fresh Keystone, same run)"},
		"floor skipped": {r: measured,
			want: "apply 25.0 s (floor not measured), destroy 40.0 s (floor not measured), peak RSS 150.0 MiB, CPU 12.50 s (OpenTofu 1.10.7 + terraform-provider-openstack 3.4.0, -parallelism=10, tofu and its plugin, same fresh Keystone, same run)"},
		"destroy failed": {r: tofuResult{Versions: "OpenTofu 1.10.7", Apply: 5 * time.Second, RSSMax: 1 << 20, CPU: 1}, floorCreate: 10 * time.Second, floorDelete: 16 * time.Second,
			want: "apply 5.0 s (0.50x floor), destroy not measured, peak RSS 1.0 MiB, CPU 1.00 s (OpenTofu 1.10.7, -parallelism=10, tofu and its plugin, same fresh Keystone, same run)"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := tc.r.line(tc.floorCreate, tc.floorDelete); got != tc.want {
				t.Errorf("line:\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestSummaryTofu: the peer's line sits beside the floor's, and the ratios compare with it too.
func TestSummaryTofu(t *testing.T) {
	r := result{N: 2, Resources: 7, System: "Keystone", RatioGoal: (&keystoneSystem{}).ratioGoal(), ToReady: 30 * time.Second, Deleted: 20 * time.Second,
		FloorCreate: 10 * time.Second, FloorDelete: 16 * time.Second,
		Tofu: tofuResult{Versions: "OpenTofu 1.10.7", Apply: 60 * time.Second, Destroy: 10 * time.Second, RSSMax: 100 << 20}}
	var b strings.Builder
	if err := r.write(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"opentofu    : apply 60.0 s (6.00x floor), destroy 10.0 s (0.62x floor), peak RSS 100.0 MiB",
		"(issue 12's goal: both <= 1.25x); provider/OpenTofu create 0.50x, delete 2.00x",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, b.String())
		}
	}
}

func TestParseTofuVersion(t *testing.T) {
	cases := map[string]struct {
		out     string
		want    string
		wantErr bool
	}{
		"after init": {out: `{"terraform_version":"1.10.7","platform":"linux_amd64","provider_selections":{"registry.opentofu.org/terraform-provider-openstack/openstack":"3.4.0"}}`,
			want: "OpenTofu 1.10.7 + terraform-provider-openstack 3.4.0"},
		"before init":  {out: `{"terraform_version":"1.10.7","platform":"linux_amd64","provider_selections":{}}`, want: "OpenTofu 1.10.7"},
		"other plugin": {out: `{"terraform_version":"1.10.7","provider_selections":{"registry.opentofu.org/hashicorp/null":"3.2.0"}}`, want: "OpenTofu 1.10.7"},
		"not json":     {out: "OpenTofu v1.10.7\non linux_amd64\n", wantErr: true},
		"no version":   {out: `{}`, wantErr: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := parseTofuVersion([]byte(tc.out))
			if (err != nil) != tc.wantErr {
				t.Fatalf("parseTofuVersion: error %v, want error %v", err, tc.wantErr)
			}
			if got != tc.want {
				t.Errorf("parseTofuVersion: got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestTofuConfig(t *testing.T) {
	got := tofuConfig(workload{N: 20, Prefix: "tofu"}, "http://127.0.0.1:5077/v3")
	for _, want := range []string{
		`source  = "terraform-provider-openstack/openstack"`, `version = "3.4.0"`,
		`auth_url            = "http://127.0.0.1:5077/v3"`, `password            = var.admin_password`,
		`name      = "tofu-domain"`, "is_domain = true",
		"count       = 20\n", `format("tofu-project-%04d", count.index)`,
		"count     = 10\n", `format("tofu-group-%04d", count.index)`,
		"group_id   = openstack_identity_group_v3.group[count.index % 10].id",
		"project_id = openstack_identity_project_v3.project[count.index].id",
		"role_id    = data.openstack_identity_role_v3.member.id",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("main.tf lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "%!") {
		t.Errorf("main.tf has a formatting error:\n%s", got)
	}
}

// TestCensus: the census counts the workload's objects by name, the groups in the domain, and
// the assignments by group.
func TestCensus(t *testing.T) {
	bodies := map[string]string{
		"/v3/domains":  `{"domains":[{"id":"d1","name":"tofu-domain"}]}`,
		"/v3/projects": `{"projects":[{"id":"p1","name":"tofu-project-0000"},{"id":"p2","name":"tofu-project-0001"},{"id":"a","name":"admin"},{"id":"f","name":"floor-project-0000"}]}`,
		"/v3/groups":   `{"groups":[{"id":"g1","name":"tofu-group-0000"},{"id":"g2","name":"bench-group-0000"}]}`,
		"/v3/role_assignments": `{"role_assignments":[{"group":{"id":"g1"},"scope":{"project":{"id":"p1"}}},{"group":{"id":"g1"},"scope":{"project":{"id":"p2"}}},` +
			`{"group":{"id":"g2"},"scope":{"project":{"id":"x"}}},{"user":{"id":"admin"},"scope":{"project":{"id":"a"}}}]}`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if q := r.URL.Query(); r.URL.Path == "/v3/domains" && q.Get("name") != "tofu-domain" ||
			r.URL.Path == "/v3/groups" && q.Get("domain_id") != "d1" {
			t.Errorf("listed %s", r.URL)
		}
		_, _ = w.Write([]byte(bodies[r.URL.Path]))
	}))
	defer srv.Close()
	ks := &keystoneAdmin{base: srv.URL, hc: srv.Client()}
	got, err := ks.census(context.Background(), workload{N: 2, Prefix: "tofu"})
	if err != nil {
		t.Fatal(err)
	}
	if want := (ksCensus{Domains: 1, Projects: 2, Groups: 1, Assignments: 2}); got != want {
		t.Errorf("census: got %s, want %s", got, want)
	}
}
