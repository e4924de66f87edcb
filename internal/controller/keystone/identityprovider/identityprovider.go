// Package identityprovider manages Keystone federation identity providers.
package identityprovider

import (
	"context"
	"slices"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

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
	"github.com/crossplane-contrib/provider-identity/internal/usage"
)

const (
	errNoDomain = "spec.forProvider.domainId of identity provider %q is not resolved yet: set domainRef, domainSelector or domainId"
	errCreate   = "cannot create Keystone identity provider %q"
	errUpdate   = "cannot update Keystone identity provider %q"
	errDelete   = "cannot delete Keystone identity provider %q"

	typeName = "Keystone identity provider"
)

// mr is an IdentityProvider of either scope: the driver is written once against it.
type mr interface {
	resource.Managed
	Parameters() *v1alpha1.IdentityProviderParameters
	Observation() *v1alpha1.IdentityProviderObservation
	GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy
}

// scopes are the IdentityProvider kinds: cluster-scoped (legacy) and namespaced.
var scopes = []managedkind.Scoped[mr]{
	{GVK: clusterv1alpha1.IdentityProviderGroupVersionKind, Obj: &clusterv1alpha1.IdentityProvider{}},
	{GVK: v1alpha1.IdentityProviderGroupVersionKind, Obj: &v1alpha1.IdentityProvider{}},
}

// Setup adds the controllers that reconcile IdentityProvider managed resources of both scopes.
// An identity provider marks the Domain resource it references as used (see internal/usage):
// Keystone deletes a domain's identity providers with it.
func Setup(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopes(mgr, o, scopes, setup)
}

// SetupGated adds each scope's controller once its IdentityProvider CRD is installed.
func SetupGated(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopesGated(mgr, o, scopes, setup)
}

func setup(mgr ctrl.Manager, o managedkind.Options, gvk schema.GroupVersionKind, obj mr) error {
	return managedkind.SetupKeystone(mgr, o, managedkind.Kind[mr, keystone.API, keystone.IdentityProvider]{
		GVK: gvk, Object: obj,
		NewDriver: func(sc keystone.API) adoption.Driver[mr, keystone.IdentityProvider] {
			return &external{sc: sc}
		},
		Extra: []managed.ReconcilerOption{managedkind.MarksUsed(mgr, o, v1alpha1.IdentityProviderKind, usage.Target[mr]{
			NewList: domains(gvk),
			Used: func(mg mr) (string, string) {
				return usage.RefName(mg.Parameters().DomainRef), deref(mg.Parameters().DomainID)
			},
		})},
	})
}

// domains lists the Domains an IdentityProvider of the kind gvk may use: those of its own
// scope, where its domain reference resolves.
func domains(gvk schema.GroupVersionKind) func() client.ObjectList {
	if gvk.Group == v1alpha1.GroupName {
		return func() client.ObjectList { return &v1alpha1.DomainList{} }
	}
	return func() client.ObjectList { return &clusterv1alpha1.DomainList{} }
}

// external drives Keystone identity providers for the adoption engine.
type external struct {
	sc keystone.API
}

func (e *external) Get(ctx context.Context, _ mr, id string) (keystone.IdentityProvider, error) {
	return keystone.GetIdentityProvider(ctx, e.sc, id)
}

// Find looks the identity provider up by the ID the spec chooses, its natural key.
func (e *external) Find(ctx context.Context, mg mr) ([]keystone.IdentityProvider, error) {
	idp, err := keystone.GetIdentityProvider(ctx, e.sc, mg.Parameters().ID)
	return adoption.FoundByKey(idp, err, keystone.IsNotFound)
}

func (e *external) IsNotFound(err error) bool { return keystone.IsNotFound(err) }

// Describe reads the marker from the last line of the description, the only field of an
// identity provider that can hold one (Keystone refuses extra attributes).
func (e *external) Describe(idp keystone.IdentityProvider) adoption.Description {
	d := adoption.Description{ID: idp.ID, Type: typeName, Key: idp.ID}
	if _, m, found, err := provenance.ExtractFromText(idp.Description); found && err == nil {
		d.Marker = &m
	}
	return d
}

func (e *external) Observe(mg mr, idp keystone.IdentityProvider, p identityv1alpha1.Provenance) adoption.Observation {
	rest, _, _, _ := provenance.ExtractFromText(idp.Description)
	*mg.Observation() = v1alpha1.IdentityProviderObservation{
		ID: idp.ID, DomainID: idp.DomainID, Description: rest, Enabled: idp.Enabled,
		RemoteIDs: idp.RemoteIDs, AuthorizationTTL: toInt32(idp.AuthorizationTTL), Provenance: p,
	}
	fp := mg.Parameters()
	li := lateInitialize(fp, idp)
	want, have := desired(fp), observed(idp, fp)
	diff := cmp.Diff(want, have)
	return adoption.Observation{UpToDate: diff == "", Diff: diff, LateInitialized: li}
}

