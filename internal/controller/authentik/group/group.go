// Package group manages authentik groups.
package group

import (
	"context"
	"fmt"
	"slices"

	"github.com/google/go-cmp/cmp"
	api "goauthentik.io/api/v3"
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	clusterv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/shared"
	"github.com/crossplane-contrib/provider-identity/internal/managedkind"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

const (
	errCreate      = "cannot create authentik group %q"
	errUpdate      = "cannot update authentik group %q (pk %s)"
	errDelete      = "cannot delete authentik group %q (pk %s)"
	errAttributes  = "cannot use spec.forProvider.attributes of authentik group %q"
	errListRoles   = "cannot look up authentik role %q"
	errNoRole      = "authentik role %q does not exist: create it in authentik, or remove it from spec.forProvider.roles"
	errManyRoles   = "%d authentik roles are named %q; rename all but one in authentik"
	errReadGroup   = "cannot read authentik group %s"
	errListGroups  = "cannot list authentik groups named %q"
	typeName       = "authentik group"
	notAGroupPKFmt = "authentik group %q"
)

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
	return shared.Setup(mgr, o, gvk, obj, func(c shared.Client) adoption.Driver[mr, api.Group] {
		return &external{c: c.API, objs: objects(c.Reads)}
	})
}

// external drives authentik groups for the adoption engine.
type external struct {
	c *api.APIClient
	// objs share the reads of groups by ID among the kind's reconciles.
	objs *authentik.Shared[api.Group]
}

// Get reads a group by pk. Members are not asked for: a large group's users_obj would cost
// more than everything else of the reconcile, and the spec does not manage them.
func (e *external) Get(ctx context.Context, _ mr, id string) (api.Group, error) {
	if !isUUID(id) {
		return api.Group{}, authentik.NotFound(fmt.Sprintf(notAGroupPKFmt, id))
	}
	return e.objs.Get(ctx, e.c, id, func(ctx context.Context) (api.Group, error) {
		g, resp, err := e.c.CoreAPI.CoreGroupsRetrieve(ctx, id).IncludeUsers(false).Execute()
		if err != nil {
			return api.Group{}, authentik.Wrap(err, resp, errReadGroup, id)
		}
		return *g, nil
	})
}

// objects are the kind's shared reads of groups: the list of all groups, without their
// members as Get reads them, carries every field Observe compares (attributes, parents,
// roles, is_superuser).
func objects(r *shared.Reads) *authentik.Shared[api.Group] {
	const list = "core/groups/?include_users=false"
	return shared.ObjectsOf(r, list, authentik.GroupPages(list), func(g api.Group) string { return g.Pk })
}

// Find looks a group up by name. authentik's filter is exact; the names are compared again
// here so that a server that matched loosely could never bind a different group.
func (e *external) Find(ctx context.Context, mg mr) ([]api.Group, error) {
	name := mg.Parameters().Name
	all, err := authentik.ListAll(ctx, func(page int32) ([]api.Group, int32, error) {
		l, resp, err := e.c.CoreAPI.CoreGroupsList(ctx).Name(name).IncludeUsers(false).Page(page).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return nil, 0, authentik.AsError(err, resp)
		}
		return l.Results, authentik.NextPage(l.Pagination), nil
	})
	if err != nil {
		return nil, errors.Wrapf(err, errListGroups, name)
	}
	return slices.DeleteFunc(all, func(g api.Group) bool { return g.Name != name }), nil
}

func (e *external) IsNotFound(err error) bool { return authentik.IsNotFound(err) }

// IsTwin: authentik refuses a second group with the same name (adoption.TwinRefuser).
func (e *external) IsTwin(err error) bool { return authentik.IsTaken(err, "name") }

func (e *external) Describe(g api.Group) adoption.Description {
	return adoption.Description{ID: g.Pk, Type: typeName, Key: g.Name, Marker: authentik.AttributeMarker(g.Attributes)}
}

