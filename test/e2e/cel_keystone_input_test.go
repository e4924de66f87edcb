//go:build e2e

package e2e

import (
	"context"
	"strings"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	ksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
)

// celAcceptedPaused creates obj paused, with a ProviderConfig that does not exist (so no controller
// writes to Keystone), and fails when the API server refuses it.
func celAcceptedPaused(t *testing.T, obj client.Object) {
	t.Helper()
	meta.AddAnnotations(obj, map[string]string{meta.AnnotationKeyReconciliationPaused: "true"})
	create(t, obj)
}

// refusedField asserts that the API server refuses to create obj, naming the field by its path
// and saying what is wrong with a message containing want.
func refusedField(t *testing.T, obj client.Object, path, want string) {
	t.Helper()
	err := kube.Create(context.Background(), obj)
	if err == nil {
		_ = kube.Delete(context.Background(), obj)
		t.Fatalf("%s was accepted; want it refused at %s with %q", obj.GetName(), path, want)
	}
	if !strings.Contains(err.Error(), path+": ") || !strings.Contains(err.Error(), want) {
		t.Fatalf("%s refused with %q; want the field %s named and a message containing %q", obj.GetName(), err, path, want)
	}
}

// nowhere points a managed resource at a ProviderConfig that does not exist.
var nowhere = &xpv2.Reference{Name: celNoProviderConfig}

