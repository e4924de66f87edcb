// Package user manages authentik users.
package user

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/google/go-cmp/cmp"
	api "goauthentik.io/api/v3"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/reconciler/managed"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"

	clusterv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/authentik/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/apis/namespaced/authentik/v1alpha1"
	identityv1alpha1 "github.com/crossplane-contrib/provider-identity/apis/v1alpha1"
	"github.com/crossplane-contrib/provider-identity/internal/adoption"
	"github.com/crossplane-contrib/provider-identity/internal/clients"
	"github.com/crossplane-contrib/provider-identity/internal/clients/authentik"
	"github.com/crossplane-contrib/provider-identity/internal/controller/authentik/shared"
	"github.com/crossplane-contrib/provider-identity/internal/managedkind"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

const (
	errCreate      = "cannot create authentik user %q"
	errUpdate      = "cannot update authentik user %q (pk %d)"
	errDelete      = "cannot delete authentik user %q (pk %d)"
	errSetPassword = "cannot set the password of authentik user %q (pk %d) from Secret %s/%s key %q"
	errAttributes  = "cannot use spec.forProvider.attributes of authentik user %q"
	errReadUser    = "cannot read authentik user %d"
	errListUsers   = "cannot list authentik users named %q"
	errReadSecret  = "cannot read the password Secret %s/%s"
	errNoSecretKey = "the password Secret %s/%s has no key %q, or it is empty"
	notAUserPK     = "authentik user %q"
	typeName       = "authentik user"
)

// mr is a User of either scope: the driver is written once against it.
type mr interface {
	resource.Managed
	Parameters() *v1alpha1.UserParameters
	Observation() *v1alpha1.UserObservation
	GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy
}

// scopes are the User kinds: cluster-scoped (legacy) and namespaced.
var scopes = []managedkind.Scoped[mr]{
	{GVK: clusterv1alpha1.UserGroupVersionKind, Obj: &clusterv1alpha1.User{}},
	{GVK: v1alpha1.UserGroupVersionKind, Obj: &v1alpha1.User{}},
}

// Setup adds the controllers that reconcile User managed resources of both scopes.
func Setup(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopes(mgr, o, scopes, setup)
}

// SetupGated adds each scope's controller once its User CRD is installed.
func SetupGated(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopesGated(mgr, o, scopes, setup)
}

func setup(mgr ctrl.Manager, o managedkind.Options, gvk schema.GroupVersionKind, obj mr) error {
	return shared.Setup(mgr, o, gvk, obj, func(c shared.Client) adoption.Driver[mr, api.User] {
		return &external{c: c.API, kube: c.Kube, objs: objects(c.Reads)}
	})
}

// external drives authentik users for the adoption engine. It lives for one reconcile.
type external struct {
	c    *api.APIClient
	kube client.Reader
	// objs share the reads of users by ID among the kind's reconciles.
	objs *authentik.Shared[api.User]

	// password is the state of the password Secret, read with the user (Observe must not
	// read anything) and only when the spec names one.
	password *secretState
}

// secretState is what Observe needs to know about the password Secret: its version, or why
// it could not be read. Never the password.
type secretState struct {
	version string
	err     error
}

func (e *external) Get(ctx context.Context, mg mr, id string) (api.User, error) {
	pk, err := strconv.ParseInt(id, 10, 32)
	if err != nil || pk <= 0 {
		return api.User{}, authentik.NotFound(fmt.Sprintf(notAUserPK, id))
	}
	e.readSecret(ctx, mg)
	pk32 := int32(pk)
	return e.objs.Get(ctx, e.c, id, func(ctx context.Context) (api.User, error) {
		u, resp, err := e.c.CoreAPI.CoreUsersRetrieve(ctx, pk32).Execute()
		if err != nil {
			return api.User{}, authentik.Wrap(err, resp, errReadUser, pk)
		}
		return *u, nil
	})
}

// objects are the kind's shared reads of users: the list of all users carries every field
// Observe compares (attributes with the password version, groups' pks, type, path); group and
// role objects are not asked for, as Find does not.
func objects(r *shared.Reads) *authentik.Shared[api.User] {
	const list = "core/users/?include_groups=false&include_roles=false"
	return shared.ObjectsOf(r, list, authentik.UserPages(list), func(u api.User) string { return strconv.Itoa(int(u.Pk)) })
}

