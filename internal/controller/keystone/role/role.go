// Package role manages Keystone roles, global and domain-specific.
package role

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
	errNoDomain = "spec.forProvider.domainId of role %q is not known yet: wait for domainRef/domainSelector to resolve"
	errCreate   = "cannot create Keystone role %q"
	errUpdate   = "cannot update Keystone role %q (ID %s)"
	errMove     = "Keystone role %q (ID %s) is %s but the spec asks for %s: Keystone cannot move a role between domains, " +
		"so it was left untouched. Make spec.forProvider.domainId (or domainRef/domainSelector) match, or create a new Role"
	errDelete = "cannot delete Keystone role %q (ID %s)"

	typeName = "Keystone role"
)

// role is a Keystone role as the identity API returns it (keystone.Role, the shape the importer reads too).
type role = keystone.Role

var roles = keystone.Roles

func idOf(o role) string { return o.ID }

// scopeOf is the scope a role is read in: the roles of its domain, or the global roles
// (Keystone lists only those when no domain_id is given).
func scopeOf(domainID string) url.Values {
	if domainID == "" {
		return nil
	}
	return url.Values{"domain_id": {domainID}}
}

// mr is a Role of either scope: the driver is written once against it.
type mr interface {
	resource.Managed
	Parameters() *v1alpha1.RoleParameters
	Observation() *v1alpha1.RoleObservation
	GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy
}

// scopes are the Role kinds: cluster-scoped (legacy) and namespaced.
var scopes = []managedkind.Scoped[mr]{
	{GVK: clusterv1alpha1.RoleGroupVersionKind, Obj: &clusterv1alpha1.Role{}},
	{GVK: v1alpha1.RoleGroupVersionKind, Obj: &v1alpha1.Role{}},
}

// Setup adds the controllers that reconcile Role managed resources of both scopes.
func Setup(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopes(mgr, o, scopes, setup)
}

// SetupGated adds each scope's controller once its Role CRD is installed.
func SetupGated(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopesGated(mgr, o, scopes, setup)
}

func setup(mgr ctrl.Manager, o managedkind.Options, gvk schema.GroupVersionKind, obj mr) error {
	return managedkind.SetupKeystone(mgr, o, managedkind.Kind[mr, keystone.API, role]{
		GVK: gvk, Object: obj,
		NewDriver: sharedDriver(o.SharedReads),
	})
}

// sharedDriver returns the driver over a client, whose reads of the roles of one scope are
// shared by every resource as o says.
func sharedDriver(o clients.SharedReadOptions) func(keystone.API) adoption.Driver[mr, role] {
	shared := keystone.NewShared(roles, idOf, o)
	return func(sc keystone.API) adoption.Driver[mr, role] { return &external{sc: sc, roles: shared} }
}

// external drives Keystone roles for the adoption engine.
type external struct {
	sc keystone.API
	// roles reads and writes through the lists shared by every resource of the kind.
	roles keystone.Shared[role]
}

func (e *external) Get(ctx context.Context, mg mr, id string) (role, error) {
	return e.roles.Get(ctx, e.sc, scopeOf(deref(mg.Parameters().DomainID)), id)
}

// Find looks a role up by name among the global roles, or among its domain's roles when it is
// domain-specific: Keystone lists only global roles unless domain_id is given.
func (e *external) Find(ctx context.Context, mg mr) ([]role, error) {
	fp := mg.Parameters()
	domain := deref(fp.DomainID)
	if domain == "" && (fp.DomainRef != nil || fp.DomainSelector != nil) {
		// Without its domain, the role cannot be told from a global one of the same name.
		return keystone.Unresolved[role](mg, errors.Errorf(errNoDomain, fp.Name))
	}
	return e.roles.FindInDomain(ctx, e.sc, scopeOf(domain), keystone.NameInDomain{Name: fp.Name, DomainID: domain}, keyOf)
}

func keyOf(r role) keystone.NameInDomain {
	return keystone.NameInDomain{Name: r.Name, DomainID: r.DomainID}
}

func (e *external) IsNotFound(err error) bool { return keystone.IsNotFound(err) }

// IsTwin tells Keystone's refusal of a second role with the same name (in its domain): the
// engine then creates without looking the name up first (adoption.TwinRefuser).
func (e *external) IsTwin(err error) bool { return keystone.IsTwin(err) }