func (e *external) Observe(mg mr, g api.Group, p identityv1alpha1.Provenance) adoption.Observation {
	*mg.Observation() = observation(g, p)
	fp := mg.Parameters()
	li := lateInitialize(fp, g)
	want, err := desired(fp)
	if err != nil {
		// A spec whose attributes cannot be decoded is reported by Update, which gets the
		// same error: the object is never written from a spec that cannot be read.
		return adoption.Observation{UpToDate: false, Diff: err.Error(), LateInitialized: li}
	}
	diff := cmp.Diff(want, observed(g, fp, want))
	return adoption.Observation{UpToDate: diff == "", Diff: diff, LateInitialized: li}
}

func (e *external) Create(ctx context.Context, mg mr, m provenance.Marker) (string, managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return "", nil, err
	}
	fp := mg.Parameters()
	want, err := desired(fp)
	if err != nil {
		return "", nil, errors.Wrapf(err, errAttributes, fp.Name)
	}
	req := api.NewGroupRequest(fp.Name)
	req.IsSuperuser = fp.IsSuperuser
	if fp.Parents != nil {
		req.Parents = authentik.NonNil(fp.Parents)
	}
	if fp.Roles != nil {
		if req.Roles, err = e.rolePKs(ctx, fp.Roles); err != nil {
			return "", nil, errors.Wrapf(err, errCreate, fp.Name)
		}
	}
	req.Attributes, _ = authentik.MergeAttributes(nil, want.Attributes, m)
	g, resp, err := e.c.CoreAPI.CoreGroupsCreate(ctx).GroupRequest(*req).Execute()
	if g != nil {
		e.objs.Wrote(e.c, g.Pk, g, err)
	}
	if err != nil {
		return "", nil, authentik.Wrap(err, resp, errCreate, fp.Name)
	}
	lateInitialize(fp, *g)
	return g.Pk, nil, nil
}

// lateInitialize fills the spec's unset fields from the group, authentik's defaults, and says
// whether it filled any. Create calls it with the create's answer, so that the update recording
// the create carries them instead of an update of their own (ADR 0006, part 5).
func lateInitialize(fp *v1alpha1.GroupParameters, g api.Group) bool {
	if fp.IsSuperuser != nil {
		return false
	}
	fp.IsSuperuser = new(g.GetIsSuperuser())
	return true
}

// Update sends only the managed fields that differ from the observed group, and the marker.
// Roles are looked up by name only when they have to be written.
func (e *external) Update(ctx context.Context, mg mr, g api.Group, m provenance.Marker) (managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return nil, err
	}
	fp := mg.Parameters()
	req, rolesChanged, err := patch(fp, g, m)
	if err != nil {
		return nil, errors.Wrapf(err, errAttributes, fp.Name)
	}
	if rolesChanged {
		if req.Roles, err = e.rolePKs(ctx, fp.Roles); err != nil {
			return nil, errors.Wrapf(err, errUpdate, g.Name, g.Pk)
		}
	}
	if isEmpty(req) {
		return nil, nil
	}
	updated, resp, err := e.c.CoreAPI.CoreGroupsPartialUpdate(ctx, g.Pk).PatchedGroupRequest(req).Execute()
	e.objs.Wrote(e.c, g.Pk, updated, err)
	if err != nil {
		return nil, authentik.Wrap(err, resp, errUpdate, g.Name, g.Pk)
	}
	// Status shows the group as written, not as it was before this update.
	*mg.Observation() = observation(*updated, mg.Observation().Provenance)
	return nil, nil
}

func (e *external) Delete(ctx context.Context, _ mr, g api.Group) error {
	resp, err := e.c.CoreAPI.CoreGroupsDestroy(ctx, g.Pk).Execute()
	e.objs.Forget(e.c, g.Pk)
	return authentik.IgnoreNotFound(authentik.Wrap(err, resp, errDelete, g.Name, g.Pk))
}

func observation(g api.Group, p identityv1alpha1.Provenance) v1alpha1.GroupObservation {
	return v1alpha1.GroupObservation{
		ID: g.Pk, NumPK: g.NumPk, Name: g.Name, IsSuperuser: g.GetIsSuperuser(),
		Parents: authentik.SortedSet(g.Parents), Roles: roleNames(g), Provenance: p,
	}
}

