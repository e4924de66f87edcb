// Package limit manages Keystone limits (unified limits): a project's or a domain's own limit of
// a resource of a service, overriding the registered limit of the same service, region and
// resource.
//
// The marker is the last line of the description, as for registered limits (Keystone keeps no
// unknown attribute). Keystone cannot update a limit's project, domain, service, region or
// resource; and its update skips a resource_limit of 0 and an empty description (it tests
// their truth, keystone/limit/backends/sql.py update_limit), so a limit lowered to 0 is
// replaced: Update deletes it, and the next reconcile creates it again with the new limit.
// Deleting a limit takes nothing with it; deleting its project takes it.
//
// Keystone lists only the token's own project's limits to a project-scoped token, whatever the
// filter (keystone/api/limits.py): lookups by key (Find) need a system- or domain-scoped
// ProviderConfig to see other projects' limits. Reads by ID work with any admin token.
package limit

import (
	"context"
	"fmt"
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
	"github.com/crossplane-contrib/provider-identity/internal/clients/keystone"
	"github.com/crossplane-contrib/provider-identity/internal/managedkind"
	"github.com/crossplane-contrib/provider-identity/internal/provenance"
)

const (
	errNoOwner   = "the project or domain of the limit is not known yet: set spec.forProvider.projectId or domainId, or wait for the reference to resolve"
	errNoService = "the service of the limit is not known yet: set spec.forProvider.serviceId, or wait for serviceRef/serviceSelector to resolve"
	errCreate    = "cannot create Keystone limit %s (a limit needs the registered limit of the same service, region and resource: create that RegisteredLimit first)"
	// errHidden follows Keystone's 409 to a create: the limit exists, but the lookup did not see
	// it, since Keystone lists only the limits of the token's own project unless the token is
	// system- or domain-scoped.
	errHidden = " (Keystone already holds this limit, which the lookup could not see: a project-scoped token lists only its own project's limits. " +
		"Use a ProviderConfig whose scope is system: true (or the limit's domain), or set the crossplane.io/external-name annotation to the limit's ID)"
	errUpdate  = "cannot update Keystone limit %s (ID %s)"
	errReplace = "cannot replace Keystone limit %s (ID %s) to lower it to 0, which Keystone's update ignores: its delete failed"
	errDelete  = "cannot delete Keystone limit %s (ID %s)"
	errMove    = "Keystone limit %s (ID %s) does not match the spec's %s: Keystone cannot move a limit; restore the spec, or create a new Limit"

	typeName = "Keystone limit"
)

type limit = keystone.Limit

// owner is the project or domain a limit is for, as a list filter.
func owner(projectID, domainID *string) url.Values {
	switch {
	case projectID != nil:
		return url.Values{"project_id": {*projectID}}
	case domainID != nil:
		return url.Values{"domain_id": {*domainID}}
	}
	return nil
}

// mr is a Limit of either scope: the driver is written once against it.
type mr interface {
	resource.Managed
	Parameters() *v1alpha1.LimitParameters
	Observation() *v1alpha1.LimitObservation
	GetAdoptionPolicy() identityv1alpha1.AdoptionPolicy
}

// scopes are the Limit kinds: cluster-scoped (legacy) and namespaced.
var scopes = []managedkind.Scoped[mr]{
	{GVK: clusterv1alpha1.LimitGroupVersionKind, Obj: &clusterv1alpha1.Limit{}},
	{GVK: v1alpha1.LimitGroupVersionKind, Obj: &v1alpha1.Limit{}},
}

// Setup adds the controllers that reconcile Limit managed resources of both scopes.
func Setup(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopes(mgr, o, scopes, setup)
}

// SetupGated adds each scope's controller once its Limit CRD is installed.
func SetupGated(mgr ctrl.Manager, o managedkind.Options) error {
	return managedkind.SetupScopesGated(mgr, o, scopes, setup)
}

