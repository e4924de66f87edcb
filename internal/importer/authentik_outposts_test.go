package importer

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/authentiktest"
)

// LDAP providers and outposts: an LDAP outpost names its provider by reference when the
// provider is imported too, by ID when not; the embedded outpost is authentik's (left out
// unless asked); RADIUS outposts serve providers this provider does not manage.
func TestAuthentikImportOutposts(t *testing.T) {
	e := authentiktest.New(t)
	dir := akSeed(t, e, "providers/ldap", map[string]any{"name": "directory", "base_dn": "DC=example,DC=com", "bind_mode": "cached"})
	akSeed(t, e, "outposts/instances", map[string]any{"name": "ldap-edge", "type": "ldap", "providers": []any{dir},
		"config": map[string]any{"log_level": "debug", "authentik_host": "https://auth.example.com", "kubernetes_replicas": 2}})
	akSeed(t, e, "outposts/instances", map[string]any{"name": "radius", "type": "radius", "providers": []any{}, "config": map[string]any{}})
	emb := embeddedOutpost(t, e)

	cases := map[string]struct {
		filter    Filter
		wantFiles []string
		wantSkips []Skip
		wantText  map[string][]string
	}{
		"ProviderAndOutpost": {
			filter:    Filter{Kinds: []string{"LDAPProvider", "Outpost"}},
			wantFiles: []string{"ldapprovider-directory.yaml", "outpost-ldap-edge.yaml"},
			wantSkips: []Skip{
				{Kind: "Outpost", Describe: `authentik outpost "authentik Embedded Outpost" (ID ` + emb + `)`, Reason: skipEmbedded},
				{Kind: "Outpost", Describe: `authentik outpost "radius" (ID <radius>)`, Reason: "is a radius outpost: this provider manages proxy and LDAP outposts only; skipped"},
			},
			wantText: map[string][]string{
				"ldapprovider-directory.yaml": {"authorizationFlow: default-provider-authorization-implicit-consent", "baseDn: DC=example,DC=com", "bindMode: cached"},
				"outpost-ldap-edge.yaml":      {"ldapProviderRefs:\n    - name: directory", "logLevel: debug", "authentikHost: https://auth.example.com", "type: ldap"},
			},
		},
		"OutpostAlone": {
			filter:    Filter{Kinds: []string{"Outpost"}, Name: "ldap-edge"},
			wantFiles: []string{"outpost-ldap-edge.yaml"},
			wantText:  map[string][]string{"outpost-ldap-edge.yaml": {"ldapProviderIds:\n    - \"" + dir + "\""}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			objs, err := ListAuthentik(context.Background(), e.Client.API, tc.filter)
			if err != nil {
				t.Fatal(err)
			}
			p, err := Build(objs, Target{Namespace: "team-x", Mode: ModeObserve, Installation: "mine"})
			if err != nil {
				t.Fatal(err)
			}
			names := []string{}
			for _, f := range p.Files {
				names = append(names, f.Name)
				for _, w := range tc.wantText[f.Name] {
					if !strings.Contains(string(f.Data), w) {
						t.Errorf("%s does not contain %q:\n%s", f.Name, w, f.Data)
					}
				}
			}
			if diff := cmp.Diff(tc.wantFiles, names); diff != "" {
				t.Errorf("files (-want +got):\n%s", diff)
			}
			for i := range p.Skipped {
				if strings.Contains(p.Skipped[i].Describe, `"radius"`) {
					p.Skipped[i].Describe = `authentik outpost "radius" (ID <radius>)`
				}
			}
			if diff := cmp.Diff(tc.wantSkips, p.Skipped, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("skipped (-want +got):\n%s", diff)
			}
		})
	}
}
