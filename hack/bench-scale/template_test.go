package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPathTemplate(t *testing.T) {
	const id, id2 = "4c0f8d3b9e2a4f5c8a7b6d5e4f3a2b1c", "0123456789abcdef0123456789ABCDEF"
	cases := map[string]struct {
		method, path, query string
		want                string
	}{
		"collection":           {"POST", "/v3/projects", "", "POST /v3/projects"},
		"one object":           {"GET", "/v3/projects/" + id, "", "GET /v3/projects/{id}"},
		"role assignment":      {"PUT", "/v3/projects/" + id + "/groups/" + id2 + "/roles/" + id, "", "PUT /v3/projects/{id}/groups/{id}/roles/{id}"},
		"uuid with hyphens":    {"GET", "/v3/users/4c0f8d3b-9e2a-4f5c-8a7b-6d5e4f3a2b1c", "", "GET /v3/users/{id}"},
		"64-hex LDAP user ID":  {"GET", "/v3/users/" + id + id, "", "GET /v3/users/{id}"},
		"default stays":        {"GET", "/v3/domains/default", "", "GET /v3/domains/default"},
		"names stay":           {"GET", "/v3/domains/" + id + "/config", "", "GET /v3/domains/{id}/config"},
		"query keys sorted":    {"GET", "/v3/projects", "name=bench-project-0001&domain_id=" + id, "GET /v3/projects?domain_id=*&name=*"},
		"repeated query key":   {"GET", "/v3/projects", "tags=a&tags=b", "GET /v3/projects?tags=*"},
		"unparsable query":     {"GET", "/v3/projects", "a=%zz", "GET /v3/projects?{unparsable}"},
		"short hex is no ID":   {"GET", "/v3/regions/abc123", "", "GET /v3/regions/abc123"},
		"33 hex digits: no ID": {"GET", "/v3/projects/" + id + "a", "", "GET /v3/projects/" + id + "a"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, pathTemplate(tc.method, tc.path, tc.query)); diff != "" {
				t.Errorf("pathTemplate(%q, %q, %q) -want +got:\n%s", tc.method, tc.path, tc.query, diff)
			}
		})
	}
}

func TestIsWrite(t *testing.T) {
	cases := map[string]bool{
		"GET /v3/projects/{id}":                         false,
		"HEAD /v3/projects/{id}/groups/{id}/roles/{id}": false,
		"POST /v3/auth/tokens":                          false,
		"POST /v3/projects":                             true,
		"PATCH /v3/projects/{id}":                       true,
		"PUT /v3/projects/{id}/groups/{id}/roles/{id}":  true,
		"DELETE /v3/groups/{id}":                        true,
	}
	for tmpl, want := range cases {
		if got := isWrite(tmpl); got != want {
			t.Errorf("isWrite(%q): got %v, want %v", tmpl, got, want)
		}
	}
}

func TestAuthentikTemplate(t *testing.T) {
	const uuid = "4c0f8d3b-9e2a-4f5c-8a7b-6d5e4f3a2b1c"
	cases := map[string]struct {
		method, path, query string
		want                string
	}{
		"collection":            {"POST", "/api/v3/core/applications/", "", "POST /api/v3/core/applications/"},
		"application by slug":   {"GET", "/api/v3/core/applications/bench-app-0001/", "", "GET /api/v3/core/applications/{slug}/"},
		"application action":    {"POST", "/api/v3/core/applications/bench-app-0001/set_icon_url/", "", "POST /api/v3/core/applications/{slug}/set_icon_url/"},
		"provider by integer":   {"PATCH", "/api/v3/providers/oauth2/42/", "", "PATCH /api/v3/providers/oauth2/{id}/"},
		"group by uuid":         {"DELETE", "/api/v3/core/groups/" + uuid + "/", "", "DELETE /api/v3/core/groups/{id}/"},
		"list with filters":     {"GET", "/api/v3/flows/instances/", "slug=a&page_size=100", "GET /api/v3/flows/instances/?page_size=*&slug=*"},
		"names stay":            {"GET", "/api/v3/core/users/me/", "", "GET /api/v3/core/users/me/"},
		"provider named by ...": {"GET", "/api/v3/providers/all/7/", "", "GET /api/v3/providers/all/{id}/"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, authentikTemplate(tc.method, tc.path, tc.query)); diff != "" {
				t.Errorf("authentikTemplate(%q, %q, %q) -want +got:\n%s", tc.method, tc.path, tc.query, diff)
			}
		})
	}
}