func (e *external) Describe(r role) adoption.Description {
	return adoption.Description{ID: r.ID, Type: typeName, Key: r.Name, Marker: keystone.ParseMarker(r.Marker)}
}

func (e *external) Observe(mg mr, r role, p identityv1alpha1.Provenance) adoption.Observation {
	*mg.Observation() = v1alpha1.RoleObservation{ID: r.ID, Name: r.Name, DomainID: r.DomainID, Description: r.Description, Provenance: p}
	fp := mg.Parameters()
	diff := cmp.Diff(desired(fp), observed(r, fp))
	return adoption.Observation{UpToDate: diff == "", Diff: diff}
}

func (e *external) Create(ctx context.Context, mg mr, m provenance.Marker) (string, managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return "", nil, err
	}
	fp := mg.Parameters()
	if fp.DomainID == nil && (fp.DomainRef != nil || fp.DomainSelector != nil) {
		// Never make a global role for a resource that asks for a domain-specific one.
		return "", nil, errors.Errorf(errNoDomain, fp.Name)
	}
	body := desired(fp)
	body.Marker = m.Encode()
	r, err := e.roles.Create(ctx, e.sc, scopeOf(body.DomainID), body)
	if err != nil {
		return "", nil, keystone.Wrap(err, errCreate, mg.Parameters().Name)
	}
	return r.ID, nil, nil
}

// Update patches the name, the description and the marker. A role cannot change domains.
func (e *external) Update(ctx context.Context, mg mr, r role, m provenance.Marker) (managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return nil, err
	}
	if want := deref(mg.Parameters().DomainID); want != r.DomainID {
		return nil, errors.Errorf(errMove, r.Name, r.ID, scope(r.DomainID), scope(want))
	}
	body := desired(mg.Parameters())
	body.DomainID = ""
	body.Marker = m.Encode()
	if err := e.roles.Update(ctx, e.sc, scopeOf(r.DomainID), r.ID, body); err != nil {
		return nil, keystone.Wrap(err, errUpdate, r.Name, r.ID)
	}
	return nil, nil
}

// LocalDependents names the RoleAssignment resources that manage the role assignments of the
// role with ID id: while any of them has its assignment, the deletion is held by it without
// asking Keystone (adoption.LocalCascader). The role is described from the spec.
func (e *external) LocalDependents(mg mr, id string) (adoption.Description, []adoption.LocalDependents) {
	return adoption.Description{ID: id, Type: typeName, Key: mg.Parameters().Name}, []adoption.LocalDependents{keystone.AssignmentsOn("role", id)}
}

// Dependents lists what Keystone would delete with the role: every assignment of it and the
// implied-role rules it takes part in, either side.
func (e *external) Dependents(ctx context.Context, _ mr, r role) ([]adoption.Dependent, error) {
	return adoption.Gather(ctx,
		func() ([]adoption.Dependent, error) {
			return keystone.AssignmentsDeletedWith(ctx, e.sc, "role", r.ID)
		},
		func() ([]adoption.Dependent, error) { return keystone.ImpliedRoleRules(ctx, e.sc, r.ID) },
	)
}

func (e *external) Delete(ctx context.Context, _ mr, r role) error {
	return keystone.Wrap(keystone.IgnoreNotFound(e.roles.Delete(ctx, e.sc, scopeOf(r.DomainID), r.ID)), errDelete, r.Name, r.ID)
}

func scope(domain string) string {
	if domain == "" {
		return "a global role"
	}
	return "specific to domain " + domain
}

// managedFields is what the spec manages; only these are compared and written.
type managedFields struct {
	Name        string  `json:"name"`
	DomainID    string  `json:"domain_id,omitempty"`
	Description *string `json:"description,omitempty"`
	Marker      string  `json:"crossplane_provenance,omitempty"`
}

func desired(fp *v1alpha1.RoleParameters) managedFields {
	return managedFields{Name: fp.Name, DomainID: deref(fp.DomainID), Description: fp.Description}
}

// observed projects a role onto the fields the spec sets, so unset fields never differ. The
// domain is always compared: no domain means a global role.
func observed(r role, fp *v1alpha1.RoleParameters) managedFields {
	o := managedFields{Name: r.Name, DomainID: r.DomainID}
	if fp.Description != nil {
		o.Description = &r.Description
	}
	return o
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
