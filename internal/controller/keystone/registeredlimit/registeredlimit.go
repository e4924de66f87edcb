// Package registeredlimit manages Keystone registered limits (unified limits): the default
// limit of one resource of a service, everywhere or in one region.
//
// Keystone keeps no attribute it does not know on a registered limit (its schema refuses them),
// so the provenance marker is the last line of the description, as for identity providers
// (docs/adr/0003). Keystone refuses to update or delete a registered limit while project or
// domain limits of the same service, region and resource exist; deleting one takes nothing with
// it.
package registeredlimit

import (
	"context"
	"fmt"
	"net/http"
	"net/url"

	"github.com/google/go-cmp/cmp"
	"github.com/gophercloud/gophercloud/v2"
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
	errNoService = "the service of the registered limit is not known yet: set spec.forProvider.serviceId, or wait for serviceRef/serviceSelector to resolve"
	errCreate    = "cannot create Keystone registered limit %s (does the service exist, and the region if one is set?)"
	errUpdate    = "cannot update Keystone registered limit %s (ID %s)"
	errDelete    = "cannot delete Keystone registered limit %s (ID %s)"
	// errInUse follows Keystone's 403 to an update or delete of a registered limit in use.
	errInUse = " (Keystone refuses to change or delete a registered limit while project or domain limits of the same service, region and resource exist: delete those Limits first)"
	errMove  = "Keystone registered limit %s (ID %s) is for %s, but the spec asks for %s: Keystone keeps one registered limit per service, region and resource; restore the spec, or create a new RegisteredLimit"

	typeName = "Keystone registered limit"
)

type registeredLimit = keystone.RegisteredLimit

func idOf(o registeredLimit) string { return o.ID }

// ofService is the scope a registered limit is read in: the registered limits of its service.
func ofService(serviceID string) url.Values { return url.Values{"service_id": {serviceID}} }

// mr is a RegisteredLimit of either scope: the driver is written once against it.
type mr interface {
	resource.Managed
	Parameters() *v1alpha1.RegisteredLimitParameters
	Observation() *v1alpha1.RegisteredLimitObservation
	GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy
}

// scopes are the RegisteredLimit kinds: cluster-scoped (legacy) and namespaced.
var scopes = []managedkind.Scoped[mr]{
	{GVK: clusterv1alpha1.RegisteredLimitGroupVersionKind, Obj: &clusterv1alpha1.RegisteredLimit{}},
	{GVK: v1alpha1.RegisteredLimitGroupVersionKind, Obj: &v1alpha1.RegisteredLimit{}},
}

// Setup adds the controllers that reconcile RegisteredLimit managed resources of both scopes.
func Setup(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopes(mgr, o, scopes, setup)
}

// SetupGated adds each scope's controller once its RegisteredLimit CRD is installed.
func SetupGated(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopesGated(mgr, o, scopes, setup)
}

func setup(mgr ctrl.Manager, o managedkind.Options, gvk schema.GroupVersionKind, obj mr) error {
	return managedkind.SetupKeystone(mgr, o, managedkind.Kind[mr, keystone.API, registeredLimit]{
		GVK: gvk, Object: obj,
		NewDriver: sharedDriver(o.SharedReads),
	})
}

// sharedDriver returns the driver over a client, whose reads of the registered limits of one
// service are shared by every resource as o says.
func sharedDriver(o clients.SharedReadOptions) func(keystone.API) adoption.Driver[mr, registeredLimit] {
	shared := keystone.NewShared(keystone.RegisteredLimits, idOf, o)
	return func(sc keystone.API) adoption.Driver[mr, registeredLimit] { return &external{sc: sc, limits: shared} }
}

// external drives Keystone registered limits for the adoption engine.
type external struct {
	sc     keystone.API
	limits keystone.Shared[registeredLimit]
}

func (e *external) Get(ctx context.Context, mg mr, id string) (registeredLimit, error) {
	return e.limits.Get(ctx, e.sc, ofService(deref(mg.Parameters().ServiceID)), id)
}

// Find looks the registered limit up by service, region and resource name, Keystone's unique
// key. Keystone cannot filter on "no region", so the region is matched here.
func (e *external) Find(ctx context.Context, mg mr) ([]registeredLimit, error) {
	fp := mg.Parameters()
	if deref(fp.ServiceID) == "" {
		return keystone.Unresolved[registeredLimit](mg, errors.New(errNoService))
	}
	k := keyOf(deref(fp.ServiceID), fp.RegionID, fp.ResourceName)
	q := ofService(deref(fp.ServiceID))
	q.Set("resource_name", fp.ResourceName)
	return e.limits.FindBy(ctx, e.sc, ofService(deref(fp.ServiceID)), "key:"+k, func(r registeredLimit) bool {
		return keyOf(r.ServiceID, r.RegionID, r.ResourceName) == k
	}, q)
}

func (e *external) IsNotFound(err error) bool { return keystone.IsNotFound(err) }

