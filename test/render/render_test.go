//go:build e2e

package render

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Core Kubernetes kinds have no CRD for beta validate; the API server validates them.
const (
	gvkNamespace     = "/v1, Kind=Namespace"
	gvkResourceQuota = "/v1, Kind=ResourceQuota"
	gvkRoleBinding   = "rbac.authorization.k8s.io/v1, Kind=RoleBinding"
)

func TestTenant(t *testing.T) {
	o := render(t, "tenant", "tenant.yaml")
	want := []string{"admin-rolebinding", "authentik-group", "domain", "keystone-group", "namespace",
		"namespace-used-by-authentik-group", "namespace-used-by-project", "project", "quota", "role", "role-assignment"}
	if diff := cmp.Diff(want, o.names()); diff != "" {
		t.Fatalf("composed resources (-want +got):\n%s", diff)
	}
	o.want(t, "namespace", map[string]any{
		"kind": "Namespace", "metadata.name": "team-payments",
		"metadata.labels[platform.identity.crossplane.io/tenant]": "payments",
	})
	o.want(t, "admin-rolebinding", map[string]any{
		"metadata.name": "team-payments-admin", "metadata.namespace": "team-payments",
		"roleRef.kind": "ClusterRole", "roleRef.name": "admin",
		"subjects[0].kind": "Group", "subjects[0].name": "payments-admins",
	})
	o.want(t, "quota", map[string]any{
		"metadata.namespace": "team-payments",
		"spec.hard":          map[string]any{"pods": "20", "requests.cpu": "2"},
	})
	// The team's Keystone and authentik objects are namespaced managed resources in the team
	// namespace, on the ClusterProviderConfig "default"; deletionPolicy Delete (the default)
	// gives them every management policy.
	pc := map[string]any{"kind": "ClusterProviderConfig", "name": "default"}
	o.want(t, "authentik-group", map[string]any{
		"apiVersion": "authentik.identity.m.crossplane.io/v1alpha1", "kind": "Group",
		"metadata.name": "team-payments", "metadata.namespace": "team-payments", "spec.forProvider.name": "team-payments",
		"spec.providerConfigRef": pc, "spec.managementPolicies": []any{"*"},
	})
	// The domain named by the Tenant, looked up in the team namespace.
	o.want(t, "domain", map[string]any{
		"apiVersion": "keystone.identity.m.crossplane.io/v1alpha1", "kind": "Domain",
		"metadata.name": "team-payments-domain", "metadata.namespace": "team-payments",
		"spec.forProvider.name": "corp", "spec.managementPolicies": []any{"Observe"},
	})
	o.want(t, "project", map[string]any{
		"apiVersion": "keystone.identity.m.crossplane.io/v1alpha1", "kind": "Project",
		"metadata.name": "team-payments", "metadata.namespace": "team-payments", "spec.forProvider.name": "team-payments",
		"spec.forProvider.domainRef.name": "team-payments-domain", "spec.forProvider.domainId": "<absent>",
		"spec.providerConfigRef": pc, "spec.managementPolicies": []any{"*"},
	})
	o.want(t, "keystone-group", map[string]any{
		"apiVersion": "keystone.identity.m.crossplane.io/v1alpha1", "kind": "Group",
		"metadata.name": "team-payments", "metadata.namespace": "team-payments", "spec.forProvider.name": "team-payments",
		"spec.forProvider.domainRef.name": "team-payments-domain",
	})
	o.want(t, "role", map[string]any{
		"kind": "Role", "metadata.name": "team-payments-role", "metadata.namespace": "team-payments",
		"spec.forProvider.name": "member", "spec.managementPolicies": []any{"Observe"},
	})
	o.want(t, "role-assignment", map[string]any{
		"kind": "RoleAssignment", "metadata.name": "team-payments-group-on-project", "metadata.namespace": "team-payments",
		"spec.forProvider.roleRef.name":    "team-payments-role",
		"spec.forProvider.groupRef.name":   "team-payments",
		"spec.forProvider.projectRef.name": "team-payments",
		"spec.managementPolicies":          []any{"*"},
	})
	// The namespace goes after the team's external objects: namespaced Usages next to their
	// users, naming the cluster-scoped Namespace with an empty namespace.
	o.want(t, "namespace-used-by-project", map[string]any{
		"kind": "Usage", "metadata.name": "team-payments-namespace-used-by-project", "metadata.namespace": "team-payments",
		"spec.of.kind": "Namespace", "spec.of.resourceRef": map[string]any{"name": "team-payments", "namespace": ""},
		"spec.by.apiVersion": "keystone.identity.m.crossplane.io/v1alpha1", "spec.by.kind": "Project",
		"spec.by.resourceRef.name": "team-payments", "spec.replayDeletion": true,
	})
	o.want(t, "namespace-used-by-authentik-group", map[string]any{
		"kind": "Usage", "metadata.namespace": "team-payments",
		"spec.of.kind": "Namespace", "spec.of.resourceRef": map[string]any{"name": "team-payments", "namespace": ""},
		"spec.by.apiVersion": "authentik.identity.m.crossplane.io/v1alpha1", "spec.by.kind": "Group",
		"spec.by.resourceRef.name": "team-payments", "spec.replayDeletion": true,
	})
	// Nothing is observed yet, so the Tenant is not Ready.
	o.wantCondition(t, "Ready", "False", "Creating")
	validRender(t, o, gvkNamespace, gvkResourceQuota, gvkRoleBinding)
}