// rolePKs resolves role names to pks, in the order given.
func (e *external) rolePKs(ctx context.Context, names []string) ([]string, error) {
	pks := make([]string, 0, len(names))
	for _, name := range names {
		roles, err := authentik.ListAll(ctx, func(page int32) ([]api.Role, int32, error) {
			l, resp, err := e.c.RbacAPI.RbacRolesList(ctx).Name(name).Page(page).PageSize(authentik.PageSize).Execute()
			if err != nil {
				return nil, 0, authentik.AsError(err, resp)
			}
			return l.Results, authentik.NextPage(l.Pagination), nil
		})
		if err != nil {
			return nil, errors.Wrapf(err, errListRoles, name)
		}
		roles = slices.DeleteFunc(roles, func(r api.Role) bool { return r.Name != name })
		switch len(roles) {
		case 0:
			return nil, errors.Errorf(errNoRole, name)
		case 1:
			pks = append(pks, roles[0].Pk)
		default:
			return nil, errors.Errorf(errManyRoles, len(roles), name)
		}
	}
	return pks, nil
}

// managedFields is what the spec manages, in a form that compares: lists as sorted sets and
// attributes as decoded JSON. Nil means "not managed".
type managedFields struct {
	Name        string
	IsSuperuser *bool
	Parents     []string
	Roles       []string
	Attributes  map[string]any
}

func desired(fp *v1alpha1.GroupParameters) (managedFields, error) {
	attrs, err := authentik.DecodeAttributes(fp.Attributes)
	if err != nil {
		return managedFields{}, err
	}
	return managedFields{Name: fp.Name, IsSuperuser: fp.IsSuperuser, Parents: authentik.SortedSet(fp.Parents), Roles: authentik.SortedSet(fp.Roles), Attributes: attrs}, nil
}

// observed projects a group onto the fields the spec sets, so unset fields never differ.
func observed(g api.Group, fp *v1alpha1.GroupParameters, want managedFields) managedFields {
	o := managedFields{Name: g.Name}
	if fp.IsSuperuser != nil {
		o.IsSuperuser = new(g.GetIsSuperuser())
	}
	if fp.Parents != nil {
		o.Parents = authentik.NonNil(authentik.SortedSet(g.Parents))
	}
	if fp.Roles != nil {
		o.Roles = authentik.NonNil(roleNames(g))
	}
	o.Attributes = authentik.ManagedAttributes(g.Attributes, want.Attributes)
	return o
}

// patch returns the PATCH body for the fields that differ and whether the roles differ (their
// pks are left for the caller to look up). The marker always goes with the attributes.
func patch(fp *v1alpha1.GroupParameters, g api.Group, m provenance.Marker) (api.PatchedGroupRequest, bool, error) {
	want, err := desired(fp)
	if err != nil {
		return api.PatchedGroupRequest{}, false, err
	}
	have := observed(g, fp, want)
	req := api.PatchedGroupRequest{}
	if want.Name != have.Name {
		req.Name = new(want.Name)
	}
	if !cmp.Equal(want.IsSuperuser, have.IsSuperuser) {
		req.IsSuperuser = want.IsSuperuser
	}
	if !cmp.Equal(want.Parents, have.Parents) {
		req.Parents = authentik.NonNil(fp.Parents)
	}
	if attrs, changed := authentik.MergeAttributes(g.Attributes, want.Attributes, m); changed {
		req.Attributes = attrs
	}
	return req, !cmp.Equal(want.Roles, have.Roles), nil
}

func isEmpty(r api.PatchedGroupRequest) bool {
	return r.Name == nil && r.IsSuperuser == nil && r.Parents == nil && r.Roles == nil && r.Attributes == nil && r.Users == nil
}

func roleNames(g api.Group) []string {
	names := make([]string, 0, len(g.RolesObj))
	for _, r := range g.RolesObj {
		names = append(names, r.Name)
	}
	return authentik.SortedSet(names)
}

func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i, c := range s {
		switch {
		case i == 8 || i == 13 || i == 18 || i == 23:
			if c != '-' {
				return false
			}
		case !isHex(c):
			return false
		}
	}
	return true
}

func isHex(c rune) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
