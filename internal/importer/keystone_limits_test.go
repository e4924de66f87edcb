package importer

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone/keystonetest"
)

// Registered limits belong to no domain: listed without --domain, with the marker read from
// the description's last line and the spec's description the rest.
func TestKeystoneImportRegisteredLimits(t *testing.T) {
	answers := map[string]keystonetest.Answer{
		"GET domains":  {Body: `{"domains": [{"id": "default", "name": "Default", "enabled": true}]}`},
		"GET projects": {Body: `{"projects": []}`},
		"GET registered_limits": {Body: `{"registered_limits": [
			{"id": "rc", "service_id": "sc", "region_id": null, "resource_name": "cores", "default_limit": 20, "description": "Default cores"},
			{"id": "rm", "service_id": "sc", "region_id": "RegionOne", "resource_name": "ram_mb", "default_limit": -1,
			 "description": "[provider-identity: ` + marker("mine", "RegisteredLimit.keystone.identity.m.crossplane.io/team-x/ram") + `]"}]}`},
		"GET limits": {Body: `{"limits": []}`},
	}
	objs, err := ListKeystone(context.Background(), &keystonetest.API{Answers: answers}, Filter{Kinds: []string{"registeredlimit", "limit"}})
	if err != nil {
		t.Fatal(err)
	}
	p, err := Build(objs, Target{Namespace: "team-x", Mode: ModeAdopt, ProviderConfigRef: &xpv2.ProviderConfigReference{Kind: "ClusterProviderConfig", Name: "keystone"}, Installation: "mine"})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range p.Files {
		got[f.Name] = string(f.Data)
	}
	want := map[string]string{"registeredlimit-cores.yaml": `# Written by kubectl identity import from Keystone registered limit "cores" (ID rc).
apiVersion: keystone.identity.m.crossplane.io/v1alpha1
kind: RegisteredLimit
metadata:
  annotations:
    crossplane.io/external-name: rc
  name: cores
  namespace: team-x
spec:
  adoptionPolicy: AdoptExisting
  forProvider:
    defaultLimit: 20
    description: Default cores
    resourceName: cores
    serviceId: sc
  providerConfigRef:
    kind: ClusterProviderConfig
    name: keystone
`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	wantSkips := []Skip{{Kind: "RegisteredLimit", Describe: `Keystone registered limit "ram_mb" (ID rm)`,
		Reason: "is already managed by this installation (resource RegisteredLimit.keystone.identity.m.crossplane.io/team-x/ram): skipped"}}
	if diff := cmp.Diff(wantSkips, p.Skipped, cmpEmpty()); diff != "" {
		t.Errorf("skipped (-want +got):\n%s", diff)
	}
}
