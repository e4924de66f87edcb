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

// One reference of a resource with several is resolved again (its Ref changed and its ID was
// cleared, as a user does to point it elsewhere): the new ID is written, the other references'
// IDs stay, and the spec then stays still. Written as crossplane-runtime writes resolved IDs
// (a server-side apply of the changed fields only), each apply dropped the IDs the previous
// one had set, and the two references were resolved in turn, dozens of spec writes a second.
func TestReferenceResolvedAgainKeepsTheOthers(t *testing.T) {
	t.Parallel()
	const ns = "ref-again"
	teamNamespace(t, ns)
	om := func(name string) metav1.ObjectMeta { return metav1.ObjectMeta{Namespace: ns, Name: name} }
	d := &nsksv1alpha1.Domain{ObjectMeta: om("dom"),
		Spec: nsksv1alpha1.DomainSpec{ManagedResourceSpec: teamPC, ForProvider: nsksv1alpha1.DomainParameters{Name: "e2e-ref-again"}}}
	project := func(name string) *nsksv1alpha1.Project {
		return &nsksv1alpha1.Project{ObjectMeta: om(name), Spec: nsksv1alpha1.ProjectSpec{ManagedResourceSpec: teamPC,
			ForProvider: nsksv1alpha1.ProjectParameters{Name: "e2e-ref-again-" + name, DomainRef: &xpv2.Reference{Name: "dom"}}}}
	}
	home, away := project("home"), project("away")
	u := &nsksv1alpha1.User{ObjectMeta: om("bob"), Spec: nsksv1alpha1.UserSpec{ManagedResourceSpec: teamPC,
		ForProvider: nsksv1alpha1.UserParameters{Name: "e2e-ref-again-bob", DomainRef: &xpv2.Reference{Name: "dom"},
			DefaultProjectRef: &xpv2.Reference{Name: "home"}}}}
	apply(t, d, home, away, u)
	cleanup(t, u, home, away, d)
	for _, mg := range []*nsksv1alpha1.Project{home, away} {
		waitReady(t, mg)
	}
	waitReady(t, u)

	update(t, u, func(u *nsksv1alpha1.User) {
		u.Spec.ForProvider.DefaultProjectRef = &xpv2.Reference{Name: "away"}
		u.Spec.ForProvider.DefaultProjectID = nil
	})
	awayID, domainID := meta.GetExternalName(away), meta.GetExternalName(get(t, d))
	eventually(t, 60*time.Second, "the User's defaultProjectId to be the away Project's", func() bool {
		return deref(get(t, u).Spec.ForProvider.DefaultProjectID) == awayID
	})
	waitReady(t, u)
	before := get(t, u).GetGeneration()
	time.Sleep(10 * time.Second)
	got := get(t, u)
	if n := got.GetGeneration() - before; n != 0 {
		t.Errorf("the User's spec was written %d times in 10 s after its references resolved; want it still", n)
	}
	if deref(got.Spec.ForProvider.DomainID) != domainID || deref(got.Spec.ForProvider.DefaultProjectID) != awayID {
		t.Errorf("the User's domainId %q and defaultProjectId %q, want %q and %q", deref(got.Spec.ForProvider.DomainID),
			deref(got.Spec.ForProvider.DefaultProjectID), domainID, awayID)
	}
}