// Find looks a user up by username, authentik's unique key for users. Group and role objects
// are not asked for: the spec manages group pks only.
func (e *external) Find(ctx context.Context, mg mr) ([]api.User, error) {
	e.readSecret(ctx, mg)
	name := mg.Parameters().Username
	all, err := authentik.ListAll(ctx, func(page int32) ([]api.User, int32, error) {
		l, resp, err := e.c.CoreAPI.CoreUsersList(ctx).Username(name).IncludeGroups(false).IncludeRoles(false).
			Page(page).PageSize(authentik.PageSize).Execute()
		if err != nil {
			return nil, 0, authentik.AsError(err, resp)
		}
		return l.Results, authentik.NextPage(l.Pagination), nil
	})
	if err != nil {
		return nil, errors.Wrapf(err, errListUsers, name)
	}
	return slices.DeleteFunc(all, func(u api.User) bool { return u.Username != name }), nil
}

func (e *external) IsNotFound(err error) bool { return authentik.IsNotFound(err) }

func (e *external) Describe(u api.User) adoption.Description {
	return adoption.Description{ID: strconv.Itoa(int(u.Pk)), Type: typeName, Key: u.Username, Marker: authentik.AttributeMarker(u.Attributes)}
}

func (e *external) Observe(mg mr, u api.User, p identityv1alpha1.Provenance) adoption.Observation {
	fp := mg.Parameters()
	*mg.Observation() = observation(u, p)
	li := lateInitialize(fp, u)
	want, err := desired(fp)
	if err != nil {
		// Update gets the same error: a spec that cannot be read is never written.
		return adoption.Observation{UpToDate: false, Diff: err.Error(), LateInitialized: li}
	}
	diff := cmp.Diff(want, observed(u, fp, want)) + passwordDiff(mg, e.password, passwordVersion(u))
	return adoption.Observation{UpToDate: diff == "", Diff: diff, LateInitialized: li}
}

// Create creates the user without a password: the reconcile that follows sets it (Update) and
// records the Secret's version, so a create whose password failed is retried like any other
// stale password, and the password is never sent twice.
func (e *external) Create(ctx context.Context, mg mr, m provenance.Marker) (string, managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return "", nil, err
	}
	fp := mg.Parameters()
	want, err := desired(fp)
	if err != nil {
		return "", nil, errors.Wrapf(err, errAttributes, fp.Username)
	}
	req := api.NewUserRequest(fp.Username, ptrValue(fp.Name))
	req.IsActive = fp.IsActive
	req.Email = fp.Email
	req.Path = fp.Path
	if fp.Type != nil {
		req.Type = new(api.UserTypeEnum(*fp.Type))
	}
	if fp.Groups != nil {
		req.Groups = authentik.NonNil(fp.Groups)
	}
	req.Attributes, _ = authentik.MergeAttributes(nil, want.Attributes, m)
	u, resp, err := e.c.CoreAPI.CoreUsersCreate(ctx).UserRequest(*req).Execute()
	if u != nil {
		e.objs.Wrote(e.c, strconv.Itoa(int(u.Pk)), u, err)
	}
	if err != nil {
		return "", nil, authentik.Wrap(err, resp, errCreate, fp.Username)
	}
	lateInitialize(fp, *u)
	return strconv.Itoa(int(u.Pk)), nil, nil
}

// lateInitialize fills the spec's unset fields from the user, authentik's defaults, and says
// whether it filled any. Create calls it with the create's answer, so that the update recording
// the create carries them instead of an update of their own (ADR 0006, part 5).
func lateInitialize(fp *v1alpha1.UserParameters, u api.User) bool {
	if fp.IsActive != nil {
		return false
	}
	fp.IsActive = new(u.GetIsActive())
	return true
}

