// Package user manages Keystone users.
//
// Passwords: Keystone never returns a password, so a password changed outside the provider
// cannot be seen. The provider therefore tracks what it sent, not what Keystone holds:
// status.atProvider.passwordFingerprint records the Secret (namespace, name, key), its UID and
// its resourceVersion at the moment its value was sent, and the password is sent again only
// when the Secret's current fingerprint differs. The fingerprint is made of Secret metadata
// only: nothing in it is computed from the password, so nothing about the password can be
// recovered from it (a hash of a password, even salted, can be brute-forced offline; a keyed
// HMAC would need a key kept somewhere and rotated). The price is that any write to the Secret
// (a label, another key) re-sends the same password once, which Keystone accepts; it revokes
// the user's existing tokens, as any password change does.
//
// A new user gets its password in the create itself, so it can authenticate from birth, also
// under management policies that never update. Crossplane discards whatever a create writes
// into status (the reconciler re-reads the resource when it persists the external name), but it
// persists the annotations: the create records the fingerprint of what it sent in the
// AnnotationPasswordSentOnCreate annotation, and Observe takes it from there while
// status.atProvider.passwordFingerprint is still empty. The password is thus sent once on
// create and never a second time for the same Secret version.
package user

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/google/go-cmp/cmp"
	"github.com/gophercloud/gophercloud/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crossplane/crossplane-runtime/v2/pkg/errors"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"
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
	errNoDomain   = "the domain of the user is not known: set spec.forProvider.domainId, or wait for domainRef/domainSelector to resolve"
	errCreate     = "cannot create Keystone user %q in domain %s"
	errUpdate     = "cannot update Keystone user %q (ID %s)"
	errDelete     = "cannot delete Keystone user %q (ID %s)"
	errMoveDomain = "Keystone user %q (ID %s) belongs to domain %s, but spec.forProvider.domainId is %s: Keystone cannot move a user to another domain; restore domainId, or create a new User"
	errReadOnly   = "%s: domain %s is backed by LDAP, whose users are read-only in Keystone (it answered 403). Manage the user in the directory; to only watch it here, set spec.managementPolicies: [\"Observe\"]"
	errForbidden  = "%s: %s. The ProviderConfig's credentials may lack the admin role, or the domain's identity backend may be read-only"
	errGetSecret  = "cannot read the password Secret %s/%s"
	errSecretKey  = "the password Secret %s/%s has no key %q, or its value is empty"

	typeName = "Keystone user"
)

// AnnotationPasswordSentOnCreate records, as JSON, the fingerprint of the password Secret
// version a create sent. status.atProvider.passwordFingerprint supersedes it once set.
const AnnotationPasswordSentOnCreate = "keystone.identity.crossplane.io/password-sent-on-create"

// user is a Keystone user as the identity API returns it, plus the state of the password
// Secret read alongside it.
type user struct {
	keystone.User

	// Secret is the password Secret as it stood when the user was read; nil when the spec
	// manages no password. It is not part of Keystone's answer.
	Secret *secretState `json:"-"`
}

// secretState is what the provider knows of the password Secret without its value.
type secretState struct {
	// Fingerprint of the Secret; nil when it cannot be read.
	Fingerprint *v1alpha1.PasswordFingerprint
	// Err says why the Secret cannot be read, naming it (never its content).
	Err string
}

var users = keystone.Collection[user]{Path: "users", Singular: "user", Plural: "users"}

func idOf(o user) string { return o.ID }

// inDomain is the scope a user is read in: the users of its domain.
func inDomain(domainID string) url.Values {
	return url.Values{"domain_id": {domainID}}
}

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
	kube := mgr.GetClient()
	return managedkind.SetupKeystone(mgr, o, managedkind.Kind[mr, keystone.API, user]{
		GVK: gvk, Object: obj,
		NewDriver: sharedDriver(o.SharedReads, kube),
	})
}

// sharedDriver returns the driver over a client, whose reads of the users of one scope are
// shared by every resource as o says.
func sharedDriver(o clients.SharedReadOptions, kube client.Reader) func(keystone.API) adoption.Driver[mr, user] {
	shared := keystone.NewShared(users, idOf, o)
	return func(sc keystone.API) adoption.Driver[mr, user] { return &external{sc: sc, users: shared, kube: kube} }
}

// external drives Keystone users for the adoption engine.
type external struct {
	sc keystone.API
	// users reads and writes through the lists shared by every resource of the kind.
	users keystone.Shared[user]
	// kube reads password Secrets, always through clients.ResourceSecrets: a namespaced User
	// reads its own namespace only.
	kube client.Reader
}

