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
	"regexp"
	"strings"
	"time"
)

// authentikAdmin talks to the authentik API server directly (not through the counting proxy),
// for the floor and for what the bench itself needs: the hand-made drift and the check that the
// delete left nothing behind. Standard library only, like ksfloor.
type authentikAdmin struct {
	base  string // the server's root, e.g. http://127.0.0.1:9000 (without /api/v3)
	token string
	hc    *http.Client
}

const authentikAPI = "/api/v3"

func newAuthentikAdmin(base, token string) *authentikAdmin {
	return &authentikAdmin{
		base: strings.TrimSuffix(strings.TrimSuffix(base, "/"), authentikAPI), token: token,
		// Keep-alive connections for the floor's 10 clients, so that it measures the server.
		hc: &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{MaxIdleConns: 64, MaxIdleConnsPerHost: 64}},
	}
}

// do sends one request to path below /api/v3 and decodes a JSON object response into a map;
// any status but want is an error naming the request.
func (a *authentikAdmin) do(ctx context.Context, method, path string, body any, want int) (map[string]any, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, a.base+authentikAPI+path, rd)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Authorization", "Bearer "+a.token)
	resp, err := a.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("authentik %s %s: %w", method, path, err)
	}
	raw, err := io.ReadAll(resp.Body)
	if err = errors.Join(err, resp.Body.Close()); err != nil {
		return nil, fmt.Errorf("authentik %s %s: reading the response: %w", method, path, err)
	}
	if resp.StatusCode != want {
		return nil, fmt.Errorf("authentik %s %s: status %d, want %d: %s", method, path, resp.StatusCode, want, strings.TrimSpace(string(raw)))
	}
	var m map[string]any
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &m); err != nil {
			return nil, fmt.Errorf("authentik %s %s: the response is not a JSON object: %w", method, path, err)
		}
	}
	return m, nil
}

// list returns every object of a list endpoint (path ends in /), following its pages.
func (a *authentikAdmin) list(ctx context.Context, path string, query url.Values) ([]map[string]any, error) {
	var out []map[string]any
	q := url.Values{}
	for k, v := range query {
		q[k] = v
	}
	q.Set("page_size", "500")
	for page := 1; ; page++ {
		q.Set("page", fmt.Sprint(page))
		m, err := a.do(ctx, http.MethodGet, path+"?"+q.Encode(), nil, http.StatusOK)
		if err != nil {
			return nil, err
		}
		rs, _ := m["results"].([]any)
		for _, r := range rs {
			if o, ok := r.(map[string]any); ok {
				out = append(out, o)
			}
		}
		pg, _ := m["pagination"].(map[string]any)
		if next, _ := pg["next"].(float64); next == 0 {
			return out, nil
		}
	}
}

// one is the single object a filtered list finds; none or several is an error naming the filter.
func (a *authentikAdmin) one(ctx context.Context, path string, query url.Values) (map[string]any, error) {
	objs, err := a.list(ctx, path, query)
	if err != nil {
		return nil, err
	}
	if len(objs) != 1 {
		return nil, fmt.Errorf("authentik %s?%s: %d objects, want exactly 1", path, query.Encode(), len(objs))
	}
	return objs[0], nil
}

// leftovers lists the objects whose name (or slug) has the prefix: applications, OAuth2
// providers, groups.
func (a *authentikAdmin) leftovers(ctx context.Context, prefix string) ([]string, error) {
	var left []string
	for _, c := range []struct{ path, key, what string }{
		{"/core/applications/", "slug", "application"}, {"/providers/oauth2/", "name", "oauth2 provider"}, {"/core/groups/", "name", "group"},
	} {
		objs, err := a.list(ctx, c.path, nil)
		if err != nil {
			return nil, err
		}
		for _, o := range objs {
			if v, _ := o[c.key].(string); strings.HasPrefix(v, prefix+"-") {
				left = append(left, c.what+" "+v)
			}
		}
	}
	return left, nil
}

// authentikSegment is a path segment that names one object: a UUID (groups, flows, mappings)
// or an integer primary key (providers).
var authentikSegment = regexp.MustCompile(`^([0-9]+|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$`)

// authentikTemplate is pathTemplate for authentik's paths: UUIDs and integer keys become {id},
// and an application's slug (the segment after /core/applications/) becomes {slug}, so that N
// applications count as one line. Query handling is pathTemplate's.
func authentikTemplate(method, rawPath, rawQuery string) string {
	segs := strings.Split(rawPath, "/")
	for i, s := range segs {
		switch {
		case authentikSegment.MatchString(s):
			segs[i] = "{id}"
		case i >= 2 && segs[i-2] == "core" && segs[i-1] == "applications" && s != "":
			segs[i] = "{slug}"
		}
	}
	return pathTemplate(method, strings.Join(segs, "/"), rawQuery)
}