func setup(mgr ctrl.Manager, o managedkind.Options, gvk schema.GroupVersionKind, obj mr) error {
	return managedkind.SetupKeystone(mgr, o, managedkind.Kind[mr, keystone.API, limit]{
		GVK: gvk, Object: obj,
		NewDriver: newDriver,
	})
}

// newDriver returns the driver over a client. Limits are read one by one, never from shared
// lists (ADR 0006): what Keystone lists depends on the token's scope (a project-scoped token
// sees only its own project's limits), so a list of another project's limits would answer
// nothing and every read would cost a list and a GET; one GET per resource per poll is the
// floor.
func newDriver(sc keystone.API) adoption.Driver[mr, limit] {
	return &external{sc: sc, limits: keystone.Limits}
}

// external drives Keystone limits for the adoption engine.
type external struct {
	sc     keystone.API
	limits keystone.Collection[limit]
}

func (e *external) Get(ctx context.Context, mg mr, id string) (limit, error) {
	return e.limits.Get(ctx, e.sc, id)
}

// Find looks the limit up by project (or domain), service, region and resource name, Keystone's
// unique key. Keystone cannot filter on "no region", so the region is matched here.
func (e *external) Find(ctx context.Context, mg mr) ([]limit, error) {
	fp := mg.Parameters()
	scope := owner(fp.ProjectID, fp.DomainID)
	if scope == nil {
		return keystone.Unresolved[limit](mg, errors.New(errNoOwner))
	}
	if deref(fp.ServiceID) == "" {
		return keystone.Unresolved[limit](mg, errors.New(errNoService))
	}
	k := wantKey(fp)
	scope.Set("service_id", deref(fp.ServiceID))
	scope.Set("resource_name", fp.ResourceName)
	all, err := e.limits.List(ctx, e.sc, scope)
	if err != nil {
		return nil, err
	}
	var found []limit
	for _, l := range all {
		if keyOf(l) == k {
			found = append(found, l)
		}
	}
	return found, nil
}

func (e *external) IsNotFound(err error) bool { return keystone.IsNotFound(err) }

func (e *external) Describe(l limit) adoption.Description {
	d := adoption.Description{ID: l.ID, Type: typeName, Key: keyOf(l)}
	if _, m, found, err := provenance.ExtractFromText(deref(l.Description)); found && err == nil {
		d.Marker = &m
	}
	return d
}

func (e *external) Observe(mg mr, l limit, p identityv1alpha1.Provenance) adoption.Observation {
	rest, _, _, _ := provenance.ExtractFromText(deref(l.Description))
	*mg.Observation() = v1alpha1.LimitObservation{ID: l.ID, ProjectID: deref(l.ProjectID), DomainID: deref(l.DomainID),
		ServiceID: l.ServiceID, RegionID: deref(l.RegionID), ResourceName: l.ResourceName, ResourceLimit: l.ResourceLimit,
		Description: rest, Provenance: p}
	fp := mg.Parameters()
	diff := cmp.Diff(desired(fp), observed(l, fp))
	return adoption.Observation{UpToDate: diff == "", Diff: diff}
}

func (e *external) Create(ctx context.Context, mg mr, m provenance.Marker) (string, managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return "", nil, err
	}
	fp := mg.Parameters()
	if owner(fp.ProjectID, fp.DomainID) == nil {
		return "", nil, errors.New(errNoOwner)
	}
	if deref(fp.ServiceID) == "" {
		return "", nil, errors.New(errNoService)
	}
	body := desired(fp)
	desc := provenance.EmbedInText(deref(fp.Description), m)
	body.Description = &desc
	l, err := e.limits.CreateListed(ctx, e.sc, body)
	if err != nil {
		format := errCreate
		if keystone.IsConflict(err) {
			format += errHidden
		}
		return "", nil, keystone.Wrap(err, format, wantKey(fp))
	}
	return l.ID, nil, nil
}

