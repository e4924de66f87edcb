//go:build e2e

package e2e

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"

	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
)

// A create that Keystone carried out but answered with a 503 (the answer lost after the
// commit): the markerless assignment is recognised as the resource's own on the next reconcile,
// keeps its marker across reconciles, and goes with the resource.
func TestRoleAssignmentCreateAnswered5xxAfterCommit(t *testing.T) {
	// Not parallel: it injects a fault.
	fp, path, key := handAssignable(t, "e2e-ra-5xx")
	counter.inject(t, fault{Method: http.MethodPut, Prefix: "/v3/" + strings.Join(path, "/"), Status: http.StatusServiceUnavailable, Times: 1, Committed: true})
	ra := newRoleAssignment("ra-create-5xx", fp)
	create(t, ra)
	waitReady(t, ra)
	if got := meta.GetExternalName(ra); got != key {
		t.Fatalf("external name: got %q, want %q", got, key)
	}
	if ra.GetAnnotations()[adoption.AnnotationCreateUnconfirmed] == "" {
		t.Errorf("the failed create was not recorded as unconfirmed: the 503 was never injected?")
	}
	stays(t, "Ready and Owned with the marker annotation", func() bool {
		get(t, ra)
		return ra.Status.AtProvider.Provenance == identityv1alpha1.Owned && ra.GetAnnotations()[adoption.AnnotationMarker] != ""
	})
	if err := kube.Delete(context.Background(), ra); err != nil {
		t.Fatal(err)
	}
	waitGone(t, ra)
	if roleAssigned(t, path...) {
		t.Fatalf("the assignment survived its resource's deletion")
	}
}
