package application

import (
	"errors"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	nsv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/authentiktest"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

// A namespaced Application is driven by the same driver. Its marker names its namespace, so an
// Application of another namespace never takes the application for its own, not even with
// AdoptExisting: it is refused, naming the owner with its namespace, and nothing is written.
func TestNamespaced(t *testing.T) {
	e := authentiktest.New(t)
	nsKind := kind
	nsKind.GroupKind = nsv1alpha1.ApplicationGroupKind.String()
	app := func(namespace string) *nsv1alpha1.Application {
		return &nsv1alpha1.Application{
			ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: "wiki"},
			Spec:       nsv1alpha1.ApplicationSpec{ForProvider: newMR("wiki").Spec.ForProvider},
		}
	}
	a := app("team-a")
	if r, err := nsKind.Reconcile(e, a); err != nil || !r.Created {
		t.Fatalf("first reconcile: created %v, %v", r.Created, err)
	}
	if r, err := nsKind.Reconcile(e, a); err != nil || !r.Observation.ResourceUpToDate {
		t.Fatalf("second reconcile: %+v, %v", r.Observation, err)
	}
	_, m, found, err := provenance.ExtractFromText(raw(t, e, "wiki")["meta_description"].(string))
	if want := "Application.authentik.identity.m.crossplane.io/team-a/wiki"; !found || err != nil || m.Resource != want {
		t.Errorf("marker %+v (found %v, %v), want resource %s", m, found, err, want)
	}
	if a.Status.AtProvider.ID != "wiki" || a.Status.AtProvider.Provenance != identityv1alpha1.Owned {
		t.Errorf("atProvider: %+v", a.Status.AtProvider)
	}

	b := app("team-b")
	b.Spec.AdoptionPolicy = identityv1alpha1.AdoptExisting
	e.Server.ResetCounts()
	_, err = nsKind.Reconcile(e, b)
	var ce *adoption.ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("team-b Application aiming at team-a's: got %v, want AdoptionRequired", err)
	}
	if !strings.Contains(err.Error(), `"wiki" in namespace team-a`) {
		t.Errorf("conflict does not name the owner with its namespace: %v", err)
	}
	if w := e.Writes(); len(w) != 0 {
		t.Errorf("writes after the conflict: %v", w)
	}
}