// Update sets the password first when the Secret changed since it was last set, then sends
// in one PATCH the managed fields that differ from the observed user, the marker and the
// Secret's new version. A failed PATCH after a set password only means the password is sent
// once more; the other order could record a version whose password never arrived.
func (e *external) Update(ctx context.Context, mg mr, u api.User, m provenance.Marker) (managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return nil, err
	}
	fp := mg.Parameters()
	version := ""
	if ref := fp.PasswordSecretRef; ref != nil && passwordDiff(mg, e.password, passwordVersion(u)) != "" {
		key := clients.SecretKey(mg, ref.SecretReference)
		pw, v, err := readPassword(ctx, e.kube, mg, *ref)
		if err != nil {
			return nil, errors.Wrapf(err, errSetPassword, u.Username, u.Pk, key.Namespace, key.Name, ref.Key)
		}
		resp, err := e.c.CoreAPI.CoreUsersSetPasswordCreate(ctx, u.Pk).UserPasswordSetRequest(*api.NewUserPasswordSetRequest(string(pw))).Execute()
		// The password's change date moved, and the PATCH below may not be sent.
		e.objs.Forget(e.c, strconv.Itoa(int(u.Pk)))
		if err != nil {
			return nil, authentik.Wrap(err, resp, errSetPassword, u.Username, u.Pk, key.Namespace, key.Name, ref.Key)
		}
		version = v
	}
	req, err := patch(fp, u, m, version)
	if err != nil {
		return nil, errors.Wrapf(err, errAttributes, fp.Username)
	}
	if isEmpty(req) {
		return nil, nil
	}
	updated, resp, err := e.c.CoreAPI.CoreUsersPartialUpdate(ctx, u.Pk).PatchedUserRequest(req).Execute()
	e.objs.Wrote(e.c, strconv.Itoa(int(u.Pk)), updated, err)
	if err != nil {
		return nil, authentik.Wrap(err, resp, errUpdate, u.Username, u.Pk)
	}
	// Status shows the user as written (with the new password version), not as it was before.
	*mg.Observation() = observation(*updated, mg.Observation().Provenance)
	return nil, nil
}

func (e *external) Delete(ctx context.Context, _ mr, u api.User) error {
	resp, err := e.c.CoreAPI.CoreUsersDestroy(ctx, u.Pk).Execute()
	e.objs.Forget(e.c, strconv.Itoa(int(u.Pk)))
	return authentik.IgnoreNotFound(authentik.Wrap(err, resp, errDelete, u.Username, u.Pk))
}

// readSecret records the password Secret's version once per reconcile, for Observe.
func (e *external) readSecret(ctx context.Context, mg mr) {
	ref := mg.Parameters().PasswordSecretRef
	if ref == nil || e.password != nil {
		return
	}
	_, version, err := readPassword(ctx, e.kube, mg, *ref)
	e.password = &secretState{version: version, err: err}
}

// readPassword reads the password and the Secret's version: its UID, resourceVersion and the
// key, which change whenever the password can have changed and reveal nothing about it.
// It is read in mg's scope: a namespaced User reads its own namespace only (see
// clients.ResourceSecrets).
func readPassword(ctx context.Context, kube client.Reader, mg mr, ref identityv1alpha1.SecretKeySelector) ([]byte, string, error) {
	s := &corev1.Secret{}
	key := clients.SecretKey(mg, ref.SecretReference)
	if err := clients.ResourceSecrets(kube, mg).Get(ctx, key, s); err != nil {
		return nil, "", errors.Wrapf(err, errReadSecret, key.Namespace, key.Name)
	}
	pw := s.Data[ref.Key]
	if len(pw) == 0 {
		return nil, "", errors.Errorf(errNoSecretKey, key.Namespace, key.Name, ref.Key)
	}
	return pw, fmt.Sprintf("%s/%s/%s", s.UID, s.ResourceVersion, ref.Key), nil
}

// passwordDiff explains why the password must be set, or is empty when it need not be.
func passwordDiff(mg mr, s *secretState, last string) string {
	ref := mg.Parameters().PasswordSecretRef
	var key types.NamespacedName
	if ref != nil {
		key = clients.SecretKey(mg, ref.SecretReference)
	}
	switch {
	case ref == nil:
		return ""
	case s == nil:
		return "password: the Secret was not read in this reconcile\n"
	case s.err != nil:
		return "password: " + s.err.Error() + "\n"
	case last == "":
		return fmt.Sprintf("password: not yet set from Secret %s/%s\n", key.Namespace, key.Name)
	case s.version != last:
		return fmt.Sprintf("password: Secret %s/%s changed since the password was last set\n", key.Namespace, key.Name)
	}
	return ""
}

