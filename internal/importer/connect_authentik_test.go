package importer

import (
	"context"
	"strings"
	"testing"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/authentiktest"
)

// An explicit authentik connection goes through the provider's factory with the token from
// the environment, never without one, and never when --system says otherwise.
func TestConnectAuthentikExplicit(t *testing.T) {
	e := authentiktest.New(t)
	cases := map[string]struct {
		src     Source
		wantErr string
	}{
		"Lists":       {src: Source{Authentik: &identityv1alpha1.AuthentikConfig{URL: e.URL}, Token: e.Server.Token(), InstallationID: "mine"}},
		"NoToken":     {src: Source{Authentik: &identityv1alpha1.AuthentikConfig{URL: e.URL}}, wantErr: "--authentik-url needs an API token: set it in the environment variable " + TokenEnv},
		"BadToken":    {src: Source{Authentik: &identityv1alpha1.AuthentikConfig{URL: e.URL}, Token: "wrong"}, wantErr: "cannot list authentik flows"},
		"WrongSystem": {src: Source{Authentik: &identityv1alpha1.AuthentikConfig{URL: e.URL}, Token: "x", System: "keystone"}, wantErr: "--system keystone does not match"},
		"TwoSystems":  {src: Source{Authentik: &identityv1alpha1.AuthentikConfig{URL: e.URL}, Token: "x", Keystone: &identityv1alpha1.KeystoneConfig{}}, wantErr: errTwoSystems},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c, err := connect(context.Background(), tc.src, "team-x", factories{keystone: &keystone.Factory{}, authentik: &authentik.Factory{}})
			if err == nil {
				_, err = c.list(context.Background(), Filter{Kinds: []string{"user"}, BuiltIn: true})
			}
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("connect and list: %v", err)
			case tc.wantErr != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.wantErr)):
				t.Fatalf("err = %v, want it to start with %q", err, tc.wantErr)
			case tc.wantErr == "" && c.installation != "mine":
				t.Errorf("installation = %q, want the --installation-id", c.installation)
			}
		})
	}
}
