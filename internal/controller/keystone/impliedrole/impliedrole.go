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
// (a handful per cloud), so there is no shared list to gain from. The marker lives on the
// managed resource (adoption.AnnotationMarker): a rule that exists without this resource having
// made or adopted it is AdoptionRequired under FailOnConflict, and deleting the resource removes
// only a rule it owns.
package impliedrole

import (
	"context"
	"strings"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	clusterv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/keystone/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/apis/namespaced/keystone/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
	"github.com/crossplane-contrib/provider-identity/internal/managedkind"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
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

// A rule is one prior role implying one other, identified entirely by its key.
type rule struct {
	PriorID   string
	ImpliedID string
}

// Key renders the rule as its external name.
func (r rule) Key() string { return keystone.ImpliedRoleKey(r.PriorID, r.ImpliedID) }

func (r rule) url(sc keystone.API) string { return keystone.ImpliedRoleURL(sc, r.PriorID, r.ImpliedID) }

// parseKey reads an external name written by Key. Role IDs never hold '/'.
func parseKey(s string) (rule, error) {
	p, i, ok := strings.Cut(s, "/")
	if !ok || p == "" || i == "" || strings.Contains(i, "/") {
		return rule{}, errors.Errorf(errKey, s)
	}
	return rule{PriorID: p, ImpliedID: i}, nil
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
		NewDriver: func(sc keystone.API) adoption.Driver[mr, rule] { return &external{sc: sc} },
	})
}

// external drives Keystone implied-role rules for the adoption engine.
type external struct{ sc keystone.API }

// Get checks that the rule named by the external name exists: one HEAD.
func (e *external) Get(ctx context.Context, _ mr, id string) (rule, error) {
	r, err := parseKey(id)
	if err != nil {
		return r, err
	}
	return r, e.check(ctx, r)
}

// Find checks whether the rule the spec names exists. There is at most one.
func (e *external) Find(ctx context.Context, mg mr) ([]rule, error) {
	r, err := desired(mg)
	if err != nil {
		return keystone.Unresolved[rule](mg, err)
	}
	err = e.check(ctx, r)
	switch {
	case keystone.IsNotFound(err):
		return nil, nil
	case err != nil:
		return nil, err
	}
	return []rule{r}, nil
}

func (e *external) check(ctx context.Context, r rule) error {
	err := keystone.CheckFact(ctx, e.sc, r.url(e.sc))
	if err != nil && !keystone.IsNotFound(err) {
		return keystone.Wrap(err, errCheck, r.Key())
	}
	return err
}

func (e *external) IsNotFound(err error) bool { return keystone.IsNotFound(err) }

// Describe presents a rule; it carries no marker (the engine reads the resource's).
func (e *external) Describe(r rule) adoption.Description {
	return adoption.Description{ID: r.Key(), Type: typeName, Key: r.Key(), Markerless: true}
}

// Observe records the rule. Existing is all there is to being up to date, unless the spec now
// names another rule than the one this resource manages.
func (e *external) Observe(mg mr, r rule, p identityv1alpha1.Provenance) adoption.Observation {
	*mg.Observation() = v1alpha1.ImpliedRoleObservation{ID: r.Key(), PriorRoleID: r.PriorID, ImpliedRoleID: r.ImpliedID, Provenance: p}
	want, err := desired(mg)
	if err != nil {
		// Unresolved references fail the reconcile before Observe; treat as no change.
		return adoption.Observation{UpToDate: true}
	}
	diff := cmp.Diff(want.Key(), r.Key())
	return adoption.Observation{UpToDate: diff == "", Diff: diff}
}

// Create makes the rule. A HEAD right before the PUT refuses a rule made since Observe's (by
// hand, by another installation) instead of claiming it: Keystone's answer to a PUT of an
// existing rule does not say who made it.
func (e *external) Create(ctx context.Context, mg mr, _ provenance.Marker) (string, managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return "", nil, err
	}
	r, err := desired(mg)
	if err != nil {
		return "", nil, err
	}
	switch err := e.check(ctx, r); {
	case err == nil:
		return "", nil, &adoption.ConflictError{Object: e.Describe(r)}
	case !keystone.IsNotFound(err):
		return "", nil, err
	}
	if err := keystone.PutFact(ctx, e.sc, r.url(e.sc)); err != nil {
		return "", nil, keystone.Wrap(err, errImply, r.Key())
	}
	return r.Key(), nil, nil
}

// Update has nothing to write: a rule has no fields, and its marker lives on the resource (the
// engine stamps it on adoption). A spec that now names another rule is refused rather than
// silently leaving the old one behind.
func (e *external) Update(_ context.Context, mg mr, r rule, _ provenance.Marker) (managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return nil, err
	}
	want, err := desired(mg)
	if err != nil {
		return nil, err
	}
	if want != r {
		return nil, errors.Errorf(errChanged, want.Key(), r.Key())
	}
	return nil, nil
}

// Delete removes the observed rule, the one this resource owns.
func (e *external) Delete(ctx context.Context, _ mr, r rule) error {
	err := keystone.DeleteFact(ctx, e.sc, r.url(e.sc))
	return keystone.Wrap(keystone.IgnoreNotFound(err), errUnimply, r.Key())
}

// desired is the rule the spec names, with its references resolved.
func desired(mg mr) (rule, error) {
	fp := mg.Parameters()
	r := rule{PriorID: deref(fp.PriorRoleID), ImpliedID: deref(fp.ImpliedRoleID)}
	for _, f := range []struct{ what, field, v string }{
		{"prior role", "priorRoleId", r.PriorID},
		{"implied role", "impliedRoleId", r.ImpliedID},
	} {
		if f.v == "" {
			return rule{}, errors.Errorf(errUnresolved, f.what, f.field)
		}
	}
	return r, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