func observation(u api.User, p identityv1alpha1.Provenance) v1alpha1.UserObservation {
	return v1alpha1.UserObservation{
		ID: strconv.Itoa(int(u.Pk)), UUID: u.Uuid, Username: u.Username, Name: u.Name, Email: u.GetEmail(),
		IsActive: u.GetIsActive(), IsSuperuser: u.IsSuperuser, Type: string(u.GetType()), Path: u.GetPath(),
		Groups: authentik.SortedSet(u.Groups), PasswordSecretVersion: passwordVersion(u), Provenance: p,
	}
}

// passwordVersion is the Secret version the user's attributes say its password was set from.
func passwordVersion(u api.User) string {
	v, _ := u.Attributes[authentik.PasswordVersionAttribute].(string)
	return v
}

// managedFields is what the spec manages, in a form that compares: groups as a sorted set and
// attributes as decoded JSON. Nil means "not managed".
type managedFields struct {
	Username   string
	Name       *string
	Email      *string
	IsActive   *bool
	Type       *string
	Path       *string
	Groups     []string
	Attributes map[string]any
}

func desired(fp *v1alpha1.UserParameters) (managedFields, error) {
	attrs, err := authentik.DecodeAttributes(fp.Attributes)
	if err != nil {
		return managedFields{}, err
	}
	return managedFields{
		Username: fp.Username, Name: fp.Name, Email: fp.Email, IsActive: fp.IsActive, Type: fp.Type, Path: fp.Path,
		Groups: authentik.SortedSet(fp.Groups), Attributes: attrs,
	}, nil
}

// observed projects a user onto the fields the spec sets, so unset fields never differ.
func observed(u api.User, fp *v1alpha1.UserParameters, want managedFields) managedFields {
	o := managedFields{Username: u.Username}
	if fp.Name != nil {
		o.Name = new(u.Name)
	}
	if fp.Email != nil {
		o.Email = new(u.GetEmail())
	}
	if fp.IsActive != nil {
		o.IsActive = new(u.GetIsActive())
	}
	if fp.Type != nil {
		o.Type = new(string(u.GetType()))
	}
	if fp.Path != nil {
		o.Path = new(u.GetPath())
	}
	if fp.Groups != nil {
		o.Groups = authentik.NonNil(authentik.SortedSet(u.Groups))
	}
	o.Attributes = authentik.ManagedAttributes(u.Attributes, want.Attributes)
	return o
}

// patch returns the PATCH body for the managed fields that differ; the marker always goes
// with the attributes, and so does the password's Secret version when one was just set.
func patch(fp *v1alpha1.UserParameters, u api.User, m provenance.Marker, passwordVersion string) (api.PatchedUserRequest, error) {
	want, err := desired(fp)
	if err != nil {
		return api.PatchedUserRequest{}, err
	}
	have := observed(u, fp, want)
	req := api.PatchedUserRequest{}
	if want.Username != have.Username {
		req.Username = new(want.Username)
	}
	if !cmp.Equal(want.Name, have.Name) {
		req.Name = want.Name
	}
	if !cmp.Equal(want.Email, have.Email) {
		req.Email = want.Email
	}
	if !cmp.Equal(want.IsActive, have.IsActive) {
		req.IsActive = want.IsActive
	}
	if !cmp.Equal(want.Type, have.Type) {
		req.Type = new(api.UserTypeEnum(*want.Type))
	}
	if !cmp.Equal(want.Path, have.Path) {
		req.Path = want.Path
	}
	if !cmp.Equal(want.Groups, have.Groups) {
		req.Groups = authentik.NonNil(fp.Groups)
	}
	attrs := want.Attributes
	if passwordVersion != "" {
		attrs = maps.Clone(attrs)
		if attrs == nil {
			attrs = map[string]any{}
		}
		attrs[authentik.PasswordVersionAttribute] = passwordVersion
	}
	if attrs, changed := authentik.MergeAttributes(u.Attributes, attrs, m); changed {
		req.Attributes = attrs
	}
	return req, nil
}

func isEmpty(r api.PatchedUserRequest) bool {
	return r.Username == nil && r.Name == nil && r.Email == nil && r.IsActive == nil && r.Type == nil &&
		r.Path == nil && r.Groups == nil && r.Roles == nil && r.Attributes == nil && !r.LastLogin.IsSet()
}

func ptrValue(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