func (e *external) Get(ctx context.Context, mg mr, id string) (user, error) {
	u, err := e.users.Get(ctx, e.sc, inDomain(domainOf(mg)), id)
	if err != nil {
		return u, err
	}
	u.Secret = e.secretState(ctx, mg)
	return u, nil
}

// Find looks a user up by name within its domain, Keystone's unique key for users.
func (e *external) Find(ctx context.Context, mg mr) ([]user, error) {
	d := domainOf(mg)
	if d == "" {
		return keystone.Unresolved[user](mg, errors.New(errNoDomain))
	}
	found, err := users.List(ctx, e.sc, url.Values{"name": {mg.Parameters().Name}, "domain_id": {d}})
	if err != nil || len(found) == 0 {
		return nil, err
	}
	s := e.secretState(ctx, mg)
	for i := range found {
		found[i].Secret = s
	}
	return found, nil
}

func (e *external) IsNotFound(err error) bool { return keystone.IsNotFound(err) }

func (e *external) Describe(u user) adoption.Description {
	return adoption.Description{ID: u.ID, Type: typeName, Key: u.Name, Marker: keystone.ParseMarker(u.Marker)}
}

func (e *external) Observe(mg mr, u user, p identityv1alpha1.Provenance) adoption.Observation {
	fp := mg.Parameters()
	sent := sentFingerprint(mg)
	*mg.Observation() = v1alpha1.UserObservation{
		ID: u.ID, Name: u.Name, DomainID: u.DomainID, Description: u.Description, Enabled: u.Enabled,
		Email: u.Email, DefaultProjectID: u.DefaultProjectID, Options: Options(u.Options),
		PasswordFingerprint: sent, Provenance: p,
	}
	if u.PasswordExpiresAt != nil {
		mg.Observation().PasswordExpiresAt = *u.PasswordExpiresAt
	}
	li := lateInitialize(fp, u)
	want := comparison{Fields: desired(fp)}
	have := comparison{Fields: observed(u, fp)}
	if fp.PasswordSecretRef != nil {
		want.PasswordSecret = u.Secret.String()
		have.PasswordSecret = describe(sent)
	}
	diff := cmp.Diff(want, have)
	return adoption.Observation{UpToDate: diff == "", Diff: diff, LateInitialized: li}
}

// Create creates the user with its password and records the fingerprint of what it sent (see
// the package documentation). A password Secret that cannot be read fails the create: no user
// is made before its password can be set.
func (e *external) Create(ctx context.Context, mg mr, m provenance.Marker) (string, managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return "", nil, err
	}
	fp := mg.Parameters()
	d := domainOf(mg)
	if d == "" {
		return "", nil, errors.New(errNoDomain)
	}
	what := fmt.Sprintf(errCreate, fp.Name, d)
	body := patch{managedFields: desired(fp)}
	body.Marker = m.Encode()
	var sent *v1alpha1.PasswordFingerprint
	if ref := fp.PasswordSecretRef; ref != nil {
		pw, f, err := readPassword(ctx, e.kube, mg, *ref)
		if err != nil {
			return "", nil, errors.Wrap(err, what)
		}
		body.Password, sent = pw, f
	}
	u, err := e.users.Create(ctx, e.sc, inDomain(d), body)
	if err != nil {
		return "", nil, e.explain(ctx, err, what, d)
	}
	if sent != nil {
		b, err := json.Marshal(sent)
		if err != nil {
			return "", nil, errors.Wrap(err, what)
		}
		meta.AddAnnotations(mg, map[string]string{AnnotationPasswordSentOnCreate: string(b)})
		mg.Observation().PasswordFingerprint = sent
	}
	lateInitialize(fp, u)
	return u.ID, nil, nil
}

// lateInitialize fills the spec's unset fields from the user, Keystone's defaults, and says
// whether it filled any. Create calls it with the create's answer, so that the update recording
// the create carries them instead of an update of their own (ADR 0006, part 5).
func lateInitialize(fp *v1alpha1.UserParameters, u user) bool {
	if fp.Enabled != nil {
		return false
	}
	fp.Enabled = &u.Enabled
	return true
}

