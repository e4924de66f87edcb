// Package domainconfig manages the identity configuration of Keystone domains: LDAP-backed
// domains through /v3/domains/{id}/config.
package domainconfig

import (
	"context"
	"fmt"

	"github.com/google/go-cmp/cmp"
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
	"github.com/crossplane-contrib/provider-identity/internal/usage"
)

const (
	errNoDomain     = "spec.forProvider.domainId is not resolved yet: set domainRef, domainSelector or domainId"
	errCreate       = "cannot create the configuration of Keystone domain %s"
	errUpdate       = "cannot replace the configuration of Keystone domain %s"
	errDelete       = "cannot delete the configuration of Keystone domain %s"
	errCheck        = "cannot check whether Keystone domain %s has a configuration before creating one"
	errGetSecret    = "cannot read the bind Secret %s/%s named by spec.forProvider.ldap.bindCredentialsSecretRef"
	errSecretKey    = "the bind Secret %s/%s lacks a non-empty %q key (%s): a DomainConfig's bind Secret holds the bind DN under \"username\" and its password under \"password\""
	errSecretLine   = "the bind Secret %s/%s holds a newline or carriage return under %q: Keystone's [ldap] options are single lines"
	errOptionLine   = "option %s.%s holds a newline or carriage return: it would inject options into Keystone's [%s] section"
	errPersistBind  = "cannot record which bind Secret version was sent to Keystone"
	redactedPasswrd = "<redacted>"

	typeName = "Keystone domain configuration"

	// AnnotationBindVersion records, on the resource, the version of the bind Secret (its UID
	// and resourceVersion) whose credentials Keystone was last sent. Keystone never returns the
	// password, so this is how a changed Secret is noticed. It is derived from the Secret's
	// metadata, never from its content.
	AnnotationBindVersion = "keystone.identity.crossplane.io/bind-credentials-version"
)

// mr is a DomainConfig of either scope: the driver is written once against it.
type mr interface {
	resource.Managed
	Parameters() *v1alpha1.DomainConfigParameters
	Observation() *v1alpha1.DomainConfigObservation
	GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy
}

// scopes are the DomainConfig kinds: cluster-scoped (legacy) and namespaced.
var scopes = []managedkind.Scoped[mr]{
	{GVK: clusterv1alpha1.DomainConfigGroupVersionKind, Obj: &clusterv1alpha1.DomainConfig{}},
	{GVK: v1alpha1.DomainConfigGroupVersionKind, Obj: &v1alpha1.DomainConfig{}},
}

// domains lists the Domains a DomainConfig of each scope may use: those of its own scope.
var domains = map[schema.GroupVersionKind]func() client.ObjectList{
	clusterv1alpha1.DomainConfigGroupVersionKind: func() client.ObjectList { return &clusterv1alpha1.DomainList{} },
	v1alpha1.DomainConfigGroupVersionKind:        func() client.ObjectList { return &v1alpha1.DomainList{} },
}

// Setup adds the controllers that reconcile DomainConfig managed resources of both scopes. A
// DomainConfig marks the Domain resource it references as used (see internal/usage): the domain
// is deleted in Keystone only after its configuration.
func Setup(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopes(mgr, o, scopes, setup)
}

// SetupGated adds each scope's controller once its DomainConfig CRD is installed.
func SetupGated(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopesGated(mgr, o, scopes, setup)
}

func setup(mgr ctrl.Manager, o managedkind.Options, gvk schema.GroupVersionKind, obj mr) error {
	kube := mgr.GetClient()
	return managedkind.SetupKeystone(mgr, o, managedkind.Kind[mr, keystone.API, config]{
		GVK: gvk, Object: obj,
		NewDriver: func(sc keystone.API) adoption.Driver[mr, config] { return &external{sc: sc, kube: kube} },
		Extra: []managed.ReconcilerOption{managedkind.MarksUsed(mgr, o, v1alpha1.DomainConfigKind, usage.Target[mr]{
			NewList: domains[gvk],
			Used: func(mg mr) (string, string) {
				return usage.RefName(mg.Parameters().DomainRef), deref(mg.Parameters().DomainID)
			},
		})},
	})
}

// config is a domain's configuration as Keystone returns it, with the version of the bind
// Secret as read in this reconcile (empty while the resource is being deleted: a deleted or
// broken Secret must not keep the configuration from being removed).
type config struct {
	DomainID    string
	Options     keystone.DomainConfig
	BindVersion string
	BindUser    string
}

