// Package mapping manages Keystone federation mappings.
package mapping

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/gophercloud/gophercloud/v2"
	"github.com/gophercloud/gophercloud/v2/openstack/identity/v3/federation"
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
	errCreate     = "cannot create Keystone mapping %q"
	errUpdate     = "cannot update Keystone mapping %q"
	errDelete     = "cannot delete Keystone mapping %q"
	errListUsers  = "cannot check which protocols use Keystone mapping %q before deleting it"
	errStillInUse = "Keystone mapping %q is still used by %s: delete those protocols first (Keystone would delete the mapping and leave them pointing at nothing)"

	typeName = "Keystone federation mapping"
)

// mr is a Mapping of either scope: the driver is written once against it.
type mr interface {
	resource.Managed
	Parameters() *v1alpha1.MappingParameters
	Observation() *v1alpha1.MappingObservation
	GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy
}

// scopes are the Mapping kinds: cluster-scoped (legacy) and namespaced.
var scopes = []managedkind.Scoped[mr]{
	{GVK: clusterv1alpha1.MappingGroupVersionKind, Obj: &clusterv1alpha1.Mapping{}},
	{GVK: v1alpha1.MappingGroupVersionKind, Obj: &v1alpha1.Mapping{}},
}

// Setup adds the controllers that reconcile Mapping managed resources of both scopes.
func Setup(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopes(mgr, o, scopes, setup)
}

// SetupGated adds each scope's controller once its Mapping CRD is installed.
func SetupGated(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopesGated(mgr, o, scopes, setup)
}

func setup(mgr ctrl.Manager, o managedkind.Options, gvk schema.GroupVersionKind, obj mr) error {
	// The driver takes the concrete *gophercloud.ServiceClient rather than a keystone.API, since
	// gophercloud's federation package wants one.
	return managedkind.SetupKind(mgr, o, managedkind.Kind[mr, *gophercloud.ServiceClient, federation.Mapping]{
		GVK: gvk, Object: obj, System: clients.Keystone, ClientFor: o.Keystone.Client,
		NewDriver: func(sc *gophercloud.ServiceClient) adoption.Driver[mr, federation.Mapping] { return &external{sc: sc} },
	})
}

// external drives Keystone mappings (gophercloud's federation package) for the adoption engine.
type external struct {
	sc *gophercloud.ServiceClient
}

func (e *external) Get(ctx context.Context, _ mr, id string) (federation.Mapping, error) {
	m, err := federation.GetMapping(ctx, e.sc, id).Extract()
	if err != nil {
		return federation.Mapping{}, err
	}
	return *m, nil
}

// Find looks the mapping up by the ID the spec chooses, its natural key.
func (e *external) Find(ctx context.Context, mg mr) ([]federation.Mapping, error) {
	m, err := e.Get(ctx, mg, mg.Parameters().ID)
	return adoption.FoundByKey(m, err, keystone.IsNotFound)
}

func (e *external) IsNotFound(err error) bool { return keystone.IsNotFound(err) }

// Describe: Keystone mappings drop every attribute but id and rules, so the marker is kept on
// the managed resource (Markerless).
func (e *external) Describe(m federation.Mapping) adoption.Description {
	return adoption.Description{ID: m.ID, Type: typeName, Key: m.ID, Markerless: true}
}

func (e *external) Observe(mg mr, m federation.Mapping, p identityv1alpha1.Provenance) adoption.Observation {
	*mg.Observation() = v1alpha1.MappingObservation{ID: m.ID, RuleCount: len(m.Rules), Provenance: p}
	diff := cmp.Diff(ToKeystone(mg.Parameters().Rules), m.Rules, cmpopts.EquateEmpty())
	return adoption.Observation{UpToDate: diff == "", Diff: diff}
}

func (e *external) Create(ctx context.Context, mg mr, _ provenance.Marker) (string, managed.ConnectionDetails, error) {
	id := mg.Parameters().ID
	m, err := federation.CreateMapping(ctx, e.sc, id, federation.CreateMappingOpts{Rules: ToKeystone(mg.Parameters().Rules)}).Extract()
	if err != nil {
		return "", nil, keystone.Wrap(err, errCreate, id)
	}
	return m.ID, nil, nil
}

// Update replaces the rules in place (Keystone's PATCH replaces the whole rule list).
func (e *external) Update(ctx context.Context, mg mr, m federation.Mapping, _ provenance.Marker) (managed.ConnectionDetails, error) {
	if _, err := federation.UpdateMapping(ctx, e.sc, m.ID, federation.UpdateMappingOpts{Rules: ToKeystone(mg.Parameters().Rules)}).Extract(); err != nil {
		return nil, keystone.Wrap(err, errUpdate, m.ID)
	}
	return nil, nil
}

// Delete refuses while any protocol in Keystone still names the mapping: Keystone would delete
// it and leave the protocols dangling. Protocol resources also hold a finalizer on the Mapping
// resource they use, so in a joint deletion they go first and this check passes.
func (e *external) Delete(ctx context.Context, _ mr, m federation.Mapping) error {
	users, err := e.protocolsUsing(ctx, m.ID)
	if err != nil {
		return keystone.Wrap(err, errListUsers, m.ID)
	}
	if len(users) > 0 {
		return errors.Errorf(errStillInUse, m.ID, strings.Join(users, ", "))
	}
	return keystone.Wrap(keystone.IgnoreNotFound(federation.DeleteMapping(ctx, e.sc, m.ID).ExtractErr()), errDelete, m.ID)
}

// protocolsUsing lists the protocols, of every identity provider, whose mapping is id.
func (e *external) protocolsUsing(ctx context.Context, id string) ([]string, error) {
	idps, err := keystone.ListIdentityProviders(ctx, e.sc, nil)
	if err != nil {
		return nil, err
	}
	var users []string
	for _, idp := range idps {
		ps, err := keystone.ListProtocols(ctx, e.sc, idp.ID)
		if err != nil {
			return nil, err
		}
		for _, p := range ps {
			if p.MappingID == id {
				users = append(users, fmt.Sprintf("protocol %q of identity provider %q", p.ID, idp.ID))
			}
		}
	}
	return users, nil
}
