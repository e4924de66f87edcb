//go:build e2e

package e2e

import (
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	ksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	nsksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

func celAppCred(name string, m func(*ksv1alpha1.ApplicationCredentialParameters)) *ksv1alpha1.ApplicationCredential {
	fp := ksv1alpha1.ApplicationCredentialParameters{UserID: ptr("u1"), ProjectID: ptr("p1"), Name: "ci"}
	if m != nil {
		m(&fp)
	}
	return &ksv1alpha1.ApplicationCredential{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: ksv1alpha1.ApplicationCredentialSpec{
		ClusterManagedResourceSpec: xpv2.ClusterManagedResourceSpec{ProviderConfigReference: &xpv2.Reference{Name: celNoProviderConfig}}, ForProvider: fp}}
}

// Every rule of ApplicationCredential refuses what it says, at creation or on a change, in
// both scopes where they differ.
func TestCELKeystoneApplicationCredential(t *testing.T) {
	t.Parallel()
	pw := func(ns string) *identityv1alpha1.SecretKeySelector {
		return &identityv1alpha1.SecretKeySelector{SecretReference: identityv1alpha1.SecretReference{Namespace: ns, Name: "pw"}, Key: "password"}
	}
	creates := map[string]struct {
		m    func(*ksv1alpha1.ApplicationCredentialParameters)
		want string
	}{
		"NoUser":    {func(p *ksv1alpha1.ApplicationCredentialParameters) { p.UserID = nil }, "set the user the application credential is for"},
		"NoProject": {func(p *ksv1alpha1.ApplicationCredentialParameters) { p.ProjectID = nil }, "set the project the application credential is for"},
		"RoleIDsAndNames": {func(p *ksv1alpha1.ApplicationCredentialParameters) {
			p.RoleIDs, p.RoleNames = []string{"r1"}, []string{"reader"}
		}, "name the roles either by ID"},
		"UserIDDotDot":        {func(p *ksv1alpha1.ApplicationCredentialParameters) { p.UserID = ptr("..") }, "userId must be a Keystone ID without control characters"},
		"UserIDSlash":         {func(p *ksv1alpha1.ApplicationCredentialParameters) { p.UserID = ptr("u/1") }, "spec.forProvider.userId"},
		"ProjectIDNotAnID":    {func(p *ksv1alpha1.ApplicationCredentialParameters) { p.ProjectID = ptr("p 1") }, "projectId must be a Keystone project ID"},
		"NameControlChar":     {func(p *ksv1alpha1.ApplicationCredentialParameters) { p.Name = "c\ti" }, "name must not contain control characters"},
		"NameBlank":           {func(p *ksv1alpha1.ApplicationCredentialParameters) { p.Name = "  " }, "spec.forProvider.name"},
		"DescriptionBell":     {func(p *ksv1alpha1.ApplicationCredentialParameters) { p.Description = ptr("a\x07") }, "description must not contain control characters"},
		"RoleIDNotAnID":       {func(p *ksv1alpha1.ApplicationCredentialParameters) { p.RoleIDs = []string{"r 1"} }, "spec.forProvider.roleIds[0]"},
		"RoleNameControlChar": {func(p *ksv1alpha1.ApplicationCredentialParameters) { p.RoleNames = []string{"a\nb"} }, "spec.forProvider.roleNames[0]"},
		"AccessRuleMethod": {func(p *ksv1alpha1.ApplicationCredentialParameters) {
			p.AccessRules = []ksv1alpha1.ApplicationCredentialAccessRule{{Service: "compute", Method: "TRACE", Path: "/"}}
		}, "spec.forProvider.accessRules[0].method"},
		"AccessRulePathRelative": {func(p *ksv1alpha1.ApplicationCredentialParameters) {
			p.AccessRules = []ksv1alpha1.ApplicationCredentialAccessRule{{Service: "compute", Method: "GET", Path: "servers"}}
		}, "spec.forProvider.accessRules[0].path"},
		"AccessRuleService": {func(p *ksv1alpha1.ApplicationCredentialParameters) {
			p.AccessRules = []ksv1alpha1.ApplicationCredentialAccessRule{{Service: "com pute", Method: "GET", Path: "/"}}
		}, "spec.forProvider.accessRules[0].service"},
		"ClusterPasswordWithoutNamespace": {func(p *ksv1alpha1.ApplicationCredentialParameters) { p.PasswordSecretRef = pw("") }, "passwordSecretRef.namespace is required"},
	}
	for name, tc := range creates {
		t.Run(name, func(t *testing.T) {
			rejected(t, celAppCred("cel-ac-"+strings.ToLower(name), tc.m), tc.want)
		})
	}
	changes := map[string]struct {
		m    func(*ksv1alpha1.ApplicationCredential)
		want string
	}{
		"UserChanged":    {func(a *ksv1alpha1.ApplicationCredential) { a.Spec.ForProvider.UserID = ptr("u2") }, "userId cannot be changed"},
		"ProjectChanged": {func(a *ksv1alpha1.ApplicationCredential) { a.Spec.ForProvider.ProjectID = ptr("p2") }, "projectId cannot be changed"},
	}
	for name, tc := range changes {
		t.Run(name, func(t *testing.T) {
			rejectedChange(t, celAppCred("cel-ac-"+strings.ToLower(name), nil), tc.m, tc.want)
		})
	}
	t.Run("NamespacedPasswordWithNamespace", func(t *testing.T) {
		namespace(t, "cel-ns-appcred")
		rejected(t, &nsksv1alpha1.ApplicationCredential{ObjectMeta: metav1.ObjectMeta{Namespace: "cel-ns-appcred", Name: "ci"}, Spec: nsksv1alpha1.ApplicationCredentialSpec{
			ForProvider: nsksv1alpha1.ApplicationCredentialParameters{UserID: ptr("u1"), ProjectID: ptr("p1"), Name: "ci", PasswordSecretRef: pw("other")}}},
			"passwordSecretRef.namespace must not be set")
	})
}
