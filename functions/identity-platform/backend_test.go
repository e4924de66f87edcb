package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	fnv1 "github.com/crossplane/function-sdk-go/proto/v1"
)

func backendRequest(t *testing.T, spec map[string]any, observed map[string]map[string]any) *fnv1.RunFunctionRequest {
	t.Helper()
	xr := map[string]any{
		"apiVersion": "platform.identity.crossplane.io/v1alpha1", "kind": "KeystoneIdentityBackend",
		"metadata": map[string]any{"name": "corp", "namespace": "identity"},
		"spec":     spec,
	}
	req := &fnv1.RunFunctionRequest{
		Input: obj(t, map[string]any{"apiVersion": "platform.fn.identity.crossplane.io/v1beta1", "kind": "Input",
			"keystoneIdentityBackend": map[string]any{"domainResource": "domain"}}),
		Observed: &fnv1.State{Composite: &fnv1.Resource{Resource: obj(t, xr)}, Resources: map[string]*fnv1.Resource{}},
		Desired:  &fnv1.State{Resources: map[string]*fnv1.Resource{}},
	}
	for n, o := range observed {
		req.Observed.Resources[n] = &fnv1.Resource{Resource: obj(t, o)}
	}
	return req
}

func ldapSpec() map[string]any {
	return map[string]any{
		"keystoneRef": map[string]any{"name": "keystone"},
		"type":        "LDAP",
		"domain":      map[string]any{"name": "corp", "mode": "Manage", "deletionPolicy": "Retain"},
		"ldap": map[string]any{
			"url": "ldap://127.0.0.1:3890", "suffix": "dc=example,dc=com", "readOnly": true,
			"bindCredentialsSecretRef": map[string]any{"name": "corp-ldap-bind"},
			"users":                    map[string]any{"treeDN": "ou=people,dc=example,dc=com", "idAttribute": "uid"},
			"extraOptions":             map[string]any{"page_size": "100"},
		},
	}
}

func oidcSpec() map[string]any {
	return map[string]any{
		"keystoneRef": map[string]any{"name": "keystone"},
		"type":        "OIDC",
		"domain":      map[string]any{"name": "cobaltcore", "mode": "Manage"},
		"oidc":        map[string]any{"issuer": "https://sso.example.com/application/o/keystone/", "protocolID": "openid"},
		"mappings": []any{map[string]any{
			"remote": []any{map[string]any{"type": "HTTP_OIDC_ISS", "anyOneOf": []any{"https://sso.example.com/application/o/keystone/"}},
				map[string]any{"type": "HTTP_OIDC_PREFERRED_USERNAME"}},
			"local": []any{map[string]any{"user": map[string]any{"name": "{0}"},
				"group": map[string]any{"name": "federated-users", "domain": map[string]any{"name": "cobaltcore"}}}},
		}},
		"groups": []any{map[string]any{"name": "federated-users", "roleAssignments": []any{
			map[string]any{"role": "member", "domain": true},
			map[string]any{"role": "reader", "project": map[string]any{"name": "ops", "domainName": "Shared"}},
		}}},
	}
}

func desiredSpec(t *testing.T, rsp *fnv1.RunFunctionResponse, name string) map[string]any {
	t.Helper()
	r, ok := rsp.GetDesired().GetResources()[name]
	if !ok {
		t.Fatalf("no desired resource %q; have %v", name, desiredNames(rsp))
	}
	return r.GetResource().AsMap()
}