// Update writes the managed fields and the marker, and the password when the Secret changed
// since it was last sent. Only then is the new fingerprint recorded.
func (e *external) Update(ctx context.Context, mg mr, u user, m provenance.Marker) (managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return nil, err
	}
	fp := mg.Parameters()
	what := fmt.Sprintf(errUpdate, u.Name, u.ID)
	if d := domainOf(mg); d != "" && d != u.DomainID {
		return nil, errors.Errorf(errMoveDomain, u.Name, u.ID, u.DomainID, d)
	}
	body := patch{managedFields: desired(fp)}
	body.Marker = m.Encode()
	var sent *v1alpha1.PasswordFingerprint
	if ref := fp.PasswordSecretRef; ref != nil && u.Secret.String() != describe(sentFingerprint(mg)) {
		pw, f, err := readPassword(ctx, e.kube, mg, *ref)
		if err != nil {
			return nil, errors.Wrap(err, what)
		}
		body.Password, sent = pw, f
	}
	if err := e.users.Update(ctx, e.sc, inDomain(u.DomainID), u.ID, body); err != nil {
		return nil, e.explain(ctx, err, what, u.DomainID)
	}
	if sent != nil {
		mg.Observation().PasswordFingerprint = sent
	}
	return nil, nil
}

// LocalDependents names the RoleAssignment resources that manage the role assignments of the
// user with ID id: while any of them has its assignment, the deletion is held by it without
// asking Keystone (adoption.LocalCascader). The user is described from the spec.
func (e *external) LocalDependents(mg mr, id string) (adoption.Description, []adoption.LocalDependents) {
	return adoption.Description{ID: id, Type: typeName, Key: mg.Parameters().Name}, []adoption.LocalDependents{keystone.AssignmentsOn("user", id)}
}

// Dependents lists what Keystone would delete with the user: its role assignments, group
// memberships and application credentials.
func (e *external) Dependents(ctx context.Context, _ mr, u user) ([]adoption.Dependent, error) {
	return adoption.Gather(ctx,
		func() ([]adoption.Dependent, error) {
			return keystone.AssignmentsDeletedWith(ctx, e.sc, "user", u.ID)
		},
		func() ([]adoption.Dependent, error) { return keystone.GroupsOfUser(ctx, e.sc, u.ID, u.Name) },
		func() ([]adoption.Dependent, error) { return keystone.ApplicationCredentialsOf(ctx, e.sc, u.ID) },
	)
}

func (e *external) Delete(ctx context.Context, _ mr, u user) error {
	if err := e.users.Delete(ctx, e.sc, inDomain(u.DomainID), u.ID); err != nil && !keystone.IsNotFound(err) {
		return e.explain(ctx, err, fmt.Sprintf(errDelete, u.Name, u.ID), u.DomainID)
	}
	return nil
}

// explain turns a Keystone error into one the user can act on. A 403 on a user is most often
// a read-only LDAP domain, whose Forbidden Keystone does not explain (it hides the reason of
// every 403): the domain's identity driver, read from its configuration, tells.
func (e *external) explain(ctx context.Context, err error, what, domainID string) error {
	if !gophercloud.ResponseCodeIs(err, http.StatusForbidden) {
		return errors.New(what + ": " + keystone.Describe(err))
	}
	if domainID != "" && ldapDomain(ctx, e.sc, domainID) {
		return errors.Errorf(errReadOnly, what, domainID)
	}
	return errors.Errorf(errForbidden, what, strings.TrimSuffix(keystone.Describe(err), "."))
}

// ldapDomain reports whether a domain's own configuration selects the LDAP identity driver. A
// domain without a configuration (404) or an unreadable one is not known to be LDAP.
func ldapDomain(ctx context.Context, sc keystone.API, domainID string) bool {
	var out struct {
		Config map[string]any `json:"config"`
	}
	if _, err := sc.Get(ctx, sc.ServiceURL("domains", url.PathEscape(domainID), "config", "identity", "driver"), &out, nil); err != nil {
		return false
	}
	return out.Config["driver"] == "ldap"
}

// sentFingerprint is the fingerprint of the password Secret version last sent: the status's,
// or else the one the create recorded; nil when no password is managed or none was sent.
func sentFingerprint(mg mr) *v1alpha1.PasswordFingerprint {
	if mg.Parameters().PasswordSecretRef == nil {
		return nil
	}
	if f := mg.Observation().PasswordFingerprint; f != nil {
		return f
	}
	s, ok := mg.GetAnnotations()[AnnotationPasswordSentOnCreate]
	if !ok {
		return nil
	}
	f := &v1alpha1.PasswordFingerprint{}
	if err := json.Unmarshal([]byte(s), f); err != nil {
		// Unreadable proves nothing was sent: sending again is the safe side.
		return nil
	}
	return f
}

