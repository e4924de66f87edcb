// Package group manages Keystone groups.
package group

import (
	"context"
	"net/url"

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
	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
	"github.com/crossplane-contrib/provider-identity/internal/managedkind"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

const (
	errNoDomain = "spec.forProvider.domainId of group %q is not known yet: set domainId, or wait for domainRef/domainSelector to resolve"
	errCreate   = "cannot create Keystone group %q"
	errUpdate   = "cannot update Keystone group %q (ID %s)"
	errMove     = "Keystone group %q (ID %s) is in domain %s but spec.forProvider.domainId is %s: Keystone cannot move a group " +
		"to another domain, so it was left untouched. Set spec.forProvider.domainId back to %s, or create a new Group"
	errDelete = "cannot delete Keystone group %q (ID %s)"

	typeName = "Keystone group"
)

// group is a Keystone group as the identity API returns it (keystone.Group, the shape the importer reads too).
type group = keystone.Group

var groups = keystone.Groups

func idOf(o group) string { return o.ID }

// inDomain is the scope a group is read in: the groups of its domain.
func inDomain(domainID string) url.Values {
	return url.Values{"domain_id": {domainID}}
}

// mr is a Group of either scope: the driver is written once against it.
type mr interface {
	resource.Managed
	Parameters() *v1alpha1.GroupParameters
	Observation() *v1alpha1.GroupObservation
	GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy
}

// scopes are the Group kinds: cluster-scoped (legacy) and namespaced.
var scopes = []managedkind.Scoped[mr]{
	{GVK: clusterv1alpha1.GroupGroupVersionKind, Obj: &clusterv1alpha1.Group{}},
	{GVK: v1alpha1.GroupGroupVersionKind, Obj: &v1alpha1.Group{}},
}

// Setup adds the controllers that reconcile Group managed resources of both scopes.
func Setup(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopes(mgr, o, scopes, setup)
}

// SetupGated adds each scope's controller once its Group CRD is installed.
func SetupGated(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopesGated(mgr, o, scopes, setup)
}

func setup(mgr ctrl.Manager, o managedkind.Options, gvk schema.GroupVersionKind, obj mr) error {
	return managedkind.SetupKeystone(mgr, o, managedkind.Kind[mr, keystone.API, group]{
		GVK: gvk, Object: obj,
		NewDriver: sharedDriver(o.SharedReads),
	})
}

// sharedDriver returns the driver over a client, whose reads of the groups of one scope are
// shared by every resource as o says.
func sharedDriver(o clients.SharedReadOptions) func(keystone.API) adoption.Driver[mr, group] {
	shared := keystone.NewShared(groups, idOf, o)
	return func(sc keystone.API) adoption.Driver[mr, group] { return &external{sc: sc, groups: shared} }
}

// external drives Keystone groups for the adoption engine.
type external struct {
	sc keystone.API
	// groups reads and writes through the lists shared by every resource of the kind.
	groups keystone.Shared[group]
}

func (e *external) Get(ctx context.Context, mg mr, id string) (group, error) {
	return e.groups.Get(ctx, e.sc, inDomain(deref(mg.Parameters().DomainID)), id)
}

// Find looks a group up by name within its domain, Keystone's unique key for groups.
func (e *external) Find(ctx context.Context, mg mr) ([]group, error) {
	fp := mg.Parameters()
	domain := deref(fp.DomainID)
	if domain == "" {
		return keystone.Unresolved[group](mg, errors.Errorf(errNoDomain, fp.Name))
	}
	return e.groups.FindInDomain(ctx, e.sc, inDomain(domain), keystone.NameInDomain{Name: fp.Name, DomainID: domain}, keyOf)
}

func keyOf(g group) keystone.NameInDomain {
	return keystone.NameInDomain{Name: g.Name, DomainID: g.DomainID}
}

func (e *external) IsNotFound(err error) bool { return keystone.IsNotFound(err) }

// IsTwin tells Keystone's refusal of a second group with the same name (in its domain): the
// engine then creates without looking the name up first (adoption.TwinRefuser).
func (e *external) IsTwin(err error) bool { return keystone.IsTwin(err) }

func (e *external) Describe(g group) adoption.Description {
	return adoption.Description{ID: g.ID, Type: typeName, Key: g.Name, Marker: keystone.ParseMarker(g.Marker)}
}

func (e *external) Observe(mg mr, g group, p identityv1alpha1.Provenance) adoption.Observation {
	*mg.Observation() = v1alpha1.GroupObservation{ID: g.ID, Name: g.Name, DomainID: g.DomainID, Description: g.Description, Provenance: p}
	fp := mg.Parameters()
	diff := cmp.Diff(desired(fp), observed(g, fp))
	return adoption.Observation{UpToDate: diff == "", Diff: diff}
}

func (e *external) Create(ctx context.Context, mg mr, m provenance.Marker) (string, managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return "", nil, err
	}
	fp := mg.Parameters()
	if deref(fp.DomainID) == "" {
		return "", nil, errors.Errorf(errNoDomain, fp.Name)
	}
	body := desired(fp)
	body.Marker = m.Encode()
	g, err := e.groups.Create(ctx, e.sc, inDomain(body.DomainID), body)
	if err != nil {
		return "", nil, keystone.Wrap(err, errCreate, fp.Name)
	}
	return g.ID, nil, nil
}

