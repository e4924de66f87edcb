// Package impliedrole manages Keystone implied-role rules: a prior role implies another, so
// whoever is given the prior role also has the implied one.
//
// A rule is a fact, not an object: it has no ID, no fields and nowhere to keep a provenance
// marker. Its external name is therefore its key, readable in EXTERNAL-NAME:
//
//	<prior role ID>/<implied role ID>
//
// It maps one to one onto the rule's URL in the identity API
// (/v3/roles/{prior}/implies/{implied}), which is checked with one HEAD per poll: rules are few
// (a handful per cloud), so there is no shared list to gain from. The fact package drives it;
// the marker lives on the managed resource (adoption.AnnotationMarker).
package impliedrole

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	clusterv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
	"github.com/crossplane-contrib/provider-identity/internal/controller/keystone/fact"
	"github.com/crossplane-contrib/provider-identity/internal/managedkind"
)

const (
	errKey        = "external name %q is not an implied-role rule key: want <prior role ID>/<implied role ID>"
	errUnresolved = "the %s of the implied-role rule is not known: set spec.forProvider.%s, or wait for its reference or selector to resolve"
	errCheck      = "cannot check Keystone implied-role rule %s"
	errImply      = "cannot make Keystone role imply another (rule %s): Keystone refuses a global role implying a domain-specific one, and implying a role named in its [assignment] prohibited_implied_role option (admin by default)"
	errUnimply    = "cannot remove Keystone implied-role rule %s"
	errChanged    = "spec.forProvider now names the implied-role rule %s, but this resource manages %s. A rule cannot be changed: restore the spec, or create another ImpliedRole and delete this one"

	typeName = "Keystone implied-role rule"
)

// kind is what an implied-role rule has of its own; it has no shared list.
var kind = fact.Kind[mr, rule]{
	Type: typeName, Parse: parseKey, URL: ruleURL,
	Desired: desired, Validate: validate, Record: record,
	ErrCheck: errCheck, ErrMake: errImply, ErrRemove: errUnimply, ErrChanged: errChanged,
}

// A rule is one prior role implying one other, identified entirely by its key.
type rule struct {
	PriorID   string
	ImpliedID string
}

// Key renders the rule as its external name.
func (r rule) Key() string { return keystone.ImpliedRoleKey(r.PriorID, r.ImpliedID) }

func ruleURL(sc keystone.API, r rule) string {
	return keystone.ImpliedRoleURL(sc, r.PriorID, r.ImpliedID)
}

// parseKey reads an external name written by Key. Role IDs never hold '/'.
func parseKey(s string) (rule, error) {
	p, i, err := fact.SplitPair(s, errKey)
	return rule{PriorID: p, ImpliedID: i}, err
}

// mr is an ImpliedRole of either scope: the driver is written once against it.
type mr interface {
	resource.Managed
	Parameters() *v1alpha1.ImpliedRoleParameters
	Observation() *v1alpha1.ImpliedRoleObservation
	GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy
}

// scopes are the ImpliedRole kinds: cluster-scoped (legacy) and namespaced.
var scopes = []managedkind.Scoped[mr]{
	{GVK: clusterv1alpha1.ImpliedRoleGroupVersionKind, Obj: &clusterv1alpha1.ImpliedRole{}},
	{GVK: v1alpha1.ImpliedRoleGroupVersionKind, Obj: &v1alpha1.ImpliedRole{}},
}

// Setup adds the controllers that reconcile ImpliedRole managed resources of both scopes.
func Setup(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopes(mgr, o, scopes, setup)
}

// SetupGated adds each scope's controller once its ImpliedRole CRD is installed.
func SetupGated(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopesGated(mgr, o, scopes, setup)
}

func setup(mgr ctrl.Manager, o managedkind.Options, gvk schema.GroupVersionKind, obj mr) error {
	return managedkind.SetupKeystone(mgr, o, managedkind.Kind[mr, keystone.API, rule]{
		GVK: gvk, Object: obj,
		NewDriver: kind.Drivers(o.SharedReads),
	})
}

// record writes the observed rule to status.atProvider.
func record(mg mr, r rule, p identityv1alpha1.Provenance) {
	*mg.Observation() = v1alpha1.ImpliedRoleObservation{ID: r.Key(), PriorRoleID: r.PriorID, ImpliedRoleID: r.ImpliedID, Provenance: p}
}

// desired is the rule the spec names, with its references resolved.
func desired(mg mr) (rule, error) {
	fp := mg.Parameters()
	r := rule{PriorID: fact.Deref(fp.PriorRoleID), ImpliedID: fact.Deref(fp.ImpliedRoleID)}
	if err := fact.Resolved(errUnresolved,
		fact.ID{What: "prior role", Field: "priorRoleId", Value: r.PriorID},
		fact.ID{What: "implied role", Field: "impliedRoleId", Value: r.ImpliedID}); err != nil {
		return rule{}, err
	}
	return r, nil
}