// Update writes the resource limit and the description with the marker. A limit lowered to 0
// is deleted instead (see the package documentation): the next reconcile finds none and
// creates it with 0.
func (e *external) Update(ctx context.Context, mg mr, l limit, m provenance.Marker) (managed.ConnectionDetails, error) {
	if err := validate(mg); err != nil {
		return nil, err
	}
	fp := mg.Parameters()
	have := keyOf(l)
	if want := wantKey(fp); want != have {
		return nil, errors.Errorf(errMove, have, l.ID, want)
	}
	if fp.ResourceLimit == 0 && l.ResourceLimit != 0 {
		err := keystone.IgnoreNotFound(e.limits.Delete(ctx, e.sc, l.ID))
		return nil, keystone.Wrap(err, errReplace, have, l.ID)
	}
	text, _, _, _ := provenance.ExtractFromText(deref(l.Description))
	if fp.Description != nil {
		text = *fp.Description
	}
	desc := provenance.EmbedInText(text, m)
	body := patch{Description: &desc}
	if fp.ResourceLimit != 0 {
		body.ResourceLimit = &fp.ResourceLimit
	}
	if err := e.limits.Update(ctx, e.sc, l.ID, body); err != nil {
		return nil, keystone.Wrap(err, errUpdate, have, l.ID)
	}
	return nil, nil
}

func (e *external) Delete(ctx context.Context, _ mr, l limit) error {
	err := keystone.IgnoreNotFound(e.limits.Delete(ctx, e.sc, l.ID))
	return keystone.Wrap(err, errDelete, keyOf(l), l.ID)
}

// key names a limit by its natural key, for messages and lookups.
func key(projectID, domainID *string, serviceID string, regionID *string, resource string) string {
	of := "project " + deref(projectID)
	if projectID == nil {
		of = "domain " + deref(domainID)
	}
	region := "every region"
	if regionID != nil {
		region = "region " + *regionID
	}
	return fmt.Sprintf("%q of service %s in %s for %s", resource, serviceID, region, of)
}

func keyOf(l limit) string {
	return key(l.ProjectID, l.DomainID, l.ServiceID, l.RegionID, l.ResourceName)
}

func wantKey(fp *v1alpha1.LimitParameters) string {
	return key(fp.ProjectID, fp.DomainID, deref(fp.ServiceID), fp.RegionID, fp.ResourceName)
}

// managedFields is what the spec manages and a create sends.
type managedFields struct {
	ProjectID     *string `json:"project_id,omitempty"`
	DomainID      *string `json:"domain_id,omitempty"`
	ServiceID     string  `json:"service_id"`
	RegionID      *string `json:"region_id,omitempty"`
	ResourceName  string  `json:"resource_name"`
	ResourceLimit int64   `json:"resource_limit"`
	Description   *string `json:"description,omitempty"`
}

// patch is an update's body: what Keystone can change in place.
type patch struct {
	ResourceLimit *int64  `json:"resource_limit,omitempty"`
	Description   *string `json:"description,omitempty"`
}

func desired(fp *v1alpha1.LimitParameters) managedFields {
	return managedFields{ProjectID: fp.ProjectID, DomainID: fp.DomainID, ServiceID: deref(fp.ServiceID), RegionID: fp.RegionID,
		ResourceName: fp.ResourceName, ResourceLimit: fp.ResourceLimit, Description: fp.Description}
}

// observed projects a limit onto the fields the spec sets; the description is compared without
// the marker line.
func observed(l limit, fp *v1alpha1.LimitParameters) managedFields {
	o := managedFields{ProjectID: l.ProjectID, DomainID: l.DomainID, ServiceID: l.ServiceID, RegionID: l.RegionID,
		ResourceName: l.ResourceName, ResourceLimit: l.ResourceLimit}
	if fp.Description != nil {
		rest, _, _, _ := provenance.ExtractFromText(deref(l.Description))
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