func TestBackendLDAP(t *testing.T) {
	rsp := run(t, backendRequest(t, ldapSpec(), nil))
	if diff := cmp.Diff([]string{"domain", "domainconfig"}, desiredNames(rsp)); diff != "" {
		t.Errorf("desired (-want +got):\n%s", diff)
	}
	dc := desiredSpec(t, rsp, "domainconfig")
	want := map[string]any{
		"apiVersion": keystoneAPIVersion, "kind": "DomainConfig",
		"metadata": map[string]any{"name": "corp-config", "namespace": "identity"},
		"spec": map[string]any{
			"providerConfigRef": map[string]any{"kind": "ClusterProviderConfig", "name": "keystone"},
			"forProvider": map[string]any{
				"domainRef": map[string]any{"name": "corp-domain"},
				"ldap": map[string]any{
					"url": "ldap://127.0.0.1:3890", "suffix": "dc=example,dc=com", "readOnly": true,
					// By name only: a namespaced DomainConfig reads its own namespace's Secrets.
					"bindCredentialsSecretRef": map[string]any{"name": "corp-ldap-bind"},
					"users":                    map[string]any{"treeDN": "ou=people,dc=example,dc=com", "idAttribute": "uid"},
					"extraOptions":             map[string]any{"page_size": "100"},
				},
			},
		},
	}
	if diff := cmp.Diff(want, dc); diff != "" {
		t.Errorf("DomainConfig (-want +got):\n%s", diff)
	}
	c := conds(rsp)
	if diff := cmp.Diff(map[string]cond{
		TypeDomainReady:     {TypeDomainReady, "False", ReasonDomainPending},
		TypeConfigProjected: {TypeConfigProjected, "False", ReasonWaitingForProjection},
		TypeBackendReady:    {TypeBackendReady, "False", ReasonNotAllReady},
	}, c); diff != "" {
		t.Errorf("conditions (-want +got):\n%s", diff)
	}
	if rsp.GetDesired().GetComposite().GetReady() != fnv1.Ready_READY_FALSE {
		t.Errorf("the XR must not be Ready while BackendReady is False")
	}
}

func TestBackendLDAPAllReady(t *testing.T) {
	rsp := run(t, backendRequest(t, ldapSpec(), map[string]map[string]any{
		"domain":       readyObj("Domain", "corp-domain", true),
		"domainconfig": readyObj("DomainConfig", "corp-config", true),
	}))
	if diff := cmp.Diff(map[string]cond{
		TypeDomainReady:     {TypeDomainReady, "True", ReasonDomainProvisioned},
		TypeConfigProjected: {TypeConfigProjected, "True", ReasonConfigProjected},
		TypeBackendReady:    {TypeBackendReady, "True", ReasonAllReady},
	}, conds(rsp)); diff != "" {
		t.Errorf("conditions (-want +got):\n%s", diff)
	}
	if got := rsp.GetDesired().GetResources()["domainconfig"].GetReady(); got != fnv1.Ready_READY_TRUE {
		t.Errorf("domainconfig ready: got %v", got)
	}
	if rsp.GetDesired().GetComposite().GetReady() == fnv1.Ready_READY_FALSE {
		t.Errorf("the XR must not be held back once every condition is True")
	}
}