// bind holds the bind credentials read in this reconcile.
type bind struct {
	user, password, version string
}

// external drives domain configurations for the adoption engine. One is made per reconcile,
// so it reads the bind Secret at most once.
type external struct {
	sc   keystone.API
	kube client.Client
	bind *bind
}

func (e *external) Get(ctx context.Context, mg mr, domainID string) (config, error) {
	opts, err := keystone.GetDomainConfig(ctx, e.sc, domainID)
	if err != nil {
		return config{}, err
	}
	c := config{DomainID: domainID, Options: opts}
	if meta.WasDeleted(mg) {
		return c, nil
	}
	b, err := e.credentials(ctx, mg)
	if err != nil {
		return config{}, err
	}
	c.BindVersion, c.BindUser = b.version, b.user
	return c, nil
}

// Find reads the configuration of the spec's domain: a domain has at most one.
func (e *external) Find(ctx context.Context, mg mr) ([]config, error) {
	id := deref(mg.Parameters().DomainID)
	if id == "" {
		return nil, nil
	}
	c, err := e.Get(ctx, mg, id)
	return adoption.FoundByKey(c, err, keystone.IsNotFound)
}

func (e *external) IsNotFound(err error) bool { return keystone.IsNotFound(err) }

// Describe: a domain configuration is a set of options from Keystone's allow-list, none of which
// can hold a marker, so the marker is kept on the managed resource (Markerless). See
// docs/adr/0003-keystone-federation-provenance.md.
func (e *external) Describe(c config) adoption.Description {
	return adoption.Description{ID: c.DomainID, Type: typeName, Key: "of domain " + c.DomainID, Markerless: true}
}

func (e *external) Observe(mg mr, c config, p identityv1alpha1.Provenance) adoption.Observation {
	have := stringify(c.Options)
	sent := mg.GetAnnotations()[AnnotationBindVersion]
	*mg.Observation() = v1alpha1.DomainConfigObservation{ID: c.DomainID, Options: have, BindCredentialsVersion: sent, Provenance: p}
	if c.BindVersion == "" {
		// Being deleted: nothing will be written, so nothing to compare.
		return adoption.Observation{UpToDate: true}
	}
	// Keystone returns what it stores, the escaped values: compare with the escaped rendering
	// (a hand-made value with a lone "$" then differs, and is rewritten escaped).
	want := Escape(Render(&mg.Parameters().LDAP, c.BindUser, ""))
	diff := cmp.Diff(want, have)
	if sent != c.BindVersion {
		diff += fmt.Sprintf("bind Secret version: sent %q, now %q\n", sent, c.BindVersion)
	}
	return adoption.Observation{UpToDate: diff == "", Diff: diff}
}

// Create creates the domain's configuration. Keystone's PUT never refuses: it replaces any
// configuration the domain has (answering 200 instead of 201). So a configuration made since
// Observe's read is looked for once more right before the PUT and refused untouched; one made in
// the round trip between the two is replaced, which the 200 tells exactly, and is refused too
// rather than claimed.
func (e *external) Create(ctx context.Context, mg mr, _ provenance.Marker) (string, managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return "", nil, err
	}
	id := deref(mg.Parameters().DomainID)
	if id == "" {
		return "", nil, errors.New(errNoDomain)
	}
	switch _, err := keystone.GetDomainConfig(ctx, e.sc, id); {
	case err == nil:
		return "", nil, &adoption.ConflictError{Object: e.Describe(config{DomainID: id})}
	case !keystone.IsNotFound(err):
		return "", nil, keystone.Wrap(err, errCheck, id)
	}
	created, err := e.put(ctx, mg, id, errCreate)
	if err != nil {
		return "", nil, err
	}
	if !created {
		return "", nil, &adoption.ConflictError{Object: e.Describe(config{DomainID: id}), Overwritten: true}
	}
	// The reconciler persists every annotation right after a create.
	meta.AddAnnotations(mg, map[string]string{AnnotationBindVersion: e.bind.version})
	return id, nil, nil
}

