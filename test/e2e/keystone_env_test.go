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

// The tests' Keystone enforces sqlite's foreign keys (hack/keystone-wsgi.py) as MySQL does, so
// what Keystone leaves to ON DELETE CASCADE goes: here a role deleted by hand takes its
// implied-role rules with it. Without them the rule stays behind pointing at no role (Keystone
// then answers 404 for the prior role's rules and fails GET /v3/role_inferences), and a deleted
// user's application credentials leave rows that fail a later user's first credential.
func TestKeystoneEnforcesForeignKeys(t *testing.T) {
	t.Parallel()
	prior := keystone.post(t, "roles", "role", map[string]any{"name": "e2e-fk-prior"})
	t.Cleanup(func() { keystone.del(t, "roles", prior) })
	implied := keystone.post(t, "roles", "role", map[string]any{"name": "e2e-fk-implied"})
	if _, err := keystone.sc.Put(context.Background(), keystone.sc.ServiceURL("roles", prior, "implies", implied), nil, nil,
		&gophercloud.RequestOpts{OkCodes: []int{http.StatusCreated}}); err != nil {
		t.Fatalf("cannot add an implied-role rule by hand: %v", err)
	}
	keystone.del(t, "roles", implied)

	var out struct {
		Inference struct {
			Implies []json.RawMessage `json:"implies"`
		} `json:"role_inference"`
	}
	if _, err := keystone.sc.Get(context.Background(), keystone.sc.ServiceURL("roles", prior, "implies"), &out, nil); err != nil {
		t.Fatalf("the rule outlived its implied role (Keystone runs without sqlite's foreign keys: see hack/keystone-wsgi.py): %v", err)
	}
	if len(out.Inference.Implies) != 0 {
		t.Errorf("the rule outlived its implied role: %s", out.Inference.Implies)
	}
}