// A Tenant with a domain ID and deletionPolicy Retain: no Domain lookup, and the team's objects
// outlive the Tenant (every management policy but Delete).
func TestTenantRetainByDomainID(t *testing.T) {
	o := render(t, "tenant", "tenant-retain.yaml")
	if _, ok := o.composed["domain"]; ok {
		t.Errorf("a Tenant with keystone.domainId composes no Domain lookup")
	}
	retain := []any{"Observe", "Create", "Update", "LateInitialize"}
	o.want(t, "project", map[string]any{
		"spec.forProvider.domainId": "default", "spec.forProvider.domainRef": "<absent>",
		"spec.managementPolicies": retain,
		"spec.providerConfigRef":  map[string]any{"kind": "ProviderConfig", "name": "keystone"},
	})
	o.want(t, "keystone-group", map[string]any{"spec.managementPolicies": retain, "spec.forProvider.domainId": "default"})
	o.want(t, "authentik-group", map[string]any{"spec.managementPolicies": retain})
	o.want(t, "role-assignment", map[string]any{"spec.managementPolicies": retain})
	o.want(t, "role", map[string]any{"spec.managementPolicies": []any{"Observe"}})
	validRender(t, o, gvkNamespace, gvkResourceQuota, gvkRoleBinding)
}

func TestServiceClaimBeforeItsTenant(t *testing.T) {
	// No Tenant named payments exists: nothing is composed, the claim waits.
	o := render(t, "serviceclaim", "serviceclaim-sso.yaml")
	if len(o.composed) != 0 {
		t.Errorf("a ServiceClaim without its Tenant must compose nothing, got %v", o.names())
	}
	o.wantCondition(t, "TenantReady", "False", "TenantNotFound")
	o.wantCondition(t, "Ready", "False", "Creating")
	validRender(t, o)
}

func TestServiceClaimTenantNotReady(t *testing.T) {
	o := render(t, "serviceclaim", "serviceclaim-sso.yaml", "--required-resources="+testdata("tenant-creating.yaml"))
	if len(o.composed) != 0 {
		t.Errorf("a ServiceClaim whose Tenant is not Ready must compose nothing new, got %v", o.names())
	}
	o.wantCondition(t, "TenantReady", "False", "TenantNotReady")
	o.wantCondition(t, "Ready", "False", "Creating")
}

func TestServiceClaimKeepsWhatExistsWhileTenantNotReady(t *testing.T) {
	o := render(t, "serviceclaim", "serviceclaim-sso.yaml",
		"--required-resources="+testdata("tenant-creating.yaml"),
		"--observed-resources="+testdata("observed-application.yaml"))
	if diff := cmp.Diff([]string{"application"}, o.names()); diff != "" {
		t.Errorf("an existing Application is kept, nothing new is created (-want +got):\n%s", diff)
	}
	o.wantCondition(t, "TenantReady", "False", "TenantNotReady")
}

