package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// keystoneAdmin talks to Keystone directly (not through the counting proxy) for what the bench
// itself needs: pointing the catalog at the proxy, the hand-made drift, and checking that the
// delete left nothing behind. None of it is counted as the provider's.
type keystoneAdmin struct {
	base  string // e.g. http://127.0.0.1:5000 (without /v3)
	token string
	hc    *http.Client
}

func newKeystoneAdmin(ctx context.Context, base, password string) (*keystoneAdmin, error) {
	k := &keystoneAdmin{base: strings.TrimSuffix(strings.TrimSuffix(base, "/"), "/v3"), hc: &http.Client{Timeout: 60 * time.Second}}
	body := map[string]any{"auth": map[string]any{
		"identity": map[string]any{"methods": []string{"password"}, "password": map[string]any{"user": map[string]any{
			"name": "admin", "domain": map[string]any{"id": "default"}, "password": password}}},
		"scope": map[string]any{"project": map[string]any{"name": "admin", "domain": map[string]any{"id": "default"}}},
	}}
	resp, _, err := k.do(ctx, http.MethodPost, "/v3/auth/tokens", body, http.StatusCreated)
	if err != nil {
		return nil, err
	}
	k.token = resp.Header.Get("X-Subject-Token")
	return k, nil
}

// do sends one request and decodes a JSON response into a map; any status but want is an error.
func (k *keystoneAdmin) do(ctx context.Context, method, path string, body any, want int) (*http.Response, map[string]any, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, nil, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, k.base+path, rd)
	if err != nil {
		return nil, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if k.token != "" {
		req.Header.Set("X-Auth-Token", k.token)
	}
	resp, err := k.hc.Do(req)
	if err != nil {
		return nil, nil, fmt.Errorf("keystone %s %s: %w", method, path, err)
	}
	raw, err := io.ReadAll(resp.Body)
	if err = errors.Join(err, resp.Body.Close()); err != nil {
		return nil, nil, fmt.Errorf("keystone %s %s: reading the response: %w", method, path, err)
	}
	if resp.StatusCode != want {
		return resp, nil, fmt.Errorf("keystone %s %s: status %d, want %d: %s", method, path, resp.StatusCode, want, strings.TrimSpace(string(raw)))
	}
	var m map[string]any
	if len(raw) > 0 {
		_ = json.Unmarshal(raw, &m)
	}
	return resp, m, nil
}

// pointCatalogAt makes every catalog endpoint the proxy's: the provider authenticates at its
// authURL but then sends its requests to the identity endpoint of the token's catalog, which
// would bypass the proxy. ksfloor and the bench use the base URL directly and never read it.
func (k *keystoneAdmin) pointCatalogAt(ctx context.Context, proxy string) error {
	_, m, err := k.do(ctx, http.MethodGet, "/v3/endpoints", nil, http.StatusOK)
	if err != nil {
		return err
	}
	eps, _ := m["endpoints"].([]any)
	if len(eps) == 0 {
		return fmt.Errorf("keystone's catalog has no endpoints to point at the proxy")
	}
	for _, e := range eps {
		id, _ := e.(map[string]any)["id"].(string)
		body := map[string]any{"endpoint": map[string]any{"url": proxy + "/v3/"}}
		if _, _, err := k.do(ctx, http.MethodPatch, "/v3/endpoints/"+id, body, http.StatusOK); err != nil {
			return err
		}
	}
	return nil
}

// projectDescription reads a project's description.
func (k *keystoneAdmin) projectDescription(ctx context.Context, id string) (string, error) {
	_, m, err := k.do(ctx, http.MethodGet, "/v3/projects/"+id, nil, http.StatusOK)
	if err != nil {
		return "", err
	}
	p, _ := m["project"].(map[string]any)
	d, _ := p["description"].(string)
	return d, nil
}

func (k *keystoneAdmin) setProjectDescription(ctx context.Context, id, desc string) error {
	_, _, err := k.do(ctx, http.MethodPatch, "/v3/projects/"+id, map[string]any{"project": map[string]any{"description": desc}}, http.StatusOK)
	return err
}

// leftovers lists the workload's objects still in Keystone: the domain by name, and every
// project and group whose name has the prefix (in any domain, so that one created outside the
// domain would show too).
func (k *keystoneAdmin) leftovers(ctx context.Context, domainName, prefix string) ([]string, error) {
	var left []string
	_, m, err := k.do(ctx, http.MethodGet, "/v3/domains?name="+url.QueryEscape(domainName), nil, http.StatusOK)
	if err != nil {
		return nil, err
	}
	if ds, _ := m["domains"].([]any); len(ds) > 0 {
		left = append(left, "domain "+domainName)
	}
	for _, coll := range []string{"projects", "groups"} {
		_, m, err := k.do(ctx, http.MethodGet, "/v3/"+coll, nil, http.StatusOK)
		if err != nil {
			return nil, err
		}
		objs, _ := m[coll].([]any)
		for _, o := range objs {
			name, _ := o.(map[string]any)["name"].(string)
			if strings.HasPrefix(name, prefix+"-") {
				left = append(left, strings.TrimSuffix(coll, "s")+" "+name)
			}
		}
	}
	return left, nil
}
