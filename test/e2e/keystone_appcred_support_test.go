//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/gophercloud/gophercloud/v2"
	"github.com/gophercloud/gophercloud/v2/openstack"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/yaml"
)

// appCredUser is a user made by hand with a password and roles on a project made by hand.
type appCredUser struct {
	ID, Password, ProjectID string
}

// handAppCredUser makes a user with the given roles (by name) on a new project; both are deleted
// when the test ends (Keystone deletes the user's application credentials with it).
func handAppCredUser(t *testing.T, name string, roles ...string) appCredUser {
	t.Helper()
	u := appCredUser{Password: "pw-" + name + "-Secret1"}
	u.ProjectID = keystone.post(t, "projects", "project", map[string]any{"name": name, "domain_id": "default"})
	u.ID = keystone.post(t, "users", "user", map[string]any{"name": name, "domain_id": "default", "password": u.Password})
	t.Cleanup(func() {
		keystone.del(t, "users", u.ID)
		keystone.del(t, "projects", u.ProjectID)
	})
	for _, r := range roles {
		id := roleID(t, r)
		if _, err := keystone.sc.Put(context.Background(), keystone.sc.ServiceURL("projects", u.ProjectID, "users", u.ID, "roles", id), nil, nil,
			&gophercloud.RequestOpts{OkCodes: []int{204}}); err != nil {
			t.Fatalf("cannot give role %s to user %s: %v", r, name, err)
		}
	}
	return u
}

// roleID finds a global role by name.
func roleID(t *testing.T, name string) string {
	t.Helper()
	var out struct {
		Roles []struct {
			ID string `json:"id"`
		} `json:"roles"`
	}
	if _, err := keystone.sc.Get(context.Background(), keystone.sc.ServiceURL("roles")+"?name="+name, &out, nil); err != nil || len(out.Roles) != 1 {
		t.Fatalf("cannot find role %s: %v (%d found)", name, err, len(out.Roles))
	}
	return out.Roles[0].ID
}

// client logs in as the user on its project, as the user would by hand.
func (u appCredUser) client(t *testing.T) *gophercloud.ServiceClient {
	t.Helper()
	pc, err := openstack.AuthenticatedClient(context.Background(), gophercloud.AuthOptions{
		IdentityEndpoint: os.Getenv("KEYSTONE_URL"), UserID: u.ID, Password: u.Password,
		Scope: &gophercloud.AuthScope{ProjectID: u.ProjectID},
	})
	if err != nil {
		t.Fatalf("cannot log in as user %s: %v", u.ID, err)
	}
	sc, err := openstack.NewIdentityV3(pc, gophercloud.EndpointOpts{Region: "RegionOne"})
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// handAppCred creates an application credential by hand, as the user, and returns its ID.
func (u appCredUser) handAppCred(t *testing.T, body map[string]any) string {
	t.Helper()
	sc := u.client(t)
	var out map[string]map[string]any
	if _, err := sc.Post(context.Background(), sc.ServiceURL("users", u.ID, "application_credentials"), map[string]any{"application_credential": body}, &out,
		&gophercloud.RequestOpts{OkCodes: []int{201}}); err != nil {
		t.Fatalf("cannot create an application credential by hand: %v", err)
	}
	return out["application_credential"]["id"].(string)
}

// appCredPath is the path of a user's application credential.
func appCredPath(userID, id string) []string {
	return []string{"users", userID, "application_credentials", id}
}

// appCredSecret reads a connection Secret; nil when it cannot be read.
func appCredSecret(ns, name string) map[string][]byte {
	s := &corev1.Secret{}
	if err := kube.Get(context.Background(), types.NamespacedName{Namespace: ns, Name: name}, s); err != nil {
		return nil
	}
	return s.Data
}

// cloudsYAMLAuthenticates checks that a published clouds.yaml names auth type
// v3applicationcredential at the ProviderConfig's Keystone and that its credential gets a token
// (POST /v3/auth/tokens with the application_credential method); it returns the HTTP status.
func cloudsYAMLAuthenticates(t *testing.T, data map[string][]byte) int {
	t.Helper()
	var c struct {
		Clouds map[string]struct {
			AuthType string `json:"auth_type"`
			Auth     struct {
				AuthURL string `json:"auth_url"`
				ID      string `json:"application_credential_id"`
				Secret  string `json:"application_credential_secret"`
			} `json:"auth"`
		} `json:"clouds"`
	}
	if err := yaml.Unmarshal(data["clouds.yaml"], &c); err != nil {
		t.Fatalf("cannot read clouds.yaml: %v", err)
	}
	cloud, ok := c.Clouds["openstack"]
	switch {
	case !ok:
		t.Fatalf("clouds.yaml has no cloud openstack: %s", data["clouds.yaml"])
	case cloud.AuthType != "v3applicationcredential" || cloud.Auth.AuthURL != os.Getenv("KEYSTONE_URL"):
		t.Errorf("clouds.yaml: auth_type %q, auth_url %q", cloud.AuthType, cloud.Auth.AuthURL)
	case cloud.Auth.ID != string(data["id"]) || cloud.Auth.Secret != string(data["secret"]):
		t.Errorf("clouds.yaml's credential differs from the Secret's id and secret")
	}
	return appCredToken(t, cloud.Auth.ID, cloud.Auth.Secret)
}

// appCredToken asks Keystone for a token with an application credential.
func appCredToken(t *testing.T, id, secret string) int {
	t.Helper()
	return tokenStatus(t, map[string]any{"identity": map[string]any{"methods": []string{"application_credential"},
		"application_credential": map[string]any{"id": id, "secret": secret}}})
}

// idByName finds the ID of the one user or project of the Default domain with the name.
func idByName(t *testing.T, collection, name string) string {
	t.Helper()
	var out map[string]json.RawMessage
	if _, err := keystone.sc.Get(context.Background(), keystone.sc.ServiceURL(collection)+"?domain_id=default&name="+name, &out, nil); err != nil {
		t.Fatalf("cannot find %s %s: %v", collection, name, err)
	}
	var found []struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(out[collection], &found); err != nil || len(found) != 1 {
		t.Fatalf("cannot find %s %s: %v (%d found)", collection, name, err, len(found))
	}
	return found[0].ID
}