func TestBackendNeedsNamespace(t *testing.T) {
	req := backendRequest(t, ldapSpec(), nil)
	meta := req.GetObserved().GetComposite().GetResource().GetFields()["metadata"].GetStructValue()
	delete(meta.GetFields(), "namespace")
	rsp, err := (&Function{}).RunFunction(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(rsp.GetResults()) != 1 || rsp.GetResults()[0].GetSeverity() != fnv1.Severity_SEVERITY_FATAL {
		t.Fatalf("want a fatal result for a cluster-scoped backend, got %v", rsp.GetResults())
	}
}

// The Domain: Manage creates it and keeps or deletes it per spec.domain.deletionPolicy
// (management policies: namespaced resources have no deletionPolicy); Adopt only observes it.
func TestBackendDomain(t *testing.T) {
	retain := []any{"Observe", "Create", "Update", "LateInitialize"}
	cases := map[string]struct {
		mode, deletionPolicy string
		wantPolicies         []any
		wantAdoption         string
	}{
		"ManageRetain":   {"Manage", "Retain", retain, "FailOnConflict"},
		"ManageDefault":  {"Manage", "", retain, "FailOnConflict"},
		"ManageDelete":   {"Manage", "Delete", []any{"*"}, "FailOnConflict"},
		"AdoptDelete":    {"Adopt", "Delete", []any{"Observe"}, "AdoptExisting"},
		"AdoptNoDefault": {"Adopt", "", []any{"Observe"}, "AdoptExisting"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			spec := ldapSpec()
			spec["domain"] = map[string]any{"name": "corp", "mode": tc.mode, "description": "Corporate"}
			if tc.deletionPolicy != "" {
				spec["domain"].(map[string]any)["deletionPolicy"] = tc.deletionPolicy
			}
			got := desiredSpec(t, run(t, backendRequest(t, spec, nil)), "domain")
			want := map[string]any{
				"apiVersion": keystoneAPIVersion, "kind": "Domain",
				"metadata": map[string]any{"name": "corp-domain", "namespace": "identity"},
				"spec": map[string]any{
					"providerConfigRef":  map[string]any{"kind": "ClusterProviderConfig", "name": "keystone"},
					"managementPolicies": tc.wantPolicies,
					"adoptionPolicy":     tc.wantAdoption,
					"forProvider":        map[string]any{"name": "corp", "description": "Corporate", "enabled": true},
				},
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Domain (-want +got):\n%s", diff)
			}
		})
	}
}

func TestBackendDomainStatus(t *testing.T) {
	d := readyObj("Domain", "corp-domain", true)
	d["status"].(map[string]any)["atProvider"] = map[string]any{"id": "d0m41n"}
	rsp := run(t, backendRequest(t, ldapSpec(), map[string]map[string]any{"domain": d}))
	st := rsp.GetDesired().GetComposite().GetResource().AsMap()["status"]
	if diff := cmp.Diff(map[string]any{"domainID": "d0m41n", "domainRef": "corp-domain"}, st); diff != "" {
		t.Errorf("XR status (-want +got):\n%s", diff)
	}
}

func TestBackendBadDeletionPolicy(t *testing.T) {
	spec := ldapSpec()
	spec["domain"].(map[string]any)["deletionPolicy"] = "Orphan"
	rsp, err := (&Function{}).RunFunction(t.Context(), backendRequest(t, spec, nil))
	if err != nil {
		t.Fatal(err)
	}
	if len(rsp.GetResults()) != 1 || rsp.GetResults()[0].GetSeverity() != fnv1.Severity_SEVERITY_FATAL {
		t.Fatalf("want a fatal result for deletionPolicy Orphan, got %v", rsp.GetResults())
	}
}

func TestBackendDomainConditions(t *testing.T) {
	failing := func(reason, msg string) map[string]any {
		o := readyObj("Domain", "corp-domain", false)
		o["status"].(map[string]any)["conditions"] = []any{
			map[string]any{"type": "Synced", "status": "False", "reason": "ReconcileError", "message": msg},
			map[string]any{"type": "Ready", "status": "False", "reason": reason},
		}
		return o
	}
	cases := map[string]struct {
		mode   string
		domain map[string]any
		want   cond
	}{
		"Adopted":       {"Adopt", readyObj("Domain", "d", true), cond{TypeDomainReady, "True", ReasonDomainAdopted}},
		"AlreadyExists": {"Manage", failing(ReasonAdoptionRequired, "domain corp exists"), cond{TypeDomainReady, "False", ReasonDomainAlreadyExists}},
		"NoKeystone":    {"Manage", failing("Creating", `cannot get ProviderConfig "keystone": not found`), cond{TypeDomainReady, "False", ReasonKeystoneNotFound}},
		"AdoptMissing":  {"Adopt", failing("Creating", "external resource does not exist"), cond{TypeDomainReady, "False", ReasonDomainNotFound}},
		"APIError":      {"Manage", failing("Creating", "keystone answered 500"), cond{TypeDomainReady, "False", ReasonIdentityAPIError}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			spec := ldapSpec()
			spec["domain"].(map[string]any)["mode"] = tc.mode
			rsp := run(t, backendRequest(t, spec, map[string]map[string]any{"domain": tc.domain}))
			if diff := cmp.Diff(tc.want, conds(rsp)[TypeDomainReady]); diff != "" {
				t.Errorf("DomainReady (-want +got):\n%s", diff)
			}
		})
	}
}

