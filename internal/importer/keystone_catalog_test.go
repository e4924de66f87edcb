package importer

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone/keystonetest"
)

// catalog is a Keystone with no domain of note and a hand-made catalog: a region inside
// another, a service with an endpoint in the child region and one in no region, and a
// service another installation manages.
func catalog() map[string]keystonetest.Answer {
	return map[string]keystonetest.Answer{
		"GET domains":                    {Body: `{"domains": [{"id": "default", "name": "Default", "enabled": true}]}`},
		"GET projects":                   {Body: `{"projects": []}`},
		"GET projects?domain_id=default": {Body: `{"projects": []}`},
		"GET regions": {Body: `{"regions": [{"id": "world", "description": ""},
			{"id": "east", "parent_region_id": "world", "description": "East coast"}]}`},
		"GET services": {Body: `{"services": [{"id": "s1", "type": "compute", "name": "nova", "description": "", "enabled": true},
			{"id": "s2", "type": "image", "name": "glance", "enabled": true, "crossplane_provenance": "` + marker("other", "Service.keystone.identity.m.crossplane.io/ns/glance") + `"}]}`},
		"GET endpoints": {Body: `{"endpoints": [
			{"id": "e1", "service_id": "s1", "interface": "public", "url": "https://nova.example.com", "region_id": "east", "enabled": true},
			{"id": "e2", "service_id": "s1", "interface": "internal", "url": "http://nova.internal", "enabled": false}]}`},
	}
}

const wantEndpointObserve = `# Written by kubectl identity import from Keystone endpoint "nova-public-east" (ID e1).
apiVersion: keystone.identity.m.crossplane.io/v1alpha1
kind: Endpoint
metadata:
  annotations:
    crossplane.io/external-name: e1
  name: nova-public-east
  namespace: ops
spec:
  forProvider:
    enabled: true
    interface: public
    regionRef:
      name: east
    serviceRef:
      name: nova
    url: https://nova.example.com
  managementPolicies:
  - Observe
  providerConfigRef:
    kind: ClusterProviderConfig
    name: keystone
`

func TestKeystoneImportCatalog(t *testing.T) {
	pc := &xpv2.ProviderConfigReference{Kind: "ClusterProviderConfig", Name: "keystone"}
	target := Target{Namespace: "ops", Mode: ModeObserve, ProviderConfigRef: pc, Installation: "mine"}
	foreign := Skip{Kind: "Service", Describe: `Keystone service "glance" (ID s2)`, Refused: true,
		Reason: `carries the provenance marker of another installation, "other" (resource Service.keystone.identity.m.crossplane.io/ns/glance): it is that installation's to manage, and no manifest was written for it`}
	cases := map[string]struct {
		filter    Filter
		wantFiles []string
		wantSkips []Skip
		wantText  map[string]string
	}{
		"Catalog": {
			filter:    Filter{Kinds: []string{"region", "service", "endpoint"}},
			wantFiles: []string{"endpoint-nova-internal.yaml", "endpoint-nova-public-east.yaml", "region-east.yaml", "region-world.yaml", "service-nova.yaml"},
			wantSkips: []Skip{foreign},
			wantText:  map[string]string{"endpoint-nova-public-east.yaml": wantEndpointObserve},
		},
		"EndpointsAlone": {
			filter:    Filter{Kinds: []string{"endpoint"}, Name: "nova-internal"},
			wantFiles: []string{"endpoint-nova-internal.yaml"},
		},
		"ADomainHasNoCatalog": {
			filter:    Filter{Domain: "Default", Kinds: []string{"region", "service", "endpoint"}},
			wantFiles: []string{},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			objs, err := ListKeystone(context.Background(), &keystonetest.API{Answers: catalog()}, tc.filter)
			if err != nil {
				t.Fatal(err)
			}
			p, err := Build(objs, target)
			if err != nil {
				t.Fatal(err)
			}
			names := []string{}
			for _, f := range p.Files {
				names = append(names, f.Name)
				if want, ok := tc.wantText[f.Name]; ok {
					if diff := cmp.Diff(want, string(f.Data)); diff != "" {
						t.Errorf("%s (-want +got):\n%s", f.Name, diff)
					}
				}
			}
			if diff := cmp.Diff(tc.wantFiles, names); diff != "" {
				t.Errorf("files (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantSkips, p.Skipped, cmpEmpty()); diff != "" {
				t.Errorf("skipped (-want +got):\n%s", diff)
			}
		})
	}
}

// A failed catalog list fails the import: it must not quietly leave objects out.
func TestKeystoneImportCatalogListFails(t *testing.T) {
	for _, path := range []string{"GET regions", "GET services", "GET endpoints"} {
		answers := catalog()
		answers[path] = keystonetest.ServerError
		_, err := ListKeystone(context.Background(), &keystonetest.API{Answers: answers}, Filter{Kinds: []string{"region", "service", "endpoint"}})
		if want := "cannot list Keystone " + strings.TrimPrefix(path, "GET ") + ": "; err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "Oops.") {
			t.Errorf("%s failing: got %v, want an error containing %q and Keystone's answer", path, err, want)
		}
	}
}
