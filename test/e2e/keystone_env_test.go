//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"testing"

	"github.com/gophercloud/gophercloud/v2"
	"github.com/gophercloud/gophercloud/v2/openstack"
)

// keystoneEnv talks to Keystone directly, as an administrator would by hand: it makes the
// objects tests collide with and reads raw objects for byte-for-byte comparisons. Its requests
// are not counted as the provider's.
type keystoneEnv struct {
	sc *gophercloud.ServiceClient
}

func newKeystoneEnv(ctx context.Context) (*keystoneEnv, error) {
	pc, err := openstack.AuthenticatedClient(ctx, gophercloud.AuthOptions{
		IdentityEndpoint: os.Getenv("KEYSTONE_URL"),
		Username:         "admin", Password: os.Getenv("KEYSTONE_ADMIN_PASSWORD"), DomainName: "Default",
		Scope:       &gophercloud.AuthScope{ProjectName: "admin", DomainName: "Default"},
		AllowReauth: true,
	})
	if err != nil {
		return nil, err
	}
	sc, err := openstack.NewIdentityV3(pc, gophercloud.EndpointOpts{Region: "RegionOne"})
	return &keystoneEnv{sc: sc}, err
}

// tokenStatus asks Keystone for a token as a user would, outside the administrator's session,
// with auth as the "auth" object of POST /auth/tokens (identity, and scope if any), and returns
// the HTTP status.
func tokenStatus(t *testing.T, auth map[string]any) int {
	t.Helper()
	body, err := json.Marshal(map[string]any{"auth": auth})
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, os.Getenv("KEYSTONE_URL")+"/auth/tokens", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("cannot ask Keystone for a token: %v", err)
	}
	_ = resp.Body.Close()
	return resp.StatusCode
}

// raw returns the object at path exactly as Keystone serves it.
func (k *keystoneEnv) raw(t *testing.T, path ...string) json.RawMessage {
	t.Helper()
	var out json.RawMessage
	if _, err := k.sc.Get(context.Background(), k.sc.ServiceURL(path...), &out, nil); err != nil {
		t.Fatalf("cannot GET %v from Keystone: %v", path, err)
	}
	return out
}

// exists reports whether GET path answers 200 (false on 404).
func (k *keystoneEnv) exists(t *testing.T, path ...string) bool {
	t.Helper()
	_, err := k.sc.Get(context.Background(), k.sc.ServiceURL(path...), nil, nil)
	if gophercloud.ResponseCodeIs(err, http.StatusNotFound) {
		return false
	}
	if err != nil {
		t.Fatalf("cannot GET %v from Keystone: %v", path, err)
	}
	return true
}

// post creates an object by hand and returns its ID.
func (k *keystoneEnv) post(t *testing.T, collection, singular string, body map[string]any) string {
	t.Helper()
	var out map[string]map[string]any
	if _, err := k.sc.Post(context.Background(), k.sc.ServiceURL(collection), map[string]any{singular: body}, &out, &gophercloud.RequestOpts{OkCodes: []int{201}}); err != nil {
		t.Fatalf("cannot create %s by hand: %v", singular, err)
	}
	return out[singular]["id"].(string)
}

// patch changes an object by hand.
func (k *keystoneEnv) patch(t *testing.T, collection, singular, id string, body map[string]any) {
	t.Helper()
	if _, err := k.sc.Patch(context.Background(), k.sc.ServiceURL(collection, id), map[string]any{singular: body}, nil, &gophercloud.RequestOpts{OkCodes: []int{200}}); err != nil {
		t.Fatalf("cannot patch %s %s by hand: %v", singular, id, err)
	}
}

// del deletes an object by hand, ignoring 404.
func (k *keystoneEnv) del(t *testing.T, path ...string) {
	t.Helper()
	_, err := k.sc.Delete(context.Background(), k.sc.ServiceURL(path...), nil)
	if err != nil && !gophercloud.ResponseCodeIs(err, http.StatusNotFound) {
		t.Fatalf("cannot delete %v by hand: %v", path, err)
	}
}

// delRule deletes the implied-role rule "prior implies implied" by hand, if it still exists.
// Delete a hand-made rule before either of its roles: on sqlite (these tests' Keystone)
// Keystone deletes a role without its rules, and GET /v3/role_inferences then fails on the
// rule left behind with a 500 that uwsgi's HTTP router never delivers. Every later Role
// deletion of the run, whose guard lists the rules, then waits out its deadline.
func (k *keystoneEnv) delRule(t *testing.T, prior, implied string) {
	t.Helper()
	k.del(t, "roles", prior, "implies", implied)
}

// deleteDomain disables then deletes a hand-made domain, if it still exists.
func (k *keystoneEnv) deleteDomain(t *testing.T, id string) {
	t.Helper()
	_, err := k.sc.Patch(context.Background(), k.sc.ServiceURL("domains", id), map[string]any{"domain": map[string]any{"enabled": false}}, nil, &gophercloud.RequestOpts{OkCodes: []int{200}})
	if gophercloud.ResponseCodeIs(err, http.StatusNotFound) {
		return
	}
	if err != nil {
		t.Fatalf("cannot disable domain %s: %v", id, err)
	}
	k.del(t, "domains", id)
}

// field decodes one top-level field of a raw object in its envelope.
func field(t *testing.T, raw json.RawMessage, singular, key string) any {
	t.Helper()
	var m map[string]map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("cannot decode %s: %v", raw, err)
	}
	return m[singular][key]
}
