// Package protocol manages Keystone federation protocols.
package protocol

import (
	"context"
	"strings"

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
	errNotResolved = "protocol %q: spec.forProvider.identityProviderId and mappingId must be resolved first: set their Ref, Selector or ID"
	errCreate      = "cannot create Keystone protocol %q of identity provider %q"
	errUpdate      = "cannot update Keystone protocol %q of identity provider %q"
	errDelete      = "cannot delete Keystone protocol %q of identity provider %q"

	typeName = "Keystone federation protocol"
)

// mr is a Protocol of either scope: the driver is written once against it.
type mr interface {
	resource.Managed
	Parameters() *v1alpha1.ProtocolParameters
	Observation() *v1alpha1.ProtocolObservation
	GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy
}

// scopes are the Protocol kinds: cluster-scoped (legacy) and namespaced.
var scopes = []managedkind.Scoped[mr]{
	{GVK: clusterv1alpha1.ProtocolGroupVersionKind, Obj: &clusterv1alpha1.Protocol{}},
	{GVK: v1alpha1.ProtocolGroupVersionKind, Obj: &v1alpha1.Protocol{}},
}

// Setup adds the controllers that reconcile Protocol managed resources of both scopes. A
// protocol marks the IdentityProvider and Mapping resources it uses (see internal/usage), so
// that they are deleted in Keystone only after it.
func Setup(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopes(mgr, o, scopes, setup)
}

// SetupGated adds each scope's controller once its Protocol CRD is installed.
func SetupGated(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopesGated(mgr, o, scopes, setup)
}

func setup(mgr ctrl.Manager, o managedkind.Options, gvk schema.GroupVersionKind, obj mr) error {
	idps, mappings := usedLists(gvk)
	return managedkind.SetupKeystone(mgr, o, managedkind.Kind[mr, keystone.API, keystone.Protocol]{
		GVK: gvk, Object: obj,
		NewDriver: func(sc keystone.API) adoption.Driver[mr, keystone.Protocol] { return &external{sc: sc} },
		Extra: []managed.ReconcilerOption{managedkind.MarksUsed(mgr, o, v1alpha1.ProtocolKind,
			usage.Target[mr]{
				NewList: idps,
				Used: func(mg mr) (string, string) {
					return usage.RefName(mg.Parameters().IdentityProviderRef), deref(mg.Parameters().IdentityProviderID)
				},
			},
			usage.Target[mr]{
				NewList: mappings,
				Used: func(mg mr) (string, string) {
					return usage.RefName(mg.Parameters().MappingRef), deref(mg.Parameters().MappingID)
				},
			})},
	})
}

// usedLists list the IdentityProviders and Mappings a Protocol of the kind gvk may use: those
// of its own scope, where its references resolve.
func usedLists(gvk schema.GroupVersionKind) (idps, mappings func() client.ObjectList) {
	if gvk.Group == v1alpha1.GroupName {
		return func() client.ObjectList { return &v1alpha1.IdentityProviderList{} },
			func() client.ObjectList { return &v1alpha1.MappingList{} }
	}
	return func() client.ObjectList { return &clusterv1alpha1.IdentityProviderList{} },
		func() client.ObjectList { return &clusterv1alpha1.MappingList{} }
}

// ExternalName of a protocol: <identity provider ID>/<protocol ID>. A protocol's ID is unique
// only under its identity provider.
func ExternalName(idp, id string) string { return idp + "/" + id }

// parse splits an external name; a bare protocol ID belongs to the spec's identity provider.
func parse(mg mr, ext string) (idp, id string) {
	if i := strings.LastIndex(ext, "/"); i >= 0 {
		return ext[:i], ext[i+1:]
	}
	return deref(mg.Parameters().IdentityProviderID), ext
}

// external drives Keystone protocols for the adoption engine.
type external struct {
	sc keystone.API
}

