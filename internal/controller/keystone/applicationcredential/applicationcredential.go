// Package applicationcredential manages Keystone application credentials: secrets that
// authenticate as their user on one project, with some or all of the user's roles there.
//
// Who may do what (keystone/common/policies/application_credential.py, keystone/api/users.py):
// only the user may create their application credentials, with a token scoped to the project the
// credential is for (the create checks the token's user against the URL's and takes the project
// from the token; an admin cannot create one for another user, and a restricted application
// credential cannot create any). An admin may read, list and delete anyone's. So the provider
// reads, finds and deletes with the ProviderConfig's credentials, and creates either with the
// user's own password (spec.forProvider.passwordSecretRef: a token of the user scoped to the
// project) or, without it, with the ProviderConfig's credentials, which must then be the user's.
//
// Keystone has no update of an application credential at all. A change of the spec that
// Keystone holds (name, description, roles, expiry, unrestricted, access rules) replaces it:
// Update deletes the old one first, since Keystone refuses a second credential with the same
// name for one user, then creates the new one, records its ID as the external name, publishes
// its secret and says so in an event. Keystone keeps no unknown attribute on an application
// credential, so the marker is the description's last line, as for limits; an adopted one,
// whose description cannot be changed, keeps its marker on the resource instead, like the
// markerless kinds (adoption.AnnotationMarker).
//
// The secret exists only in the create's answer. The provider knows it afterwards only from the
// connection Secret, which Get reads alongside the credential: a credential this resource
// created whose secret is not there (the create's answer was lost, or the Secret was deleted)
// cannot be published again, so it is replaced. A credential adopted or only observed was never
// created here: its secret is unknown, which the SecretPublished condition says, and the
// connection Secret holds its ID only, unless someone who knows the secret adds it there.
package applicationcredential

import (
	"context"
	"net/url"

	"github.com/gophercloud/gophercloud/v2/openstack/identity/v3/applicationcredentials"
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/event"
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
	errNoUser    = "the user of the application credential is not known yet: set spec.forProvider.userId, or wait for userRef/userSelector to resolve"
	errNoProject = "the project of the application credential is not known yet: set spec.forProvider.projectId, or wait for projectRef/projectSelector to resolve"
	errDelete    = "cannot delete Keystone application credential %q (ID %s) of user %s"

	typeName = "Keystone application credential"
)

// credential is an application credential as Keystone returns it, with what the provider
// knows beside it.
type credential struct {
	applicationcredentials.ApplicationCredential

	// UserID is the user it belongs to: Keystone's answer does not say, the URL does.
	UserID string `json:"-"`
	// Published is what the connection Secret holds for it, read alongside.
	Published published `json:"-"`
}

// credentials is the collection of one user's application credentials.
func credentials(userID string) keystone.Collection[credential] {
	return keystone.Collection[credential]{Path: "users/" + url.PathEscape(userID) + "/application_credentials",
		Singular: "application_credential", Plural: "application_credentials"}
}

// mr is an ApplicationCredential of either scope: the driver is written once against it.
type mr interface {
	resource.Managed
	Parameters() *v1alpha1.ApplicationCredentialParameters
	Observation() *v1alpha1.ApplicationCredentialObservation
	GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy
}

// scopes are the ApplicationCredential kinds: cluster-scoped (legacy) and namespaced.
var scopes = []managedkind.Scoped[mr]{
	{GVK: clusterv1alpha1.ApplicationCredentialGroupVersionKind, Obj: &clusterv1alpha1.ApplicationCredential{}},
	{GVK: v1alpha1.ApplicationCredentialGroupVersionKind, Obj: &v1alpha1.ApplicationCredential{}},
}

// Setup adds the controllers that reconcile ApplicationCredential managed resources of both
// scopes.
func Setup(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopes(mgr, o, scopes, setup)
}

// SetupGated adds each scope's controller once its ApplicationCredential CRD is installed.
func SetupGated(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopesGated(mgr, o, scopes, setup)
}