func TestBackendOIDC(t *testing.T) {
	rsp := run(t, backendRequest(t, oidcSpec(), nil))
	want := []string{
		"domain",
		"domain-shared-" + slug("Shared")[len("shared-"):],
		"domain-shared-" + slug("Shared")[len("shared-"):] + "-project-ops",
		"group-federated-users",
		"group-federated-users-role-member-domain",
		"group-federated-users-role-reader-domain-shared-" + slug("Shared")[len("shared-"):] + "-project-ops",
		"identityprovider", "mapping", "protocol", "role-member", "role-reader",
	}
	if diff := cmp.Diff(want, desiredNames(rsp)); diff != "" {
		t.Errorf("desired (-want +got):\n%s", diff)
	}
	idp := desiredSpec(t, rsp, "identityprovider")["spec"].(map[string]any)["forProvider"]
	if diff := cmp.Diff(map[string]any{
		"id": "corp", "domainRef": map[string]any{"name": "corp-domain"}, "enabled": true,
		"remoteIds": []any{"https://sso.example.com/application/o/keystone/"},
	}, idp); diff != "" {
		t.Errorf("IdentityProvider forProvider (-want +got):\n%s", diff)
	}
	proto := desiredSpec(t, rsp, "protocol")["spec"].(map[string]any)["forProvider"]
	if diff := cmp.Diff(map[string]any{
		"id": "openid", "identityProviderRef": map[string]any{"name": "corp-idp"}, "mappingRef": map[string]any{"name": "corp-mapping"},
	}, proto); diff != "" {
		t.Errorf("Protocol forProvider (-want +got):\n%s", diff)
	}
	mapping := desiredSpec(t, rsp, "mapping")["spec"].(map[string]any)["forProvider"].(map[string]any)
	if mapping["id"] != "corp-openid" || len(mapping["rules"].([]any)) != 1 {
		t.Errorf("Mapping forProvider: got %v", mapping)
	}
	role := desiredSpec(t, rsp, "role-member")["spec"].(map[string]any)
	if diff := cmp.Diff([]any{"Observe"}, role["managementPolicies"]); diff != "" {
		t.Errorf("a role named by an assignment is only looked up (-want +got):\n%s", diff)
	}
	ra := desiredSpec(t, rsp, "group-federated-users-role-member-domain")["spec"].(map[string]any)["forProvider"]
	if diff := cmp.Diff(map[string]any{
		"roleRef":   map[string]any{"name": "corp-role-member"},
		"groupRef":  map[string]any{"name": "corp-group-federated-users"},
		"domainRef": map[string]any{"name": "corp-domain"},
	}, ra); diff != "" {
		t.Errorf("domain RoleAssignment (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]cond{
		TypeDomainReady:            {TypeDomainReady, "False", ReasonDomainPending},
		TypeFederationObjectsReady: {TypeFederationObjectsReady, "False", ReasonWaitingForFederation},
		TypeMappingsReady:          {TypeMappingsReady, "False", ReasonWaitingForMappings},
		TypeBackendReady:           {TypeBackendReady, "False", ReasonNotAllReady},
	}, conds(rsp)); diff != "" {
		t.Errorf("conditions (-want +got):\n%s", diff)
	}
}

func TestBackendOIDCWithoutRules(t *testing.T) {
	spec := oidcSpec()
	delete(spec, "mappings")
	rsp := run(t, backendRequest(t, spec, nil))
	for _, n := range desiredNames(rsp) {
		if n == "mapping" || n == "protocol" {
			t.Errorf("no %s without mapping rules", n)
		}
	}
	c := conds(rsp)
	if c[TypeFederationObjectsReady].Reason != ReasonNoMappingRules || c[TypeMappingsReady].Reason != ReasonNoMappingRules {
		t.Errorf("want NoMappingRules, got %v", c)
	}
}