// Get reads the protocol from its identity provider's list, the only read that includes
// remote_id_attribute.
func (e *external) Get(ctx context.Context, mg mr, ext string) (keystone.Protocol, error) {
	idp, id := parse(mg, ext)
	p, err := keystone.ReadProtocol(ctx, e.sc, idp, id)
	p.IdentityProviderID = idp
	return p, err
}

// Find looks the protocol up by its identity provider and ID, its natural key.
func (e *external) Find(ctx context.Context, mg mr) ([]keystone.Protocol, error) {
	fp := mg.Parameters()
	if fp.IdentityProviderID == nil {
		return nil, nil
	}
	p, err := e.Get(ctx, mg, ExternalName(*fp.IdentityProviderID, fp.ID))
	return adoption.FoundByKey(p, err, keystone.IsNotFound)
}

func (e *external) IsNotFound(err error) bool { return keystone.IsNotFound(err) }

// Describe: Keystone protocols refuse extra attributes, so the marker is kept on the managed
// resource (Markerless).
func (e *external) Describe(p keystone.Protocol) adoption.Description {
	return adoption.Description{ID: ExternalName(p.IdentityProviderID, p.ID), Type: typeName, Key: p.ID, Markerless: true}
}

func (e *external) Observe(mg mr, p keystone.Protocol, pv identityv1alpha1.Provenance) adoption.Observation {
	*mg.Observation() = v1alpha1.ProtocolObservation{
		ID: ExternalName(p.IdentityProviderID, p.ID), IdentityProviderID: p.IdentityProviderID, MappingID: p.MappingID,
		RemoteIDAttribute: p.RemoteIDAttribute, Provenance: pv,
	}
	fp := mg.Parameters()
	want := keystone.ProtocolOpts{MappingID: deref(fp.MappingID), RemoteIDAttribute: fp.RemoteIDAttribute}
	have := keystone.ProtocolOpts{MappingID: p.MappingID}
	if fp.RemoteIDAttribute != nil {
		have.RemoteIDAttribute = &p.RemoteIDAttribute
	}
	diff := cmp.Diff(want, have)
	return adoption.Observation{UpToDate: diff == "", Diff: diff}
}

func (e *external) Create(ctx context.Context, mg mr, _ provenance.Marker) (string, managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return "", nil, err
	}
	fp := mg.Parameters()
	if fp.IdentityProviderID == nil || fp.MappingID == nil {
		return "", nil, errors.Errorf(errNotResolved, fp.ID)
	}
	idp := *fp.IdentityProviderID
	if _, err := keystone.CreateProtocol(ctx, e.sc, idp, fp.ID, keystone.ProtocolOpts{MappingID: *fp.MappingID, RemoteIDAttribute: fp.RemoteIDAttribute}); err != nil {
		return "", nil, keystone.Wrap(err, errCreate, fp.ID, idp)
	}
	return ExternalName(idp, fp.ID), nil, nil
}

func (e *external) Update(ctx context.Context, mg mr, p keystone.Protocol, _ provenance.Marker) (managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return nil, err
	}
	fp := mg.Parameters()
	opts := keystone.ProtocolOpts{MappingID: p.MappingID, RemoteIDAttribute: fp.RemoteIDAttribute}
	if fp.MappingID != nil {
		opts.MappingID = *fp.MappingID
	}
	if _, err := keystone.UpdateProtocol(ctx, e.sc, p.IdentityProviderID, p.ID, opts); err != nil {
		return nil, keystone.Wrap(err, errUpdate, p.ID, p.IdentityProviderID)
	}
	return nil, nil
}

func (e *external) Delete(ctx context.Context, _ mr, p keystone.Protocol) error {
	err := keystone.DeleteProtocol(ctx, e.sc, p.IdentityProviderID, p.ID)
	return keystone.Wrap(keystone.IgnoreNotFound(err), errDelete, p.ID, p.IdentityProviderID)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