func TestServiceClaimWithSSO(t *testing.T) {
	o := render(t, "serviceclaim", "serviceclaim-sso.yaml",
		"--required-resources="+testdata("tenant-ready.yaml"),
		"--observed-resources="+testdata("observed-application.yaml"))
	want := []string{"application", "oauth2provider", "sso-application", "tenant-usage"}
	if diff := cmp.Diff(want, o.names()); diff != "" {
		t.Fatalf("composed resources (-want +got):\n%s", diff)
	}
	o.wantCondition(t, "TenantReady", "True", "TenantReady")
	o.want(t, "", map[string]any{
		"status.namespace":          "team-payments",
		"status.application.name":   "payments-web",
		"status.application.health": "Healthy",
		"status.application.sync":   "Synced",
	})
	o.want(t, "application", map[string]any{
		"apiVersion": "argoproj.io/v1alpha1", "kind": "Application",
		"metadata.name": "payments-web", "metadata.namespace": "team-payments",
		"metadata.finalizers":             []any{"resources-finalizer.argocd.argoproj.io"},
		"spec.destination.namespace":      "team-payments",
		"spec.source.repoURL":             "https://github.com/crossplane-contrib/provider-identity.git",
		"spec.source.path":                "charts/platform-service",
		"spec.source.helm.parameters[0]":  map[string]any{"name": "image", "value": "ghcr.io/acme/web:1.4.2"},
		"spec.source.helm.parameters[1]":  map[string]any{"name": "replicas", "value": "3"},
		"spec.syncPolicy.automated.prune": true,
	})
	// The Tenant is in use while the Application exists; the Usage sits in the Application's
	// namespace and names the cluster-scoped Tenant with an empty namespace.
	o.want(t, "tenant-usage", map[string]any{
		"kind": "Usage", "metadata.name": "payments-web-uses-tenant", "metadata.namespace": "team-payments",
		"spec.of.kind": "Tenant", "spec.of.resourceRef": map[string]any{"name": "payments", "namespace": ""},
		"spec.by.kind": "Application", "spec.by.apiVersion": "argoproj.io/v1alpha1",
		"spec.by.resourceRef.name": "payments-web", "spec.replayDeletion": true,
	})
	o.want(t, "oauth2provider", map[string]any{
		"apiVersion": "authentik.identity.m.crossplane.io/v1alpha1", "kind": "OAuth2Provider",
		"metadata.name": "payments-web", "metadata.namespace": "team-payments",
		"spec.providerConfigRef":      map[string]any{"kind": "ClusterProviderConfig", "name": "default"},
		"spec.managementPolicies":     []any{"*"},
		"spec.forProvider.name":       "payments-web",
		"spec.forProvider.clientType": "confidential",
		// Every redirect URI of the claim, more than patch-and-transform's indexed patches did.
		"spec.forProvider.redirectUris": []any{
			map[string]any{"url": "https://web.payments.example.com/oauth2/callback", "matchingMode": "strict"},
			map[string]any{"url": "https://web.payments.example.com/silent-renew", "matchingMode": "strict"},
			map[string]any{"url": "https://web-eu.payments.example.com/oauth2/callback", "matchingMode": "strict"},
			map[string]any{"url": "https://web-us.payments.example.com/oauth2/callback", "matchingMode": "strict"},
			map[string]any{"url": "https://web-ap.payments.example.com/oauth2/callback", "matchingMode": "strict"},
		},
		"spec.forProvider.authorizationFlow": "default-provider-authorization-implicit-consent",
		// A namespaced resource's connection Secret: in its own namespace, by name.
		"spec.writeConnectionSecretToRef": map[string]any{"name": "web-oidc"},
	})
	o.want(t, "sso-application", map[string]any{
		"kind": "Application", "apiVersion": "authentik.identity.m.crossplane.io/v1alpha1", "metadata.namespace": "team-payments",
		"spec.forProvider.slug": "payments-web", "spec.forProvider.oauth2ProviderRef.name": "payments-web",
	})
	validRender(t, o)
}

// A ServiceClaim in another team's namespace composes nothing, even with its Tenant Ready.
func TestServiceClaimInAnotherNamespace(t *testing.T) {
	o := render(t, "serviceclaim", "serviceclaim-wrong-namespace.yaml", "--required-resources="+testdata("tenant-ready.yaml"))
	if len(o.composed) != 0 {
		t.Errorf("a ServiceClaim outside its Tenant's namespace must compose nothing, got %v", o.names())
	}
	o.wantCondition(t, "TenantReady", "False", "WrongNamespace")
	o.wantCondition(t, "Ready", "False", "Creating")
}