func TestBackendRoleNotFound(t *testing.T) {
	missing := readyObj("Role", "corp-role-member", false)
	missing["status"].(map[string]any)["conditions"] = []any{
		map[string]any{"type": "Synced", "status": "False", "reason": "ReconcileError", "message": "cannot observe: role member not found"},
	}
	observed := map[string]map[string]any{
		"domain":                readyObj("Domain", "d", true),
		"identityprovider":      readyObj("IdentityProvider", "i", true),
		"protocol":              readyObj("Protocol", "p", true),
		"mapping":               readyObj("Mapping", "m", true),
		"group-federated-users": readyObj("Group", "g", true),
		"role-member":           missing,
	}
	spec := oidcSpec()
	spec["groups"] = []any{map[string]any{"name": "federated-users", "roleAssignments": []any{map[string]any{"role": "member", "domain": true}}}}
	rsp := run(t, backendRequest(t, spec, observed))
	c := conds(rsp)
	if diff := cmp.Diff(cond{TypeMappingsReady, "False", ReasonRoleOrProjectNotFound}, c[TypeMappingsReady]); diff != "" {
		t.Errorf("MappingsReady (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(cond{TypeFederationObjectsReady, "True", ReasonFederationProvisioned}, c[TypeFederationObjectsReady]); diff != "" {
		t.Errorf("FederationObjectsReady (-want +got):\n%s", diff)
	}
}

func TestBackendSAML(t *testing.T) {
	spec := oidcSpec()
	delete(spec, "oidc")
	delete(spec, "groups")
	spec["type"] = "SAML"
	spec["saml"] = map[string]any{"idpEntityID": "urn:example:idp", "identityProviderName": "corp-saml", "protocolID": "mapped", "remoteIDAttribute": "HTTP_MELLON_IDP"}
	rsp := run(t, backendRequest(t, spec, nil))
	idp := desiredSpec(t, rsp, "identityprovider")["spec"].(map[string]any)["forProvider"].(map[string]any)
	if diff := cmp.Diff([]any{"urn:example:idp"}, idp["remoteIds"]); diff != "" {
		t.Errorf("remote IDs (-want +got):\n%s", diff)
	}
	proto := desiredSpec(t, rsp, "protocol")["spec"].(map[string]any)["forProvider"].(map[string]any)
	if proto["id"] != "mapped" || proto["remoteIdAttribute"] != "HTTP_MELLON_IDP" || idp["id"] != "corp-saml" {
		t.Errorf("SAML protocol/idp: got %v / %v", proto, idp)
	}
}

func TestBackendProjectInDefaultDomain(t *testing.T) {
	spec := oidcSpec()
	spec["groups"] = []any{map[string]any{"name": "ops", "roleAssignments": []any{
		map[string]any{"role": "reader", "project": map[string]any{"name": "admin", "domainName": "Default"}},
	}}}
	rsp := run(t, backendRequest(t, spec, nil))
	want := []string{"domain", "domain-default-project-admin", "group-ops", "group-ops-role-reader-domain-default-project-admin",
		"identityprovider", "mapping", "protocol", "role-reader"}
	if diff := cmp.Diff(want, desiredNames(rsp)); diff != "" {
		t.Fatalf("desired (-want +got):\n%s", diff)
	}
	// No Domain lookup for Default (its CRD refuses the name): the project names its domain by ID.
	if diff := cmp.Diff(map[string]any{"name": "admin", "domainId": "default"},
		desiredSpec(t, rsp, "domain-default-project-admin")["spec"].(map[string]any)["forProvider"]); diff != "" {
		t.Errorf("project lookup (-want +got):\n%s", diff)
	}
}