func setup(mgr ctrl.Manager, o managedkind.Options, gvk schema.GroupVersionKind, obj mr) error {
	kube := mgr.GetClient()
	d := Deps{
		Kube:        kube,
		Live:        mgr.GetAPIReader(),
		Recorder:    managedkind.Recorder(mgr, managed.ControllerName(gvk.GroupKind().String())),
		Annotations: managed.NewRetryingCriticalAnnotationUpdater(managedkind.NewPolicyAwareWriter(kube)),
	}
	return managedkind.SetupKind(mgr, o, managedkind.Kind[mr, Connection, credential]{
		GVK: gvk, Object: obj, System: clients.Keystone,
		ClientFor: func(ctx context.Context, secrets client.Reader, pc *identityv1alpha1.ProviderConfig) (Connection, error) {
			sc, err := o.Keystone.Client(ctx, secrets, pc)
			if err != nil {
				return Connection{}, err
			}
			return Connection{
				Admin: sc,
				Login: func(ctx context.Context, l keystone.UserLogin) (keystone.API, error) {
					return o.Keystone.UserClient(ctx, secrets, pc, l)
				},
				Cloud: cloudOf(pc.Spec.Keystone),
			}, nil
		},
		NewDriver: d.NewDriver,
	})
}

// A Connection is what the driver works with for one ProviderConfig.
type Connection struct {
	// Admin is the ProviderConfig's client: it reads, finds and deletes, and creates when the
	// spec selects no password.
	Admin keystone.API
	// Login returns a client authenticated as a user with their password, scoped to a project,
	// at the ProviderConfig's Keystone.
	Login func(ctx context.Context, l keystone.UserLogin) (keystone.API, error)
	// Cloud is where the published clouds.yaml points.
	Cloud Cloud
}

// Deps are what the driver needs besides Keystone.
type Deps struct {
	// Kube reads the user's password Secret and the connection Secret, always through
	// clients.ResourceSecrets: a namespaced resource reads its own namespace only.
	Kube client.Reader
	// Live reads from the API server itself: a connection Secret the cache does not hold is
	// looked for there before its credential is judged lost.
	Live client.Reader
	// Recorder receives the replacement events.
	Recorder event.Recorder
	// Annotations persists the external name of a replacement at once.
	Annotations managed.CriticalAnnotationUpdater
}

// NewDriver returns the driver over a Connection. Application credentials are read one by one
// (ADR 0006): each belongs to one user, so a shared list would serve one resource.
func (d Deps) NewDriver(c Connection) adoption.Driver[mr, credential] {
	return &external{Connection: c, Deps: d}
}

// external drives Keystone application credentials for the adoption engine.
type external struct {
	Connection
	Deps
}

func (e *external) Get(ctx context.Context, mg mr, id string) (credential, error) {
	uid := deref(mg.Parameters().UserID)
	if uid == "" {
		return credential{}, errors.New(errNoUser)
	}
	c, err := credentials(uid).Get(ctx, e.Admin, id)
	if err != nil {
		return c, err
	}
	c.UserID = uid
	c.Published = e.published(ctx, mg, c.ID)
	return c, nil
}

// Find looks the credential up by user and name, Keystone's unique key for it.
func (e *external) Find(ctx context.Context, mg mr) ([]credential, error) {
	fp := mg.Parameters()
	uid := deref(fp.UserID)
	if uid == "" {
		return keystone.Unresolved[credential](mg, errors.New(errNoUser))
	}
	all, err := credentials(uid).List(ctx, e.Admin, url.Values{"name": {fp.Name}})
	if err != nil {
		return nil, err
	}
	var found []credential
	for _, c := range all {
		if c.Name == fp.Name {
			c.UserID = uid
			c.Published = e.published(ctx, mg, c.ID)
			found = append(found, c)
		}
	}
	return found, nil
}

func (e *external) IsNotFound(err error) bool { return keystone.IsNotFound(err) }

// Describe presents the credential with the marker of its description's last line; one without
// (made by hand, or adopted) is markerless: its marker, if any, is on the resource.
func (e *external) Describe(c credential) adoption.Description {
	d := adoption.Description{ID: c.ID, Type: typeName, Key: key(c.UserID, c.Name)}
	if _, m, found, err := provenance.ExtractFromText(c.Description); found && err == nil {
		d.Marker = &m
	} else {
		d.Markerless = true
	}
	return d
}

func (e *external) Delete(ctx context.Context, mg mr, c credential) error {
	uid := c.UserID
	if uid == "" {
		uid = deref(mg.Parameters().UserID)
	}
	err := keystone.IgnoreNotFound(credentials(uid).Delete(ctx, e.Admin, c.ID))
	return keystone.Wrap(err, errDelete, c.Name, c.ID, uid)
}

// key names a credential by its natural key, for messages.
func key(userID, name string) string {
	return name + " of user " + userID
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