// TestCELKeystoneInput covers what Keystone would store as given or put into a URL: control
// characters in names and descriptions, and IDs that are not Keystone IDs.
func TestCELKeystoneInput(t *testing.T) {
	t.Parallel()
	ctl := "must not contain control characters"
	notID := "must be a Keystone domain ID: letters, digits and hyphens only"
	domain := func(name, ksName string, m ...func(*ksv1alpha1.Domain)) *ksv1alpha1.Domain {
		return newDomain(name, ksName, append([]func(*ksv1alpha1.Domain){func(d *ksv1alpha1.Domain) { d.Spec.ProviderConfigReference = nowhere }}, m...)...)
	}
	project := func(name string, m ...func(*ksv1alpha1.Project)) *ksv1alpha1.Project {
		return newProject(name, "x", append([]func(*ksv1alpha1.Project){inDomain("d1"), func(p *ksv1alpha1.Project) { p.Spec.ProviderConfigReference = nowhere }}, m...)...)
	}
	group := func(name string, m ...func(*ksv1alpha1.Group)) *ksv1alpha1.Group {
		return newGroup(name, "x", append([]func(*ksv1alpha1.Group){groupInDomain("d1"), func(g *ksv1alpha1.Group) { g.Spec.ProviderConfigReference = nowhere }}, m...)...)
	}
	role := func(name string, m ...func(*ksv1alpha1.Role)) *ksv1alpha1.Role {
		return newRole(name, "x", append([]func(*ksv1alpha1.Role){func(r *ksv1alpha1.Role) { r.Spec.ProviderConfigReference = nowhere }}, m...)...)
	}

	refused := map[string]struct {
		obj        client.Object
		path, want string
	}{
		"domain-name-newline": {domain("cel-in-dom-nl", "a\nb"), "spec.forProvider.name", "name " + ctl},
		"domain-name-escape":  {domain("cel-in-dom-esc", "a\x1b[31mb"), "spec.forProvider.name", "name " + ctl},
		"domain-description-nul": {domain("cel-in-dom-desc", "x", func(d *ksv1alpha1.Domain) { d.Spec.ForProvider.Description = ptr("a\x00b") }),
			"spec.forProvider.description", "description must not contain control characters other than tabs and line breaks"},
		"project-name-tab":       {project("cel-in-pj-tab", func(p *ksv1alpha1.Project) { p.Spec.ForProvider.Name = "a\tb" }), "spec.forProvider.name", "name " + ctl},
		"project-domainid-slash": {project("cel-in-pj-slash", inDomain("a/b")), "spec.forProvider.domainId", "domainId " + notID},
		"project-domainid-dots":  {project("cel-in-pj-dots", inDomain("..")), "spec.forProvider.domainId", "domainId " + notID},
		"project-domainid-query": {project("cel-in-pj-query", inDomain("d?name=x")), "spec.forProvider.domainId", "domainId " + notID},
		"project-parentid-slash": {project("cel-in-pj-parent", func(p *ksv1alpha1.Project) { p.Spec.ForProvider.ParentID = ptr("p/1") }),
			"spec.forProvider.parentId", "parentId must be a Keystone project ID"},
		"project-tag-newline": {project("cel-in-pj-tag", func(p *ksv1alpha1.Project) { p.Spec.ForProvider.Tags = &[]string{"a\nb"} }), "spec.forProvider.tags[0]", "should match"},
		"group-name-newline":  {group("cel-in-grp-nl", func(g *ksv1alpha1.Group) { g.Spec.ForProvider.Name = "a\nb" }), "spec.forProvider.name", "name " + ctl},
		"group-domainid":      {group("cel-in-grp-dom", groupInDomain("a/b")), "spec.forProvider.domainId", "domainId " + notID},
		"role-name-newline":   {role("cel-in-role-nl", func(r *ksv1alpha1.Role) { r.Spec.ForProvider.Name = "admin\n" }), "spec.forProvider.name", "name " + ctl},
		"role-domainid":       {role("cel-in-role-dom", func(r *ksv1alpha1.Role) { r.Spec.ForProvider.DomainID = ptr("a/b") }), "spec.forProvider.domainId", "domainId " + notID},
		"user-name-newline":   {celUser("cel-in-user-nl", func(u *ksv1alpha1.User) { u.Spec.ForProvider.Name = "a\nb" }), "spec.forProvider.name", "name " + ctl},
		"user-domainid":       {celUser("cel-in-user-dom", func(u *ksv1alpha1.User) { u.Spec.ForProvider.DomainID = ptr("a/b") }), "spec.forProvider.domainId", "domainId " + notID},
		"user-default-project": {celUser("cel-in-user-dp", func(u *ksv1alpha1.User) { u.Spec.ForProvider.DefaultProjectID = ptr("p/1") }),
			"spec.forProvider.defaultProjectId", "defaultProjectId must be a Keystone project ID"},
		"user-email-crlf": {celUser("cel-in-user-mail", func(u *ksv1alpha1.User) { u.Spec.ForProvider.Email = ptr("a@example.com\r\nBcc: b@example.com") }),
			"spec.forProvider.email", "email " + ctl},
		"ra-projectid-dots": {celRoleAssignment("cel-in-ra-pj", ksv1alpha1.RoleAssignmentParameters{RoleID: ptr("r"), UserID: ptr("u"), ProjectID: ptr("..")}),
			"spec.forProvider.projectId", "projectId must be a Keystone project ID"},
		"ra-domainid-slash": {celRoleAssignment("cel-in-ra-dom", ksv1alpha1.RoleAssignmentParameters{RoleID: ptr("r"), GroupID: ptr("g"), DomainID: ptr("a/b")}),
			"spec.forProvider.domainId", "domainId " + notID},
		"ra-userid-dotdot": {celRoleAssignment("cel-in-ra-user", ksv1alpha1.RoleAssignmentParameters{RoleID: ptr("r"), UserID: ptr(".."), ProjectID: ptr("p")}),
			"spec.forProvider.userId", "userId must be a Keystone ID without control characters, and not . or .."},
		"ra-groupid-newline": {celRoleAssignment("cel-in-ra-group", ksv1alpha1.RoleAssignmentParameters{RoleID: ptr("r"), GroupID: ptr("g\n"), ProjectID: ptr("p")}),
			"spec.forProvider.groupId", "groupId must be a Keystone ID without control characters"},
		"ra-userid-slash": {celRoleAssignment("cel-in-ra-slash", ksv1alpha1.RoleAssignmentParameters{RoleID: ptr("r"), UserID: ptr("a/b"), ProjectID: ptr("p")}),
			"spec.forProvider.userId", "should match"},
		"domainconfig-domainid": {newDomainConfig("cel-in-dc", "x", "s", func(d *ksv1alpha1.DomainConfig) {
			d.Spec.ProviderConfigReference, d.Spec.ForProvider.DomainRef, d.Spec.ForProvider.DomainID = nowhere, nil, ptr("a/b")
		}), "spec.forProvider.domainId", "domainId " + notID},
		"idp-domainid": {newIdentityProvider("cel-in-idp", "idp1", "x", func(i *ksv1alpha1.IdentityProvider) {
			i.Spec.ProviderConfigReference, i.Spec.ForProvider.DomainRef, i.Spec.ForProvider.DomainID = nowhere, nil, ptr("a/b")
		}), "spec.forProvider.domainId", "domainId " + notID},
		"idp-description-escape": {newIdentityProvider("cel-in-idp-desc", "idp1", "x", func(i *ksv1alpha1.IdentityProvider) {
			i.Spec.ProviderConfigReference, i.Spec.ForProvider.Description = nowhere, ptr("a\x1bb")
		}), "spec.forProvider.description", "description must not contain control characters"},
		"idp-remoteid-newline": {newIdentityProvider("cel-in-idp-rid", "idp1", "x", func(i *ksv1alpha1.IdentityProvider) {
			i.Spec.ProviderConfigReference, i.Spec.ForProvider.RemoteIDs = nowhere, []string{"https://idp.example.com\n"}
		}), "spec.forProvider.remoteIds", "remoteIds " + ctl},
		"protocol-mappingid": {newProtocol("cel-in-proto-map", "x", "y", func(p *ksv1alpha1.Protocol) {
			p.Spec.ProviderConfigReference, p.Spec.ForProvider.MappingRef, p.Spec.ForProvider.MappingID = nowhere, nil, ptr("a/b")
		}), "spec.forProvider.mappingId", "mappingId must be a Keystone mapping ID: letters, digits, hyphens and underscores only"},
		"protocol-idpid": {newProtocol("cel-in-proto-idp", "x", "y", func(p *ksv1alpha1.Protocol) {
			p.Spec.ProviderConfigReference, p.Spec.ForProvider.IdentityProviderRef, p.Spec.ForProvider.IdentityProviderID = nowhere, nil, ptr("../x")
		}), "spec.forProvider.identityProviderId", "identityProviderId must be a Keystone identity provider ID"},
		"mapping-user-name-newline": {newMapping("cel-in-map", "m1", []ksv1alpha1.MappingRule{{
			Local:  []ksv1alpha1.MappingLocal{{User: &ksv1alpha1.MappingUser{Name: ptr("{0}\n")}}},
			Remote: []ksv1alpha1.MappingRemote{{Type: "REMOTE_USER"}},
		}}, func(m *ksv1alpha1.Mapping) { m.Spec.ProviderConfigReference = nowhere }), "spec.forProvider.rules[0].local[0].user.name", "should match"},
	}
	for name, tc := range refused {
		t.Run(name, func(t *testing.T) {
			refusedField(t, tc.obj, tc.path, tc.want)
		})
	}

	// What Keystone accepts stays accepted: its Default domain's ID, unicode names, multi-line
	// descriptions, LDAP-style user IDs in role assignments.
	t.Run("accepts-default-domain-id", func(t *testing.T) {
		celAcceptedPaused(t, project("cel-in-ok-default", inDomain("default")))
	})
	t.Run("accepts-hex-ids", func(t *testing.T) {
		celAcceptedPaused(t, project("cel-in-ok-hex", inDomain("4c0f8d3b9e2a4f5c8a7b6d5e4f3a2b1c"),
			func(p *ksv1alpha1.Project) { p.Spec.ForProvider.ParentID = ptr("0e9b7f3c-1d2a-4b5c-8d6e-7f8091a2b3c4") }))
	})
	t.Run("accepts-unicode-name", func(t *testing.T) {
		celAcceptedPaused(t, domain("cel-in-ok-unicode", "Équipe données 東京"))
	})
	t.Run("accepts-multiline-description", func(t *testing.T) {
		celAcceptedPaused(t, domain("cel-in-ok-desc", "x", func(d *ksv1alpha1.Domain) { d.Spec.ForProvider.Description = ptr("line one\n\tline two\r\n") }))
	})
	t.Run("accepts-ldap-user-id", func(t *testing.T) {
		celAcceptedPaused(t, celRoleAssignment("cel-in-ok-ra", ksv1alpha1.RoleAssignmentParameters{RoleID: ptr("r"), UserID: ptr("John Smith"), ProjectID: ptr("p")}))
	})
}