// secretState reads the password Secret's metadata; nil when no password is managed.
func (e *external) secretState(ctx context.Context, mg mr) *secretState {
	ref := mg.Parameters().PasswordSecretRef
	if ref == nil {
		return nil
	}
	s, err := getSecret(ctx, e.kube, mg, *ref)
	if err != nil {
		return &secretState{Err: err.Error()}
	}
	return &secretState{Fingerprint: fingerprint(s, ref.Key)}
}

// readPassword reads the password and the fingerprint of the Secret version it came from.
func readPassword(ctx context.Context, kube client.Reader, mg mr, ref identityv1alpha1.SecretKeySelector) (string, *v1alpha1.PasswordFingerprint, error) {
	s, err := getSecret(ctx, kube, mg, ref)
	if err != nil {
		return "", nil, err
	}
	return string(s.Data[ref.Key]), fingerprint(s, ref.Key), nil
}

// getSecret reads the password Secret in mg's scope (see clients.ResourceSecrets).
func getSecret(ctx context.Context, kube client.Reader, mg mr, ref identityv1alpha1.SecretKeySelector) (*corev1.Secret, error) {
	s := &corev1.Secret{}
	key := clients.SecretKey(mg, ref.SecretReference)
	if err := clients.ResourceSecrets(kube, mg).Get(ctx, key, s); err != nil {
		return nil, errors.Wrapf(err, errGetSecret, key.Namespace, key.Name)
	}
	if len(s.Data[ref.Key]) == 0 {
		return nil, errors.Errorf(errSecretKey, key.Namespace, key.Name, ref.Key)
	}
	return s, nil
}

func fingerprint(s *corev1.Secret, key string) *v1alpha1.PasswordFingerprint {
	return &v1alpha1.PasswordFingerprint{Namespace: s.Namespace, Name: s.Name, Key: key, UID: string(s.UID), ResourceVersion: s.ResourceVersion}
}

// describe renders a fingerprint for comparisons and the debug diff; "" when none was sent.
func describe(f *v1alpha1.PasswordFingerprint) string {
	if f == nil {
		return ""
	}
	return fmt.Sprintf("Secret %s/%s key %s (uid %s, resourceVersion %s)", f.Namespace, f.Name, f.Key, f.UID, f.ResourceVersion)
}

func (s *secretState) String() string {
	switch {
	case s == nil:
		return ""
	case s.Err != "":
		return "unreadable: " + s.Err
	}
	return describe(s.Fingerprint)
}

func domainOf(mg mr) string {
	if d := mg.Parameters().DomainID; d != nil {
		return *d
	}
	return ""
}

// managedFields is what the spec manages; only these are compared and written.
type managedFields struct {
	Name             string  `json:"name"`
	DomainID         string  `json:"domain_id,omitempty"`
	Description      *string `json:"description,omitempty"`
	Enabled          *bool   `json:"enabled,omitempty"`
	Email            *string `json:"email,omitempty"`
	DefaultProjectID *string `json:"default_project_id,omitempty"`
	// Options holds only the options the spec sets: Keystone merges them into the user's.
	Options *keystone.UserOptions `json:"options,omitempty"`
	Marker  string                `json:"crossplane_provenance,omitempty"`
}

// patch is an update's body: the managed fields and, when it is to be sent, the password.
type patch struct {
	managedFields
	Password string `json:"password,omitempty"`
}

// comparison is what Observe compares: the managed fields and the password Secret's version
// (sent versus current), never the password.
type comparison struct {
	Fields         managedFields
	PasswordSecret string
}

func desired(fp *v1alpha1.UserParameters) managedFields {
	f := managedFields{Name: fp.Name, Description: fp.Description, Enabled: fp.Enabled, Email: fp.Email,
		DefaultProjectID: fp.DefaultProjectID, Options: wantOptions(fp.Options)}
	if fp.DomainID != nil {
		f.DomainID = *fp.DomainID
	}
	return f
}

// observed projects a user onto the fields the spec sets, so unset fields never differ.
func observed(u user, fp *v1alpha1.UserParameters) managedFields {
	o := managedFields{Name: u.Name, Options: haveOptions(fp.Options, u.Options)}
	if fp.DomainID != nil {
		o.DomainID = u.DomainID
	}
	if fp.Description != nil {
		o.Description = &u.Description
	}
	if fp.Enabled != nil {
		o.Enabled = &u.Enabled
	}
	if fp.Email != nil {
		o.Email = &u.Email
	}
	if fp.DefaultProjectID != nil {
		o.DefaultProjectID = &u.DefaultProjectID
	}
	return o
}