func (e *external) Create(ctx context.Context, mg mr, m provenance.Marker) (string, managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return "", nil, err
	}
	fp := mg.Parameters()
	if fp.DomainID == nil || *fp.DomainID == "" {
		return "", nil, errors.Errorf(errNoDomain, fp.ID)
	}
	opts := desired(fp).opts()
	desc := provenance.EmbedInText(deref(fp.Description), m)
	opts.Description = &desc
	idp, err := keystone.CreateIdentityProvider(ctx, e.sc, fp.ID, opts)
	if err != nil {
		return "", nil, keystone.Wrap(err, errCreate, fp.ID)
	}
	lateInitialize(fp, idp)
	return idp.ID, nil, nil
}

// lateInitialize fills the spec's unset fields from the identity provider, Keystone's
// defaults, and says whether it filled any. Create calls it with the create's answer, so that
// the update recording the create carries them instead of an update of their own (ADR 0006,
// part 5).
func lateInitialize(fp *v1alpha1.IdentityProviderParameters, idp keystone.IdentityProvider) bool {
	if fp.Enabled != nil {
		return false
	}
	fp.Enabled = &idp.Enabled
	return true
}

// Update patches the managed fields and the description with the marker as its last line. The
// domain is sent only when it differs: Keystone refuses to change it, and says so.
func (e *external) Update(ctx context.Context, mg mr, idp keystone.IdentityProvider, m provenance.Marker) (managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return nil, err
	}
	fp := mg.Parameters()
	w := desired(fp)
	if w.DomainID != nil && *w.DomainID == idp.DomainID {
		w.DomainID = nil
	}
	opts := w.opts()
	text, _, _, _ := provenance.ExtractFromText(idp.Description)
	if fp.Description != nil {
		text = *fp.Description
	}
	desc := provenance.EmbedInText(text, m)
	opts.Description = &desc
	if _, err := keystone.UpdateIdentityProvider(ctx, e.sc, idp.ID, opts); err != nil {
		return nil, keystone.Wrap(err, errUpdate, idp.ID)
	}
	return nil, nil
}

// Delete deletes the identity provider; Keystone deletes its protocols with it. Protocol
// resources that use it hold a finalizer on this resource, so this runs after they are gone.
// Dependents lists what Keystone would delete with the identity provider: its protocols and
// the federated identities of the users it federated.
func (e *external) Dependents(ctx context.Context, _ mr, idp keystone.IdentityProvider) ([]adoption.Dependent, error) {
	return adoption.Gather(ctx,
		func() ([]adoption.Dependent, error) { return keystone.ProtocolsOf(ctx, e.sc, idp.ID) },
		func() ([]adoption.Dependent, error) { return keystone.FederatedUsers(ctx, e.sc, idp.ID) },
	)
}

func (e *external) Delete(ctx context.Context, _ mr, idp keystone.IdentityProvider) error {
	return keystone.Wrap(keystone.IgnoreNotFound(keystone.DeleteIdentityProvider(ctx, e.sc, idp.ID)), errDelete, idp.ID)
}

// managedFields is what the spec manages; only these are compared and written. The description
// is compared without the marker line.
type managedFields struct {
	DomainID         *string   `json:"domainId,omitempty"`
	Description      *string   `json:"description,omitempty"`
	Enabled          *bool     `json:"enabled,omitempty"`
	RemoteIDs        *[]string `json:"remoteIds,omitempty"`
	AuthorizationTTL *int      `json:"authorizationTTL,omitempty"`
}

func (f managedFields) opts() keystone.IdentityProviderOpts {
	return keystone.IdentityProviderOpts{DomainID: f.DomainID, Enabled: f.Enabled, RemoteIDs: f.RemoteIDs, AuthorizationTTL: f.AuthorizationTTL}
}

func desired(fp *v1alpha1.IdentityProviderParameters) managedFields {
	f := managedFields{DomainID: fp.DomainID, Description: fp.Description, Enabled: fp.Enabled}
	if fp.RemoteIDs != nil {
		ids := sorted(fp.RemoteIDs)
		f.RemoteIDs = &ids
	}
	if fp.AuthorizationTTL != nil {
		ttl := int(*fp.AuthorizationTTL)
		f.AuthorizationTTL = &ttl
	}
	return f
}

// observed projects an identity provider onto the fields the spec sets.
func observed(idp keystone.IdentityProvider, fp *v1alpha1.IdentityProviderParameters) managedFields {
	o := managedFields{}
	if fp.DomainID != nil {
		o.DomainID = &idp.DomainID
	}
	if fp.Description != nil {
		rest, _, _, _ := provenance.ExtractFromText(idp.Description)
		o.Description = &rest
	}
	if fp.Enabled != nil {
		o.Enabled = &idp.Enabled
	}
	if fp.RemoteIDs != nil {
		ids := sorted(idp.RemoteIDs)
		o.RemoteIDs = &ids
	}
	if fp.AuthorizationTTL != nil {
		o.AuthorizationTTL = idp.AuthorizationTTL
	}
	return o
}

// sorted returns a sorted copy, never nil: remote IDs are a set, and [] and null are one value.
func sorted(s []string) []string {
	out := append([]string{}, s...)
	slices.Sort(out)
	return out
}

func toInt32(p *int) *int32 {
	if p == nil {
		return nil
	}
	v := int32(*p) //nolint:gosec // minutes; Keystone stores an int32 column
	return &v
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
