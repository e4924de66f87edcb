//go:build e2e

package e2e

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
	xpv2 "github.com/crossplane/crossplane/apis/v2/core/v2"

	nsksv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
)

// A resource whose reference does not resolve is reconciled as soon as what it references
// gets its ID, not when its backoff comes round: here a Project has waited for its Domain for
// over a minute (its backoff is at its one-minute cap) when the Domain is applied, and the
// Project is Ready within seconds of the Domain.
func TestReferenceWokenWhenItsTargetGetsAnID(t *testing.T) {
	t.Parallel()
	const ns = "ref-wake"
	teamNamespace(t, ns)
	dom := &nsksv1alpha1.Domain{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "ref-wake-domain"},
		Spec:       nsksv1alpha1.DomainSpec{ManagedResourceSpec: teamPC, ForProvider: nsksv1alpha1.DomainParameters{Name: "e2e-ref-wake"}},
	}
	proj := &nsksv1alpha1.Project{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "ref-wake-project"},
		Spec: nsksv1alpha1.ProjectSpec{ManagedResourceSpec: teamPC, ForProvider: nsksv1alpha1.ProjectParameters{
			Name: "e2e-ref-wake-project", DomainRef: &xpv2.Reference{Name: dom.Name},
		}},
	}
	apply(t, proj)
	cleanup(t, proj, dom)
	eventually(t, 60*time.Second, "the Project to report its unresolved reference", func() bool {
		c := condition(get(t, proj), xpv2.TypeSynced)
		return c.Status == "False" && c.Reason == xpv2.ReasonReconcileError
	})
	time.Sleep(75 * time.Second)
	if meta.GetExternalName(get(t, proj)) != "" {
		t.Fatalf("the Project has external name %q before its Domain exists", meta.GetExternalName(proj))
	}

	apply(t, dom)
	waitReady(t, dom)
	domReady := time.Now()
	waitReady(t, proj)
	if d := time.Since(domReady); d > 15*time.Second {
		t.Errorf("the Project was Ready %s after its Domain, want it woken within seconds (its backoff alone would take up to a minute)", d.Round(time.Second))
	}
	if got := deref(proj.Spec.ForProvider.DomainID); got != meta.GetExternalName(dom) {
		t.Errorf("the Project's domainId %q, want its Domain's ID %q", got, meta.GetExternalName(dom))
	}
}