// Update patches the name, the description and the marker. A group cannot change domains.
func (e *external) Update(ctx context.Context, mg mr, g group, m provenance.Marker) (managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return nil, err
	}
	if want := deref(mg.Parameters().DomainID); want != "" && want != g.DomainID {
		return nil, errors.Errorf(errMove, g.Name, g.ID, g.DomainID, want, g.DomainID)
	}
	body := desired(mg.Parameters())
	body.DomainID = ""
	body.Marker = m.Encode()
	if err := e.groups.Update(ctx, e.sc, inDomain(g.DomainID), g.ID, body); err != nil {
		return nil, keystone.Wrap(err, errUpdate, g.Name, g.ID)
	}
	return nil, nil
}

// LocalDependents names the RoleAssignment resources that manage the role assignments of the
// group with ID id: while any of them has its assignment, the deletion is held by it without
// asking Keystone (adoption.LocalCascader). The group is described from the spec.
func (e *external) LocalDependents(mg mr, id string) (adoption.Description, []adoption.LocalDependents) {
	return adoption.Description{ID: id, Type: typeName, Key: mg.Parameters().Name}, []adoption.LocalDependents{keystone.AssignmentsOn("group", id)}
}

// Dependents lists what Keystone would delete with the group: its role assignments and its
// members' memberships.
func (e *external) Dependents(ctx context.Context, _ mr, g group) ([]adoption.Dependent, error) {
	return adoption.Gather(ctx,
		func() ([]adoption.Dependent, error) {
			return keystone.AssignmentsDeletedWith(ctx, e.sc, "group", g.ID)
		},
		func() ([]adoption.Dependent, error) { return keystone.MembersOfGroup(ctx, e.sc, g.ID, g.Name) },
	)
}

func (e *external) Delete(ctx context.Context, _ mr, g group) error {
	return keystone.Wrap(keystone.IgnoreNotFound(e.groups.Delete(ctx, e.sc, inDomain(g.DomainID), g.ID)), errDelete, g.Name, g.ID)
}

// managedFields is what the spec manages; only these are compared and written.
type managedFields struct {
	Name        string  `json:"name"`
	DomainID    string  `json:"domain_id,omitempty"`
	Description *string `json:"description,omitempty"`
	Marker      string  `json:"crossplane_provenance,omitempty"`
}

func desired(fp *v1alpha1.GroupParameters) managedFields {
	return managedFields{Name: fp.Name, DomainID: deref(fp.DomainID), Description: fp.Description}
}

// observed projects a group onto the fields the spec sets, so unset fields never differ. The
// domain is always compared: every group resource names one.
func observed(g group, fp *v1alpha1.GroupParameters) managedFields {
	o := managedFields{Name: g.Name, DomainID: g.DomainID}
	if fp.Description != nil {
		o.Description = &g.Description
	}
	return o
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