func TestServiceClaimWithoutSSO(t *testing.T) {
	o := render(t, "serviceclaim", "serviceclaim-plain.yaml", "--required-resources="+testdata("tenant-ready.yaml"))
	if diff := cmp.Diff([]string{"application", "tenant-usage"}, o.names()); diff != "" {
		t.Fatalf("composed resources (-want +got):\n%s", diff)
	}
	o.want(t, "application", map[string]any{
		"metadata.name": "payments-worker",
		// XRD default replicas: 1.
		"spec.source.helm.parameters[1].value": "1",
	})
	validRender(t, o)
}

func TestKeystoneIdentityBackendLDAP(t *testing.T) {
	o := render(t, "keystoneidentitybackend", "kib-ldap.yaml")
	if diff := cmp.Diff([]string{"domain", "domainconfig"}, o.names()); diff != "" {
		t.Fatalf("composed resources (-want +got):\n%s", diff)
	}
	pc := map[string]any{"kind": "ClusterProviderConfig", "name": "keystone"}
	o.want(t, "domain", map[string]any{
		"apiVersion": "keystone.identity.m.crossplane.io/v1alpha1", "kind": "Domain",
		"metadata.name": "corp-ldap-domain", "metadata.namespace": "identity",
		"spec.forProvider.name": "corp", "spec.forProvider.description": "Corporate directory",
		"spec.providerConfigRef": pc,
		// Manage + Retain (the defaults): every management policy but Delete.
		"spec.managementPolicies": []any{"Observe", "Create", "Update", "LateInitialize"},
		"spec.adoptionPolicy":     "FailOnConflict", "spec.deletionPolicy": "<absent>",
	})
	o.want(t, "domainconfig", map[string]any{
		"apiVersion": "keystone.identity.m.crossplane.io/v1alpha1", "kind": "DomainConfig",
		"metadata.name": "corp-ldap-config", "metadata.namespace": "identity",
		"spec.forProvider.domainRef.name": "corp-ldap-domain",
		"spec.providerConfigRef":          pc,
		"spec.forProvider.ldap.url":       "ldap://127.0.0.1:3890",
		"spec.forProvider.ldap.readOnly":  true,
		// The backend's own Secret, by name: a namespaced DomainConfig reads its namespace's.
		"spec.forProvider.ldap.bindCredentialsSecretRef": map[string]any{"name": "corp-ldap-bind"},
		"spec.forProvider.ldap.users.idAttribute":        "uid",
		"spec.forProvider.ldap.extraOptions":             map[string]any{"page_size": "100"},
	})
	o.wantCondition(t, "DomainReady", "False", "DomainPending")
	o.wantCondition(t, "ConfigProjected", "False", "WaitingForProjection")
	o.wantCondition(t, "BackendReady", "False", "NotAllReady")
	o.wantCondition(t, "Ready", "False", "Creating")
	o.want(t, "", map[string]any{"status.domainRef": "corp-ldap-domain"})
	validRender(t, o)
}

func TestKeystoneIdentityBackendOIDC(t *testing.T) {
	o := render(t, "keystoneidentitybackend", "kib-oidc.yaml")
	want := []string{
		"domain", "group-federated-users", "group-federated-users-role-member-domain",
		"group-federated-users-role-reader-project-ops", "identityprovider", "mapping",
		"project-ops", "protocol", "role-member", "role-reader",
	}
	if diff := cmp.Diff(want, o.names()); diff != "" {
		t.Fatalf("composed resources (-want +got):\n%s", diff)
	}
	x := "cobaltcore-oidc"
	o.want(t, "domain", map[string]any{
		// Adopt: looked up and never changed, always retained whatever deletionPolicy says.
		"spec.managementPolicies": []any{"Observe"}, "spec.adoptionPolicy": "AdoptExisting",
	})
	o.want(t, "identityprovider", map[string]any{
		"apiVersion": "keystone.identity.m.crossplane.io/v1alpha1", "kind": "IdentityProvider",
		"metadata.name": x + "-idp", "metadata.namespace": "identity",
		"spec.forProvider.id":             "cobaltcore-oidc",
		"spec.forProvider.remoteIds":      []any{"https://keycloak.example.com/realms/cobaltcore"},
		"spec.forProvider.domainRef.name": x + "-domain",
	})
	o.want(t, "mapping", map[string]any{
		"kind": "Mapping", "spec.forProvider.id": "cobaltcore-oidc-openid",
		"spec.forProvider.rules[0].remote[0].anyOneOf":  []any{"https://keycloak.example.com/realms/cobaltcore"},
		"spec.forProvider.rules[0].local[0].group.name": "federated-users",
	})
	o.want(t, "protocol", map[string]any{
		"kind": "Protocol", "spec.forProvider.id": "openid",
		"spec.forProvider.identityProviderRef.name": x + "-idp", "spec.forProvider.mappingRef.name": x + "-mapping",
	})
	o.want(t, "group-federated-users", map[string]any{
		"kind": "Group", "spec.forProvider.name": "federated-users", "spec.forProvider.domainRef.name": x + "-domain",
	})
	o.want(t, "project-ops", map[string]any{
		"kind": "Project", "spec.managementPolicies": []any{"Observe"}, "spec.forProvider.name": "ops",
	})
	o.want(t, "group-federated-users-role-reader-project-ops", map[string]any{
		"kind": "RoleAssignment", "spec.forProvider.projectRef.name": x + "-project-ops",
		"spec.forProvider.roleRef.name": x + "-role-reader", "spec.forProvider.groupRef.name": x + "-group-federated-users",
	})
	o.wantCondition(t, "DomainReady", "False", "DomainPending")
	o.wantCondition(t, "FederationObjectsReady", "False", "WaitingForFederationObjects")
	o.wantCondition(t, "MappingsReady", "False", "WaitingForMappings")
	o.wantCondition(t, "BackendReady", "False", "NotAllReady")
	validRender(t, o)
}