func (e *external) Describe(r registeredLimit) adoption.Description {
	d := adoption.Description{ID: r.ID, Type: typeName, Key: keyOf(r.ServiceID, r.RegionID, r.ResourceName)}
	if _, m, found, err := provenance.ExtractFromText(deref(r.Description)); found && err == nil {
		d.Marker = &m
	}
	return d
}

func (e *external) Observe(mg mr, r registeredLimit, p identityv1alpha1.Provenance) adoption.Observation {
	rest, _, _, _ := provenance.ExtractFromText(deref(r.Description))
	*mg.Observation() = v1alpha1.RegisteredLimitObservation{ID: r.ID, ServiceID: r.ServiceID, RegionID: deref(r.RegionID),
		ResourceName: r.ResourceName, DefaultLimit: r.DefaultLimit, Description: rest, Provenance: p}
	fp := mg.Parameters()
	diff := cmp.Diff(desired(fp), observed(r, fp))
	return adoption.Observation{UpToDate: diff == "", Diff: diff}
}

func (e *external) Create(ctx context.Context, mg mr, m provenance.Marker) (string, managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return "", nil, err
	}
	fp := mg.Parameters()
	if deref(fp.ServiceID) == "" {
		return "", nil, errors.New(errNoService)
	}
	body := desired(fp)
	desc := provenance.EmbedInText(deref(fp.Description), m)
	body.Description = &desc
	r, err := e.limits.CreateListed(ctx, e.sc, ofService(deref(fp.ServiceID)), body)
	if err != nil {
		return "", nil, keystone.Wrap(err, errCreate, keyOf(deref(fp.ServiceID), fp.RegionID, fp.ResourceName))
	}
	return r.ID, nil, nil
}

// Update writes the default limit and the description with the marker; service, region and
// resource name identify the registered limit and are never written.
func (e *external) Update(ctx context.Context, mg mr, r registeredLimit, m provenance.Marker) (managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return nil, err
	}
	fp := mg.Parameters()
	have := keyOf(r.ServiceID, r.RegionID, r.ResourceName)
	if want := keyOf(deref(fp.ServiceID), fp.RegionID, fp.ResourceName); want != have {
		return nil, errors.Errorf(errMove, have, r.ID, have, want)
	}
	text, _, _, _ := provenance.ExtractFromText(deref(r.Description))
	if fp.Description != nil {
		text = *fp.Description
	}
	desc := provenance.EmbedInText(text, m)
	body := patch{DefaultLimit: fp.DefaultLimit, Description: &desc}
	if err := e.limits.Update(ctx, e.sc, ofService(r.ServiceID), r.ID, body); err != nil {
		return nil, keystone.Wrap(err, inUse(err, errUpdate), have, r.ID)
	}
	return nil, nil
}

func (e *external) Delete(ctx context.Context, _ mr, r registeredLimit) error {
	err := keystone.IgnoreNotFound(e.limits.Delete(ctx, e.sc, ofService(r.ServiceID), r.ID))
	return keystone.Wrap(err, inUse(err, errDelete), keyOf(r.ServiceID, r.RegionID, r.ResourceName), r.ID)
}

// inUse adds what to do to the message of Keystone's refusal (403) of an update or delete:
// Keystone refuses both while the registered limit has limits. (A 403 of the policy gets the
// hint too; Keystone's own message, which follows, tells which it is.)
func inUse(err error, format string) string {
	if gophercloud.ResponseCodeIs(err, http.StatusForbidden) {
		return format + errInUse
	}
	return format
}

// keyOf names a registered limit by its natural key, for messages and lookups.
func keyOf(serviceID string, regionID *string, resource string) string {
	region := "every region"
	if regionID != nil {
		region = "region " + *regionID
	}
	return fmt.Sprintf("%q of service %s in %s", resource, serviceID, region)
}

// managedFields is what the spec manages and a create sends.
type managedFields struct {
	ServiceID    string  `json:"service_id"`
	RegionID     *string `json:"region_id,omitempty"`
	ResourceName string  `json:"resource_name"`
	DefaultLimit int64   `json:"default_limit"`
	Description  *string `json:"description,omitempty"`
}

// patch is an update's body: what can change in place.
type patch struct {
	DefaultLimit int64   `json:"default_limit"`
	Description  *string `json:"description,omitempty"`
}

func desired(fp *v1alpha1.RegisteredLimitParameters) managedFields {
	return managedFields{ServiceID: deref(fp.ServiceID), RegionID: fp.RegionID, ResourceName: fp.ResourceName,
		DefaultLimit: fp.DefaultLimit, Description: fp.Description}
}

// observed projects a registered limit onto the fields the spec sets; the description is
// compared without the marker line.
func observed(r registeredLimit, fp *v1alpha1.RegisteredLimitParameters) managedFields {
	o := managedFields{ServiceID: r.ServiceID, RegionID: r.RegionID, ResourceName: r.ResourceName, DefaultLimit: r.DefaultLimit}
	if fp.Description != nil {
		rest, _, _, _ := provenance.ExtractFromText(deref(r.Description))
		o.Description = &rest
	}
	return o
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