// Update replaces the whole configuration (with the password) and records the Secret version.
func (e *external) Update(ctx context.Context, mg mr, c config, _ provenance.Marker) (managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return nil, err
	}
	if _, err := e.put(ctx, mg, c.DomainID, errUpdate); err != nil {
		return nil, err
	}
	if mg.GetAnnotations()[AnnotationBindVersion] == e.bind.version {
		return nil, nil
	}
	// After an update the reconciler writes only the status: persist the annotation here,
	// on a copy, and carry the new resourceVersion over so that the status write succeeds.
	cp := mg.DeepCopyObject().(mr)
	patch := client.MergeFrom(cp.DeepCopyObject().(mr))
	meta.AddAnnotations(cp, map[string]string{AnnotationBindVersion: e.bind.version})
	if err := e.kube.Patch(ctx, cp, patch); err != nil {
		return nil, errors.Wrap(err, errPersistBind)
	}
	meta.AddAnnotations(mg, map[string]string{AnnotationBindVersion: e.bind.version})
	mg.SetResourceVersion(cp.GetResourceVersion())
	return nil, nil
}

func (e *external) Delete(ctx context.Context, _ mr, c config) error {
	return keystone.Wrap(keystone.IgnoreNotFound(keystone.DeleteDomainConfig(ctx, e.sc, c.DomainID)), errDelete, c.DomainID)
}

// put renders the configuration with the bind credentials, escapes it for Keystone's reading
// (Escape), checks every value once more for line breaks, and replaces the domain's
// configuration with it.
// created is false when the domain had a configuration, now replaced.
func (e *external) put(ctx context.Context, mg mr, domainID, errFmt string) (created bool, err error) {
	b, err := e.credentials(ctx, mg)
	if err != nil {
		return false, err
	}
	cfg := Escape(Render(&mg.Parameters().LDAP, b.user, b.password))
	if err := SingleLines(cfg); err != nil {
		return false, err
	}
	wire := keystone.DomainConfig{}
	for g, opts := range cfg {
		wire[g] = map[string]any{}
		for k, v := range opts {
			wire[g][k] = v
		}
	}
	_, created, err = keystone.PutDomainConfig(ctx, e.sc, domainID, wire)
	if err != nil {
		// The password went out escaped: redact both forms.
		msg := redact(redact(keystone.Describe(err), cfg[groupLDAP][optPassword]), b.password)
		return false, errors.Wrapf(errors.New(msg), errFmt, domainID)
	}
	return created, nil
}

// credentials reads the bind Secret once per reconcile and checks its fixed keys.
func (e *external) credentials(ctx context.Context, mg mr) (*bind, error) {
	if e.bind != nil {
		return e.bind, nil
	}
	// The bind Secret is read in the DomainConfig's scope: a namespaced one reads its own
	// namespace only (see clients.ResourceSecrets).
	ref := clients.SecretKey(mg, mg.Parameters().LDAP.BindCredentialsSecretRef)
	s := &corev1.Secret{}
	if err := clients.ResourceSecrets(e.kube, mg).Get(ctx, ref, s); err != nil {
		return nil, errors.Wrapf(err, errGetSecret, ref.Namespace, ref.Name)
	}
	b := &bind{version: string(s.GetUID()) + "/" + s.GetResourceVersion()}
	for _, k := range []struct {
		key, what string
		into      *string
	}{{keyUsername, "the bind DN", &b.user}, {keyPassword, "the bind password", &b.password}} {
		v, ok := s.Data[k.key]
		if !ok || len(v) == 0 {
			return nil, errors.Errorf(errSecretKey, ref.Namespace, ref.Name, k.key, k.what)
		}
		if hasLineBreak(string(v)) {
			return nil, errors.Errorf(errSecretLine, ref.Namespace, ref.Name, k.key)
		}
		*k.into = string(v)
	}
	e.bind = b
	return b, nil
}

// stringify renders Keystone's option values (sent as strings, but a hand-made configuration
// may hold booleans or numbers) as the strings this provider sends.
func stringify(c keystone.DomainConfig) map[string]map[string]string {
	out := map[string]map[string]string{}
	for g, opts := range c {
		out[g] = map[string]string{}
		for k, v := range opts {
			if g == groupLDAP && k == optPassword {
				continue
			}
			if s, ok := v.(string); ok {
				out[g][k] = s
			} else {
				out[g][k] = fmt.Sprint(v)
			}
		}
	}
	return out
}

// redact removes the password from a message, should Keystone ever echo it.
func redact(msg, password string) string {
	if password == "" {
		return msg
	}
	return replaceAll(msg, password, redactedPasswrd)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
