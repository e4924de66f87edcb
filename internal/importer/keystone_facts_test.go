package importer

import (
	"context"
	"strings"
	"testing"

	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone/keystonetest"
)

// A membership list or the implied-role rules that cannot be read stop the import: it must
// never leave objects out quietly.
func TestKeystoneImportFactErrors(t *testing.T) {
	cases := map[string]struct {
		kind, call, want string
	}{
		"Members": {kind: "GroupMembership", call: "GET groups/gd/users", want: `cannot list Keystone users of group "devs" (ID gd)`},
		"Rules":   {kind: "ImpliedRole", call: "GET role_inferences", want: "cannot list Keystone implied-role rules"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			answers := team()
			answers[tc.call] = keystonetest.ServerError
			_, err := ListKeystone(context.Background(), &keystonetest.API{Answers: answers}, Filter{Domain: "team", Kinds: []string{tc.kind}})
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("err = %v, want it to start with %q", err, tc.want)
			}
		})
	}
}
