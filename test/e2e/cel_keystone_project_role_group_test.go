//go:build e2e

package e2e

import (
	"context"
	"strings"
	"testing"

	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	ksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
)

// celRefused asserts that the API server refuses to create obj, with a message containing want.
func celRefused(t *testing.T, obj client.Object, want string) {
	t.Helper()
	err := kube.Create(context.Background(), obj)
	if err == nil {
		_ = kube.Delete(context.Background(), obj)
		t.Fatalf("%s was accepted; want it refused with %q", obj.GetName(), want)
	}
	if !strings.Contains(err.Error(), want) {
		t.Fatalf("%s refused with %q; want a message containing %q", obj.GetName(), err, want)
	}
}

// celUpdateRefused creates obj paused (no controller touches it), changes it and asserts that the
// API server refuses the change with a message containing want.
func celUpdateRefused[T client.Object](t *testing.T, obj T, change func(T), want string) {
	t.Helper()
	meta.AddAnnotations(obj, map[string]string{meta.AnnotationKeyReconciliationPaused: "true"})
	create(t, obj)
	// The paused reconciler still writes a condition: retry on the conflicts that causes.
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		change(get(t, obj))
		return kube.Update(context.Background(), obj)
	})
	if err == nil {
		t.Fatalf("the change to %s was accepted; want it refused with %q", obj.GetName(), want)
	}
	if !strings.Contains(err.Error(), want) {
		t.Fatalf("the change to %s was refused with %q; want a message containing %q", obj.GetName(), err, want)
	}
}

func TestCELKeystoneProject(t *testing.T) {
	t.Parallel()
	withDomain := inDomain("d1")
	t.Run("NoDomain", func(t *testing.T) {
		celRefused(t, newProject("cel-pj-nodomain", "x"), "a project belongs to a domain: set one of domainId, domainRef or domainSelector")
	})
	t.Run("BlankName", func(t *testing.T) {
		celRefused(t, newProject("cel-pj-blank", "  ", withDomain), "spec.forProvider.name")
	})
	t.Run("NameTooLong", func(t *testing.T) {
		celRefused(t, newProject("cel-pj-long", strings.Repeat("n", 65), withDomain), "spec.forProvider.name: Too long")
	})
	t.Run("TagWithSlash", func(t *testing.T) {
		celRefused(t, newProject("cel-pj-tag", "x", withDomain, func(p *ksv1alpha1.Project) { p.Spec.ForProvider.Tags = &[]string{"a/b"} }),
			"spec.forProvider.tags[0]")
	})
	t.Run("DuplicateTags", func(t *testing.T) {
		celRefused(t, newProject("cel-pj-duptag", "x", withDomain, func(p *ksv1alpha1.Project) { p.Spec.ForProvider.Tags = &[]string{"a", "a"} }),
			"Duplicate value")
	})
	t.Run("DomainIDImmutable", func(t *testing.T) {
		celUpdateRefused(t, newProject("cel-pj-movedomain", "x", withDomain), func(p *ksv1alpha1.Project) { p.Spec.ForProvider.DomainID = ptr("d2") },
			"domainId cannot be changed: Keystone cannot move a project to another domain")
	})
	t.Run("ParentIDImmutable", func(t *testing.T) {
		celUpdateRefused(t, newProject("cel-pj-moveparent", "x", withDomain, func(p *ksv1alpha1.Project) { p.Spec.ForProvider.ParentID = ptr("p1") }),
			func(p *ksv1alpha1.Project) { p.Spec.ForProvider.ParentID = ptr("p2") },
			"parentId cannot be changed: Keystone cannot move a project to another parent")
	})
	t.Run("DomainRefAccepted", func(t *testing.T) {
		// The at-least-one rule accepts a reference alone: the ID is resolved later.
		p := newProject("cel-pj-ref", "x", func(p *ksv1alpha1.Project) { p.Spec.ForProvider.DomainRef = &xpv2.Reference{Name: "none"} })
		meta.AddAnnotations(p, map[string]string{meta.AnnotationKeyReconciliationPaused: "true"})
		create(t, p)
	})
}

func TestCELKeystoneRole(t *testing.T) {
	t.Parallel()
	t.Run("BlankName", func(t *testing.T) {
		celRefused(t, newRole("cel-role-blank", " "), "spec.forProvider.name")
	})
	t.Run("NameTooLong", func(t *testing.T) {
		celRefused(t, newRole("cel-role-long", strings.Repeat("n", 256)), "spec.forProvider.name: Too long")
	})
	t.Run("DomainIDImmutable", func(t *testing.T) {
		celUpdateRefused(t, newRole("cel-role-move", "x", func(r *ksv1alpha1.Role) { r.Spec.ForProvider.DomainID = ptr("d1") }),
			func(r *ksv1alpha1.Role) { r.Spec.ForProvider.DomainID = ptr("d2") },
			"domainId cannot be changed: Keystone cannot move a role to another domain")
	})
}

func TestCELKeystoneGroup(t *testing.T) {
	t.Parallel()
	t.Run("NoDomain", func(t *testing.T) {
		celRefused(t, newGroup("cel-grp-nodomain", "x"), "a group belongs to a domain: set one of domainId, domainRef or domainSelector")
	})
	t.Run("NameTooLong", func(t *testing.T) {
		celRefused(t, newGroup("cel-grp-long", strings.Repeat("n", 65), groupInDomain("d1")), "spec.forProvider.name: Too long")
	})
	t.Run("DomainIDImmutable", func(t *testing.T) {
		celUpdateRefused(t, newGroup("cel-grp-move", "x", groupInDomain("d1")), func(g *ksv1alpha1.Group) { g.Spec.ForProvider.DomainID = ptr("d2") },
			"domainId cannot be changed: Keystone cannot move a group to another domain")
	})
}