func TestAuthentikFederation(t *testing.T) {
	o := render(t, "authentikfederation", "authentikfederation.yaml")
	want := []string{"application", "domain", "group", "identityprovider", "mapping", "oauth2provider", "protocol", "role", "role-assignment-domain"}
	if diff := cmp.Diff(want, o.names()); diff != "" {
		t.Fatalf("composed resources (-want +got):\n%s", diff)
	}
	x := "authentik"
	issuer := "https://sso.example.com/application/o/keystone/"
	o.want(t, "oauth2provider", map[string]any{
		"spec.forProvider.name": "keystone-keystone", "spec.forProvider.issuerMode": "per_provider",
		"apiVersion": "authentik.identity.m.crossplane.io/v1alpha1", "metadata.namespace": "identity",
		"spec.providerConfigRef":               map[string]any{"kind": "ClusterProviderConfig", "name": "default"},
		"spec.managementPolicies":              []any{"*"},
		"spec.writeConnectionSecretToRef":      map[string]any{"name": "authentik-oidc-client"},
		"spec.forProvider.redirectUris[0].url": "https://keystone.example.com/v3/auth/OS-FEDERATION/identity_providers/authentik/protocols/openid/websso",
	})
	o.want(t, "application", map[string]any{"spec.forProvider.slug": "keystone", "spec.forProvider.oauth2ProviderRef.name": x + "-oidc"})
	o.want(t, "domain", map[string]any{"spec.managementPolicies": []any{"Observe"}, "spec.forProvider.name": "corp",
		"spec.providerConfigRef": map[string]any{"kind": "ClusterProviderConfig", "name": "keystone"}})
	o.want(t, "identityprovider", map[string]any{
		"spec.forProvider.id": "authentik", "spec.forProvider.remoteIds": []any{issuer},
		"spec.forProvider.domainRef.name": x + "-domain", "spec.managementPolicies": []any{"*"},
		"apiVersion": "keystone.identity.m.crossplane.io/v1alpha1", "metadata.namespace": "identity",
	})
	o.want(t, "mapping", map[string]any{
		"spec.forProvider.id":                      "authentik-openid",
		"spec.forProvider.rules[0].remote[0]":      map[string]any{"type": "HTTP_OIDC_ISS", "anyOneOf": []any{issuer}},
		"spec.forProvider.rules[0].local[0].group": map[string]any{"name": "authentik-users", "domain": map[string]any{"name": "corp"}},
	})
	o.want(t, "protocol", map[string]any{"spec.forProvider.id": "openid", "spec.forProvider.remoteIdAttribute": "HTTP_OIDC_ISS"})
	o.want(t, "role-assignment-domain", map[string]any{
		"spec.forProvider.domainRef.name": x + "-domain", "spec.forProvider.groupRef.name": x + "-group",
		"spec.forProvider.roleRef.name": x + "-role",
	})
	o.wantCondition(t, "AuthentikReady", "False", "WaitingForAuthentik")
	o.wantCondition(t, "FederationObjectsReady", "False", "WaitingForFederationObjects")
	o.wantCondition(t, "MappingsReady", "False", "WaitingForMappings")
	validRender(t, o)
}
