//go:build e2e

package e2e

import (
	"context"
	"net/http"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	nsksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
)

// A namespaced ApplicationCredential for a namespaced User on a namespaced Project, both by
// reference, with the Role it carries by reference too, and the user's password Secret in the
// namespace: its clouds.yaml authenticates, its marker names the namespace, and deleting the
// resources deletes the credential.
func TestNamespacedApplicationCredential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const ns = "e2e-ns-appcred"
	mrs := namespacedKeystone(t, ns)
	create(t, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "deployer-password"}, StringData: map[string]string{"password": "Deployer-Pw-1"}})
	pw := &identityv1alpha1.SecretKeySelector{SecretReference: identityv1alpha1.SecretReference{Name: "deployer-password"}, Key: "password"}
	p := &nsksv1alpha1.Project{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "apps"}, Spec: nsksv1alpha1.ProjectSpec{
		ManagedResourceSpec: mrs, ForProvider: nsksv1alpha1.ProjectParameters{Name: "e2e-ns-appcred-apps", DomainID: ptr("default")}}}
	u := &nsksv1alpha1.User{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "deployer"}, Spec: nsksv1alpha1.UserSpec{
		ManagedResourceSpec: mrs, ForProvider: nsksv1alpha1.UserParameters{Name: "e2e-ns-appcred-deployer", DomainID: ptr("default"), PasswordSecretRef: pw}}}
	r := &nsksv1alpha1.Role{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "deploy"}, Spec: nsksv1alpha1.RoleSpec{
		ManagedResourceSpec: mrs, ForProvider: nsksv1alpha1.RoleParameters{Name: "e2e-ns-appcred-deploy"}}}
	ra := &nsksv1alpha1.RoleAssignment{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "deployer-deploys"}, Spec: nsksv1alpha1.RoleAssignmentSpec{
		ManagedResourceSpec: mrs, ForProvider: nsksv1alpha1.RoleAssignmentParameters{RoleRef: &xpv2.Reference{Name: "deploy"},
			UserRef: &xpv2.Reference{Name: "deployer"}, ProjectRef: &xpv2.Reference{Name: "apps"}}}}
	acMRS := mrs
	acMRS.WriteConnectionSecretToReference = &xpv2.LocalSecretReference{Name: "deployer-cloud"}
	ac := &nsksv1alpha1.ApplicationCredential{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "deployer-ci"}, Spec: nsksv1alpha1.ApplicationCredentialSpec{
		ManagedResourceSpec: acMRS, ForProvider: nsksv1alpha1.ApplicationCredentialParameters{Name: "ci",
			UserRef: &xpv2.Reference{Name: "deployer"}, ProjectRef: &xpv2.Reference{Name: "apps"},
			RoleRefs: []xpv2.Reference{{Name: "deploy"}}, PasswordSecretRef: pw,
			ExpiresAt: &metav1.Time{Time: metav1.Now().Add(24 * 3600 * 1e9).UTC().Truncate(1e9)}}}}
	for _, mg := range []resource.Managed{p, u, r, ra, ac} {
		create(t, mg)
	}
	for _, mg := range []resource.Managed{p, u, r, ra, ac} {
		waitReady(t, mg)
	}
	id := meta.GetExternalName(ac)
	userID := meta.GetExternalName(u)
	data := appCredSecret(ns, "deployer-cloud")
	if string(data["id"]) != id {
		t.Fatalf("connection Secret id %q, want %s", data["id"], id)
	}
	if got := cloudsYAMLAuthenticates(t, data); got != http.StatusCreated {
		t.Errorf("clouds.yaml's credential got %d, want 201", got)
	}
	desc := field(t, keystone.raw(t, appCredPath(userID, id)...), "application_credential", "description").(string)
	if m := descriptionMarker(t, desc); m.Resource != "ApplicationCredential.keystone.identity.m.crossplane.io/"+ns+"/deployer-ci" {
		t.Errorf("marker %+v", m)
	}
	o := get(t, ac).Status.AtProvider
	if len(o.Roles) != 1 || o.Roles[0].ID != meta.GetExternalName(r) || o.ExpiresAt == nil || o.ProjectID != meta.GetExternalName(p) {
		t.Errorf("status.atProvider: %+v", o)
	}

	if err := kube.Delete(ctx, ac); err != nil {
		t.Fatal(err)
	}
	waitGone(t, ac)
	if keystone.exists(t, appCredPath(userID, id)...) {
		t.Errorf("application credential %s survived its resource's deletion", id)
	}
	for _, mg := range []resource.Managed{ra, r, u, p} {
		if err := kube.Delete(ctx, mg); err != nil {
			t.Fatal(err)
		}
		waitGone(t, mg)
	}
}
